"""The ports a use case is handed: what it may do outside the database, named by what it does.

`leadflow.bootstrap` builds one `Ports` per process (the app's, the worker's, the scheduler's);
use cases take it as an argument, so a unit test hands them in-memory fakes instead. Thin
callers that live inside an app (web handlers, actors, sweeps) find the app's with
`current_ports()`.
"""
from collections.abc import Mapping
from dataclasses import dataclass, field
from datetime import datetime
from typing import Protocol, runtime_checkable

from leadflow.realtime.bus import Bus
from leadflow.storage.base import Storage

__all__ = ["Bus", "Clock", "ExtractionService", "JobSender", "Ports", "Storage", "current_ports"]


@runtime_checkable
class ExtractionService(Protocol):
    """The extraction service's HTTP API, behind the "extraction" breaker.

    Every call raises `leadflow.extraction.client.ExtractionUnavailable` (or its `ServiceDown`,
    when the breaker knows the service is down and nothing was tried)."""

    breaker: object

    def healthy(self) -> bool:
        """A recent success counts; an open breaker answers False."""

    def submit(self, *, job_id: str, document_url: str, callback_url: str, mode: str,
               output_spec: dict | None = None) -> None:
        """Hand a job to the service; returns when it accepted it."""

    def job(self, job_id: str) -> dict | None:
        """What the service knows about a job now; None when it knows no such job."""


@runtime_checkable
class JobSender(Protocol):
    """Sends background jobs by actor name ("verify-document", "process-delivery", ...), so a
    sender needs no import of the actors. Never raises: a job not sent is found by a sweep."""

    def send(self, actor_name: str, *args, dedup_key: str | None = None, take_over: bool = False,
             delay_ms: int | None = None, nudge_key: str | None = None) -> bool:
        """Enqueue `actor_name(*args)`; False when not sent.

        `dedup_key`: not sent while a message holding that key is queued or running.
        `take_over`: the key is taken from whatever holds it (that message is presumed lost).
        `delay_ms`: run no sooner; with `dedup_key`, sent from a running message that hands
        its key on to the new one (and is not sent if it no longer holds the key).
        `nudge_key`: not sent while a message holding that key waits in the queue (it takes
        this work along); a message sent holds it until it starts."""


@runtime_checkable
class Clock(Protocol):
    def now(self) -> datetime:
        """UTC, naive: what LeadFlow stamps and compares."""


@dataclass
class Ports:
    storage: Storage
    extraction: ExtractionService
    jobs: JobSender
    bus: Bus
    clock: Clock
    # The configuration values use cases read (thresholds, limits, PUBLIC_BASE_URL, ...).
    settings: Mapping
    # The web process's socket hub; None where no page is served (worker, scheduler).
    hub: object | None = None
    # This process's circuit breakers by name ("storage", ...), made on first use
    # (leadflow.breaker.for_ports): each process learns of an outage from its own failures.
    breakers: dict = field(default_factory=dict)
    # How an email leaves (leadflow.mail: SMTP, or .eml files): only the send-mail actor uses it;
    # use cases queue mail through `jobs`. None where a test or tool builds ports without it.
    mail: object | None = None


def current_ports() -> Ports:
    """The ports of the app whose context is active."""
    from flask import current_app
    return current_app.extensions["leadflow"]
