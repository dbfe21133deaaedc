"""assistant.records.dataclass behaves as dataclasses.dataclass: the same signature, defaults, equality, hashing,
repr, frozen-ness and dataclass helpers, for the two forms the project uses."""

from __future__ import annotations

import copy
import dataclasses
import inspect

import pytest

from assistant import records


def _pair(frozen: bool):
    """The same class body built by the standard library and by records."""

    def body():
        class Point:
            x: int
            y: str = "a"
            tags: list = dataclasses.field(default_factory=list)
            note: str = dataclasses.field(default="", repr=False, compare=False)
            seen: int = dataclasses.field(default=0, init=False)

        return Point

    def plain():
        class Plain:
            a: int
            self_: tuple = ()

        return Plain

    std = [dataclasses.dataclass(frozen=frozen)(make()) for make in (body, plain)]
    ours = [records.dataclass(frozen=frozen)(make()) for make in (body, plain)]
    return std, ours


@pytest.mark.parametrize("frozen", [False, True])
def test_same_behaviour_as_the_standard_library(frozen):
    (std, std_plain), (ours, ours_plain) = _pair(frozen)
    assert str(inspect.signature(ours)) == str(inspect.signature(std))
    assert ours.__doc__ == std.__doc__ and ours_plain.__doc__ == std_plain.__doc__
    assert ours.__match_args__ == std.__match_args__
    assert [f.name for f in dataclasses.fields(ours)] == [f.name for f in dataclasses.fields(std)]
    assert dataclasses.is_dataclass(ours) and ours.__dataclass_params__.frozen is frozen
    assert ours.__init__.__qualname__ == std.__init__.__qualname__
    a, b = ours(1, "b", note="x"), std(1, "b", note="x")
    assert repr(a) == repr(b) and repr(a).endswith("Point(x=1, y='b', tags=[], seen=0)")
    assert a == ours(1, "b", note="other") and a != ours(2, "b") and a != b
    assert (a == b) is False and ours(1).tags is not ours(1).tags
    assert dataclasses.replace(a, x=5) == ours(5, "b")
    assert dataclasses.asdict(a) == dataclasses.asdict(b)
    with pytest.raises(TypeError) as mine:
        ours()
    with pytest.raises(TypeError) as theirs:
        std()
    assert str(mine.value) == str(theirs.value)
    if frozen:
        assert hash(ours_plain(1, (2,))) == hash(std_plain(1, (2,))) == hash((1, (2,)))
        with pytest.raises(TypeError, match="unhashable"):
            hash(ours(1))  # its list field, as the standard library's hash would find
        with pytest.raises(dataclasses.FrozenInstanceError, match="cannot assign to field 'x'"):
            a.x = 2
        with pytest.raises(dataclasses.FrozenInstanceError, match="cannot delete field 'x'"):
            del a.x
        assert copy.deepcopy(ours_plain(3, ([1],))) == ours_plain(3, ([1],))
    else:
        assert ours.__hash__ is None and std.__hash__ is None
        a.x = 7
        assert a.x == 7


def test_a_method_the_class_writes_is_kept():
    @records.dataclass(frozen=True)
    class Named:
        name: str

        def __repr__(self) -> str:
            return f"<{self.name}>"

        def __hash__(self) -> int:
            return 42

    assert repr(Named("a")) == "<a>" and hash(Named("a")) == 42


def test_post_init_and_recursive_repr():
    @records.dataclass
    class Node:
        children: list = dataclasses.field(default_factory=list)
        size: int = 0

        def __post_init__(self) -> None:
            self.size = len(self.children)

    node = Node([1, 2])
    assert node.size == 2
    node.children.append(node)
    assert repr(node).endswith("Node(children=[1, 2, ...], size=2)")
