"""The manual clock runs timers in order, each at its own time; timers can be set again."""

import threading

from controller.devices.clock import ManualClock, MonotonicClock


def test_timers_run_in_time_order_and_see_their_own_time():
    clock = ManualClock()
    seen = []
    clock.call_at(2.0, lambda: seen.append(("b", clock.now())))
    clock.call_at(1.0, lambda: seen.append(("a", clock.now())))
    clock.call_at(2.0, lambda: seen.append(("c", clock.now())))
    clock.advance_to(1.5)
    assert seen == [("a", 1.0)] and clock.now() == 1.5
    clock.advance(1.0)
    assert seen == [("a", 1.0), ("b", 2.0), ("c", 2.0)] and clock.now() == 2.5


def test_timers_set_by_timers_and_cancelled_timers():
    clock = ManualClock()
    seen = []
    dropped = clock.call_at(0.5, lambda: seen.append("dropped"))
    clock.call_at(1.0, lambda: clock.call_at(1.2, lambda: seen.append(clock.now())))
    dropped.cancel()
    clock.advance(2.0)
    assert seen == [1.2]


def test_a_failing_timer_does_not_stop_the_others(caplog):
    clock = ManualClock()
    seen = []
    clock.call_at(1.0, lambda: 1 / 0)
    clock.call_at(1.0, lambda: seen.append(True))
    clock.advance(1.0)
    assert seen == [True] and "failed" in caplog.text


def test_a_timer_set_again_runs_once_at_its_new_time():
    clock = ManualClock()
    seen = []
    timer = clock.timer(lambda: seen.append(clock.now()))
    with clock.lock:
        timer.set(1.0)
        timer.set(2.0)
    assert timer.pending
    clock.advance_to(1.5)
    assert seen == []
    clock.advance_to(3.0)
    assert seen == [2.0] and not timer.pending


def test_a_cancelled_timer_can_be_set_again_even_from_its_own_callback():
    clock = ManualClock()
    seen = []

    def tick():
        seen.append(clock.now())
        if len(seen) < 3:
            timer.set(clock.now() + 0.5)

    timer = clock.timer(tick)
    with clock.lock:
        timer.set(0.5)
        timer.cancel()
        timer.set(1.0)
    clock.advance(5.0)
    assert seen == [1.0, 1.5, 2.0]


def test_the_real_clock_follows_a_timer_moved_earlier():
    clock = MonotonicClock()
    try:
        done = threading.Event()
        timer = clock.timer(done.set)
        with clock.lock:
            timer.set(clock.now() + 60.0)
            timer.set(clock.now() + 0.01)
        assert done.wait(2.0)
    finally:
        clock.close()
