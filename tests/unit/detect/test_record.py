"""`@record` keeps what the frozen dataclasses it replaced gave detection's callers (`wizard.detect.record`)."""

from __future__ import annotations

import pytest

from wizard.detect.record import record


@record
class Sample:
    """A sample record."""

    name: str
    size: int | None = None
    tags: list[str] = []  # noqa: RUF012 (a new list for each record)

    @property
    def shown(self) -> str:
        return f"{self.name} ({self.size})"


def test_a_record_is_built_by_name_or_position_compares_by_value_and_keeps_its_methods():
    one = Sample("a", 3)
    assert one == Sample(name="a", size=3) and one != Sample("a", 4)
    assert one.shown == "a (3)" and Sample.__doc__ == "A sample record."
    assert one._replace(size=5) == Sample("a", 5) and one.size == 3
    assert Sample.__annotations__ == {"name": "str", "size": "int | None", "tags": "list[str]"}
    assert one._asdict() == {"name": "a", "size": 3, "tags": []}


def test_a_record_cannot_be_changed_in_place():
    with pytest.raises(AttributeError):
        Sample("a").name = "b"
    with pytest.raises(AttributeError):
        Sample("a").other = 1  # no __dict__: only its fields


def test_a_list_default_is_a_new_list_for_each_record_as_a_default_factory_gave():
    first, second = Sample("a"), Sample("b")
    first.tags.append("x")
    assert second.tags == [] and Sample("c").tags == []
    given = ["y"]
    assert Sample("d", tags=given).tags is given


def test_a_field_without_a_default_after_one_with_is_refused_as_a_dataclass_refuses_it():
    with pytest.raises(TypeError, match="Broken.second"):
        @record
        class Broken:
            first: int = 0
            second: int


def test_wrong_arguments_and_fields_are_refused_as_a_constructor_refuses_them():
    with pytest.raises(TypeError, match="missing required argument: 'name'"):
        Sample()
    with pytest.raises(TypeError, match="unexpected keyword argument 'colour'"):
        Sample("a", colour="red")
    with pytest.raises(TypeError, match="multiple values for argument 'name'"):
        Sample("a", name="b")
    with pytest.raises(TypeError, match="takes 3 arguments but 4"):
        Sample("a", 1, [], 2)
    with pytest.raises(ValueError, match="colour"):
        Sample("a")._replace(colour="red")


def test_a_record_reads_as_a_dataclass_copies_and_is_still_a_tuple():
    import copy
    import pickle

    one = Sample("a", 3, ["t"])
    assert repr(one) == "Sample(name='a', size=3, tags=['t'])"
    assert copy.deepcopy(one) == one and pickle.loads(pickle.dumps(one)) == one
    assert isinstance(one, tuple) and tuple(one) == ("a", 3, ["t"]) and Sample._fields == ("name", "size", "tags")
    assert one._replace(tags=[]).tags == [] and one.tags == ["t"]
