"""End to end: the real firmware in the simulator, the host driver on a real
serial.Serial over a pty (or sim://), through injected faults."""

from __future__ import annotations

import statistics
import time

from bridge_helpers import toggle, wait_for

from controller.devices.hub_backend import HubBackend
from firmware_bridge.sim import Faults, SimHub

WRAP_SOON = 2**32 - 2_000_000  # the hub's 32-bit stamps wrap 2 s into the run


def test_ten_thousand_events_through_bit_flips_drops_duplicates_and_two_unplugs():
    faults = Faults(bit_flip_rate=1e-3, drop_rate=0.01, duplicate_rate=0.01)
    with SimHub(transport="pty", faults=faults, seed=11, debounce_us=0, clock_start_us=WRAP_SOON, drift_ppm=40) as sim:
        got = []
        hub = HubBackend(sim.url, seats=9)
        try:
            hub.tilt.on_event(got.append)
            assert hub.wait_connected(20)
            state = [True] * 9
            unplugs = [3000, 7000]
            for i in range(10_000):
                if unplugs and i == unplugs[0]:
                    unplugs.pop(0)
                    sim.unplug()
                    time.sleep(0.2)
                    sim.plug()
                toggle(sim, i % 9, state)
                if sim.queued > 500:  # keep within the hub's queue while the host is away
                    wait_for(lambda: sim.queued < 100, 20, "the hub's queue to drain")
            wait_for(lambda: len(got) >= 10_000, 60, "every event to arrive")
            time.sleep(0.3)  # room for a stray duplicate to show up
            assert [(e.seat, e.up) for e in got] == [(s, up) for s, up, _ in sim.recorded]
            errors = [abs(e.time - sim.hub_to_host(t)) for e, (_, _, t) in zip(got, sim.recorded)]
            assert max(errors) < 0.05  # stamped at the source, mapped across the wrap
            stats = hub.driver.stats
            assert stats.reconnects == 2
            assert stats.crc_errors > 0 and stats.duplicates > 0 and stats.out_of_order > 0
            assert sim.to_host.stats.dropped > 0 and sim.to_host.stats.duplicated > 0
        finally:
            hub.close()


def test_event_times_under_0_to_5_ms_delivery_jitter():
    with SimHub(transport="pty", faults=Faults(jitter=0.005), seed=3, debounce_us=0, drift_ppm=-60) as sim:
        got = []
        hub = HubBackend(sim.url, seats=9)
        try:
            hub.tilt.on_event(got.append)
            assert hub.wait_connected(20)
            time.sleep(2.0)  # a window of clock samples
            state = [True] * 9
            for i in range(150):
                toggle(sim, i % 9, state)
                time.sleep(0.01)
            wait_for(lambda: len(got) >= 150, 20, "every event")
            errors = sorted(abs(e.time - sim.hub_to_host(t)) for e, (_, _, t) in zip(got, sim.recorded))
            assert statistics.median(errors) < 0.001
            assert errors[-1] < 0.01  # the stamps are taken at the hub, not on arrival
        finally:
            hub.close()


def test_hub_restart_while_unplugged_is_reconciled_from_the_snapshot():
    with SimHub(transport="pty", seed=5, debounce_us=1000) as sim:
        got = []
        hub = HubBackend(sim.url, seats=9)
        try:
            hub.tilt.on_event(got.append)
            assert hub.wait_connected(20)
            sim.unplug()
            sim.stand(4, False)  # lost with the hub's power
            wait_for(lambda: len(sim.recorded) == 1, what="the hub to record seat 4")
            sim.plug(power_cycle=True)
            wait_for(lambda: len(got) == 1, what="the reconciled change")
            assert (got[0].seat, got[0].up) == (4, False)
            assert hub.driver.stats.reconnects == 1
            sim.stand(4, True)
            wait_for(lambda: len(got) == 2, what="the next change")
            time.sleep(0.3)
            assert [(e.seat, e.up) for e in got] == [(4, False), (4, True)]
            assert sim.boots == 2
        finally:
            hub.close()


def test_silent_link_is_detected_and_queued_changes_arrive_after_it():
    with SimHub(transport="pty", seed=9, debounce_us=1000) as sim:
        got = []
        hub = HubBackend(sim.url, seats=9)
        try:
            hub.tilt.on_event(got.append)
            assert hub.wait_connected(20)
            sim.silence(3.6)
            time.sleep(0.2)
            sim.stand(2, False)
            wait_for(lambda: not hub.driver.connected, 10, "the link to be declared lost")
            assert hub.tilt.upright(2) is None
            wait_for(lambda: hub.driver.connected, 10, "the link to come back")
            wait_for(lambda: len(got) == 1, 10, "the change made while silent")
            assert (got[0].seat, got[0].up) == (2, False)
            assert abs(got[0].time - sim.hub_to_host(sim.recorded[0][2])) < 0.05
            assert hub.tilt.upright(2) is False
        finally:
            hub.close()


def test_first_connection_skips_the_stale_backlog():
    with SimHub(transport="sim", seed=2, debounce_us=1000) as sim:
        sim.inject([(1, i % 2 == 0) for i in range(500)])  # far more than the hub's window holds
        sim.stand(0, False)
        wait_for(lambda: len(sim.recorded) == 501, what="the hub to record the backlog")
        got = []
        hub = HubBackend(sim.url, seats=9)
        try:
            hub.tilt.on_event(got.append)
            assert hub.wait_connected(20)
            assert hub.tilt.upright(0) is False and hub.tilt.upright(1) is True
            sim.stand(2, False)
            wait_for(lambda: got, what="a fresh change")
            time.sleep(0.3)
            assert [(e.seat, e.up) for e in got] == [(2, False)]
        finally:
            hub.close()


def test_changes_beyond_the_hubs_queue_are_recovered_from_the_snapshot(caplog):
    with SimHub(transport="pty", seed=8, debounce_us=0) as sim:
        got = []
        hub = HubBackend(sim.url, seats=9)
        try:
            hub.tilt.on_event(got.append)
            assert hub.wait_connected(20)
            sim.unplug()
            state = [True] * 9
            for _ in range(1301):  # more than the hub's queue (1024) and window hold
                toggle(sim, 0, state)
            if (len(sim.recorded) - sim.dropped) % 2 == 1:  # make the lost changes matter
                toggle(sim, 0, state)
            kept = len(sim.recorded) - sim.dropped  # the hub drops the newest once full
            sim.plug()
            wait_for(lambda: hub.tilt.upright(0) is state[0], what="the reconciled state")
            time.sleep(0.3)
            assert [(e.seat, e.up) for e in got] == [(s, up) for s, up, _ in sim.recorded[:kept]] + [(0, state[0])]
            assert any(f"dropped {sim.dropped} events" in r.message for r in caplog.records)
        finally:
            hub.close()
