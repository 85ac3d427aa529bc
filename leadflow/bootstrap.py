"""The composition root: one process's adapters, built from its configuration.

`bootstrap(config)` is called by `create_app` (the web app, the worker's app and the
scheduler's): it builds the Dramatiq broker with its middleware, the de-duplication store,
storage, the realtime bus, the extraction client, the clock and the job sender, and hands
them back as `Ports`. Nothing is chosen at import time, so the settings an app is made with
(`create_app(overrides)`) are the ones its broker and dedup store use.

The actors are not declared here: a runtime that consumes messages (`tasks.bind`) declares
them on the broker it is handed (`ports.jobs.broker`).
"""
from collections.abc import Mapping

import dramatiq
from dramatiq.brokers.stub import StubBroker
from dramatiq.middleware import CurrentMessage, Retries

from leadflow import clock, jobs
from leadflow.extraction.client import ExtractionClient
from leadflow.mail import mailer_from_config
from leadflow.ports import Ports
from leadflow.realtime.bus import bus_from_config
from leadflow.storage import storage_from_config


def bootstrap(config: Mapping, app=None) -> Ports:
    """This process's ports. With `app`, each message the broker's workers run is run in its
    context (the app-context middleware)."""
    dedup = dedup_from_config(config)
    broker = broker_from_config(config, dedup)
    if app is not None:
        broker.add_middleware(jobs.AppContext(app))
    return Ports(
        storage=storage_from_config(config),
        extraction=ExtractionClient(config.get("EXTRACTION_URL"), config.get("EXTRACTION_API_KEY") or "",
                                    config.get("EXTRACTION_TIMEOUT_SECONDS", 10)),
        jobs=jobs.BrokerJobSender(broker, dedup),
        bus=bus_from_config(config),
        clock=clock,
        settings=config,
        mail=mailer_from_config(config),
    )


def dedup_from_config(config: Mapping):
    """Shared in Redis when REDIS_URL is set, else in this process's memory (embedded mode)."""
    url = config.get("REDIS_URL")
    return jobs.RedisDedup(url, prefix=f"{jobs.namespace(config)}:dedup:") if url else jobs.MemoryDedup()


def broker_from_config(config: Mapping, dedup) -> dramatiq.Broker:
    """Redis when REDIS_URL is set, else an in-process StubBroker; with the job queues declared,
    so that a sender can enqueue (and the metrics count) before any actor is."""
    url = config.get("REDIS_URL")
    if url:
        broker = jobs.patient_redis_broker(url=url, namespace=jobs.namespace(config), socket_timeout=5,
                                           socket_connect_timeout=5)
    else:
        broker = StubBroker()
    # Dramatiq runs the after-hooks last-added first: placed before Retries, the key's release
    # runs after Retries has marked a message failed for good (and so sees that it was).
    broker.add_middleware(jobs.ReleaseDedupKey(dedup), before=Retries)
    broker.add_middleware(CurrentMessage())
    for queue in sorted(set(jobs.QUEUES.values())):
        broker.declare_queue(queue)
    return broker
