"""The app's adapters (storage, realtime bus, extraction client), built once per app from config."""
from dataclasses import dataclass, field

from flask import current_app


@dataclass
class Adapters:
    storage: object
    bus: object
    extraction: object
    hub: object
    breakers: dict = field(default_factory=dict)

    # Until bootstrap builds the app's Ports, the same names a use case asks of them.
    @property
    def settings(self):
        return current_app.config

    @property
    def clock(self):
        from leadflow import clock
        return clock

    @property
    def jobs(self):
        return _BrokerSender()


class _BrokerSender:
    """Sends by actor name through the process's broker, with the dedup keys of leadflow.jobs."""

    def send(self, actor_name: str, *args, dedup_key: str | None = None, take_over: bool = False,
             delay_ms: int | None = None) -> bool:
        import dramatiq
        from leadflow import jobs
        actor = dramatiq.get_broker().get_actor(actor_name)
        if dedup_key is None:
            return jobs.send_later_plain(actor, delay_ms, *args) if delay_ms else jobs.send(actor, *args)
        if delay_ms:
            return jobs.send_later(actor, dedup_key, delay_ms, *args)
        if take_over:
            jobs.dedup().release(dedup_key)
        return jobs.send_once(actor, dedup_key, *args)


def adapters() -> Adapters:
    return current_app.extensions["leadflow"]
