"""The app's adapters (storage, realtime bus, extraction client), built once per app from config."""
from dataclasses import dataclass

from flask import current_app


@dataclass
class Adapters:
    storage: object
    bus: object
    extraction: object
    hub: object


def adapters() -> Adapters:
    return current_app.extensions["leadflow"]
