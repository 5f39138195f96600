"""The judge on seeded sets of synthetic clips across every variation (see vision/synth.py).

A small set runs by default; a larger one is marked ``slow`` (CI runs it too). Neither is the set
kept for reporting only (bench/bench_vision.py), which nothing is tuned on.
"""

import os

import pytest

from vision import evaluation, synth

SMALL, LARGE = 8, 60
SEED_SMALL, SEED_LARGE, SEED_CONDITIONS = 7, 8, 11


def _results(count, seed):
    specs = synth.clip_set(count, seed=seed)
    return list(evaluation.judge_specs(specs, workers=min(2, os.cpu_count() or 1)))


@pytest.fixture(scope="module")
def small():
    return _results(SMALL, SEED_SMALL)


@pytest.fixture(scope="module")
def large():
    return _results(LARGE, SEED_LARGE)


def _check(results, count, least_exact):
    assert len(results) == count
    sure_wrong = [(r.seed, r.truth, r.verdict, r.reason) for r in results if r.wrong_and_sure]
    assert sure_wrong == []  # a wrong verdict always asks the Godfather
    assert [r.seed for r in results if r.false_knock] == []  # nobody is wounded by a camera mistake
    exact = sum(r.correct for r in results)
    assert exact >= least_exact, [(r.seed, r.truth, r.verdict, r.reason) for r in results if not r.correct]


def test_small_set_never_wrong_and_sure(small):
    _check(small, SMALL, SMALL - 2)


@pytest.mark.slow
def test_large_set_never_wrong_and_sure(large):
    _check(large, LARGE, int(0.8 * LARGE))


@pytest.mark.slow
def test_every_variation_is_in_the_large_set(large):
    table = evaluation.accuracy_by_tag(large)
    for tag in ("scenario:knock", "scenario:touch", "scenario:multi", "scenario:miss", "scenario:near_miss",
                "hand:before", "hand:thrower_arm", "hand:after", "hand:over", "shake:strong", "tilt:strong",
                "lens:barrel", "rest:crown", "rest:between", "print:faint", "blur:strong"):
        assert table[tag][1] >= 3, tag


@pytest.mark.slow
def test_every_hard_condition_on_a_set_of_its_own():
    """A few clips all in one hard condition each (synth.condition_set): none wrong and sure, nobody
    wounded by a camera mistake."""
    specs = [spec for tag in synth.CONDITIONS for spec in synth.condition_set(4, tag, seed=SEED_CONDITIONS)]
    results = list(evaluation.judge_specs(specs, workers=min(2, os.cpu_count() or 1)))
    _check(results, 4 * len(synth.CONDITIONS), int(0.85 * len(results)))


def test_ctrl_c_is_held_while_the_workers_are_forked_and_comes_after(monkeypatch):
    """A Ctrl-C raised in one of a fork's own hooks (the logging module's) is dropped there, and the measurement would
    go on to its end: a Ctrl-C while the workers judging clips are forked is only noted, and comes as soon as that is
    done; the workers are stopped at once, and Ctrl-C is as it was."""
    import multiprocessing.pool
    import signal

    pools = []
    forks = multiprocessing.pool.Pool.__init__

    def spy(self, *args, **kwargs):
        pools.append(self)
        assert signal.getsignal(signal.SIGINT) is not signal.default_int_handler
        signal.raise_signal(signal.SIGINT)  # a Ctrl-C as the workers start, handled before this returns
        forks(self, *args, **kwargs)

    monkeypatch.setattr(multiprocessing.pool.Pool, "__init__", spy)
    before = signal.signal(signal.SIGINT, signal.default_int_handler)  # as a benchmark run by hand has it
    try:
        with pytest.raises(KeyboardInterrupt):
            next(evaluation.judge_specs(synth.clip_set(2, seed=SEED_SMALL), workers=2))
        assert signal.getsignal(signal.SIGINT) is signal.default_int_handler
    finally:
        signal.signal(signal.SIGINT, before)
    assert len(pools) == 1 and len(pools[0]._pool) == 2
    for worker in pools[0]._pool:
        worker.join(timeout=10)
        assert not worker.is_alive()


def _seed_of(spec):
    return spec.seed


def test_clips_are_judged_by_workers_from_a_thread_too(monkeypatch):
    """Signal handlers are set in the main thread only: from another thread the workers judge the clips as well."""
    import threading

    monkeypatch.setattr(evaluation, "judge_spec", _seed_of)  # the workers, forked, judge with it too
    specs = synth.clip_set(3, seed=SEED_SMALL)
    out = []
    worker = threading.Thread(target=lambda: out.extend(evaluation.judge_specs(specs, workers=2)))
    worker.start()
    worker.join(timeout=60)
    assert out == [spec.seed for spec in specs]
