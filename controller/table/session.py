"""A game at the table: the referee, with the devices, the camera, the console (or bots) and the game log.

The session runs the game step by step.  At each step it asks the referee what is
needed (:meth:`Referee.prompt`) and gets it from where it comes at a table:

- the counts from the devices (count LEDs and the speaker), the withdrawals from the
  tilt sensors' judge;
- each shuriken throw from the camera, fused with the tilt sensors, and from the
  Godfather when the camera is unsure, missing or failing (at a real table the Godfather
  cues the camera before each throw: :meth:`Session.cue_throw`);
- everything else from the Godfather's console, or from the bots.

Every input is written to the game log (and synced) before it is applied; every standee
change and camera verdict is logged as seen.  After each input the session tells the
table what happened: the speaker, the seat LEDs (and the prompts to stand up or lie
down), and the console's log of the game.
"""

from __future__ import annotations

import contextlib
import functools
import logging
import threading
import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, Protocol, runtime_checkable

from ..devices.interfaces import SeatFault, SeatStatus, TiltEvent
from ..devices.recording import RecordingSpeaker
from ..devices.vocabulary import MAX_NUMBER, Phrases, sentence
from ..errors import TableInputError, one_line
from ..record.story import ending_lines, event_line
from ..rules import events as ev
from ..threads import join
from ..words import join as and_list
from ..words import seat_label, step_name, withdraw_call
from . import inputs as I
from .bots import AimPlan, Bots
from .referee import Outcome, Prompt, Referee, Refused, Step
from .undo import History, adopt, describe

if TYPE_CHECKING:
    from ..devices.opening import TableDevices
    from ..devices.simulation import StandeeMove
    from .gamelog import GameLog

log = logging.getLogger(__name__)

# the camera's aims in players' names: each shooter's aim, who pointed late, the seats it is unsure of, and the
# aims the rules refuse with why (``Session._reading``)
Reading = tuple[dict[str, str | None], list[str], list[str], dict[str, str]]
INTERMISSION_SECONDS = 300.0
BETWEEN_ROUNDS = 1.0  # seconds of quiet after a round's end, before the next round goes on
SENSORS_GRACE_SECONDS = 3.0  # a sensor not read after this long (the hub not connected yet) is said, and waited for
RESUME_LEAD_SECONDS = 5.0  # a game resumed at a count: the players are told this long before it
READY_SECONDS = 15.0  # ... and the count waits this long at most for every standee to be where it should
SPEAKER_SECONDS = 30.0  # the longest the table waits for an announcement to be heard to its end


class InputSource(Protocol):
    """Whoever answers the referee's prompts at a table: the Godfather's console, or bots.

    ``answer`` returns the input to submit, or ``None`` when the answer was already submitted
    (the console submits through :meth:`Session.try_submit` and returns once it was accepted).
    """

    def answer(self, prompt: Prompt) -> I.Input | None: ...


@dataclass
class CameraVerdict:
    """What the camera says of one throw, by seat."""

    knocked: list[int]
    touched: list[int]
    confidence: float
    needs_godfather: bool
    reason: str = ""
    details: dict[str, Any] = field(default_factory=dict)
    frame: bytes | None = None  # the frame it was judged on (JPEG), for the Godfather to see
    timed_out: bool = False  # armed, it saw no throw and nothing change before its timeout


@dataclass
class CameraAims:
    """What the camera read at an aim count, by seat: the target each weapon rested on, who came to
    rest late, and the seats it is unsure of (the Godfather enters those)."""

    aims: dict[int, int | None]
    late: list[int]
    unsure: list[int]
    margins: dict[int, float]  # angular margin of each line of fire to the next seat, degrees
    confidence: float
    details: dict[str, Any] = field(default_factory=dict)
    frame: bytes | None = None  # the frame at the deadline with each line of fire drawn (JPEG)


@runtime_checkable
class AimCamera(Protocol):
    """Reads the aims of one aim count; ``None`` when it cannot."""

    def read_aims(
        self, *, seats: int, shooters: list[int], candidates: list[int], number: int,
        truth: dict[int, tuple[int | None, bool]] | None = None,
    ) -> CameraAims | None:
        """``truth`` (seat -> where the weapon really points, and whether late) is only known to a
        simulated camera."""


@runtime_checkable
class CountWatcher(Protocol):
    """A live camera that keeps the frames of the aim count from its start, and reads the aims of
    the count whose "3" was at ``three_at`` (on the devices' clock, which gave the count)."""

    def watch(self) -> None: ...

    def read_aims(
        self, *, seats: int, shooters: list[int], candidates: list[int], number: int,
        truth: dict[int, tuple[int | None, bool]] | None = None, three_at: float | None = None,
    ) -> CameraAims | None: ...


class StandeeScript(Protocol):
    """Moves the simulated standees as the bots play (mock tilt pins, or the hub simulator's inputs)."""

    def play(self, moves: list[StandeeMove], *, until: float | None = None) -> None: ...


class ThrowCamera(Protocol):
    """Judges one shuriken throw; ``None`` when it cannot (no camera, a failure)."""

    def judge(
        self, *, thrower: int, seats: int, number: int, truth: tuple[list[int], list[int]] | None = None,
        cancel: threading.Event | None = None,
    ) -> CameraVerdict | None:
        """``truth`` (knocked, touched seats) is only known to a simulated camera; ``cancel``, once
        set, ends the watch (``None``)."""


WATCH_SECONDS = 40.0  # a camera cued for a throw that gives no verdict in this long: the Godfather enters it


@dataclass(eq=False)
class ThrowWatch:
    """The camera cued for one throw at a real table: it watches from before the throw until its verdict."""

    thrower: str
    target: str | None
    seat: int
    seats: int
    number: int  # the throw's number for the camera: the round's, times 100, plus the throws before it
    key: tuple[int, int, int]  # (round, inputs accepted, undos) when cued: the step it was cued at
    cancel: threading.Event = field(default_factory=threading.Event)
    thread: threading.Thread | None = None
    timer: threading.Timer | None = None


def fuse(verdict: CameraVerdict | None, went_down: set[int], standing: set[int], *,
         name: Callable[[int], str] = lambda seat: f"seat {seat}") -> tuple[CameraVerdict | None, str]:
    """The camera's verdict checked against the tilt sensors: a knocked standee trips its sensor.

    Returns the verdict to use (``None``: the Godfather decides) and why (``name``: a seat's player).
    """
    if verdict is None:
        return None, "no camera verdict"
    knocked = {s for s in verdict.knocked if s in standing}
    down = went_down & standing
    if knocked != down:
        return None, "the camera and the tilt sensors disagree"
    if verdict.needs_godfather:
        if verdict.reason != "judged":  # the whole throw is in doubt: say why
            return None, f"the camera is unsure: {verdict.reason}"
        seats = verdict.details.get("seats", {}) if isinstance(verdict.details, dict) else {}
        doubted = sorted(int(s) for s, ev in seats.items()
                         if isinstance(ev, dict) and ev.get("confidence", 1.0) <= verdict.confidence + 1e-9)
        whose = " and ".join(f"{name(s)}'s standee" for s in doubted) or "a standee"
        return None, f"the camera is unsure of {whose}"
    return verdict, "camera and sensors agree"


def merge_aims(first: CameraAims, second: CameraAims | None, seats: list[int]) -> CameraAims:
    """The count's reading with ``seats`` (the players who aimed again) as the second count read them.

    No second reading (the camera failed): the count's reading stands, those seats refused as they were.
    A seat the second count is unsure of (or did not read) is unsure; one it read late is read for its
    target only: lateness is the count's (see :meth:`Session._aim_again`).  The frame shown is the second
    count's, unless a seat the count was unsure of is still to be checked on the count's own frame."""
    if second is None:
        return first
    again = set(seats)
    aims = {s: t for s, t in first.aims.items() if s not in again}
    margins = {s: m for s, m in first.margins.items() if s not in again}
    unsure = {s for s in first.unsure if s not in again}
    for s in seats:
        aims[s] = second.aims.get(s)
        if s in second.unsure or s not in second.aims:
            unsure.add(s)
        if s in second.margins:
            margins[s] = second.margins[s]
    frame = first.frame if set(first.unsure) - again else (second.frame or first.frame)
    return CameraAims(aims=aims, late=[s for s in first.late if s not in again], unsure=sorted(unsure),
                      margins=margins, confidence=min(first.confidence, second.confidence),
                      details={**first.details, "again": second.details}, frame=frame)


class Session:
    """Runs one game at a table; see the module docstring."""

    def __init__(
        self,
        referee: Referee,
        *,
        source: InputSource,
        bots: Bots | None = None,
        devices: TableDevices | None = None,
        script: StandeeScript | None = None,
        camera: ThrowCamera | None = None,
        game_log: GameLog | None = None,
        say: Callable[[str], None] = print,
        progress: Callable[[str], None] | None = None,
        pace: float = 0.0,
        echo_speech: str | None = None,
    ) -> None:
        self.referee = referee
        self.source = source
        self.bots = bots
        self.devices = devices
        self.script = script  # a ScriptedTable: the bots move the simulated standees
        self.camera = camera
        self.game_log = game_log
        self.progress = progress
        self.pace = pace
        self.refusals: list[str] = []
        self.lock = threading.RLock()  # one input at a time: the console's and the sensors'
        self._quiet = threading.Event()  # set, but while the table pauses between rounds (no input goes in)
        self._quiet.set()
        self.listeners: list[Callable[[], None]] = []  # told after every change (the console)
        self.pending: dict[str, Any] | None = None  # for the Godfather: a camera verdict, or seats to check by eye
        self.frame: bytes | None = None  # the frame of the pending camera verdict (JPEG)
        self.overridden: set[int] = set()  # seats whose tilt sensor the Godfather took over
        self.count_shown: int | None = None  # the number of the count being given, if one is
        self.intermission_ends: float | None = None  # wall-clock time the gangs' meeting ends
        self.lines: list[str] = []  # the game's log, as told
        self.history = History.start(referee)  # the inputs since the session started, for an undo
        self.undos = 0  # how many times an input was taken back
        self._counted: int | None = None  # the round whose aiming count was given
        self._three_at: float | None = None  # when that count's "3" was given (the devices' clock)
        # the camera's reading of each round's count (with the second count's, for the players who aimed again)
        self._aims_seen: dict[int, tuple[CameraAims | None, dict[str, str]]] = {}
        # the aims the story told as the camera read them, by round: the aims confirmed are told where they differ
        self._aims_told: tuple[int, dict[str, tuple[str | None, bool]]] | None = None
        self.watch: ThrowWatch | None = None  # the camera cued for a throw, watching (a real table)
        self.camera_note: str | None = None  # why the camera gave no verdict on the last throw cued
        self.watch_seconds = WATCH_SECONDS
        self._watch_thread: threading.Thread | None = None  # the last watch's thread (it may still end)
        self._closed = False  # the table closed: a watch's thread ending late says nothing
        self._went_down: set[int] = set()
        self.resume_lead = RESUME_LEAD_SECONDS
        self._warn_count = False  # the game goes on at a count (a resumed game): the table is told first
        self._speech: tuple[str, int] | None = None  # simulated speaker: what it says is written in the log of the game
        if echo_speech and devices is not None and isinstance(devices.speaker, RecordingSpeaker):
            self._speech = (echo_speech, len(devices.speaker.played))
        self.say = self._keep(say)
        if devices is not None:
            devices.judge.on_change(self._standee_changed)
            devices.judge.on_fault(self._fault)
            self._set_statuses()

    # -- the game loop -------------------------------------------------------

    def run(self, *, on_over: Callable[[], None] | None = None) -> None:
        """Play the game to its end.  Once it is over nothing may be undone, and ``on_over`` is told
        (the game log's last line, the record) before the finale's announcements are heard."""
        rnd = self.referee.round
        if rnd is not None:  # tell the table where the game is: the round's pile, what happened so far
            self._tell(Outcome(events=list(rnd.events)))
            step = self.referee.step
            self._warn_count = (step is Step.AIMS and self._counted != rnd.number) or step is Step.WITHDRAW
        while self.referee.step is not Step.OVER:
            self.play_step()
        self._quiet.wait()  # the pause after the last round, if another thread gave its last input
        with self.lock:
            self.history.seal()  # the game is over: final
            self._end_watch()
        self._finale(on_over)

    def play_step(self) -> None:
        self._quiet.wait()  # the table pauses between rounds: the next one waits (see submit)
        with self.lock:
            prompt, key = self.referee.prompt(), self._step_key()
        if self.progress:
            self.progress(f"round {prompt.round}/8: {step_name(prompt.step.value)}")
        step = prompt.step
        camera = self.camera
        if step is Step.AIMS and self._counted != prompt.round:  # not again after an undo
            if not self._seal(key):
                return  # an input or an undo came first: the step is asked again
            self._counted = prompt.round
            if isinstance(camera, CountWatcher):  # a live camera keeps the count's frames for the aims
                self._let_go_of_camera()
                camera.watch()
            self._count()
        inp: I.Input | None
        if step is Step.WITHDRAW and self.devices is not None:
            if not self._seal(key):
                return
            inp = self._withdrawal_count(prompt)
        elif step is Step.THROWS:
            inp = self._throw(prompt)
        elif step is Step.AIMS and isinstance(camera, AimCamera):
            inp = self._aims(prompt, camera)
        elif step is Step.INTERMISSION:
            self.say("Intermission: the gangs meet for 5 minutes.")
            self.intermission_ends = time.time() + INTERMISSION_SECONDS
            self.changed()
            inp = self.source.answer(prompt)  # the Godfather goes on (the console does when the 5 minutes are up)
            self.intermission_ends = None
        else:
            inp = self.source.answer(prompt)
        if inp is not None:
            try:
                self.submit(inp)
            except Refused:
                if self.referee.prompt().step is step and self.referee.prompt().round == prompt.round:
                    raise
                log.info("the console answered step %s first", step.value)  # its input stands

    @property
    def _devices(self) -> TableDevices:
        """The table's devices: the counts and the simulated standees need them (a session without them
        takes every input from its source)."""
        if self.devices is None:
            raise RuntimeError("this session has no devices")
        return self.devices

    @property
    def _script(self) -> StandeeScript:
        """What moves the simulated standees: only a simulated table has one."""
        if self.script is None:
            raise RuntimeError("this session has no simulated standees")
        return self.script

    def _keep(self, say: Callable[[str], None]) -> Callable[[str], None]:
        def keep(line: str) -> None:
            self.lines.append(line)
            del self.lines[:-200]
            say(line)

        return keep

    def changed(self) -> None:
        for listener in list(self.listeners):
            listener()

    def submit(self, inp: I.Input, *, auto: bool = False) -> Outcome:
        """Check an input, log it (synced), apply it, and tell the table what happened.

        ``auto``: the console gave it by itself (a step with one possible answer).

        An input that ends a round is followed by a pause (:data:`BETWEEN_ROUNDS`), taken after the
        session's lock is let go (the console's pages look at the table meanwhile); until it ends, any
        other input or undo, and the game's next step, wait (what they make the table say comes after)."""
        with self._turn():
            checked = self.referee.check(inp)  # Refused: nothing logged, nothing changed
            entered = self._aims_entered(inp) if isinstance(inp, I.Aims) else None
            seq = None
            if self.game_log is not None:
                seq = self.game_log.input(inp.to_json())
            outcome = self.referee.accept(checked)
            self.history.accepted(inp, seq=seq, auto=auto)
            if isinstance(inp, I.Withdrawals):
                self.history.seal()  # the withdrawal count's result is final
            self.pending = None
            self._end_watch()  # an input ends the step the camera was cued at
            self.camera_note = None
            if entered:
                self.say(entered)
            self._tell(outcome)
            self._echo()
            pause = outcome.round_over is not None
            if pause:
                self._quiet.clear()
        try:
            self.changed()
            if pause:
                self._wait(BETWEEN_ROUNDS)
        finally:
            if pause:
                self._quiet.set()  # whatever happened, the table goes on after the pause
        return outcome

    @contextlib.contextmanager
    def _turn(self) -> Iterator[None]:
        """The session's lock, for an input or an undo: taken once the table is not pausing between rounds."""
        while True:
            self._quiet.wait()
            with self.lock:
                if not self._quiet.is_set():
                    continue  # another thread's input ended a round meanwhile: its pause first
                yield
                return

    def _echo(self) -> None:
        """Write what the (simulated) speaker said since last time."""
        if self._speech is None:
            return
        language, seen = self._speech
        speaker = self._devices.speaker
        played = list(speaker.played) if isinstance(speaker, RecordingSpeaker) else []
        new = played[seen:] if seen <= len(played) else played
        if new:
            self.say("    \u00bb " + " ".join(sentence(item.clips, language) for item in new))
        self._speech = (language, len(played))

    def try_submit(self, inp: I.Input, *, auto: bool = False) -> str | None:
        """As :meth:`submit`, for the console: the reason an input was refused, or ``None``."""
        try:
            self.submit(inp, auto=auto)
        except Refused as refusal:
            self.refusals.append(str(refusal))
            return str(refusal)
        return None

    def undo(self, count: int | None = None) -> str | None:
        """Take back the last input (see :mod:`.undo`): ``None`` when done, else why it cannot be.

        ``count``: how many inputs the page saw accepted; an undo sent twice is refused the second time."""
        with self._turn():
            if self.referee.step is not Step.OVER and count is not None and count != self.history.count:
                return "that input was already taken back, or another came after it"
            why = self.why_no_undo()
            if why is not None:
                return why
            replayed, dropped = self.history.undo()
            if self.game_log is not None:
                for entry in reversed(dropped):
                    if entry.seq is not None:
                        self.game_log.undo(entry.seq)
            adopt(self.referee, replayed)
            self.pending = None
            self.frame = None
            self._end_watch()
            self.camera_note = None
            self.undos += 1
            manual = next((e for e in dropped if not e.auto), dropped[0])
            self.say(f"  Undone: {describe(manual.input)}.")
            if self.devices is not None:
                self._set_statuses()
        self.changed()
        return None

    def why_no_undo(self) -> str | None:
        """Why nothing can be undone now (``None``: the last input can); a game over is final (its record
        is written from it)."""
        if self.referee.step is Step.OVER:
            return "the game is over: nothing can be undone"
        return self.history.why_not()

    def override_sensor(self, seat: int, *, by_godfather: bool) -> None:
        """The Godfather takes over a seat's tilt sensor (or gives it back)."""
        with self.lock:
            (self.overridden.add if by_godfather else self.overridden.discard)(seat)
            name = self.referee.game.players[seat].name
            self.say(f"  {name}'s tilt sensor: {'the Godfather decides' if by_godfather else 'back in use'}.")
        self.changed()

    # -- counts and the withdrawal -------------------------------------------

    def _count(self) -> None:
        self._ready_for_count("the aiming count")
        self._three_at = None  # no "3" until this count gives one (a count cut short leaves none)
        self._three_at = self._give_count("  1, 2, 3: everyone aims.")  # the camera reads the aims from its "3"

    def _give_count(self, line: str, *, before: list[str] | None = None) -> float | None:
        """Says ``line`` and gives a "1, 2, 3" on the count LEDs and the speaker (after the announcement
        ``before``, heard to its end), followed on the console; returns when its "3" was (the devices'
        clock), once it is over; ``None`` without devices."""
        self.say(line)
        if self.devices is None:
            return None
        if before is not None:
            self.devices.speaker.play(before)
            self._echo()
            self.devices.speaker.finish(SPEAKER_SECONDS)  # a count cuts what the speaker says: it waits for it
        run = self.devices.judge.counts.start()
        timing = self.devices.config.timing
        self._show_count(run.first, timing.count_interval)
        self._wait(run.first - self.devices.clock.now() + 3 * timing.count_interval)
        self._echo()
        three_at: float = run.times[2]
        return three_at

    def _seal(self, key: tuple[int, int, int]) -> bool:
        """A count starts at the step asked (``key``, see :meth:`_step_key`): the inputs so far are final,
        so no undo comes while it waits for the standees.  False: an input or an undo came first."""
        with self.lock:
            if self._step_key() != key:
                return False
            self.history.seal()
            return True

    def _ready_for_count(self, what: str) -> None:
        """A real table counts only once every seat's tilt sensor reads (the sensor hub has connected):
        a sensor not read counts as a standee down.  A game that goes on at a count (resumed) first
        tells the table, asks for the standees up, and waits until they are (``READY_SECONDS`` at most)."""
        devices = self.devices
        if devices is None or hasattr(devices.clock, "advance"):  # simulated: every sensor reads from the start
            self._warn_count = False
            return
        judge = devices.judge
        seats = range(min(devices.config.seats, len(self.referee.game.players)))

        def unread() -> list[int]:  # a seat whose sensor the Godfather took over is his to judge
            return [seat for seat in seats if seat not in self.overridden and judge.upright(seat) is None]

        end = time.monotonic() + SENSORS_GRACE_SECONDS
        while unread() and time.monotonic() < end:
            time.sleep(0.05)
        if missing := unread():
            names = ", ".join(f"{self.referee.game.players[s].name} ({seat_label(s)})" for s in missing)
            where = (f"the sensor hub at {devices.config.hub_url} has not answered: check its USB cable"
                     if devices.config.backend == "hub" else "check their wires")
            where += "; or the Godfather takes their sensors over on the console"
            self.say(f"  {what[0].upper()}{what[1:]} waits for the tilt sensors of {names} ({where}).")
            self.changed()
            while unread():
                time.sleep(0.05)
            self.say("  The tilt sensors read: the count can start.")
        if not self._warn_count:
            return
        self._warn_count = False
        self.say(f"  The game goes on at {what}: everyone stands their character up; it starts in "
                 f"{self.resume_lead:g} s.")
        self.changed()
        self._devices.speaker.play(["stand_up"])
        ready = threading.Event()
        judge.when_ready(ready.set)
        started = time.monotonic()
        ready.wait(READY_SECONDS)
        time.sleep(max(0.0, self.resume_lead - (time.monotonic() - started)))
        self._devices.speaker.finish(SPEAKER_SECONDS)

    def _show_count(self, first: float, interval: float) -> None:
        """Follow the count on the console: "1", "2", "3", then nothing."""
        clock = self._devices.clock

        def shown(n: int | None) -> None:
            self.count_shown = n
            self.changed()

        for n in (1, 2, 3):
            clock.call_at(first + (n - 1) * interval, functools.partial(shown, n))
        clock.call_at(first + 3 * interval, lambda: shown(None))

    def _withdrawal_count(self, prompt: Prompt) -> I.Input | None:
        judge, timing = self._devices.judge, self._devices.config.timing
        seat_of = self.referee.game.seat_of
        self._ready_for_count("the withdrawal count")
        self.say("  " + withdraw_call(self.referee.game.ruleset) + ".")
        seats = [seat_of(n) for n in prompt.players]
        count = judge.withdrawal_count(seats)
        start = count.window_start
        self._show_count(start, timing.count_interval)
        if self.script is not None and self.bots is not None:
            from ..devices.simulation import StandeeMove

            window = timing.window_end(start) - start
            moves = []
            for move in self.bots.lay_downs(prompt, window=window, settle=timing.settle):
                seat = seat_of(move.player)
                moves.append(StandeeMove(start + move.at, seat, False, bounce=2))
                if move.stands_again is not None:
                    moves.append(StandeeMove(start + move.stands_again, seat, True, bounce=2))
            self._play(moves, until=max(count.verdict_at, max((m.time for m in moves), default=0.0)) + 0.05)
        else:
            self._wait_for(lambda: count.result is not None, timeout=count.verdict_at - self._devices.clock.now() + 5.0)
        result = count.result
        if result is None:
            raise RuntimeError("the withdrawal count gave no verdict")
        names = self.referee.names
        withdrew, too_late, source = set(result.withdrew), set(result.too_late), "sensors"
        self._echo()
        # a sensor out, a standee down already, or a sensor the Godfather took over: he decides those
        faulty = set(result.faulty) | set(result.down_before_count) | (self.overridden & set(seats))
        if faulty and not isinstance(self.source, Bots):
            self.pending = {
                "check": {
                    "seats": names(sorted(faulty)),
                    "withdrew": names(sorted(withdrew - faulty)),
                    "too_late": names(sorted(too_late - faulty)),
                }
            }
            self.say(f"  Check by eye: {', '.join(names(sorted(faulty)))}; the Godfather says who withdrew.")
            self.changed()
            return self.source.answer(prompt)
        if faulty:
            self.say(
                f"  Check by eye: the sensors of {', '.join(names(sorted(faulty)))} were faulty during the count"
                " or read down before it; the Godfather says who withdrew."
            )
            seen = self.source.answer(prompt)  # the Godfather says who lay down in time
            if not isinstance(seen, I.Withdrawals):
                raise TableInputError(f"round {prompt.round}: the check by eye gave no withdrawals ({seen!r})")
            seen_withdrew = {seat_of(n) for n in seen.withdrew}
            withdrew = (withdrew - faulty) | (seen_withdrew & faulty)
            too_late -= faulty
            source = "sensors and godfather"
        for seat in sorted(too_late):
            name = names([seat])[0]
            self.say(f"  {name} lay down too late: the character stands back up, and {name} stays in the share.")
        return I.Withdrawals(names(sorted(withdrew)), names(sorted(too_late)), source=source)

    # -- aims ------------------------------------------------------------------

    def _aims(self, prompt: Prompt, camera: AimCamera) -> I.Input | None:
        """The camera reads the aims; the Godfather confirms them, entering only the seats the camera
        is unsure of and the aims the rules refuse (the bots do it when they play his part).

        A player the camera read sure at a target the rules refuse aims again at once, as at a real
        table: the table names him, gives a short count for those players only, and the camera reads
        their seats again (see :meth:`_aim_again`); only what that second reading leaves unsure or
        refused goes to the Godfather."""
        game = self.referee.game
        seat_of = game.seat_of
        plans = self.bots.aim_plans(prompt) if self.bots is not None else None
        truth = None
        if plans is not None:
            truth = {seat_of(n): (None if p.target is None else seat_of(p.target), p.late) for n, p in plans.items()}
        shooters = [seat_of(n) for n in prompt.players]
        again = prompt.round in self._aims_seen  # an undo came back to the aims: the counts' reading again
        aimed_again: dict[str, str] = {}
        if again:
            seen, aimed_again = self._aims_seen[prompt.round]
        else:
            key = self._step_key()
            seen = self._read_aims(prompt, camera, shooters, truth)
            if seen is not None:
                first = self._reading(prompt, seen)
                if self.game_log is not None:  # what the camera saw, beside the aims confirmed (the next input)
                    self.game_log.seen({"aims": {"round": prompt.round, **seen.details, "refused": first[3]}})
                if first[3]:
                    aimed_again = first[3]
                    seen = self._aim_again(prompt, camera, seen, first, plans)
            self._aims_seen = {prompt.round: (seen, aimed_again)}
            if aimed_again and self._step_key() != key:
                return None  # the Godfather entered the aims during the second count: they stand
        if seen is None:
            return self.source.answer(prompt)
        reading = self._reading(prompt, seen)
        aims, late, unsure, refused = reading
        self.pending = self._aims_shown(prompt, seen, reading, aimed_again)
        self.frame = seen.frame
        told = ", ".join(f"{n} at {t or 'no one'}{' (late)' if n in late else ''}" for n, t in aims.items() if n not in unsure)
        self.say(f"  The camera {'read at the count' if again else 'reads'}: {told or 'no aim'}.")
        self._aims_told = (prompt.round, {n: ((None, True) if n in late else (t, False))
                                          for n, t in aims.items() if n not in unsure})
        asked = [n for n in aims if n in unsure or n in refused]
        if asked:
            reasons = [f"{n} ({refused[n]})" if n in refused else f"{n} (the camera is unsure)" for n in asked]
            self.say(f"  The Godfather enters the aims of {', '.join(reasons)}.")
        self.changed()
        if not isinstance(self.source, Bots):
            return self.source.answer(prompt)
        if self.bots is None:
            raise TableInputError(f"round {prompt.round}: no bots to enter the aims the camera is unsure of")
        entered = self.bots.answer(prompt)  # the Godfather's entry, used only for the seats he has to enter
        assert isinstance(entered, I.Aims)
        final = {n: (None if n in late else t) for n, t in aims.items()}
        final_late = [n for n in late if n not in unsure]
        for name in set(unsure) | set(refused):
            final[name] = entered.aims.get(name)
            if name in entered.late and name not in final_late:
                final_late.append(name)
            elif name not in entered.late and name in final_late:
                final_late.remove(name)
        inp = I.Aims(final, sorted(final_late, key=prompt.players.index))
        try:
            self.referee.check(inp)
        except Refused as refusal:  # the rules refuse the whole of it: the Godfather enters every aim
            self.say(f"  {refusal}: the Godfather enters every aim.")
            return entered
        return inp

    def _reading(self, prompt: Prompt, seen: CameraAims) -> Reading:
        """The camera's reading in players' names: each shooter's aim, who pointed late, the seats it is
        unsure of, and the aims the rules refuse (a seat read sure, in time) with why."""
        players = self.referee.game.players

        def name_of(seat: int) -> str:
            return players[seat].name

        shooters = [self.referee.game.seat_of(n) for n in prompt.players]
        aims: dict[str, str | None] = {}
        for s in shooters:
            at = seen.aims.get(s)
            aims[name_of(s)] = None if at is None else name_of(at)
        late = [name_of(s) for s in seen.late if s in shooters]
        unsure = [name_of(s) for s in seen.unsure if s in shooters]
        refused = {}
        for name, target in aims.items():
            if name in unsure or name in late:
                continue
            why = self.referee.check_aim(name, target)
            if why:
                refused[name] = why
        return aims, late, unsure, refused

    def _aims_shown(self, prompt: Prompt, seen: CameraAims, reading: Reading, aimed_again: dict[str, str], *,
                    aiming: bool = False) -> dict[str, Any]:
        """The camera's reading (``reading``: :meth:`_reading` of ``seen``) as the Godfather's console shows it.
        ``aimed_again``: the players whose aim the rules refused at the count (and why), who aimed again;
        ``aiming``: they are aiming now."""
        game = self.referee.game
        aims, late, unsure, refused = reading
        sure = not unsure and not refused and not aiming  # the console sends these aims by itself after its countdown ...
        if sure:  # ... when the engine takes them as they are
            try:
                self.referee.check(I.Aims({n: (None if n in late else t) for n, t in aims.items()},
                                          sorted(late, key=prompt.players.index)))
            except Refused:
                sure = False
        again = {n: {"seat": seat_label(game.seat_of(n)), "refused": why} for n, why in aimed_again.items()}
        return {
            "kind": "aims", "aims": aims, "late": late, "unsure": unsure, "refused": refused, "sure": sure,
            "margins": {game.players[s].name: round(m, 1) for s, m in seen.margins.items()
                        if game.players[s].name in aims},
            "aiming_again": again if aiming else {}, "aimed_again": {} if aiming else again,
        }

    def _aim_again(self, prompt: Prompt, camera: AimCamera, first: CameraAims, reading: Reading,
                   plans: dict[str, AimPlan] | None) -> CameraAims:
        """The players whose aim the rules refused at the count aim again: the table names them and what
        was refused, gives a short count for them only, and the camera reads their seats again.  The
        reading returned is the count's, with those seats as the second count read them: a seat read sure
        at a target the rules allow is filled in; one unsure, or refused again, goes to the Godfather.
        Once a round: what the second count reads is not asked again.

        Lateness is the count's: those players pointed in time at the count (a seat read late there is
        not refused, it is late), and the rules' "pointed after the others" is about that count, where
        everyone pointed together.  The second count is a correction the table asks of a few players
        alone, so a weapon that comes to rest after its "3" is read for its target and is not late."""
        game = self.referee.game
        seat_of = game.seat_of
        refused = reading[3]
        names = [n for n in prompt.players if n in refused]
        seats = [seat_of(n) for n in names]
        who = and_list([f"{n} ({seat_label(s)})" for n, s in zip(names, seats)])
        self.say(f"  Aim refused: {'; '.join(f'{n} {refused[n]}' for n in names)}. {who} "
                 f"{'aims' if len(names) == 1 else 'aim'} again.")
        self.pending = self._aims_shown(prompt, first, reading, refused, aiming=True)
        self.frame = first.frame
        self.changed()
        if isinstance(camera, CountWatcher):  # it keeps the frames of the second count
            self._let_go_of_camera()
            camera.watch()
        three_at = self._give_count(f"  1, 2, 3: {and_list(names)} {'aims' if len(names) == 1 else 'aim'} again.",
                                    before=Phrases.aim_again(seats))
        truth = None
        if plans is not None:  # each points, this time, at the aim he ends up with
            truth = {}
            for n, s in zip(names, seats):
                plan = plans[n]
                target = plan.entered if plan.entered is not None else plan.target
                truth[s] = (None if target is None else seat_of(target), False)
        shooters = [seat_of(n) for n in prompt.players]
        second = self._read_aims(prompt, camera, seats, truth, candidates=shooters, three_at=three_at,
                                 whose=f"the aims of {and_list(names)}")
        merged = merge_aims(first, second, seats)
        if self.game_log is not None:  # the second count's reading, to replay a dispute
            entry: dict[str, Any] = {"round": prompt.round, "shooters": seats, "refused_at_count": refused}
            if second is not None:
                still = {n: why for n, why in self._reading(prompt, merged)[3].items() if n in refused}
                entry.update({**second.details, "refused": still})
            self.game_log.seen({"aims_again": entry})
        return merged

    def _read_aims(self, prompt: Prompt, camera: AimCamera, shooters: list[int],
                   truth: dict[int, tuple[int | None, bool]] | None, *, candidates: list[int] | None = None,
                   three_at: float | None = None, whose: str = "the aims") -> CameraAims | None:
        """The camera's reading of this round's count (``None``: the Godfather enters the aims). A live
        camera reads the frames of the count it watched, from its "3"; without a count, nothing.
        ``three_at``: the "3" of a second count (the players who aim again: ``shooters``, aiming at any of
        ``candidates``), else the round's count."""
        seats = len(self.referee.game.players)
        candidates = shooters if candidates is None else candidates
        try:
            if isinstance(camera, CountWatcher):
                three = self._three_at if three_at is None else three_at
                if self._counted != prompt.round or three is None:
                    return None  # no count was given that it watched
                return camera.read_aims(seats=seats, shooters=shooters, candidates=candidates, number=prompt.round,
                                        three_at=three)
            return camera.read_aims(seats=seats, shooters=shooters, candidates=candidates, number=prompt.round,
                                    truth=truth)
        except Exception as exc:  # a failing camera must not stop the game: the Godfather enters the aims
            why = one_line(exc)
            log.warning("the camera failed on round %d's aims: %s", prompt.round, why)
            self.say(f"  The camera failed ({why}): the Godfather enters {whose}.")
            return None

    def _aims_entered(self, aims: I.Aims) -> str | None:
        """The story's line for the aims confirmed: every aim, in the order of the table, when the camera read
        none this round (no camera: the Godfather entered them all); else those that differ from what it read
        (the seats it was unsure of, the aims the rules refused, the Godfather's corrections)."""
        number = self.referee.prompt().round
        read = self._aims_told[1] if self._aims_told is not None and self._aims_told[0] == number else None
        told = []
        for name, target in aims.aims.items():
            aim = (None, True) if name in aims.late else (target, False)
            if read is not None and read.get(name, (False, False)) == aim:
                continue
            told.append(f"{name} pointed late" if aim[1] else f"{name} at {target or 'no one'}")
        return f"  The Godfather enters: {', '.join(told)}." if told else None

    # -- shuriken --------------------------------------------------------------

    def _throw(self, prompt: Prompt) -> I.Input | None:
        bots = self.bots
        plan = bots.throw_plan(prompt) if bots is not None else None
        if bots is None or plan is None:
            return self.source.answer(prompt)
        game = self.referee.game
        seat_of = game.seat_of
        rnd = self.referee.round
        if rnd is None:
            raise TableInputError(f"round {prompt.round}: no round is in play for {plan.thrower}'s throw")
        standing = set(rnd.in_share())
        legal = prompt.options["targets"].get(plan.thrower, [])
        self.say(f"  {plan.thrower} throws a shuriken: the legal targets are {', '.join(legal)}.")
        self._went_down = set()
        verdict = None
        if self.camera is not None:
            try:
                truth = ([seat_of(n) for n in plan.knocked], [seat_of(n) for n in plan.touched])
                verdict = self.camera.judge(
                    thrower=seat_of(plan.thrower), seats=len(game.players), number=rnd.number * 100 + len(rnd.thrown),
                    truth=truth,
                )
            except Exception as exc:  # a failing camera must not stop the game: the Godfather judges
                log.warning("the camera failed on %s's throw: %s", plan.thrower, exc)
                self.say(f"  The camera failed ({exc}): the Godfather judges the throw.")
        if self.script is not None:  # the standees the shuriken knocked over go down
            from ..devices.simulation import StandeeMove

            now = self._devices.clock.now()
            self._play([StandeeMove(now + 0.3, seat_of(n), False, bounce=3) for n in plan.knocked], until=now + 0.6)
        if verdict is not None and self.game_log is not None:
            self.game_log.seen({"camera": {"thrower": plan.thrower, **verdict.details}})
        went_down = self._went_down if self.devices is not None else {seat_of(n) for n in plan.knocked}
        used, why = fuse(verdict, went_down, standing, name=lambda seat: game.players[seat].name)
        if not isinstance(self.source, Bots):  # the Godfather confirms or overrules, seeing the frame
            self.pending = {"verdict": self._verdict_shown(plan.thrower, plan.target, verdict, used, why)}
            self.frame = verdict.frame if verdict else None
            self.say(f"  {plan.thrower}'s throw: {why}; the Godfather confirms or overrules.")
            self.changed()
            return self.source.answer(prompt)
        if used is None:
            if self.camera is not None:
                self.say(f"  {why[0].upper()}{why[1:]}: the Godfather decides.")
            return bots.godfather_verdict(plan)
        names = self.referee.names
        return I.Throw(
            plan.thrower, plan.target, names(sorted(used.knocked)), names(sorted(set(used.touched) - set(used.knocked))),
            source="camera", confidence=round(used.confidence, 3),
        )

    # -- the camera cued for a throw (a real table) ---------------------------------

    def watches_throws(self) -> bool:
        """Whether the Godfather cues the camera before each throw: a camera at a real table (in a
        simulated game the bots' throws are filmed and judged as they are played)."""
        return self.camera is not None and self.bots is None

    def _step_key(self) -> tuple[int, int, int]:
        return (self.referee.prompt().round, self.history.count, self.undos)

    def cue_throw(self, thrower: str | None, target: str | None = None) -> str | None:
        """The Godfather says who throws next (and, if he knows it, at whom): the camera arms on the
        table at rest and watches that throw until its verdict, which then waits for the Godfather as
        a simulated one does (``pending``).  ``thrower`` None: the camera stops watching.  A cue is
        not an input of the game.  Returns ``None`` when done, else why not, in one line."""
        with self.lock:
            prompt = self.referee.prompt()
            where = f"round {prompt.round}"
            if self._closed:
                return "the table is closing: the camera watches no more throws"
            if not self.watches_throws():
                return "no camera watches the throws at this table"
            if prompt.step is not Step.THROWS:
                return f"{where}: the camera watches a shuriken only while they are thrown"
            verdict = (self.pending or {}).get("verdict")
            if thrower is None:
                if self.watch is None:
                    return None
                self._end_watch()
            elif thrower not in prompt.players:
                return f"{where}: {thrower[:40]} has no shuriken to throw now"
            elif not prompt.options["targets"].get(thrower):
                return f"{where}: {thrower} has no one to throw at ({thrower}'s shuriken is shown, not thrown)"
            elif target is not None and target not in prompt.options["targets"][thrower]:
                legal = prompt.options["targets"][thrower]
                return f"{where}: {thrower} may not throw at {target[:40]} (the legal targets: {', '.join(legal)})"
            elif verdict is not None:
                if verdict["thrower"] != thrower:
                    return f"{where}: the camera's verdict on {verdict['thrower']}'s throw waits: confirm or overrule it first"
                if target is None or target == verdict["target"]:
                    return None
                self.pending = {"verdict": {**verdict, "target": target}}  # the target said after the throw
            elif self.watch is not None and self.watch.thrower == thrower and self.watch.key == self._step_key():
                if target is None or target == self.watch.target:
                    return None
                self.watch.target = target
            else:
                self._start_watch(thrower, target)
        self.changed()
        return None

    def _start_watch(self, thrower: str, target: str | None) -> None:
        """Cues the camera for ``thrower``'s throw (the lock held): a thread of its own watches."""
        self._end_watch()
        game, rnd = self.referee.game, self.referee.round
        assert rnd is not None  # the throws are a round's
        watch = ThrowWatch(thrower, target, seat=game.seat_of(thrower), seats=len(game.players),
                           number=rnd.number * 100 + len(rnd.thrown), key=self._step_key())
        previous = self._watch_thread
        watch.thread = threading.Thread(target=self._watch_throw, args=(watch, previous), name="camera-throw", daemon=True)
        watch.timer = threading.Timer(self.watch_seconds, self._watch_timed_out, args=(watch,))
        watch.timer.daemon = True
        self.watch, self._watch_thread, self.camera_note = watch, watch.thread, None
        self._went_down = set()  # the standees that go down from now on: fused with the verdict
        self.say(f"  The camera watches {thrower}'s throw.")
        watch.thread.start()
        watch.timer.start()

    def _end_watch(self) -> None:
        """The camera stops watching (the lock held); its verdict, if one comes, is dropped."""
        watch, self.watch = self.watch, None
        if watch is not None:
            watch.cancel.set()
            if watch.timer is not None:
                watch.timer.cancel()

    def close(self) -> None:
        """The table closes: a camera watching a throw stops (its timer too), and its thread lets go
        of the camera (a moment at most) before the camera is closed; nothing is said after this."""
        with self.lock:
            self._closed = True
            self._end_watch()
        self._let_go_of_camera()

    def _let_go_of_camera(self) -> None:
        """Waits (a moment at most) for a watch that was ended to let go of the camera."""
        join(self._watch_thread, timeout=2.0)

    def _watch_throw(self, watch: ThrowWatch, previous: threading.Thread | None) -> None:
        """The watch's thread: the camera's verdict on the throw (or why there is none).  Whatever fails
        here (the game log cannot be written...) is said in one line: the Godfather enters the throw."""
        try:
            self._watch_and_judge(watch, previous)
        except Exception as exc:
            why = one_line(exc)
            with self.lock:
                asked = self.watch is watch or (self.watch is None and watch.key == self._step_key())
                if self.watch is watch:
                    self._end_watch()
                if asked and not self._closed:  # still the throw asked (no undo, input or cue since)
                    self._camera_says(f"The camera's verdict on {watch.thrower}'s throw was lost ({why}): "
                                      "the Godfather enters it")
            self._tell_changed()

    def _tell_changed(self) -> None:
        """:meth:`changed`, from a thread of the session's own: a listener that fails is logged in one line."""
        try:
            self.changed()
        except Exception as exc:
            log.warning("the console could not be told of a change: %s", one_line(exc))

    def _watch_and_judge(self, watch: ThrowWatch, previous: threading.Thread | None) -> None:
        verdict: CameraVerdict | None = None
        failed: str | None = None
        join(previous, timeout=2.0)  # the last watch lets go of the camera first
        camera = self.camera
        if previous is not None and previous.is_alive():
            failed = "it is still busy with the last watch"
        elif camera is not None:
            try:
                verdict = camera.judge(thrower=watch.seat, seats=watch.seats, number=watch.number, cancel=watch.cancel)
            except Exception as exc:  # a failing camera must not stop the game: the Godfather enters the throw
                failed = one_line(exc)  # one line (OpenCV's have several)
        clock = self.devices.clock if self.devices is not None else None
        if verdict is not None and clock is not None and not hasattr(clock, "advance"):
            timing = self._devices.config.timing  # the tilt sensors tell of the standees that fell
            time.sleep(timing.debounce + timing.settle + timing.judge_margin)
        self._watched(watch, verdict, failed)

    def _watch_timed_out(self, watch: ThrowWatch) -> None:
        with self.lock:
            if self.watch is not watch or self._closed:
                return
            self._end_watch()
            self._camera_says(f"The camera gave no verdict on {watch.thrower}'s throw in {self.watch_seconds:g} s: "
                              "the Godfather enters it")
        self._tell_changed()

    def _camera_says(self, note: str) -> None:
        log.warning("%s", note)
        self.camera_note = note + "."
        self.say(f"  {note}.")

    def _watched(self, watch: ThrowWatch, verdict: CameraVerdict | None, failed: str | None) -> None:
        """The camera's verdict on a cued throw: logged, fused with the tilt sensors, and put before the
        Godfather as a simulated one is; a camera that failed says so and leaves the throw to him."""
        with self.lock:
            if self.watch is not watch or watch.cancel.is_set() or self._closed:
                return  # ended meanwhile (an undo, an input, another cue, the table closed): nothing is said
            self._end_watch()
            name = watch.thrower
            rnd = self.referee.round
            if watch.key != self._step_key():
                pass  # the table moved on meanwhile: the verdict is of no throw asked now
            elif failed is not None:
                self._camera_says(f"The camera failed on {name}'s throw ({failed}): the Godfather enters it")
            elif verdict is None or rnd is None:
                self._camera_says(f"The camera gave no verdict on {name}'s throw: the Godfather enters it")
            elif verdict.timed_out:
                self._camera_says(f"The camera saw no throw from {name}: the Godfather enters it, or cues the camera again")
            else:
                if self.game_log is not None:
                    self.game_log.seen({"camera": {"thrower": name, **verdict.details}})
                players = self.referee.game.players
                used, why = fuse(verdict, set(self._went_down), set(rnd.in_share()), name=lambda seat: players[seat].name)
                self.pending = {"verdict": self._verdict_shown(name, watch.target, verdict, used, why)}
                self.frame = verdict.frame
                self.say(f"  {name}'s throw: {why}; the Godfather confirms or overrules.")
        self._tell_changed()

    def _verdict_shown(self, thrower: str, target: str | None, verdict: CameraVerdict | None,
                       used: CameraVerdict | None, why: str) -> dict[str, Any]:
        """A camera verdict as the Godfather's console shows it, to confirm or overrule."""
        names = self.referee.names
        return {
            "thrower": thrower,
            "target": target,
            "knocked": names(sorted(verdict.knocked)) if verdict else [],
            "touched": names(sorted(verdict.touched)) if verdict else [],
            "confidence": round(verdict.confidence, 3) if verdict else None,
            "reason": why,
            "sure": used is not None,
            "frame": bool(verdict and verdict.frame),
        }

    # -- telling the table -------------------------------------------------------

    def _tell(self, outcome: Outcome) -> None:
        game = self.referee.game
        summary = outcome.round_over
        number = summary.number if summary is not None else game.rounds_played + 1
        said: list[object] = []  # the events the speaker tells of, since it last spoke
        for e in outcome.events:
            if isinstance(e, ev.Revealed) and summary is not None:
                number = summary.number + 1  # the next round has begun: what the last one said comes first
                self._speak(said)
            line = event_line(game, e, number)
            if line:
                self.say(line)
            said.append(e)
        self._speak(said)
        if self.devices is not None:
            self._set_statuses(outcome)
            self._settle_standees()

    def _speak(self, said: list[object]) -> None:
        """Tell what the events in ``said`` did, in one sequence (a new one cuts the one playing), each seat
        once: its wounds as they are now, or only that it died; then the split.  ``said`` is emptied."""
        events, said[:] = list(said), []
        if self.devices is None:
            return
        players = self.referee.game.players
        dead = {e.seat for e in events if isinstance(e, ev.Died)}
        told: set[int] = set()
        phrases: list[list[str]] = []
        for e in events:
            if isinstance(e, ev.Died):
                phrases.append(Phrases.dead(e.seat))
            elif isinstance(e, ev.Shared) and e.sharers and e.share:
                phrases.append(Phrases.split(e.sharers))
            elif isinstance(e, (ev.Hit, ev.Withdrew)):  # a hit, or a yakuza's honour marker turned to a wound
                seat = e.target if isinstance(e, ev.Hit) else e.seat
                if (isinstance(e, ev.Withdrew) and e.token != "band-aid") or seat in dead or seat in told:
                    continue
                told.add(seat)
                if players[seat].wounds > 0:
                    phrases.append(Phrases.wounded(seat, min(players[seat].wounds, MAX_NUMBER)))
        if phrases:
            self.devices.speaker.play(Phrases.together(*phrases))
            self._echo()

    def _set_statuses(self, outcome: Outcome | None = None) -> None:
        """The seat LEDs follow the game: in the share, withdrew, hit (lie down), dead."""
        judge = self._devices.judge
        game = self.referee.game
        rnd = self.referee.round
        for p in game.players:
            if p.seat >= self._devices.config.seats:
                continue
            gang = str(p.gang) if p.gang else None
            if not p.alive:
                status = SeatStatus.DEAD
            elif rnd is None or (outcome is not None and outcome.round_over is not None):
                status = SeatStatus.IN_SHARE  # a new round: every living standee up
            elif p.seat in rnd.withdrew:
                status = SeatStatus.WITHDREW
            elif p.seat in rnd.wounded and p.seat in rnd.out:
                status = SeatStatus.HIT
            else:
                status = SeatStatus.IN_SHARE
            if judge.shown(p.seat) is not status or status is SeatStatus.IN_SHARE:
                judge.set_status(p.seat, status, gang=gang)

    def _settle_standees(self) -> None:
        """Simulated players do what their seat LED asks: stand up, or lie down."""
        if self.script is None:
            return
        from ..devices.simulation import StandeeMove

        judge = self._devices.judge
        pending = judge.pending()
        if not pending:
            return
        now = self._devices.clock.now()
        moves = [StandeeMove(now + 0.2, seat, status is SeatStatus.MUST_STAND_UP, bounce=2) for seat, status in pending.items()]
        timing = self._devices.config.timing
        self._play(moves, until=now + 0.2 + timing.debounce + timing.settle + timing.judge_margin + 0.05)

    def _standee_changed(self, event: TiltEvent) -> None:
        if not event.up:
            self._went_down.add(event.seat)
        if self.game_log is not None:
            # on the clock's thread, under its lock: the log's writer thread writes it (no wait for the SD card)
            self.game_log.seen({"tilt": {"seat": event.seat, "up": event.up, "time": round(event.time, 6)}}, queued=True)

    def _fault(self, fault: SeatFault) -> None:
        state = "cleared" if getattr(fault, "cleared", False) else "found"
        self.say(f"  Sensor fault {state} at {seat_label(fault.seat)}: {fault.kind.value}.")

    def _finale(self, on_over: Callable[[], None] | None = None) -> None:
        """The scores, then the last split and the winners heard to their end.  ``on_over`` (the log's
        last line and the record) is told before any wait for the speaker, so that a Ctrl-C during the
        announcements loses nothing; a simulated speaker, which never waits, says its words in the story
        first (the record's lines come last)."""
        game = self.referee.game
        self.say("")
        for line in ending_lines(game):
            self.say(line)
        late = self._speech is not None  # a recording speaker: nothing is waited for
        if on_over is not None and not late:
            on_over()
        winners = game.winners
        if self.devices is not None:
            speaker = self.devices.speaker
            speaker.finish(SPEAKER_SECONDS)  # the last round's split is heard to its end first
            if winners:
                if game.is_yakuzas:
                    speaker.play(Phrases.winners(gangs=list(winners)))
                else:
                    speaker.play(Phrases.winners(seats=[game.seat_of(w) for w in winners]))
                self._echo()
                speaker.finish(SPEAKER_SECONDS)  # and the winners before the table closes
        if on_over is not None and late:
            on_over()

    # -- time ------------------------------------------------------------------------

    def _play(self, moves: list[StandeeMove], *, until: float) -> None:
        """Simulated standee moves, on the devices' clock (a simulated clock moves on at once)."""
        start = self._devices.clock.now()
        self._script.play(moves, until=until)
        if hasattr(self._devices.clock, "advance"):
            self._sleep(self._devices.clock.now() - start)

    def _wait(self, seconds: float, *, real: bool = True) -> None:
        """Let ``seconds`` of table time pass (a simulated clock moves on at once)."""
        if seconds <= 0:
            return
        clock = self.devices.clock if self.devices is not None else None
        if clock is not None and hasattr(clock, "advance"):
            clock.advance(seconds)
            self._sleep(seconds if real else 0.0)
        elif clock is not None and real:  # the table's own time: it cannot be hurried
            time.sleep(seconds)
        else:
            self._sleep(seconds)

    def _sleep(self, seconds: float) -> None:
        if self.pace > 0 and seconds > 0:
            time.sleep(seconds * self.pace)

    def _wait_for(self, done: Callable[[], bool], *, timeout: float) -> None:
        clock = self._devices.clock
        if hasattr(clock, "advance"):
            clock.advance(max(timeout, 0.0))
            return
        end = time.monotonic() + timeout
        while not done() and time.monotonic() < end:
            time.sleep(0.02)
