"""The table's physical devices: tilt sensors, seat and count LEDs, the speaker.

Open them with ``open_devices(load_config(path))``; the returned
:class:`TableDevices` holds the :class:`StandeeJudge` that referees the standees.
"""

from .interfaces import (
    CountLights,
    FaultKind,
    SeatFault,
    SeatLights,
    SeatStatus,
    Speaker,
    TiltEvent,
    TiltSource,
)
from .judge import StandeeJudge, WithdrawalCount, WithdrawalResult
from .opening import TableDevices, open_devices
from .pinout import DevicesConfig, load_config

__all__ = [
    "CountLights",
    "DevicesConfig",
    "FaultKind",
    "SeatFault",
    "SeatLights",
    "SeatStatus",
    "Speaker",
    "StandeeJudge",
    "TableDevices",
    "TiltEvent",
    "TiltSource",
    "WithdrawalCount",
    "WithdrawalResult",
    "load_config",
    "open_devices",
]
