"""Realtime: the event bus that fans document-status events out to every web process."""
from leadflow.realtime.bus import CHANNEL, Bus, InMemoryBus, RedisBus, bus_from_config

__all__ = ["CHANNEL", "Bus", "InMemoryBus", "RedisBus", "bus_from_config"]
