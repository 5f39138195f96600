"""The firmware's protocol modules, loaded once for the host and the simulator."""

from __future__ import annotations

import sys
import types

import pytest

from firmware_bridge import FIRMWARE_DIR, firmware, frames, link, messages


def test_the_host_runs_the_firmware_codec_and_link():
    assert firmware.hub_proto.__file__ == str(FIRMWARE_DIR / "hub_proto.py")
    assert frames.crc16 is firmware.hub_proto.crc16
    assert isinstance(frames.Decoder()._decoder, firmware.hub_proto.Decoder)
    assert isinstance(link.Link()._link, firmware.hub_link.Link)
    assert messages.Kind.EVENTS == firmware.hub_proto.EVENTS and messages.PROTOCOL_VERSION == firmware.hub_proto.VERSION


def test_the_simulated_hub_shares_the_same_modules():
    firmware.load("hub_board")
    assert sys.modules["hub_core"].P is firmware.hub_proto
    assert sys.modules["hub_link"] is firmware.hub_link
    assert firmware.load("hub_proto") is firmware.hub_proto


def test_every_message_type_is_the_firmwares():
    assert len(messages.Kind) == 11
    for kind in messages.Kind:
        assert getattr(firmware.hub_proto, kind.name) == kind.value


def test_missing_firmware_is_a_clear_import_error(monkeypatch, tmp_path):
    monkeypatch.setattr(firmware, "FIRMWARE_DIR", tmp_path)
    monkeypatch.delitem(sys.modules, "hub_proto")
    with pytest.raises(firmware.FirmwareNotFound, match=f"hub_proto.py not found in {tmp_path}"):
        firmware.load("hub_proto")


def test_a_module_of_the_same_name_from_elsewhere_is_refused(monkeypatch, tmp_path):
    impostor = types.ModuleType("hub_proto")
    impostor.__file__ = str(tmp_path / "hub_proto.py")
    monkeypatch.setitem(sys.modules, "hub_proto", impostor)
    with pytest.raises(ImportError, match="not from the hub firmware"):
        firmware.load("hub_proto")
