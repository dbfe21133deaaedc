"""The rule hooks by name: a ruleset's ``[hooks] use`` words
(:data:`assistant.gamefile.rules.HOOK_MODULES`, in the order they settle a day) to their classes,
each module loaded only when a ruleset asks for it."""

from __future__ import annotations

from collections.abc import Iterable
from importlib import import_module

from assistant.counting.hooks import Hook
from assistant.gamefile.rules import HOOK_MODULES


def find_hook(name: str) -> type[Hook]:
    """The hook class registered under ``name`` (a ruleset's ``[hooks] use`` word)."""
    if name not in HOOK_MODULES:
        raise KeyError(name)
    hook: type[Hook] = import_module(f"{__package__}.{name}").HOOK  # each module names its class
    return hook


def hook_classes(names: Iterable[str]) -> list[type[Hook]]:
    """The classes of the hooks ``names``, in the order they settle a day."""
    order = {name: i for i, name in enumerate(HOOK_MODULES)}
    return [find_hook(n) for n in sorted(names, key=lambda n: order.get(n, len(order)))]
