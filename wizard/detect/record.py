"""`@record`: a class written like a frozen dataclass, built as a tuple with named fields.

Why: detection is on the start-up path of every command (`detect --json` above all), and a dataclass is built by
generating and compiling its methods' source, six per frozen class, after importing `dataclasses` and the `inspect`
it imports: for the sixteen classes detection returns that was a third of `detect --json`'s own time (issue 23). A
`collections.namedtuple` still compiles its constructor's source, one `eval` per class (a tenth of the rest). A
record compiles nothing: its methods are `_Record`'s, written once, and each class only names its fields. Like the
frozen dataclasses these were, a record is immutable, compares by value, is changed with `_replace`, and keeps its
annotations (`__annotations__`), which the check of saved facts reads (`gc-wizard recipes --facts`); `_asdict`
gives its fields.

A default that is a list, dict or set is copied for each new record, as a dataclass's `default_factory` would make a
new one: one shared default would be one object for every record.
"""

from __future__ import annotations

from operator import itemgetter

_MUTABLE = (list, dict, set)


class _Record(tuple):
    """What every record shares: construction by position or name, `_replace`, `_asdict`, a dataclass's `repr`."""

    __slots__ = ()
    _fields: tuple[str, ...] = ()
    _field_defaults: dict = {}  # noqa: RUF012 (each record class sets its own, never changed)
    _fresh: frozenset[str] = frozenset()
    """The fields whose default is a list, dict or set: copied for each record that takes it."""

    def __new__(cls, *args, **kwargs):
        fields = cls._fields
        if len(args) > len(fields):
            raise TypeError(f"{cls.__name__}() takes {len(fields)} arguments but {len(args)} were given")
        values = list(args)
        for name in fields[len(args):]:
            if name in kwargs:
                values.append(kwargs.pop(name))
            elif name in cls._field_defaults:
                default = cls._field_defaults[name]
                values.append(type(default)(default) if name in cls._fresh else default)
            else:
                raise TypeError(f"{cls.__name__}() missing required argument: '{name}'")
        if kwargs:
            name = next(iter(kwargs))
            again = "multiple values for" if name in fields else "an unexpected keyword"
            raise TypeError(f"{cls.__name__}() got {again} argument '{name}'")
        return tuple.__new__(cls, values)

    def _replace(self, **changes):
        unknown = changes.keys() - set(self._fields)
        if unknown:
            raise ValueError(f"Got unexpected field names: {sorted(unknown)!r}")
        return tuple.__new__(type(self), [changes.get(name, value) for name, value in zip(self._fields, self, strict=True)])

    def _asdict(self) -> dict:
        return dict(zip(self._fields, self, strict=True))

    def __repr__(self) -> str:
        return f"{type(self).__name__}({', '.join(f'{n}={v!r}' for n, v in zip(self._fields, self, strict=True))})"

    def __getnewargs__(self) -> tuple:  # `copy` and `pickle` build it again from its values
        return tuple(self)


def record(cls: type) -> type:
    """`cls` (fields as annotations, defaults as class values, methods, properties, docstrings) as a record."""
    names = tuple(cls.__dict__.get("__annotations__", {}))
    defaults = {}
    for name in names:
        if name in cls.__dict__:
            defaults[name] = cls.__dict__[name]
        elif defaults:
            raise TypeError(f"{cls.__name__}.{name}: a field without a default follows one with a default")
    body = {key: value for key, value in cls.__dict__.items()
            if key not in names and key not in ("__dict__", "__weakref__")}
    body.update(__slots__=(), _fields=names, _field_defaults=defaults, __match_args__=names,
                _fresh=frozenset(name for name, value in defaults.items() if isinstance(value, _MUTABLE)))
    body.update({name: property(itemgetter(index)) for index, name in enumerate(names)})
    return type(cls.__name__, (_Record,), body)
