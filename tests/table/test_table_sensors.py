"""Sensors and the camera failing at the table: reported, and the Godfather decides."""

from __future__ import annotations

from test_table_referee import advance_to

from controller.record import replay, result
from controller.table import inputs as I
from controller.table.referee import Step
from controller.table.session import CameraVerdict
from table_kit import table


class FailingCamera:
    def __init__(self):
        self.calls = 0

    def judge(self, **_):
        self.calls += 1
        raise RuntimeError("no frames from /dev/video0")


class UnsureCamera:
    def judge(self, *, truth, **_):
        knocked, touched = truth
        return CameraVerdict(list(knocked), list(touched), 0.3, True, "the crown was hidden")


class UnsureOfOneSeatCamera:
    """Judged the throw, unsure of one seat only (seat 3: the lowest confidence)."""

    def judge(self, *, truth, **_):
        knocked, touched = truth
        seats = {"3": {"confidence": 0.35}, "4": {"confidence": 0.9}}
        return CameraVerdict(list(knocked), list(touched), 0.35, True, "judged", details={"seats": seats})


class WrongCamera:
    """Confident, but says nothing was knocked: the tilt sensors say otherwise."""

    def judge(self, **_):
        return CameraVerdict([], [], 0.99, False, "nothing moved")


def throws_of(session):
    return [t for r in session.referee.record.rounds for t in r.shuriken]


def test_camera_failing_falls_back_to_the_godfather():
    camera = FailingCamera()
    session, lines = table("yakuzas", 9, 21, camera=camera)
    session.run()
    assert camera.calls > 0 and len(throws_of(session)) == camera.calls
    assert any("The camera failed (no frames from /dev/video0)" in line for line in lines)
    assert result(replay(session.referee.record)) == result(session.referee.game)


def test_unsure_camera_asks_the_godfather():
    session, lines = table("yakuzas", 9, 21, camera=UnsureCamera())
    session.run()
    assert throws_of(session) and any("The camera is unsure: the crown was hidden: the Godfather decides." in line
                                      for line in lines)


def test_a_camera_unsure_of_one_standee_names_its_player():
    session, lines = table("yakuzas", 9, 21, camera=UnsureOfOneSeatCamera())
    session.run()
    dee = session.referee.game.players[3].name
    said = [line for line in lines if "unsure" in line]
    assert said and all(f"The camera is unsure of {dee}'s standee: the Godfather decides." in line for line in said)
    assert not any("(judged)" in line for line in lines)


def test_camera_and_tilt_sensors_disagreeing_go_to_the_godfather():
    session, lines = table("yakuzas", 9, 22, camera=WrongCamera())
    session.run()
    knocked = [t for t in throws_of(session) if t.knocked]
    assert knocked, "the bots knocked someone over"
    assert any("The camera and the tilt sensors disagree: the Godfather decides." in line for line in lines)


def test_a_seat_sensor_failing_mid_game_is_reported_and_the_godfather_decides():
    session, lines = table("classic", 6, 23)
    advance_to(session, Step.WITHDRAW, round_no=3)
    devices, script = session.devices, session.script
    script.drive(2, False)  # seat 2's cable is pulled out: its input reads "down" for good
    devices.clock.advance(devices.config.timing.never_upright_after + 1)
    assert any("Sensor fault found at seat 2" in line for line in lines)
    before = len(session.referee.record.rounds)
    session.play_step()  # the withdrawal count, with seat 2's sensor out
    assert any("Check by eye: the sensors of C" in line for line in lines)
    script.drive(2, True)  # plugged back in
    while session.referee.step is not Step.OVER:
        session.play_step()
    assert len(session.referee.record.rounds) > before
    assert result(replay(session.referee.record)) == result(session.referee.game)


def test_the_godfather_can_override_the_sensors():
    session, _ = table("classic", 5, 24)
    advance_to(session, Step.WITHDRAW)
    name = session.referee.game.players[1].name
    session.submit(I.Withdrawals([name], source="godfather"))
    assert session.referee.round.withdrew == {1}
