"""kernel.json stays valid UTF-8 JSON when a search path holds a byte that is not UTF-8, and gives the kernel that
exact byte back (eleventh hostile pass #186: the raw 0xff made jupyter_client's UTF-8 read of the spec fail, for a
kernel `kernel install --json` had just called installed)."""

from __future__ import annotations

import json
import os
import sysconfig
import venv
from pathlib import Path

import ipykernel
import pytest

from wizard.after.kernel import kernel_install
from wizard.install.envs import write_marker


@pytest.mark.parametrize("variable", ["PATH", "LD_LIBRARY_PATH"])
@pytest.mark.parametrize("stray", [b"\xff", b"\xe9t\xe9"])
def test_kernel_json_is_utf8_and_the_path_exact(tmp_path, monkeypatch, variable, stray):
    env = tmp_path / "env"
    venv.create(env, with_pip=False)
    write_marker(env, {"recipe": "tiny-k", "title": "tiny", "backend": "cpu"})
    purelib = sysconfig.get_path("purelib", vars={"base": str(env), "platbase": str(env)})
    Path(purelib, "test-ipykernel.pth").write_text(str(Path(ipykernel.__file__).parents[1]) + "\n")
    folder = os.fsdecode(os.fsencode(tmp_path) + b"/odd" + stray)
    os.mkdir(folder)
    monkeypatch.setenv(variable, f"{folder}:/usr/bin:/bin")
    done = kernel_install(env, "gcw-bytes", environ={**os.environ, "JUPYTER_DATA_DIR": str(tmp_path / "jk")})
    raw = (tmp_path / "jk" / "kernels" / "gcw-bytes" / "kernel.json").read_bytes()
    spec = json.loads(raw.decode("utf-8"))  # strict UTF-8, as jupyter_client reads it
    assert folder in spec["env"][variable].split(os.pathsep)
    assert os.fsencode(spec["env"][variable]).count(stray) == 1  # the environment a kernel gets holds the byte
    assert done["ok"] and "\\udc" in raw.decode("utf-8")  # JSON's escape, not the raw byte
