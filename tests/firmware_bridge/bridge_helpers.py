"""Waiting for the simulated table, with generous timeouts that only a bug exhausts."""

from __future__ import annotations

import time
from collections.abc import Callable

from firmware_bridge.sim import SimHub


def wait_for(condition: Callable[[], bool], timeout: float = 20.0, what: str = "condition", poll: float = 0.005) -> None:
    deadline = time.monotonic() + timeout
    while not condition():
        if time.monotonic() > deadline:
            raise AssertionError(f"timed out after {timeout} s waiting for {what}")
        time.sleep(poll)


def recorded_at_least(sim: SimHub, count: int) -> Callable[[], bool]:
    """A condition for :func:`wait_for`: ``sim`` has recorded ``count`` changes or more."""
    return lambda: len(sim.recorded) >= count


def toggle(sim: SimHub, seat: int, state: list[bool]) -> None:
    """Flip one standee and wait until the firmware has recorded the change."""
    before = len(sim.recorded)
    state[seat] = not state[seat]
    sim.stand(seat, state[seat])
    wait_for(lambda: len(sim.recorded) > before, 10.0, f"the hub to record seat {seat}", poll=0.0002)
