"""Self-checks of the independent clip renderer (bench/independent_clips.py): what it draws is what its truth says.

The renderer is the second opinion on the vision code, so it is checked against the conventions themselves: the
markers are found by plain cv2.aruco where the pinhole model puts them, a knocked standee really lies flat at
the end (its crown marker gone), a touched one stands again, and a weapon's marker reads with its top edge
towards the muzzle and its line of fire on the seat the truth names.
"""

import importlib.util
import math
import sys
from pathlib import Path

import cv2
import numpy as np
import pytest

BENCH = Path(__file__).resolve().parents[2] / "bench" / "independent_clips.py"
_spec = importlib.util.spec_from_file_location("independent_clips", BENCH)
assert _spec and _spec.loader
ic = importlib.util.module_from_spec(_spec)
sys.modules["independent_clips"] = ic
_spec.loader.exec_module(ic)

DETECTOR = cv2.aruco.ArucoDetector(ic.DICT, cv2.aruco.DetectorParameters())


def detect(img: np.ndarray) -> dict[int, np.ndarray]:
    corners, ids, _ = DETECTOR.detectMarkers(img)
    if ids is None:
        return {}
    return {int(i): c.reshape(4, 2) for c, i in zip(corners, ids.ravel())}


def first_scene(kind: str, outcome: str | None = None, start: int = 0):
    for seed in range(start, start + 200):
        scene = ic.make_scene(kind, seed, False)
        if outcome is None or scene.truth.get("outcome") == outcome:
            return scene
    raise AssertionError(f"no {kind} scene with outcome {outcome}")


@pytest.mark.parametrize("kind,seed", [("throw", 11), ("throw", 12), ("aim", 13)])
def test_markers_of_a_clean_first_frame_are_found_where_the_camera_model_puts_them(kind, seed):
    scene = ic.make_scene(kind, seed, False)
    seats = scene.meta["seats"]
    found = detect(scene.frame(0))
    assert set(range(4)) <= set(found), sorted(found)
    assert {10 + s for s in range(seats)} <= set(found), sorted(found)
    bases = {20 + s for s in range(seats)} & set(found)
    assert len(bases) >= seats - 1, sorted(found)
    assert set(found) <= set(range(4)) | {10 + s for s in range(seats)} | {20 + s for s in range(seats)}
    cam = scene.renderer.cam
    for i, card in enumerate(scene.table.corner_cards):
        expected = cam.project(card.corners.mean(axis=0)[None])[0]
        assert np.linalg.norm(found[i].mean(axis=0) - expected) < 1.5
    for st in scene.table.standees:
        expected = cam.project(st.crown_centre(0)[None])[0]
        assert np.linalg.norm(found[10 + st.seat].mean(axis=0) - expected) < 1.5


def test_a_knocked_standee_lies_flat_at_the_end_and_its_crown_is_no_longer_seen():
    scene = first_scene("throw", "knock")
    truth = scene.truth
    end = (scene.n_frames - 1) / scene.fps
    assert truth["knocked"] and not truth["touched"]
    found = detect(scene.frame(scene.n_frames - 1))
    for st in scene.table.standees:
        normal_z = float(st.crown_normal(end)[2])
        if st.seat in truth["knocked"]:
            assert normal_z < 0.1, (st.seat, normal_z)
            assert 10 + st.seat not in found
        else:
            assert st.motion is None and normal_z == pytest.approx(1.0)
            assert 10 + st.seat in found


def test_a_touched_standee_moved_and_stands_again():
    scene = first_scene("throw", "touch")
    (seat,) = scene.truth["touched"]
    st = scene.table.standees[seat]
    times = np.arange(scene.n_frames) / scene.fps
    tilt = [math.degrees(math.acos(min(1.0, float(st.crown_normal(t)[2])))) for t in times]
    assert max(tilt) >= 1.0
    assert tilt[-1] < 0.3
    others = [s for s in scene.table.standees if s.seat != seat]
    assert all(s.motion is None for s in others)
    found = detect(scene.frame(scene.n_frames - 1))
    assert 10 + seat in found


def test_a_miss_comes_to_rest_clear_of_every_standee():
    scene = first_scene("throw", "miss_table")
    assert scene.truth["knocked"] == [] and scene.truth["touched"] == []
    assert all(s.motion is None for s in scene.table.standees)
    rest = scene.probes["star"](scene.probes["rest_t"] + 1)
    for st in scene.table.standees:
        c, a, b, ha, hb = st.card_rect()
        assert ic.dist_to_rect(rest, c, a, b, ha, hb) > 3.0


def test_a_weapon_marker_points_its_top_edge_at_the_muzzle_and_its_line_of_fire_at_the_truth():
    scene = ic.make_scene("aim", 14, False)
    end = (scene.n_frames - 1) / scene.fps
    found = detect(scene.frame(scene.n_frames - 1))
    cam = scene.renderer.cam
    checked = 0
    for seat_s, target in scene.truth["aims"].items():
        seat = int(seat_s)
        pose = scene.probes["weapon"](seat, end)
        if target is None:
            continue
        pos, yaw, pitch = pose
        got, d1, d2 = ic.line_of_fire_target(pos, yaw, scene.table, seat)
        assert got == target and d2 - d1 > 3.0
        if 30 + seat not in found:
            continue
        c = found[30 + seat]
        top_mid = (c[0] + c[1]) / 2 - c.mean(axis=0)
        f = np.array([math.cos(yaw) * math.cos(pitch), math.sin(yaw) * math.cos(pitch), -math.sin(pitch)])
        muzzle = cam.project((pos + f * 10)[None])[0] - cam.project(pos[None])[0]
        cos = float(top_mid.dot(muzzle) / np.linalg.norm(top_mid) / np.linalg.norm(muzzle))
        assert cos > math.cos(math.radians(20)), (seat, cos)
        checked += 1
    assert checked >= 2


def test_the_clip_folder_follows_the_clip_format(tmp_path):
    scene = ic.make_scene("throw", 15, True)
    scene.duration = 0.1  # a few frames are enough for the format
    clip = ic.write_clip(scene, tmp_path / "clip")
    import json
    meta = json.loads((clip / "clip.json").read_text())
    assert set(meta) == {"fps", "seats", "thrower"} and 6 <= meta["seats"] <= 9
    truth = json.loads((clip / "truth.json").read_text())
    assert {"knocked", "touched"} <= set(truth)
    frames = sorted((clip / "frames").glob("*.png"))
    assert [f.name for f in frames[:2]] == ["000000.png", "000001.png"] and len(frames) == 6
    assert cv2.imread(str(frames[0])).shape == (480, 640, 3)


def markers_where_the_camera_puts_them(scene, frame, move=(0.0, 0.0), tol=1.5):
    """Every corner and crown marker of a still scene decoded within `tol` px of where the camera model (and the
    drift drawn, `move`) puts it; returns the corner markers' centres."""
    found = detect(frame)
    cam = scene.renderer.cam
    centres = {}
    for i, card in enumerate(scene.table.corner_cards):
        assert i in found, (i, sorted(found))
        expected = cam.project(card.corners.mean(axis=0)[None])[0] + np.asarray(move)
        centres[i] = found[i].mean(axis=0)
        assert np.linalg.norm(centres[i] - expected) < tol, (i, centres[i], expected)
    for st in scene.table.standees:
        assert 10 + st.seat in found, (st.seat, sorted(found))
        expected = cam.project(st.crown_centre(0)[None])[0] + np.asarray(move)
        assert np.linalg.norm(found[10 + st.seat].mean(axis=0) - expected) < tol
    return centres


def still_scene(seed: int = 11):
    """A clean throw scene filmed before anything moves (its first 0.2 s), shake off."""
    scene = ic.make_scene("throw", seed, False)
    scene.renderer.look.shake_px = 0.0
    return scene


def test_the_auto_exposure_moves_the_gain_as_drawn_and_the_markers_still_read():
    scene, plain = still_scene(), still_scene()
    for s in (scene, plain):
        s.renderer.look.ae_step, s.renderer.look.ae_at, s.renderer.look.ae_rise = 0.1, 0.0, 0.2
        s.renderer.look.ae_settle, s.renderer.look.ae_keep = 0.4, 0.5
    plain.renderer.look.ae_step = 0.0
    r = scene.renderer
    assert r.exposure_gain(0.0) == 1.0 and r.exposure_gain(0.2) == pytest.approx(1.1)
    assert r.exposure_gain(0.6) == pytest.approx(1.05) and r.exposure_gain(0.1) == pytest.approx(1.05)
    # at its peak (frame 12 of 60 fps): the whole frame 10 % brighter than the same frame without it
    for s in (scene, plain):
        for i in range(12):
            s.frame(i)
    lit, base = scene.frame(12).astype(float), plain.frame(12).astype(float)
    unclipped = (base > 20) & (base < 200)
    assert float(np.median(lit[unclipped] / base[unclipped])) == pytest.approx(1.1, abs=0.02)
    markers_where_the_camera_puts_them(scene, lit.astype(np.uint8))


def test_the_rolling_flicker_draws_bands_that_move_down_the_frame_and_the_markers_still_read():
    scene, plain = still_scene(), still_scene()
    scene.renderer.look.bands, scene.renderer.look.lamp_hz, scene.renderer.look.readout = 0.02, 100.0, 0.025
    ratios = []
    for i in range(2):
        banded, base = scene.frame(i).astype(float), plain.frame(i).astype(float)
        ratios.append(banded.mean(axis=(1, 2)) / base.mean(axis=(1, 2)))
        drawn = scene.renderer.band_gain(i / scene.fps).ravel()
        assert np.corrcoef(ratios[-1], drawn)[0, 1] > 0.9  # the rows differ as the lamp under the shutter says
        assert np.ptp(ratios[-1]) > 0.03
        if i == 0:
            markers_where_the_camera_puts_them(scene, banded.astype(np.uint8))
    assert np.corrcoef(ratios[0], ratios[1])[0, 1] < 0.5  # a 100 Hz lamp at 60 fps: the bands moved


def test_the_drift_moves_the_corner_markers_by_what_was_drawn():
    scene = still_scene()
    scene.renderer.look.drift, scene.renderer.look.drift_at, scene.renderer.look.drift_for = (3.0, -2.0), 0.0, 0.1
    assert np.allclose(scene.renderer.drift_at(0.05), (1.5, -1.0)) and np.allclose(scene.renderer.drift_at(1), (3, -2))
    before = markers_where_the_camera_puts_them(scene, scene.frame(0))
    after = markers_where_the_camera_puts_them(scene, scene.frame(9), move=(3.0, -2.0))
    for i in before:
        assert np.linalg.norm(after[i] - before[i] - np.array([3.0, -2.0])) < 0.3, (i, after[i] - before[i])


def test_the_mildest_drift_on_a_2_px_shake_keeps_the_markers_where_they_are_drawn():
    scene = still_scene()
    lk = scene.renderer.look
    lk.drift, lk.drift_at, lk.drift_for, lk.shake_px = (1.0, 0.0), 0.0, 0.3, 2.0
    for i in range(12):
        frame = scene.frame(i)
    markers_where_the_camera_puts_them(scene, frame, move=(1.0, 0.0), tol=1.5 + 2.0)


def test_an_over_bright_frame_clips_its_highlights_and_the_markers_still_read():
    scene, plain = still_scene(), still_scene()
    lk = scene.renderer.look
    lk.brightness, lk.bloom = 1.5, 0.15
    frame = scene.frame(0)
    clipped = (frame.min(axis=2) >= 250).mean()
    assert clipped > 0.01 and clipped > 3 * (plain.frame(0).min(axis=2) >= 250).mean()  # the paper clipped white
    markers_where_the_camera_puts_them(scene, frame)


def test_a_camera_tilted_past_20_degrees_still_shows_the_corners_and_crowns():
    table, cam, _ = ic.build_table(np.random.default_rng(5), 7, 80.0, tilt=24.0)
    assert ic.camera_tilt(cam) > 23
    r = ic.Renderer(cam, ic.Look(), np.random.default_rng(0))
    r.bake_static(table.corner_cards + table.base_cards, table.table_quad, table.floor,
                  [s.parts(0)[0].corners for s in table.standees], [s.parts(0) for s in table.standees])
    scene = ic.Scene(60, 1.0, {}, {}, r, table, lambda t: ([], []))
    markers_where_the_camera_puts_them(scene, scene.frame(0))


def test_a_forced_star_on_a_crown_rests_on_the_crown_seen_nearest_the_border_in_the_light_and_tilt_asked():
    scene = ic.throw_scene(8_000_006, True, outcome="miss_crown", look="dim", tilt=23.0, target="edge",
                           crown_offset=2.0)
    truth, cam = scene.truth, scene.renderer.cam
    assert truth["outcome"] == "miss_crown" and truth["knocked"] == [] and truth["touched"] == []
    assert "dim" in truth["conditions"] and "tilt20-25" in truth["conditions"] and truth["tilt_deg"] > 20
    assert all(s.motion is None for s in scene.table.standees)  # nothing moved: a miss
    rest = scene.probes["star"](scene.probes["rest_t"] + 1)
    seat = ic.edge_seat(cam, scene.table, truth["thrower"])
    st = scene.table.standees[seat]
    crown = st.crown_centre(0)
    assert np.linalg.norm((rest - crown)[:2]) == pytest.approx(2.0, abs=1e-6)  # off its centre, still over the card
    assert 0.0 < rest[2] - crown[2] < 1.0
    def border(s):
        x, y = cam.project(s.crown_centre(0)[None])[0]
        return min(x, cam.width - x, y, cam.height - y)
    assert all(border(st) <= border(o) for o in scene.table.standees if o.seat != truth["thrower"])
    with pytest.raises(ValueError):
        ic.throw_scene(1, True, outcome="miss_crown", crown_offset=3.0)


def test_a_throw_filmed_at_another_frame_rate_is_the_same_throw_sampled_at_that_rate():
    fast, slow = ic.throw_scene(8_100_003, True, fps=60), ic.throw_scene(8_100_003, True, fps=30)
    assert slow.meta["fps"] == 30 and fast.meta["fps"] == 60 and "30fps" in slow.truth["conditions"]
    assert {k: v for k, v in slow.truth.items() if k != "conditions"} == \
        {k: v for k, v in fast.truth.items() if k != "conditions"}
    assert slow.n_frames == pytest.approx(fast.n_frames / 2, abs=1)
    # the star where it flies: the slow camera's frame i is the fast camera's frame 2 i
    shown = [(i, i / slow.fps) for i in range(slow.n_frames) if slow.probes["star"](i / slow.fps)[2] > 1.5]
    assert shown
    for i, t in shown:
        assert np.allclose(slow.probes["star"](t), fast.probes["star"](2 * i / fast.fps))
    with pytest.raises(ValueError):
        ic.throw_scene(1, False, fps=5)


def test_an_aim_count_filmed_at_another_frame_rate_is_the_same_count_sampled_at_that_rate():
    drawn, pal = ic.aim_scene(8_100_005, True), ic.aim_scene(8_100_005, True, fps=25)
    assert pal.meta["fps"] == 25 and "25fps" in pal.truth["conditions"] and "25fps" not in drawn.truth["conditions"]
    assert pal.meta["three_at"] == drawn.meta["three_at"]
    assert {k: v for k, v in pal.truth.items() if k != "conditions"} == \
        {k: v for k, v in drawn.truth.items() if k != "conditions"}
    assert pal.n_frames == pytest.approx(pal.duration * 25, abs=1)
    # every weapon where it is at the same moment, whatever the camera's rate
    for i in range(0, pal.n_frames, 7):
        t = i / pal.fps
        for seat in range(pal.meta["seats"]):
            now, then = pal.probes["weapon"](seat, t), drawn.probes["weapon"](seat, t)
            assert (now is None) == (then is None)
            if now is not None and then is not None:
                assert np.allclose(now[0], then[0]) and now[1:] == pytest.approx(then[1:])
    with pytest.raises(ValueError):
        ic.aim_scene(1, False, fps=200)


def test_a_clip_of_another_frame_size_is_set_up_for_that_size_and_its_markers_read_where_drawn():
    scene = ic.make_scene("throw", 8_100_004, False, size=(1280, 720))
    frame = scene.frame(0)
    assert frame.shape == (720, 1280, 3) and "1280x720" in scene.truth["conditions"]
    markers_where_the_camera_puts_them(scene, frame, tol=2.5)
    aim = ic.make_scene("aim", 8_100_004, False, size=(1280, 720))
    assert aim.frame(0).shape == (720, 1280, 3) and "1280x720" in aim.truth["conditions"]
    # a wide frame's narrow height: a table that fits neither the highest camera nor the widest lens is framed
    # closer to the borders and seen more nearly straight down
    wide = ic.make_scene("throw", 340_004, False, size=(1280, 720))
    assert wide.frame(0).shape == (720, 1280, 3)


def test_loot_cards_and_banknotes_lie_clear_of_every_marker_and_base_and_leave_the_clip_otherwise_the_same():
    bare = ic.make_scene("throw", 8_600_003, False)
    laid = ic.make_scene("throw", 8_600_003, False, things=True)
    assert "things" in laid.truth["conditions"] and "things" not in bare.truth["conditions"]
    assert {k: v for k, v in laid.truth.items() if k != "conditions"} == \
        {k: v for k, v in bare.truth.items() if k != "conditions"}
    table = ic.build_table(np.random.default_rng(8_600_003), 7, 80.0)[0]
    things = ic.lay_things(np.random.default_rng(1), table)
    assert len(things) >= 3
    flats = [q.corners[:, :2].astype(np.float32) for q in table.corner_cards + table.base_cards]
    for i, q in enumerate(things):
        fp = q.corners[:, :2].astype(np.float32)
        assert all(cv2.intersectConvexConvex(fp, f)[0] <= 0 for f in flats)
        assert all(cv2.intersectConvexConvex(fp, o.corners[:, :2].astype(np.float32))[0] <= 0 for o in things[:i])
        assert all(np.linalg.norm(fp.mean(axis=0) - st.pos[:2]) > 4 for st in table.standees)
    before, after = bare.frame(0), laid.frame(0)
    assert np.abs(before.astype(int) - after.astype(int)).max(axis=2).__gt__(40).sum() > 500  # they are seen
    markers_where_the_camera_puts_them(laid, after, tol=2.5)
    assert sorted(detect(after)) == sorted(detect(before))  # every base marker still read, no marker made up


@pytest.mark.parametrize("codec", ["MJPG", "XVID"])
def test_a_clip_written_as_video_holds_every_frame_close_to_the_frame_drawn(tmp_path, codec):
    scene = ic.make_scene("throw", 8_400_001, False)
    clip = ic.write_clip(scene, tmp_path / codec, video=codec)
    cap = cv2.VideoCapture(str(clip / "video.avi"))
    read = []
    while True:
        ok, frame = cap.read()
        if not ok:
            break
        read.append(frame)
    cap.release()
    assert len(read) == scene.n_frames
    for i in (0, scene.n_frames // 2, scene.n_frames - 1):
        assert 30 < cv2.PSNR(read[i], scene.frame(i)) < 60  # compressed, and the same picture
    with pytest.raises(ValueError):
        ic.write_clip(scene, tmp_path / "x", video="H264")


@pytest.mark.parametrize(("seed", "lead_s", "covered"), [
    pytest.param(860_001, 0.3, "corner", marks=pytest.mark.slow),
    pytest.param(860_010, 0.8, "standee", marks=pytest.mark.slow),
    (850_006, 0.3, "corners throughout")])
def test_an_aim_clip_that_starts_late_in_the_count_has_its_table_found_over_the_whole_clip(tmp_path, seed, lead_s,
                                                                                           covered):
    """Cut to start `lead_s` before the "3", players' arms lie over table corners or over standees in the first
    frames; they show later in the clip, and the table is found there: the aims read as drawn (before: the clip was
    refused, or the weapons aimed at the standees unseen at the start were handed other seats). Corner markers
    covered throughout the clip: the table is read from the markers flat on it that show (the base markers, any
    corner marker), and the aims read as drawn (before: the clip was refused)."""
    from vision.aim_clips import SPREAD_FRAMES, read_aim_clip, spread_frames
    from vision.aims import find_table, table_frame_count, table_of
    from vision.errors import TableUnseenError

    whole = ic.aim_scene(seed, False, things=True)
    scene = ic.aim_scene(seed, False, things=True, lead=lead_s)
    fps, meta = scene.meta["fps"], scene.meta
    cut = round((whole.meta["three_at"] - lead_s) * fps)
    assert abs(meta["three_at"] - lead_s) <= 0.5 / fps and scene.n_frames == whole.n_frames - cut
    assert f"lead{lead_s:g}s" in scene.truth["conditions"] and scene.truth["aims"] == whole.truth["aims"]
    assert np.array_equal(scene.frame(0), whole.frame(cut))
    ic.write_clip(scene, tmp_path)
    head = [scene.frame(i) for i in range(table_frame_count(fps, meta["three_at"]))]
    if covered == "corner":  # the first frames do not show every corner marker
        try:
            assert not table_of(head).by_corners
        except TableUnseenError:
            pass
        assert find_table(spread_frames((scene.frame(i) for i in range(scene.n_frames)), SPREAD_FRAMES)).by_corners
    elif covered == "standee":  # nor every standee
        assert set(range(meta["seats"])) - set(table_of(head).standees)
    else:  # no frame shows every corner marker
        assert not find_table(spread_frames((scene.frame(i) for i in range(scene.n_frames)), SPREAD_FRAMES)).by_corners
    reading = read_aim_clip(tmp_path)
    truth = scene.truth
    assert {str(s): a.target for s, a in reading.seats.items()} == truth["aims"]
    assert sorted(s for s, a in reading.seats.items() if a.late) == truth["late"]


def test_spread_frames_keeps_frames_evenly_over_a_clip_of_any_length():
    from vision.aim_clips import spread_frames

    for n in (0, 1, 5, 31, 32, 33, 100, 1000):
        kept = [int(f[0, 0]) for f in spread_frames((np.full((1, 1), i, np.int32) for i in range(n)), 16)]
        assert len(kept) == min(n, len(kept)) and (n < 16 or 16 <= len(kept) < 32)
        if len(kept) > 1:
            steps = set(np.diff(kept))
            assert len(steps) == 1 and kept[0] == 0 and n - 1 - kept[-1] < next(iter(steps))  # even, to the end


def test_the_new_effects_are_drawn_in_hard_clips_only():
    hard = [ic.random_look(np.random.default_rng(s), True)[1] for s in range(60)]
    good = [ic.random_look(np.random.default_rng(s), False)[1] for s in range(60)]
    for tag in ("auto-exposure", "rolling-flicker", "drift+shake2px", "over-bright"):
        assert any(tag in t for t in hard), tag
        assert not any(tag in t for t in good), tag


@pytest.mark.slow
def test_the_judge_on_independent_clips_in_good_conditions(tmp_path):
    """Nine throws in good light from the independent renderer, judged by the command a user runs: at most one
    wrong, and never a standee called knocked that was not."""
    import json
    import subprocess
    import sys as _sys

    repo = Path(__file__).resolve().parents[2]
    wrong, false_knocked = [], []
    for seed in range(70_000, 70_009):
        scene = ic.make_scene("throw", seed, False)
        clip = ic.write_clip(scene, tmp_path / f"throw-{seed}")
        done = subprocess.run([_sys.executable, "-m", "vision", "judge", str(clip), "--json"], check=False, cwd=repo,
                              capture_output=True, text=True, timeout=600)
        truth = scene.truth
        if done.returncode != 0:
            wrong.append((seed, truth["outcome"], done.stderr.strip()[-200:]))
            continue
        out = json.loads(done.stdout.strip().splitlines()[-1])
        if sorted(out["knocked"]) != truth["knocked"] or sorted(out["touched"]) != truth["touched"]:
            wrong.append((seed, truth["outcome"], truth["knocked"], truth["touched"], out))
        if set(out["knocked"]) - set(truth["knocked"]):
            false_knocked.append(seed)
    assert false_knocked == [], wrong
    assert len(wrong) <= 1, wrong



@pytest.mark.slow
def test_a_recorded_720p_video_of_a_table_with_loot_and_banknotes_on_it_is_judged_and_read(tmp_path):
    """What a webcam set to 1280x720 records as MPEG-4 over a table with a game in play: three throws judged and one
    aim count read by the commands a user runs; nothing wrong that does not ask, no standee called knocked that was
    not, and at most one throw and one seat not right."""
    import json
    import subprocess
    import sys as _sys

    repo = Path(__file__).resolve().parents[2]

    def run(command: str, clip: Path) -> dict:
        done = subprocess.run([_sys.executable, "-m", "vision", command, str(clip), "--json"], check=True, cwd=repo,
                              capture_output=True, text=True, timeout=600)
        return json.loads(done.stdout.strip().splitlines()[-1])

    not_right = []
    for seed in range(8_600_000, 8_600_003):
        scene = ic.throw_scene(seed, False, size=(1280, 720), things=True)
        out = run("judge", ic.write_clip(scene, tmp_path / f"throw-{seed}", video="XVID"))
        truth = scene.truth
        assert not set(out["knocked"]) - set(truth["knocked"]), (seed, out)
        if sorted(out["knocked"]) != truth["knocked"] or sorted(out["touched"]) != truth["touched"]:
            assert out["needs_godfather"], (seed, out)
            not_right.append(seed)
    assert len(not_right) <= 1, not_right
    scene = ic.aim_scene(8_600_000, False, size=(1280, 720), things=True)
    out = run("aims", ic.write_clip(scene, tmp_path / "aim", video="XVID"))
    truth = scene.truth
    wrong = [s for s, want in truth["aims"].items()
             if out["aims"].get(s, "missing") != want or (int(s) in truth["late"]) != (int(s) in out["late"])]
    assert len(wrong) <= 1 and (not wrong or out["needs_godfather"]), (wrong, out, truth["aims"])
    assert len(truth["aims"]) >= 3


@pytest.mark.parametrize(("head", "whole", "kept"), [
    ((True, 6), (True, 6), "head"),  # the first frames show the whole table: kept
    ((True, 5), (True, 6), "whole"),  # the whole clip shows a standee more
    ((True, 6), (False, 6), "head"),  # the corner markers' frame over a fit without them
    ((False, 6), (True, 5), "whole"),
    ((False, 5), (False, 5), "whole"),  # both fitted without corner markers: the whole clip has more flat markers
    ((False, 6), (False, 5), "head"),
])
def test_a_clip_keeps_the_table_of_its_first_frames_or_of_its_whole(monkeypatch, head, whole, kept):
    from vision import aim_clips
    from vision.table_plane import TablePlane

    def plane(by_corners: bool, standees: int) -> TablePlane:
        return TablePlane(np.eye(3), np.zeros(2), 80.0, {s: np.zeros(2) for s in range(standees)}, (640, 480),
                          by_corners=by_corners)

    planes = {"head": plane(*head), "whole": plane(*whole)}
    monkeypatch.setattr(aim_clips, "table_of", lambda frames, seats: planes["head"])
    monkeypatch.setattr(aim_clips, "find_table", lambda frames, seats: planes["whole"])
    frames = (np.zeros((4, 4, 3), np.uint8) for _ in range(60))
    got, rest = aim_clips._clip_table(frames, aim_clips.AimClipInfo(fps=30.0, seats=6, three_at=1.6))
    assert got is planes[kept]
    if rest is not None:  # only the frames before the "1" were read: all 60 are given back, from the first
        assert got is planes["head"] and sum(1 for _ in rest) == 60


def test_a_canted_weapon_tilts_its_card_about_the_line_of_fire_and_leaves_the_count_the_same():
    """A weapon rolled about its own axis tilts its card by that much about the muzzle's direction, centred where it
    was; a scene drawn canted is the same count (weapons, moments, aims), its cards' markers still read."""
    for roll_deg in (-35.0, 15.0, 30.0):
        parts, _ = ic.gun_parts(np.array([0.0, 0.0, 20.0]), 0.7, 0.0, 2, False, (90, 90, 90), 230, 20,
                                np.zeros((4, 4, 3), np.uint8), math.radians(roll_deg))
        card = parts[-1].corners
        normal = np.cross(card[1] - card[0], card[3] - card[0])
        tilt = math.degrees(math.acos(abs(normal[2]) / np.linalg.norm(normal)))
        assert tilt == pytest.approx(abs(roll_deg), abs=0.5)
        assert np.linalg.norm(np.mean(card, axis=0) - np.array([0.0, 0.0, 20.0])) < 1e-6
    upright, canted = ic.aim_scene(8_100_007, False), ic.aim_scene(8_100_007, False, cant=True)
    assert "canted" in canted.truth["conditions"] and "canted" not in upright.truth["conditions"]
    same = ("conditions", "covered_at_end")  # a canted card may show under another weapon, or come clear of it
    assert {k: v for k, v in canted.truth.items() if k not in same} == \
        {k: v for k, v in upright.truth.items() if k not in same}
    last = canted.n_frames - 1
    seen = detect(canted.frame(last))
    rests = [int(s) for s, target in canted.truth["aims"].items() if target is not None]
    assert rests and sum(30 + s in seen for s in rests) >= len(rests) - 1


def test_a_weapon_turned_onto_another_seat_after_the_deadline_keeps_its_aim_in_the_truth():
    """With `turn_after`, weapons at rest on their target at the deadline are turned onto another seat after it and
    held there: the truth keeps the aim at the deadline, in time (the count up to then is the same scene), while
    at the end the weapon's line of fire points at the other seat, its marker still read."""
    plain, turned = ic.aim_scene(8_100_008, False), ic.aim_scene(8_100_008, False, turn_after=True)
    moved = [int(s) for s, kind in turned.truth["kinds"].items() if kind == "turned-after"]
    assert moved and "turned-after" in turned.truth["conditions"]
    assert all(plain.truth["kinds"][str(s)] == "on-time" for s in moved)
    for key in ("aims", "late", "three_at"):
        assert turned.truth[key] == plain.truth[key]
    deadline = turned.truth["three_at"] + 0.5
    t_end = (turned.n_frames - 1) / turned.fps
    seen = detect(turned.frame(turned.n_frames - 1))
    for seat in moved:
        at_deadline = turned.probes["weapon"](seat, deadline)
        assert ic.line_of_fire_target(at_deadline[0], at_deadline[1], turned.table, seat)[0] == \
            turned.truth["aims"][str(seat)]
        pos, yaw, _ = turned.probes["weapon"](seat, t_end)
        assert ic.line_of_fire_target(pos, yaw, turned.table, seat)[0] not in (turned.truth["aims"][str(seat)], None)
        assert 30 + seat in seen


def test_a_vibrating_camera_bends_the_rows_of_some_hard_clips_only():
    """A third of the hard clips film a camera vibrating while the rolling shutter reads the rows: the rows of a
    frame are shifted apart (by more than a pixel from top to bottom); a clip in good conditions moves them alike."""
    drawn = [np.random.default_rng([seed, 11]).random() < 1 / 3 for seed in range(30)]
    assert 3 <= sum(drawn) <= 20
    scene = ic.throw_scene(drawn.index(True), True)
    assert "rolling-shake" in scene.truth["conditions"]
    rows = scene.renderer.row_shift(0.3, 0)
    assert rows.shape[0] == scene.renderer.cam.height and float(np.ptp(rows)) > 1.0
    good = ic.throw_scene(drawn.index(True), False)
    assert good.renderer.look.vibration_px == 0 and not good.renderer.row_shift(0.3, 0).any()
