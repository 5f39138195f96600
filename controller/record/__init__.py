"""Game records: the PGN of Cash'n Guns (docs/game-record.md).

>>> from controller.record import loads, replay, result
"""

from .replay import new_game, play_round, replay, result
from .schema import FORMAT, Record, RecordError, RoundRecord, Throw, from_dict, load, loads

__all__ = [
    "FORMAT",
    "Record",
    "RecordError",
    "RoundRecord",
    "Throw",
    "from_dict",
    "load",
    "loads",
    "new_game",
    "play_round",
    "replay",
    "result",
]
