import json

import cv2
import numpy as np
import pytest

from vision.sources import (
    CameraSettings,
    ClipError,
    FrameFolder,
    MemoryFrames,
    PiCamera,
    UvcCamera,
    VideoFile,
    open_clip,
    open_video,
    read_clip_info,
)


def _frames(n=3):
    return [np.full((48, 64, 3), 40 * i, np.uint8) for i in range(n)]


def test_frame_folder_reads_in_name_order(tmp_path):
    for i, f in enumerate(_frames()):
        cv2.imwrite(str(tmp_path / f"{i:06d}.png"), f)
    with FrameFolder(tmp_path, fps=30) as src:
        got = list(src.frames())
    assert [int(f.mean()) for f in got] == [0, 40, 80]


def test_frame_folder_names_an_undecodable_frame(tmp_path):
    cv2.imwrite(str(tmp_path / "000000.png"), _frames(1)[0])
    (tmp_path / "000001.png").write_bytes(b"not a png")
    src = FrameFolder(tmp_path, fps=30)
    src.read()
    with pytest.raises(ClipError, match="000001.png"):
        src.read()


def test_video_file_round_trip(tmp_path):
    path = tmp_path / "video.avi"
    writer = cv2.VideoWriter(str(path), cv2.VideoWriter.fourcc(*"MJPG"), 30, (64, 48))
    for f in _frames(4):
        writer.write(f)
    writer.release()
    with VideoFile(path) as src:
        assert len(list(src.frames())) == 4


def _half_flat(k: int) -> np.ndarray:
    """A 1280x720 frame whose upper half is black (a dark room, a lens's corners) and lower half a lit,
    noisy table: the encoder (FFmpeg's, through OpenCV) builds its Huffman tables for each frame, and codes
    the flat blocks as a long run of zero bits."""
    y, x = np.mgrid[0:720, 0:1280]
    lit = 60 + 40 * np.sin(x / 90.0) * np.cos(y / 70.0) + np.random.default_rng(k).normal(0, 3, (720, 1280))
    frame = np.repeat(np.clip(lit, 0, 255).astype(np.uint8)[..., None], 3, axis=2)
    frame[:360] = 0
    return frame


def _mjpeg(path, frames):
    writer = cv2.VideoWriter(str(path), cv2.VideoWriter.fourcc(*"MJPG"), 30, (1280, 720))
    for f in frames:
        writer.write(f)
    writer.release()


def test_a_motion_jpeg_frame_with_a_flat_stretch_is_read_and_one_with_a_wiped_stretch_is_refused(tmp_path):
    """A flat stretch of the picture and a stretch of the file wiped to zeros hold the same bytes: the frame
    with the flat stretch is read; one whose compressed data was wiped in the middle reads out of step from
    there, and is refused naming the frame."""
    path = tmp_path / "video.avi"
    _mjpeg(path, [_half_flat(k) for k in range(3)])
    data = path.read_bytes()
    frames = [m for m in range(len(data)) if data.startswith(b"\xff\xd8", m)]
    assert len(frames) == 3 and bytes(200) in data[frames[1]:frames[2]]  # the flat stretch: zero bytes
    with open_video(path) as src:
        assert [f.shape for f in src.frames()] == [(720, 1280, 3)] * 3
    scan = data.find(b"\xff\xda", frames[1])
    wipe = scan + (frames[2] - scan) * 3 // 4  # in the noise: the blocks after it read out of step
    path.write_bytes(data[:wipe] + bytes(300) + data[wipe + 300:])
    with open_video(path) as src, pytest.raises(ClipError, match="broken at frame 1: damaged JPEG data"):
        list(src.frames())


def test_a_jpeg_frame_in_a_folder_with_a_wiped_stretch_is_refused_and_one_padded_before_its_end_is_read(tmp_path):
    """Some encoders fill a frame's data out to a size with zero bytes before its end marker: libjpeg says bytes
    were left over, but they are padding, and the frame is read."""
    good = cv2.imencode(".jpg", _half_flat(0))[1].tobytes()
    (tmp_path / "000000.jpg").write_bytes(good[:-2] + bytes(500) + good[-2:])
    middle = len(good) * 3 // 4
    (tmp_path / "000001.jpg").write_bytes(good[:middle] + bytes(300) + good[middle + 300:])
    src = FrameFolder(tmp_path, 30)
    assert src.read() is not None
    with pytest.raises(ClipError, match="000001.jpg: damaged JPEG data"):
        src.read()


@pytest.mark.parametrize("damage", ["zeros", "bytes"])
def test_an_mpeg4_video_with_a_damaged_stretch_is_refused_naming_the_frame(tmp_path, damage, capfd):
    """FFmpeg decodes an MPEG-4 video whose data was wiped or overwritten in the middle all the same, concealing
    what it cannot read, and says so only on standard error: the frame it said it of is named, and no word of
    FFmpeg's reaches the terminal. The same video undamaged reads whole."""
    path = tmp_path / "video.avi"
    rng = np.random.default_rng(3)
    writer = cv2.VideoWriter(str(path), cv2.VideoWriter.fourcc(*"XVID"), 30, (320, 240))
    for k in range(30):
        frame = cv2.GaussianBlur(rng.integers(0, 256, (240, 320, 3), dtype=np.uint8), (0, 0), 2 + k % 3)
        writer.write(frame)
    writer.release()
    with VideoFile(path) as src:
        assert len(list(src.frames())) == 30
    data = path.read_bytes()
    middle = len(data) // 2
    path.write_bytes(data[:middle] + (bytes(400) if damage == "zeros" else bytes(range(200)) * 2) + data[middle + 400:])
    with VideoFile(path) as src, pytest.raises(ClipError, match=r"broken at frame \d+: damaged video data"):
        list(src.frames())
    assert capfd.readouterr().err == ""


def test_video_file_that_is_not_a_video(tmp_path):
    path = tmp_path / "video.avi"
    path.write_bytes(b"garbage" * 100)
    with pytest.raises(ClipError, match="video.avi"):
        src = VideoFile(path)
        src.read()


def test_memory_frames_end_with_none():
    src = MemoryFrames(iter(_frames(2)), fps=60)
    assert src.read() is not None and src.read() is not None and src.read() is None


@pytest.mark.parametrize("content, message", [
    (None, "missing"),
    ("{not json", "not readable JSON"),
    (json.dumps({"fps": 60, "seats": 6}), "thrower"),
    (json.dumps({"fps": 60, "seats": 12, "thrower": 0}), "seats is 12, must be a whole number from 6 to 9"),
])
def test_clip_info_errors_name_the_file(tmp_path, content, message):
    if content is not None:
        (tmp_path / "clip.json").write_text(content)
    with pytest.raises(ClipError, match=message) as err:
        read_clip_info(tmp_path)
    assert "clip.json" in str(err.value)


def test_open_clip_needs_video_or_frames(tmp_path):
    (tmp_path / "clip.json").write_text(json.dumps({"fps": 60, "seats": 6, "thrower": 2}))
    with pytest.raises(ClipError, match="neither video.avi nor frames"):
        open_clip(tmp_path)


class FakeCapture:
    def __init__(self, device):
        self.device = device
        self.props = {}
        self.log = []

    def isOpened(self):
        return True

    def set(self, prop, value):
        self.props[prop] = value
        self.log.append(prop)
        return True

    def get(self, prop):
        return self.props.get(prop, 0)

    def read(self):
        return True, np.zeros((480, 640, 3), np.uint8)

    def release(self):
        pass


def test_uvc_camera_asks_for_mjpg_and_locks_exposure_and_white_balance():
    cam = UvcCamera(0, CameraSettings(exposure_us=10000, white_balance_k=5000), capture_factory=FakeCapture)
    props = cam.cap.props
    assert props[cv2.CAP_PROP_FOURCC] == cv2.VideoWriter.fourcc(*"MJPG")
    assert props[cv2.CAP_PROP_AUTO_EXPOSURE] == 1 and props[cv2.CAP_PROP_EXPOSURE] == 100
    assert props[cv2.CAP_PROP_AUTO_WB] == 0 and props[cv2.CAP_PROP_WB_TEMPERATURE] == 5000
    cam.cap.log.clear()
    cam.lock_exposure()  # before each throw
    assert {cv2.CAP_PROP_AUTO_EXPOSURE, cv2.CAP_PROP_EXPOSURE, cv2.CAP_PROP_AUTO_WB} <= set(cam.cap.log)
    assert cam.read().shape == (480, 640, 3)


class FakePicamera2:
    def __init__(self):
        self.controls = []
        self.started = False

    def create_video_configuration(self, main, controls):
        return {"main": main, "controls": controls}

    def configure(self, config):
        self.config = config

    def start(self):
        self.started = True

    def set_controls(self, controls):
        self.controls.append(controls)

    def capture_array(self, name):
        return np.zeros((480, 640, 3), np.uint8)

    def stop(self):
        self.started = False

    def close(self):
        pass


def test_picamera_turns_automatic_exposure_and_white_balance_off():
    cam = PiCamera(camera_factory=FakePicamera2)
    assert cam.cam.config["main"] == {"size": (640, 480), "format": "RGB888"}
    assert cam.cam.controls[-1]["AeEnable"] is False and cam.cam.controls[-1]["AwbEnable"] is False
    assert cam.cam.controls[-1]["ExposureTime"] == 8000
    cam.lock_exposure()
    assert len(cam.cam.controls) == 2
    assert cam.read().shape == (480, 640, 3)
    cam.close()
    assert not cam.cam.started


def test_frame_folder_reads_numbered_frames_in_number_order(tmp_path):
    for i, f in enumerate(_frames(3)):
        cv2.imwrite(str(tmp_path / f"{i + 9}.png"), f)  # 9.png, 10.png, 11.png: name order would put 9 last
    with FrameFolder(tmp_path, fps=30) as src:
        assert [int(f.mean()) for f in src.frames()] == [0, 40, 80]


def test_frame_folder_names_a_missing_frame(tmp_path):
    """A frame left out would move every later frame earlier in time (frame i is at i / fps)."""
    for i, f in enumerate(_frames(4)):
        if i != 2:
            cv2.imwrite(str(tmp_path / f"{i:06d}.png"), f)
    with pytest.raises(ClipError, match=r"000002\.png: missing, between 000001\.png and 000003\.png"):
        FrameFolder(tmp_path, fps=30)


def test_frame_folder_names_a_frame_numbered_twice(tmp_path):
    cv2.imwrite(str(tmp_path / "000000.png"), _frames(1)[0])
    cv2.imwrite(str(tmp_path / "000001.png"), _frames(1)[0])
    cv2.imwrite(str(tmp_path / "1.jpg"), _frames(1)[0])
    with pytest.raises(ClipError, match="a second frame numbered 1"):
        FrameFolder(tmp_path, fps=30)


def test_an_aim_clip_given_to_the_throw_judge_is_named(tmp_path):
    (tmp_path / "clip.json").write_text(json.dumps({"fps": 30, "seats": 5, "three_at": 2.0}))
    with pytest.raises(ClipError, match="an aim clip .*read it with 'vision aims'"):
        read_clip_info(tmp_path)


def test_a_throw_clip_given_to_the_aim_reader_is_named(tmp_path):
    from vision.aim_clips import read_aim_clip_info

    (tmp_path / "clip.json").write_text(json.dumps({"fps": 30, "seats": 6, "thrower": 2}))
    with pytest.raises(ClipError, match="a throw clip .*judge it with 'vision judge'"):
        read_aim_clip_info(tmp_path)
