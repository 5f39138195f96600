"""A player the camera reads pointing where the rules forbid aims again at once: the table names him, gives a
short count for him only and the camera reads his seat again; the Godfather enters only what that second
reading leaves unsure or refused.  Both readings are in the game log, and a table killed during the second
count resumes with the round's aiming count."""

from __future__ import annotations

import pytest

from controller.table import inputs as I
from controller.table.bots import Bots, Temper
from controller.table.camera import SimulatedCamera
from controller.table.gamelog import GameLog, read
from controller.table.referee import Referee, Step
from controller.table.runner import new_record
from controller.table.session import CameraAims, Session
from tests.table.table_kit import Godfather, table

# A 6-player Yakuzas game whose first round has one player pointing where the rules forbid: Dee (seat 3), a
# yakuza, aims his tanto at Fay, not a neighbour (seed 4, every other player pointing where he may).
SEED = 4
TEMPER = Temper(wrong_aim=0.25, late=0.0)


class Camera:
    """Reads the aim count as the weapons really point (every seat sure), and each second count as
    ``again`` says: ``"film"`` renders it from where the weapons point and reads it with the aim reader
    (the simulated camera), ``"right"`` reads it as the weapons point, ``"late"`` the same with each weapon
    come to rest after the "3", ``"same"`` reads the forbidden aim again, ``"unsure"`` is unsure of every
    seat, ``"crash"`` is the controller killed during the second count."""

    def __init__(self, again: str = "film") -> None:
        self.again = again
        self.reads: list[dict] = []
        self.film = SimulatedCamera(SEED)
        self.first: dict[int, tuple[int | None, bool]] = {}

    def read_aims(self, *, seats, shooters, candidates, number, truth=None):
        self.reads.append({"shooters": list(shooters), "candidates": list(candidates), "truth": dict(truth or {})})
        assert truth is not None
        if len(self.reads) % 2 == 1:  # the round's count
            self.first = dict(truth)
            return reading({s: truth[s] for s in shooters})
        if self.again == "crash":
            raise Killed
        if self.again == "film":
            return self.film.read_aims(seats=seats, shooters=shooters, candidates=candidates, number=number,
                                       truth=truth)
        if self.again == "right":
            return reading({s: truth[s] for s in shooters})
        if self.again == "late":  # the weapon came to rest on its new target after the second count's "3"
            return reading({s: (truth[s][0], True) for s in shooters})
        if self.again == "same":
            return reading({s: self.first[s] for s in shooters})
        return reading({s: self.first[s] for s in shooters}, unsure=list(shooters))


class Killed(BaseException):
    """The controller killed (it is no error the session catches)."""


def reading(aims: dict[int, tuple[int | None, bool]], unsure: list[int] | None = None) -> CameraAims:
    seats = {str(s): {"target": t, "late": late, "sure": s not in (unsure or []), "reason": "read"}
             for s, (t, late) in aims.items()}
    return CameraAims(aims={s: t for s, (t, _) in aims.items()}, late=[s for s, (_, late) in aims.items() if late],
                      unsure=list(unsure or []), margins={s: 12.0 for s in aims}, confidence=0.9,
                      details={"aims": {str(s): t for s, (t, _) in aims.items()}, "seats": seats}, frame=b"\xff\xd8")


def at_the_aims(camera: Camera, *, game_log=None, console: bool = False):
    session, lines = table("yakuzas", 6, seed=SEED, camera=camera, temper=TEMPER, game_log=game_log)
    if console:
        session.source = Godfather(session)
    while session.referee.step is not Step.AIMS:
        session.play_step()
    plans = session.bots.aim_plans(session.referee.prompt())
    wrong = [n for n, p in plans.items() if p.target != p.entered]
    assert wrong == ["Dee"] and plans["Dee"].target == "Fay", plans  # the game this file is about
    return session, lines, plans


def aims_entered(session: Session) -> I.Aims:
    return next(e.input for e in reversed(session.history.entries) if isinstance(e.input, I.Aims))


def test_a_player_pointing_where_the_rules_forbid_aims_again_and_the_second_reading_fills_his_seat(tmp_path):
    log_path = tmp_path / "game.log"
    game_log = GameLog.create(log_path, {"record": {}})
    camera = Camera("film")
    session, lines, plans = at_the_aims(camera, game_log=game_log)
    played = len(session.devices.speaker.played)
    session.play_step()
    game_log.close()
    assert session.referee.step is not Step.AIMS
    # the table named him and what was refused, then counted for him alone
    refused = next(n for n, line in enumerate(lines) if line.startswith("  Aim refused: "))
    assert lines[refused] == "  Aim refused: Dee may not aim a tanto at Fay: not a neighbour. Dee (seat 3) aims again."
    assert lines[refused + 1] == "  1, 2, 3: Dee aims again."
    clips = [item.clips for item in list(session.devices.speaker.played)[played:]]
    again = clips.index(("aim_again", "seat.3"))
    assert clips[again + 1: again + 4] == [("number.1",), ("number.2",), ("number.3",)]
    # the camera read his seat again, where he now points: at the aim he ends up with
    first, second = camera.reads
    assert second["shooters"] == [3] and second["candidates"] == first["shooters"]
    assert second["truth"] == {3: (session.referee.game.seat_of(plans["Dee"].entered), False)}
    # the seat was filled in from that reading: the Godfather entered nothing
    assert not any(line.startswith("  The Godfather enters") for line in lines), lines
    assert aims_entered(session).aims["Dee"] == plans["Dee"].entered
    assert aims_entered(session).aims == {n: p.entered for n, p in plans.items()}
    # the game log keeps both readings, before the aims confirmed
    logged = read(log_path)
    seen = [s for s in logged.seen if "aims" in s or "aims_again" in s]
    assert [next(iter(s)) for s in seen] == ["aims", "aims_again"]
    assert seen[0]["aims"]["refused"] == {"Dee": "may not aim a tanto at Fay: not a neighbour"}
    assert seen[0]["aims"]["aims"]["3"] == 5  # what the camera saw at the count: Fay
    second_seen = seen[1]["aims_again"]
    assert second_seen["shooters"] == [3] and second_seen["refused_at_count"] == seen[0]["aims"]["refused"]
    assert second_seen["aims"] == {"3": session.referee.game.seat_of(plans["Dee"].entered)}
    assert second_seen["refused"] == {} and "3" in second_seen["seats"] and second_seen["needs_godfather"] is False


@pytest.mark.parametrize("again", ["same", "unsure"])
def test_a_second_reading_still_refused_or_unsure_is_asked_of_the_godfather_once(tmp_path, again):
    asked = "refused" if again == "same" else "unsure"
    log_path = tmp_path / "game.log"
    game_log = GameLog.create(log_path, {"record": {}})
    camera = Camera(again)
    session, lines, plans = at_the_aims(camera, game_log=game_log, console=True)
    shown: list[dict] = []
    session.listeners.append(lambda: shown.append(dict(session.pending or {})))
    session.play_step()
    game_log.close()
    assert len(camera.reads) == 2  # one second count, not a loop
    # the console showed him aiming again, then the second reading with the seat to enter
    aiming = next(p for p in shown if p.get("aiming_again"))
    assert aiming["aiming_again"] == {"Dee": {"seat": "seat 3", "refused": "may not aim a tanto at Fay: not a neighbour"}}
    assert "Dee" in aiming["refused"] and not aiming["sure"]
    pending = session.source.shown[-1]
    assert pending["aiming_again"] == {} and pending["aimed_again"] == aiming["aiming_again"]
    if asked == "refused":
        assert pending["refused"] == {"Dee": "may not aim a tanto at Fay: not a neighbour"}
        assert "  The Godfather enters the aims of Dee (may not aim a tanto at Fay: not a neighbour)." in lines
    else:
        assert pending["unsure"] == ["Dee"] and "Dee" not in pending["refused"]
        assert "  The Godfather enters the aims of Dee (the camera is unsure)." in lines
    assert not pending["sure"]
    assert aims_entered(session).aims["Dee"] == plans["Dee"].entered  # as the Godfather entered it
    entries = [s["aims_again"] for s in read(log_path).seen if "aims_again" in s]
    assert len(entries) == 1 and entries[0]["seats"]["3"]["sure"] is (asked == "refused")
    assert entries[0]["refused"] == ({"Dee": "may not aim a tanto at Fay: not a neighbour"} if asked == "refused" else {})


def test_a_weapon_at_rest_only_after_the_second_counts_three_is_read_for_its_target_not_late():
    """Lateness is the count's, where everyone pointed together: the player who aims again pointed in time."""
    session, lines, plans = at_the_aims(Camera("late"))
    session.play_step()
    aims = aims_entered(session)
    assert aims.aims["Dee"] == plans["Dee"].entered and "Dee" not in aims.late
    assert not any(line.startswith("  The Godfather enters") for line in lines), lines


def test_an_undo_back_to_the_aims_shows_both_readings_again_without_a_new_count():
    camera = Camera("right")
    session, lines, _plans = at_the_aims(camera)
    session.source = Godfather(session)
    session.play_step()
    assert session.undo() is None and session.referee.step is Step.AIMS
    said = len(lines)
    session.play_step()
    assert len(camera.reads) == 2 and not any("aims again" in line for line in lines[said:])
    first, again = session.source.shown
    assert again == first and first["aimed_again"]["Dee"]["seat"] == "seat 3" and "Dee" not in first["refused"]


def test_a_table_killed_during_the_second_count_resumes_at_the_rounds_aiming_count(tmp_path):
    """The log holds the count's reading, and nothing of the second count; the resumed table gives the
    aiming count to everyone again (its warning first, at a real table), and the round goes on as it would
    have gone on."""
    log_path = tmp_path / "game.log"
    game_log = GameLog.create(log_path, {"record": {}})
    session, lines, plans = at_the_aims(Camera("crash"), game_log=game_log)
    try:
        session.play_step()
        raise AssertionError("the second count was not read")
    except Killed:
        pass
    game_log.close()  # the process is gone: its lock on the log with it
    logged = read(log_path)
    assert [next(iter(s)) for s in logged.seen if "aims" in s or "aims_again" in s] == ["aims"]
    assert not any(i["kind"] == "aims" for i in logged.inputs)
    # the game back from its log, on a new table, as `resume` does: the logged inputs replayed
    game_log, logged = GameLog.reopen(log_path)
    referee = Referee(new_record(_config(), SEED))
    for data in logged.inputs:
        referee.submit(I.from_json(data))
    assert referee.step is Step.AIMS
    camera = Camera("right")
    again, lines_again = _session(referee, camera, game_log)
    again.play_step()
    game_log.close()
    assert "  1, 2, 3: everyone aims." in lines_again and "  1, 2, 3: Dee aims again." in lines_again
    assert [r["shooters"] for r in camera.reads] == [[0, 1, 2, 3, 4, 5], [3]]
    assert aims_entered(again).aims == {n: p.entered for n, p in plans.items()}
    kinds = [next(iter(s)) for s in read(log_path).seen if "aims" in s or "aims_again" in s]
    assert kinds == ["aims", "aims", "aims_again"]  # the killed table's count, then the resumed table's two
    assert sum(i["kind"] == "aims" for i in read(log_path).inputs) == 1


def _config():
    from controller.record.generator import seating
    from controller.rules import RuleSet
    from controller.table import config as table_config

    names = [n for n, _ in seating(RuleSet("yakuzas"), 6)]
    return table_config.from_dict({"game": {"ruleset": "yakuzas", "players": names, "bank": "digital"}})


def _session(referee: Referee, camera: Camera, game_log) -> tuple[Session, list[str]]:
    from controller.devices.opening import open_simulated

    devices, script = open_simulated(_config().devices())
    bots = Bots(referee, SEED, TEMPER)
    lines: list[str] = []
    session = Session(referee, source=bots, bots=bots, devices=devices, script=script, camera=camera,
                      say=lines.append, game_log=game_log)
    return session, lines
