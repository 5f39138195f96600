"""The standee judge on mock pins and a manual clock: windows, settle, prompts, faults."""

import gc
import weakref
from dataclasses import replace

import pytest
from hypothesis import assume, given, settings
from hypothesis import strategies as st

from controller.devices import FaultKind, SeatStatus, load_config
from controller.devices.opening import open_simulated
from controller.devices.simulation import StandeeMove as Move
from controller.devices.timing import Timing

T = Timing()


def in_share_table(seats: int = 4, **timing):
    config = load_config()
    config = replace(config, seats=seats, timing=replace(config.timing, **timing))
    devices, script = open_simulated(config)
    for seat in range(seats):
        devices.judge.set_status(seat, SeatStatus.IN_SHARE)
    return devices, script


def test_window_runs_from_the_one_to_half_a_second_after_the_three():
    devices, _ = in_share_table()
    count = devices.judge.withdrawal_count([0, 1])
    assert count.window_start == 0.0
    assert count.count.times == pytest.approx((0.0, 0.8, 1.6))
    assert count.window_end == pytest.approx(2.1)


def test_lay_downs_at_both_edges_of_the_window_are_in_time():
    devices, script = in_share_table()
    count = devices.judge.withdrawal_count(range(4))
    script.play([Move(0.0, 0, False), Move(count.window_end, 1, False)], until=count.verdict_at)
    assert count.result.withdrew == (0, 1)
    assert count.result.too_late == ()
    assert devices.judge.shown(0) is SeatStatus.WITHDREW
    assert devices.judge.shown(1) is SeatStatus.WITHDREW


def test_a_lay_down_just_after_the_window_is_too_late_and_must_stand_up_again():
    devices, script = in_share_table()
    count = devices.judge.withdrawal_count(range(4))
    script.play([Move(count.window_end + 0.001, 2, False)], until=count.verdict_at)
    assert count.result.withdrew == ()
    assert count.result.too_late == (2,)
    assert devices.judge.shown(2) is SeatStatus.MUST_STAND_UP
    assert devices.judge.pending() == {2: SeatStatus.MUST_STAND_UP}
    assert devices.speaker.played[-1].clips == ("seat.2", "too_late", "stand_up")
    # The LED blinks until the standee reads upright, then shows the seat in the share again.
    lamp = devices.lights.lamp(2)
    seen = set()
    for _ in range(6):
        devices.clock.advance(0.05)
        seen.add(lamp.level)
    assert seen == {0.0, 1.0}
    script.play([Move(devices.clock.now() + 0.5, 2, True)], until=devices.clock.now() + 1.0)
    assert devices.judge.shown(2) is SeatStatus.IN_SHARE
    assert lamp.level == 1.0
    assert devices.judge.pending() == {}


def test_a_lay_down_long_after_the_verdict_still_prompts_a_stand_up():
    devices, script = in_share_table()
    count = devices.judge.withdrawal_count(range(4))
    script.play([Move(5.0, 3, False)], until=6.0)
    assert count.result.too_late == ()
    assert devices.judge.shown(3) is SeatStatus.MUST_STAND_UP


def test_the_verdict_waits_for_a_last_instant_lay_down_to_settle():
    devices, script = in_share_table()
    results = []
    count = devices.judge.withdrawal_count(range(4), on_result=results.append)
    script.play([Move(count.window_end, 0, False)], until=count.verdict_at - 0.001)
    assert results == [] and count.result is None
    devices.clock.advance_to(count.verdict_at)
    assert results == [count.result] and count.result.withdrew == (0,)
    assert count.wait(0) is count.result


def test_a_wobble_shorter_than_the_settle_time_is_ignored():
    devices, script = in_share_table()
    count = devices.judge.withdrawal_count(range(4))
    script.play(
        [Move(1.0, 0, False), Move(1.0 + T.settle - 0.001, 0, True), Move(1.0, 1, False), Move(1.0 + T.settle, 1, True)],
        until=count.verdict_at,
    )
    assert count.result.wobbled == (0,)
    assert count.result.withdrew == (1,)  # down for the whole settle time: withdrew, even if up again
    assert devices.judge.shown(0) is SeatStatus.IN_SHARE


def test_switch_chatter_at_a_change_is_debounced_into_one_lay_down():
    devices, script = in_share_table()
    changes = []
    devices.judge.on_change(changes.append)
    count = devices.judge.withdrawal_count(range(4))
    script.play([Move(1.0, 0, False, bounce=5, bounce_gap=0.002)], until=count.verdict_at)
    assert [(c.seat, c.up, c.time) for c in changes] == [(0, False, 1.0)]
    assert count.result.withdrew == (0,)
    assert count.result.faulty == ()


def test_a_standee_already_down_at_the_one_stays_in_the_share_unless_laid_down_again_in_time():
    devices, script = in_share_table()
    script.play([Move(0.1, 0, False), Move(0.1, 1, False)], until=1.0)
    assert devices.judge.pending() == {0: SeatStatus.MUST_STAND_UP, 1: SeatStatus.MUST_STAND_UP}
    count = devices.judge.withdrawal_count(range(4))
    assert devices.judge.pending() == {}  # free to lie during the window
    script.play([Move(1.5, 1, True), Move(2.0, 1, False)], until=count.verdict_at)
    assert count.result.down_before_count == (0,)
    assert count.result.withdrew == (1,)
    assert devices.judge.shown(0) is SeatStatus.MUST_STAND_UP


def test_the_window_opens_at_the_one_not_before():
    devices, script = in_share_table()
    count = devices.judge.withdrawal_count(range(4), at=1.0)
    script.play(
        [Move(0.999, 0, False), Move(1.0, 1, False), Move(0.8, 2, False), Move(0.95, 2, True)],
        until=count.verdict_at,
    )
    assert count.result.withdrew == (1,)
    assert count.result.down_before_count == (0,)
    assert devices.judge.shown(2) is SeatStatus.IN_SHARE


def test_count_leds_go_dark_when_the_window_closes():
    devices, _ = in_share_table()
    count = devices.judge.withdrawal_count(range(4))
    devices.clock.advance_to(count.window_end - 0.001)
    assert devices.count_lights.lit() == [True, True, True]
    devices.clock.advance_to(count.window_end)
    assert devices.count_lights.lit() == [False, False, False]


def test_only_seats_in_the_count_are_judged():
    devices, script = in_share_table()
    count = devices.judge.withdrawal_count([0, 1])
    script.play([Move(1.5, 3, False)], until=count.verdict_at)
    assert count.result.withdrew == ()
    assert devices.judge.shown(3) is SeatStatus.MUST_STAND_UP


def test_one_count_at_a_time():
    devices, _ = in_share_table()
    devices.judge.withdrawal_count([0])
    with pytest.raises(RuntimeError, match="already under way"):
        devices.judge.withdrawal_count([1])
    with pytest.raises(ValueError, match="seat 7 is not at this table"):
        devices.judge.set_status(7, SeatStatus.HIT)


def test_a_chattering_seat_is_reported_and_shows_a_fault_until_it_calms_down():
    devices, script = in_share_table(seats=2)
    faults = []
    devices.judge.on_fault(faults.append)
    moves = [Move(1.0 + 0.05 * i, 0, i % 2 == 1) for i in range(10)]  # 20 changes a second
    script.play(moves, until=1.5)
    assert [(f.seat, f.kind, f.cleared) for f in faults] == [(0, FaultKind.CHATTER, False)]
    assert devices.judge.shown(0) is SeatStatus.FAULT
    assert devices.judge.faults() == {0: {FaultKind.CHATTER}}
    devices.clock.advance_to(1.45 + T.chatter_window + 0.01)
    assert [(f.kind, f.cleared) for f in faults][-1] == (FaultKind.CHATTER, True)
    assert devices.judge.shown(0) is SeatStatus.IN_SHARE


def test_chatter_during_a_count_marks_the_seat_faulty():
    devices, script = in_share_table(seats=2)
    count = devices.judge.withdrawal_count([0, 1])
    script.play([Move(0.5 + 0.04 * i, 1, i % 2 == 1) for i in range(9)], until=count.verdict_at)
    assert count.result.faulty == (1,)


def test_an_unplugged_seat_never_reads_upright_and_is_reported():
    config = replace(load_config(), seats=3)
    devices, script = open_simulated(config, stand=False)
    script.stand([0, 1])  # seat 2's switch is unplugged: its input floats high on the pull-up
    faults = []
    devices.judge.on_fault(faults.append)
    for seat in range(3):
        devices.judge.set_status(seat, SeatStatus.IN_SHARE)
    devices.clock.advance(T.never_upright_after - 0.01)
    assert faults == []
    assert devices.judge.pending() == {2: SeatStatus.MUST_STAND_UP}
    devices.clock.advance(0.02)
    assert [(f.seat, f.kind) for f in faults] == [(2, FaultKind.NEVER_UPRIGHT)]
    assert "seat 2: never reads upright" in faults[0].describe()
    assert devices.judge.shown(2) is SeatStatus.FAULT
    script.play([Move(devices.clock.now() + 1.0, 2, True)], until=devices.clock.now() + 2.0)
    assert faults[-1].cleared and devices.judge.shown(2) is SeatStatus.IN_SHARE


def test_a_seat_that_need_not_stand_is_never_reported_missing():
    devices, script = in_share_table(seats=2)
    devices.judge.set_status(1, SeatStatus.DEAD)
    script.play([Move(1.0, 1, False)], until=1.0 + 3 * T.never_upright_after)
    assert devices.judge.faults() == {} and devices.judge.shown(1) is SeatStatus.DEAD


def test_a_hit_player_must_lay_his_standee_down():
    devices, script = in_share_table(seats=3)
    devices.judge.set_status(1, SeatStatus.HIT)
    assert devices.judge.shown(1) is SeatStatus.MUST_LIE_DOWN
    assert devices.judge.pending() == {1: SeatStatus.MUST_LIE_DOWN}
    ready = []
    devices.judge.when_ready(lambda: ready.append(devices.clock.now()))
    script.play([Move(1.0, 1, False)], until=2.0)
    assert devices.judge.shown(1) is SeatStatus.HIT
    assert ready == [pytest.approx(1.0 + T.settle + T.debounce)]


def test_between_rounds_every_living_player_must_stand():
    devices, script = in_share_table(seats=3)
    for seat in range(3):
        devices.judge.set_status(seat, SeatStatus.HIT if seat else SeatStatus.WITHDREW)
    script.play([Move(0.5, 0, False), Move(0.5, 1, False), Move(0.5, 2, False)], until=1.0)
    devices.judge.set_status(2, SeatStatus.DEAD)
    for seat in (0, 1):  # next round: the living are back in the share
        devices.judge.set_status(seat, SeatStatus.IN_SHARE)
    assert devices.judge.pending() == {0: SeatStatus.MUST_STAND_UP, 1: SeatStatus.MUST_STAND_UP}
    ready = []
    devices.judge.when_ready(lambda: ready.append(True))
    script.play([Move(2.0, 0, True)], until=2.5)
    assert ready == [] and devices.judge.pending() == {1: SeatStatus.MUST_STAND_UP}
    script.play([Move(3.0, 1, True)], until=3.5)
    assert ready == [True] and devices.judge.shown(2) is SeatStatus.DEAD


@settings(max_examples=60, deadline=None)
@given(
    offset=st.floats(min_value=-0.3, max_value=0.3, allow_nan=False),
    held=st.floats(min_value=0.0, max_value=0.2, allow_nan=False),
)
def test_every_lay_down_near_the_window_end_is_judged_by_the_rules(offset, held):
    devices, script = in_share_table(seats=1)
    count = devices.judge.withdrawal_count([0])
    down = count.window_end + offset
    moves = [Move(down, 0, False)]
    if held < 0.15:
        moves.append(Move(down + max(held, T.debounce + 0.001), 0, True))
    # the exact instant at which a lay-down settles just as the verdict is given is a tie that
    # floating point breaks either way: the rules are checked on each side of it, not on it
    assume(abs(down + T.settle + T.debounce - count.verdict_at) > 1e-6)
    script.play(moves, until=count.verdict_at + 0.5)
    stayed_down_for = max(held, T.debounce + 0.001) if held < 0.15 else 1.0
    if stayed_down_for < T.settle:
        expected = ((), ())
    elif down <= count.window_end:
        expected = ((0,), ())
    elif down + T.settle + T.debounce <= count.verdict_at:
        expected = ((), (0,))
    else:
        expected = ((), ())  # too late even for the verdict: only prompted
    assert (count.result.withdrew, count.result.too_late) == expected


def test_rounds_of_counts_and_lay_downs_leave_nothing_for_the_garbage_collector():
    devices, script = in_share_table(seats=2)
    judge, clock = devices.judge, devices.clock
    changes = []
    judge.on_change(changes.append)
    gc.collect()
    collected = []

    def note(phase, info):
        if phase == "stop":
            collected.append(info["collected"])

    gc.callbacks.append(note)
    try:
        for _ in range(20):
            for seat in (0, 1):
                judge.set_status(seat, SeatStatus.IN_SHARE)
            start = clock.now()
            count = judge.withdrawal_count([0, 1])
            script.play(
                [Move(start + 0.5, 0, False, bounce=3), Move(start + 1.0, 1, False), Move(start + 1.04, 1, True)],
                until=count.verdict_at,
            )
            assert count.result.withdrew == (0,) and count.result.wobbled == (1,)
            script.play([Move(clock.now() + 0.1, 0, True)], until=clock.now() + 1.0)
        finished = weakref.ref(count)
        del count
        judge.withdrawal_count([0, 1])  # the judge lets go of the last one
        assert finished() is None  # freed at once: no reference cycle kept it
        gc.collect()
    finally:
        gc.callbacks.remove(note)
    assert sum(collected) == 0
    assert len(changes) == 40
