"""``dataclass`` as the standard library's, built without compiling source for each method at import.

``dataclasses.dataclass`` writes the source of each method it adds (``__init__``, ``__repr__``, ``__eq__``, and
``__hash__``, ``__setattr__`` and ``__delattr__`` for a frozen class) and compiles it with ``exec``: some 0.65 M
instructions a method, so the 49 classes a ``votal count`` imports cost some 180 M instructions (a fifth of the
command) before it reads a post. Here only ``__init__`` is compiled (one ``exec`` a class, keeping the fast
constructor the replay calls thousands of times); the other methods are shared functions over the class's field
names that do what the standard library's generated ones do. The class is still a dataclass (``fields``,
``replace`` and ``is_dataclass`` work on it), with the same signature, defaults and default factories,
``__post_init__``, equality, hashing, ``repr`` and frozen-ness. Only the two forms the project uses are taken:
``@dataclass`` and ``@dataclass(frozen=True)``.
"""

from __future__ import annotations

import dataclasses
import inspect
from _thread import get_ident
from dataclasses import MISSING, FrozenInstanceError
from operator import attrgetter

_HAS_DEFAULT_FACTORY = dataclasses._HAS_DEFAULT_FACTORY  # the marker the standard library's __init__ uses


def dataclass(cls=None, /, *, frozen: bool = False):
    """``@dataclass`` or ``@dataclass(frozen=True)``, as ``dataclasses.dataclass``."""
    if cls is None:
        return lambda c: _build(c, frozen)
    return _build(cls, frozen)


def _build(cls, frozen: bool):
    if any(hasattr(base, "__dataclass_fields__") for base in cls.__mro__[1:]):
        return dataclasses.dataclass(cls, frozen=frozen)  # inheriting fields: the standard library's way
    own = cls.__dict__
    documented = bool(own.get("__doc__"))
    class_hash = own.get("__hash__", MISSING)
    explicit_hash = not (class_hash is MISSING or (class_hash is None and "__eq__" in own))
    if frozen and ("__setattr__" in own or "__delattr__" in own):
        name = "__setattr__" if "__setattr__" in own else "__delattr__"
        raise TypeError(f"Cannot overwrite attribute {name} in class {cls.__name__}")
    if not documented:
        cls.__doc__ = " "  # the standard library would describe it by its signature before __init__ is added
    cls = dataclasses.dataclass(cls, init=False, repr=False, eq=False)  # the fields; no method compiled
    params = cls.__dataclass_params__
    params.init = params.repr = params.eq = True
    params.frozen = frozen
    fields = dataclasses.fields(cls)
    _add(cls, "__init__", _init(cls, fields, frozen))
    _add(cls, "__repr__", _repr(cls, tuple(f.name for f in fields if f.repr)))
    compared = _getter(tuple(f.name for f in fields if f.compare))
    _add(cls, "__eq__", _eq(cls, compared))
    if not explicit_hash:
        if frozen:
            cls.__hash__ = _hash(cls, _getter(tuple(
                f.name for f in fields if (f.compare if f.hash is None else f.hash))))
        else:
            cls.__hash__ = None
    if frozen:
        cls.__setattr__, cls.__delattr__ = _frozen(cls, frozenset(f.name for f in fields))
    if not documented:
        try:
            cls.__doc__ = cls.__name__ + str(inspect.signature(cls)).replace(" -> None", "")
        except (TypeError, ValueError):
            cls.__doc__ = cls.__name__
    return cls


def _add(cls, name: str, method) -> None:
    if name not in cls.__dict__:  # a method the class writes itself is kept, as the standard library does
        method.__qualname__ = f"{cls.__qualname__}.{name}"
        setattr(cls, name, method)


def _getter(names: tuple[str, ...]):
    """The fields' values as a tuple, as the generated methods compare and hash them."""
    if len(names) > 1:
        return attrgetter(*names)
    if len(names) == 1:
        one = attrgetter(names[0])
        return lambda obj: (one(obj),)
    return lambda obj: ()


def _init(cls, fields, frozen: bool):
    """The one compiled method: the standard library's __init__ (same parameters, defaults, annotations)."""
    names = {
        "MISSING": MISSING,
        "_HAS_DEFAULT_FACTORY": _HAS_DEFAULT_FACTORY,
        "__dataclass_builtins_object__": object,
        "_return_type": None,
    }
    self_name = "__dataclass_self__" if "self" in {f.name for f in fields} else "self"
    params, kw_only, body = [], [], []
    for f in fields:
        names[f"_type_{f.name}"] = f.type
        if f.default_factory is not MISSING:
            names[f"_dflt_{f.name}"] = f.default_factory
            value = (f"_dflt_{f.name}() if {f.name} is _HAS_DEFAULT_FACTORY else {f.name}" if f.init
                     else f"_dflt_{f.name}()")
            default = "=_HAS_DEFAULT_FACTORY"
        elif not f.init:
            continue  # read from the class attribute that holds its default, as the standard library leaves it
        else:
            value, default = f.name, ""
            if f.default is not MISSING:
                names[f"_dflt_{f.name}"] = f.default
                default = f"=_dflt_{f.name}"
        if frozen:
            body.append(f"__dataclass_builtins_object__.__setattr__({self_name},{f.name!r},{value})")
        else:
            body.append(f"{self_name}.{f.name}={value}")
        if f.init:
            (kw_only if f.kw_only else params).append(f"{f.name}:_type_{f.name}{default}")
    if hasattr(cls, "__post_init__"):
        body.append(f"{self_name}.__post_init__()")
    signature = ",".join([self_name, *params, *(["*", *kw_only] if kw_only else [])])
    text = f"def __init__({signature})->_return_type:\n" + "\n".join(f"  {line}" for line in body or ["pass"])
    namespace: dict = {}
    exec(compile(text, "<string>", "exec", dont_inherit=True), names, namespace)  # annotations as the types
    return namespace["__init__"]


def _repr(cls, names: tuple[str, ...]):
    running = set()

    def __repr__(self):
        key = id(self), get_ident()
        if key in running:
            return "..."
        running.add(key)
        try:
            return self.__class__.__qualname__ + "(" + ", ".join(
                f"{name}={getattr(self, name)!r}" for name in names) + ")"
        finally:
            running.discard(key)

    return __repr__


def _eq(cls, values):
    def __eq__(self, other):
        if other.__class__ is self.__class__:
            return values(self) == values(other)
        return NotImplemented

    return __eq__


def _hash(cls, values):
    def __hash__(self):
        return hash(values(self))

    __hash__.__qualname__ = f"{cls.__qualname__}.__hash__"
    return __hash__


def _frozen(cls, names: frozenset[str]):
    def __setattr__(self, name, value):
        if type(self) is cls or name in names:
            raise FrozenInstanceError(f"cannot assign to field {name!r}")
        super(cls, self).__setattr__(name, value)

    def __delattr__(self, name):
        if type(self) is cls or name in names:
            raise FrozenInstanceError(f"cannot delete field {name!r}")
        super(cls, self).__delattr__(name)

    __setattr__.__qualname__ = f"{cls.__qualname__}.__setattr__"
    __delattr__.__qualname__ = f"{cls.__qualname__}.__delattr__"
    return __setattr__, __delattr__
