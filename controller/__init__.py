"""The Cash'n Guns table controller: rules engine, game orchestration, devices, console, CLI."""

__version__ = "0.1.0"
