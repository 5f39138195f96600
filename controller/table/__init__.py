"""The table controller: a whole game refereed at the table, phase by phase.

- :mod:`.referee`: the game at the table, step by step, through the rules engine (pure);
- :mod:`.inputs`: what the table tells the referee;
- :mod:`.gamelog`: the append-only game log a game is resumed from;
- :mod:`.bots`: players and a Godfather that play by themselves, for the demo and the tests;
- :mod:`.session`: the referee with the devices, the camera, the console and the log around it;
- :mod:`.config`: the table's configuration file (``hardware/table.toml``).
"""
