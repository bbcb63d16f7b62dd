"""`@record`: a class written like a frozen dataclass, built as a named tuple.

Why: detection is on the start-up path of every command (`detect --json` above all), and a dataclass is built by
generating and compiling its methods' source, six per frozen class, after importing `dataclasses` and the `inspect`
it imports. For the sixteen classes detection returns that was a third of `detect --json`'s own time (issue 23). A
named tuple is built without compiling anything. Like the frozen dataclasses these were, a record is immutable,
compares by value, is changed with `_replace`, and keeps its annotations (`__annotations__`), which the check of
saved facts reads (`gc-wizard recipes --facts`); `_asdict` gives its fields.

A default that is a list, dict or set is copied for each new record, as a dataclass's `default_factory` would make a
new one: one shared default would be one object for every record.
"""

from __future__ import annotations

from collections import namedtuple

_MUTABLE = (list, dict, set)


def record(cls: type) -> type:
    """`cls` (fields as annotations, defaults as class values, methods, properties, docstrings) as a named tuple."""
    names = tuple(cls.__dict__.get("__annotations__", {}))
    defaults = []
    for name in names:
        if name in cls.__dict__:
            defaults.append(cls.__dict__[name])
        elif defaults:
            raise TypeError(f"{cls.__name__}.{name}: a field without a default follows one with a default")
    base = namedtuple(cls.__name__, names, defaults=defaults, module=cls.__module__)
    body = {key: value for key, value in cls.__dict__.items()
            if key not in names and key not in ("__dict__", "__weakref__")}
    body["__slots__"] = ()
    fresh = {name: default for name, default in zip(names[len(names) - len(defaults):], defaults, strict=True)
             if isinstance(default, _MUTABLE)}
    if fresh:
        def __new__(klass, *args, **kwargs):  # noqa: N807 (the tuple's constructor)
            made = base.__new__(klass, *args, **kwargs)
            copies = {name: type(shared)(shared) for name, shared in fresh.items() if getattr(made, name) is shared}
            return made._replace(**copies) if copies else made

        body["__new__"] = __new__
    return type(cls.__name__, (base,), body)
