"""The standee judge: settles tilt changes, times withdrawals, prompts players, finds faults.

It listens to any :class:`~controller.devices.interfaces.TiltSource` (Pi pins, the
sensor hub, a simulation) and shows its verdicts on any
:class:`~controller.devices.interfaces.SeatLights`.

Each seat has a *status* set by the game (in the share, withdrew, hit, ...).
The status says where the standee should be: a seat in the share stands, a
seat that was hit lies down.  While it is elsewhere the seat LED prompts the
player (must stand up / must lie down); a fault overrides both.

A change counts once it has held for the settle time, and it is dated by its
first edge, so a lay-down at the last instant of the window is in time even
though it is only known a settle time later.
"""

from __future__ import annotations

import logging
import threading
from collections import deque
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from functools import partial

from .clock import Clock, Timer
from .counts import CountRun, CountSequencer
from .interfaces import CountLights, FaultKind, SeatFault, SeatLights, SeatStatus, Speaker, TiltEvent, TiltSource
from .timing import Timing
from .vocabulary import Phrases

log = logging.getLogger(__name__)

POLL_UNKNOWN = 0.25
"""Seconds between asks for the position of seats the source cannot read yet."""


@dataclass(frozen=True, slots=True)
class WithdrawalResult:
    """The verdict of one withdrawal count (seats sorted)."""

    withdrew: tuple[int, ...]
    """Laid down within the window: out of the share."""
    too_late: tuple[int, ...]
    """Laid down after the window: they stay in the share and must stand back up."""
    down_before_count: tuple[int, ...]
    """Already lying at the "1" and not laid down again in the window: they stay in the share."""
    wobbled: tuple[int, ...]
    """Went down for less than the settle time during the count (ignored)."""
    faulty: tuple[int, ...]
    """Had a sensor fault during the count: check them by eye."""


@dataclass
class WithdrawalCount:
    """A withdrawal count under way; ``result`` is set once the verdict is in."""

    seats: frozenset[int]
    count: CountRun
    window_end: float
    verdict_at: float
    result: WithdrawalResult | None = None
    _withdrew: set[int] = field(default_factory=set)
    _too_late: set[int] = field(default_factory=set)
    _down_before: set[int] = field(default_factory=set)
    _wobbled: set[int] = field(default_factory=set)
    _faulty: set[int] = field(default_factory=set)
    _done: threading.Event = field(default_factory=threading.Event)
    _timers: list[Timer] = field(default_factory=list)
    window_start: float = field(init=False)
    """The "1": the window opens (a field, not a property: it is read on every lay-down)."""

    def __post_init__(self) -> None:
        self.window_start = self.count.first

    def wait(self, timeout: float | None = None) -> WithdrawalResult | None:
        """Block until the verdict (real clock only); ``None`` on timeout."""
        self._done.wait(timeout)
        return self.result


class _Seat:
    """One seat's judged state, and its timers (made once, set again at each change)."""

    __slots__ = (
        "status", "gang", "up", "pending_up", "pending_time", "settle_timer", "changes", "chatter_timer",
        "faults", "never_up_timer", "free", "shown", "shown_gang",
    )

    def __init__(self, up: bool | None, *, settle_timer: Timer, chatter_timer: Timer, never_up_timer: Timer) -> None:
        self.status = SeatStatus.OFF
        self.gang: str | None = None
        self.up = up
        """Settled position; ``None`` until the source can tell (a hub not yet connected)."""
        self.pending_up: bool | None = None
        """The position of a change waiting for its settle time (``settle_timer``), if any."""
        self.pending_time = 0.0
        """When that change began (its first edge)."""
        self.settle_timer = settle_timer
        self.changes: deque[float] = deque()
        self.chatter_timer = chatter_timer
        self.faults: set[FaultKind] = set()
        self.never_up_timer = never_up_timer
        self.free = False
        """Free to lie down (during a withdrawal window)."""
        self.shown: SeatStatus | None = None
        self.shown_gang: str | None = None

    def prompt(self) -> SeatStatus | None:
        # Identity tests, not set lookups: an Enum member hashes in Python, on every edge.
        status = self.status
        if status is SeatStatus.IN_SHARE and not self.up and not self.free:
            return SeatStatus.MUST_STAND_UP
        if status is SeatStatus.HIT and self.up:
            return SeatStatus.MUST_LIE_DOWN
        return None


class StandeeJudge:
    """Referees the standees of ``seats`` seats; see the module docstring."""

    def __init__(
        self,
        *,
        tilt: TiltSource,
        lights: SeatLights,
        count_lights: CountLights,
        speaker: Speaker,
        clock: Clock,
        timing: Timing,
        seats: int,
    ) -> None:
        self._clock = clock
        self._lights = lights
        self._speaker = speaker
        self.timing = timing
        self.counts = CountSequencer(
            clock=clock, count_lights=count_lights, speaker=speaker, interval=timing.count_interval
        )
        self._tilt = tilt
        self._seats = [
            _Seat(
                tilt.upright(seat),
                settle_timer=clock.timer(partial(self._settled, seat)),
                chatter_timer=clock.timer(partial(self._clear_fault, seat, FaultKind.CHATTER)),
                never_up_timer=clock.timer(partial(self._never_upright, seat)),
            )
            for seat in range(seats)
        ]
        self._fault_listeners: list[Callable[[SeatFault], None]] = []
        self._change_listeners: list[Callable[[TiltEvent], None]] = []
        self._ready_waiters: list[Callable[[], None]] = []
        self._count: WithdrawalCount | None = None
        self._poll_timer = clock.timer(self._poll_unknown)
        with clock.lock:
            for seat in range(seats):
                self._refresh(seat)
            self._poll_unknown()
        on_change_fields = getattr(tilt, "on_change_fields", None)  # no event object per change
        if on_change_fields is not None:
            on_change_fields(self._change)
        else:
            tilt.on_event(self._tilt_changed)

    # -- what the game tells the judge ------------------------------------------------

    def set_status(self, seat: int, status: SeatStatus, *, gang: str | None = None) -> None:
        """Set what ``seat`` is in the game; its LED and prompts follow."""
        with self._clock.lock:
            state = self._seat(seat)
            state.status, state.gang = status, gang
            self._refresh(seat)

    def withdrawal_count(
        self,
        in_share: Iterable[int],
        *,
        at: float | None = None,
        on_result: Callable[[WithdrawalResult], None] | None = None,
    ) -> WithdrawalCount:
        """Count "1, 2, 3" and judge which of ``in_share`` lay down in the window.

        Seats that withdrew in time get the WITHDREW status at once; seats that lie
        down too late are prompted to stand up (and told so).  ``on_result`` gets
        the verdict once a lay-down at the window's last instant has settled (plus
        ``judge_margin``).
        """
        with self._clock.lock:
            seats = frozenset(in_share)
            for seat in seats:
                self._seat(seat)
            if self._count is not None and self._count.result is None:
                raise RuntimeError("a withdrawal count is already under way")
            run = self.counts.start(at=at, lights_off_after_three=self.timing.withdraw_after_three)
            window_end = self.timing.window_end(run.first)
            verdict_at = window_end + self.timing.settle + self.timing.debounce + self.timing.judge_margin
            count = WithdrawalCount(seats, run, window_end, verdict_at)
            for seat in seats:
                self._seats[seat].free = True
                self._refresh(seat)
            if run.first <= self._clock.now():
                self._open_window(count)
            else:
                count._timers.append(self._clock.call_at(run.first, lambda: self._open_window(count)))
            count._timers.append(self._clock.call_at(window_end, lambda: self._close_window(count)))
            count._timers.append(self._clock.call_at(verdict_at, lambda: self._verdict(count, on_result)))
            self._count = count
            log.info("withdrawal count for seats %s: window %.3f..%.3f", sorted(seats), run.first, window_end)
            return count

    # -- what the judge tells the game -------------------------------------------------

    def on_fault(self, callback: Callable[[SeatFault], None]) -> None:
        """Call ``callback`` when a fault is found and when it clears."""
        self._fault_listeners.append(callback)

    def on_change(self, callback: Callable[[TiltEvent], None]) -> None:
        """Call ``callback`` with every settled change (dated by its first edge)."""
        self._change_listeners.append(callback)

    def when_ready(self, callback: Callable[[], None]) -> None:
        """Call ``callback`` once every standee is where its status wants it (now, if so)."""
        with self._clock.lock:
            if self.pending():
                self._ready_waiters.append(callback)
            else:
                callback()

    def pending(self) -> dict[int, SeatStatus]:
        """Seats whose standee is not where it should be, with the prompt they show."""
        with self._clock.lock:
            return {seat: p for seat, state in enumerate(self._seats) if (p := state.prompt()) is not None}

    def faults(self) -> dict[int, set[FaultKind]]:
        with self._clock.lock:
            return {seat: set(state.faults) for seat, state in enumerate(self._seats) if state.faults}

    def upright(self, seat: int) -> bool | None:
        """The settled position of ``seat``'s standee (``None``: not known yet)."""
        return self._seat(seat).up

    def shown(self, seat: int) -> SeatStatus:
        """What ``seat``'s LED shows now."""
        shown = self._seat(seat).shown
        assert shown is not None
        return shown

    # -- tilt changes ------------------------------------------------------------------

    def _tilt_changed(self, event: TiltEvent) -> None:
        self._change(event.seat, event.up, event.time)

    def _change(self, seat: int, up: bool, time: float) -> None:
        """A change from the source: the standee at ``seat`` went ``up`` (or down) at ``time``."""
        if not 0 <= seat < len(self._seats):
            log.warning("tilt change from seat %d, which is not at this table", seat)
            return
        with self._clock.lock:
            state = self._seats[seat]
            self._count_change(state, seat, time)
            pending_up = state.pending_up
            if pending_up is not None:
                if up == pending_up:
                    return  # the same change again
                state.settle_timer.cancel()
                if time - state.pending_time < self.timing.settle:
                    state.pending_up = None
                    self._wobbled(seat, state.pending_time)
                    return
                self._settled(seat)  # it held long enough; its confirmation was only waiting
            if up == state.up:
                return
            state.pending_up, state.pending_time = up, time
            # Wait for the settle time, and for a reversal still in the source's debounce.
            due = time + self.timing.settle + self.timing.debounce
            if due <= self._clock.now():
                self._settled(seat)
            else:
                state.settle_timer.set(due)

    def _poll_unknown(self) -> None:
        """Ask the source again for seats it could not read yet (until it can)."""
        unknown = False
        for seat, state in enumerate(self._seats):
            if state.up is None and state.pending_up is None:
                state.up = self._tilt.upright(seat)
                if state.up is None:
                    unknown = True
                else:
                    self._refresh(seat)
        if unknown:
            self._poll_timer.set(self._clock.now() + POLL_UNKNOWN)

    def _wobbled(self, seat: int, time: float) -> None:
        log.debug("seat %d wobbled at %.3f", seat, time)
        count = self._count
        if count is not None and seat in count.seats and count.result is None:
            count._wobbled.add(seat)

    def _settled(self, seat: int) -> None:
        """``seat``'s pending change held (its settle timer): it is the seat's position now."""
        state = self._seats[seat]
        up, time = state.pending_up, state.pending_time
        if up is None:
            return
        state.pending_up = None
        state.up = up
        if not up:
            self._judge_lay_down(seat, time)
        elif (count := self._count) is not None and count.result is None and time <= count.window_start:
            count._down_before.discard(seat)  # it was up again by the "1"
        self._refresh(seat)
        if self._change_listeners:
            event = TiltEvent(seat, up, time)
            for callback in self._change_listeners:
                callback(event)

    def _judge_lay_down(self, seat: int, time: float) -> None:
        count = self._count
        if count is None or seat not in count.seats or seat in count._withdrew:
            return
        state = self._seats[seat]
        if time < count.window_start:
            if count.result is None:
                count._down_before.add(seat)
        elif time <= count.window_end:
            count._withdrew.add(seat)
            count._down_before.discard(seat)
            if state.status is SeatStatus.IN_SHARE:
                state.status = SeatStatus.WITHDREW
            if log.isEnabledFor(logging.INFO):  # skip the logging calls on the per-edge path
                log.info("seat %d withdrew at %.3f", seat, time)
        elif time > count.window_end and state.status is SeatStatus.IN_SHARE and count.result is None:
            count._too_late.add(seat)
            log.info("seat %d lay down too late at %.3f", seat, time)
            self._speaker.play(Phrases.too_late(seat))

    def _open_window(self, count: WithdrawalCount) -> None:
        count._down_before = {seat for seat in count.seats if not self._seats[seat].up}

    def _close_window(self, count: WithdrawalCount) -> None:
        for seat in count.seats:
            self._seats[seat].free = False
            self._refresh(seat)

    def _verdict(self, count: WithdrawalCount, on_result: Callable[[WithdrawalResult], None] | None) -> None:
        count.result = WithdrawalResult(
            withdrew=tuple(sorted(count._withdrew)),
            too_late=tuple(sorted(count._too_late)),
            down_before_count=tuple(sorted(count._down_before - count._withdrew)),
            wobbled=tuple(sorted(count._wobbled)),
            faulty=tuple(sorted(count._faulty | {s for s in count.seats if self._seats[s].faults})),
        )
        count._done.set()
        count._timers.clear()  # their callbacks hold the count: let it go by reference counting
        log.info("withdrawal verdict: %s", count.result)
        if on_result is not None:
            on_result(count.result)

    # -- faults --------------------------------------------------------------------------

    def _count_change(self, state: _Seat, seat: int, time: float) -> None:
        changes = state.changes
        changes.append(time)
        since = time - self.timing.chatter_window
        while changes and changes[0] < since:
            changes.popleft()
        chattering = bool(state.faults) and FaultKind.CHATTER in state.faults
        if not chattering and len(changes) >= self.timing.chatter_changes:
            self._raise_fault(seat, FaultKind.CHATTER)
            chattering = True
        if chattering:
            state.chatter_timer.set(time + self.timing.chatter_window)  # cleared once quiet

    def _raise_fault(self, seat: int, kind: FaultKind) -> None:
        state = self._seats[seat]
        state.faults.add(kind)
        count = self._count
        if count is not None and seat in count.seats and count.result is None:
            count._faulty.add(seat)
        self._tell_fault(SeatFault(seat, kind, self._clock.now()))
        self._refresh(seat)

    def _clear_fault(self, seat: int, kind: FaultKind, *, refresh: bool = True) -> None:
        state = self._seats[seat]
        if kind in state.faults:
            state.faults.discard(kind)
            if kind is FaultKind.CHATTER:
                state.changes.clear()
            self._tell_fault(SeatFault(seat, kind, self._clock.now(), cleared=True))
            if refresh:
                self._refresh(seat)

    def _tell_fault(self, fault: SeatFault) -> None:
        (log.info if fault.cleared else log.warning)("%s", fault.describe())
        for callback in self._fault_listeners:
            callback(fault)

    # -- LED ------------------------------------------------------------------------------

    def _refresh(self, seat: int) -> None:
        """Show ``seat``'s state, and keep its never-upright watch in step with it."""
        state = self._seats[seat]
        prompt = state.prompt()
        if prompt is SeatStatus.MUST_STAND_UP:
            if not state.never_up_timer.pending and not (state.faults and FaultKind.NEVER_UPRIGHT in state.faults):
                state.never_up_timer.set(self._clock.now() + self.timing.never_upright_after)
        else:
            state.never_up_timer.cancel()
            if state.faults:
                self._clear_fault(seat, FaultKind.NEVER_UPRIGHT, refresh=False)  # being refreshed now
        status = SeatStatus.FAULT if state.faults else prompt or state.status
        if status is not state.shown or state.gang != state.shown_gang:
            state.shown, state.shown_gang = status, state.gang
            self._lights.show(seat, status, gang=state.gang)
        if prompt is None and self._ready_waiters and not self.pending():
            waiters, self._ready_waiters = self._ready_waiters, []
            for callback in waiters:
                callback()

    def _never_upright(self, seat: int) -> None:
        state = self._seats[seat]
        if state.prompt() is SeatStatus.MUST_STAND_UP and FaultKind.NEVER_UPRIGHT not in state.faults:
            self._raise_fault(seat, FaultKind.NEVER_UPRIGHT)

    def _seat(self, seat: int) -> _Seat:
        if not 0 <= seat < len(self._seats):
            raise ValueError(f"seat {seat} is not at this table (seats 0..{len(self._seats) - 1})")
        return self._seats[seat]

    def close(self) -> None:
        with self._clock.lock:
            self._poll_timer.cancel()
            for state in self._seats:
                for timer in (state.settle_timer, state.chatter_timer, state.never_up_timer):
                    timer.cancel()
            if self._count is not None:
                self._count.count.cancel()
                for timer in self._count._timers:
                    timer.cancel()
