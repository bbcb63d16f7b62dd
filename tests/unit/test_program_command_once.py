"""`paths.program_command` looks at the files (the console scripts, PATH's folders) once a process, not once per
printed line (review), and still answers afresh when what it reads besides files changes, as tests change it."""

from __future__ import annotations

from wizard import paths


def test_the_program_is_found_once_and_again_when_the_environment_changes(monkeypatch, tmp_path):
    monkeypatch.setenv("GC_WIZARD_TEST_PROGRAM_ONCE", str(tmp_path))  # a key no earlier call has made
    asked = []
    real = paths.zip_archive

    def counted():
        asked.append(1)
        return real()

    monkeypatch.setattr(paths, "zip_archive", counted)
    first = paths.program_command()
    once = len(asked)
    assert once >= 1
    assert first == paths.program_command() and paths.wizard_command().endswith(first)
    assert len(asked) == once, asked  # the second call and wizard_command's look at no file
    monkeypatch.setenv("PATH", f"{tmp_path}:{paths.os.environ.get('PATH', '')}")  # another PATH: asked again
    again = paths.program_command()
    assert len(asked) > once and again == first, asked
