"""Fixtures shared by the test modules."""

from __future__ import annotations

import pytest
from loopback_forum import Switchboard


@pytest.fixture(scope="module")
def board():
    """One loopback forum server for a test module; each test plugs in the forum it serves."""
    switchboard = Switchboard()
    with switchboard.server:
        yield switchboard
