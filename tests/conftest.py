"""Fixtures shared by the test modules."""

from __future__ import annotations

import pytest
from loopback_forum import switchboard_running

# One loopback forum server for a test module; each test plugs in the forum it serves.
board = pytest.fixture(scope="module", name="board")(switchboard_running)
