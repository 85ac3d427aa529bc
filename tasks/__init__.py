"""Dramatiq actors, and the runtimes that consume them.

The actors are declared at import on a broker of their own that nothing consumes (so that
importing them chooses nothing); a runtime binds them to its app's broker, the one
`leadflow.bootstrap` built from that app's settings:

- the worker process: `dramatiq tasks:worker` (the dramatiq CLI calls `worker()`, then runs
  the broker it set);
- the embedded worker of `flask --app app leadflow serve` (`tasks.embedded`).

Senders in LeadFlow send by actor name (`Ports.jobs`) and import none of this.
"""
import dramatiq

from tasks.documents import ACTORS as DOCUMENT_ACTORS, process_delivery, verification_retries_exhausted, verify_document
from tasks.mail import ACTORS as MAIL_ACTORS
from tasks.packages import ACTORS as PACKAGE_ACTORS

ACTORS = (*DOCUMENT_ACTORS, *PACKAGE_ACTORS, *MAIL_ACTORS)

__all__ = ["bind", "worker", "verify_document", "verification_retries_exhausted", "process_delivery"]


def bind(app) -> dramatiq.Broker:
    """Declare the actors on `app`'s broker and make it this process's; returns it. Its
    middleware runs every message in the app's context (leadflow.jobs.AppContext)."""
    broker = app.extensions["leadflow"].jobs.broker
    for actor in ACTORS:
        actor.broker = broker
        broker.declare_actor(actor)
    dramatiq.set_broker(broker)
    return broker


def worker() -> None:
    """`dramatiq tasks:worker`: each worker process's app, from the environment, with the actors
    bound to its broker."""
    import gc

    from leadflow.factory import create_app
    bind(create_app(listen=False))
    # What the loaded app keeps for life (the S3 client's service model, SQLAlchemy's mappers,
    # the rules) is left out of the collector's walks, as in the web (gunicorn.conf.py): a full
    # collection walked it all, 0.14 s of one core each time, during which no thread of the
    # process ran (`bench-pipeline`, gc.callbacks).
    gc.freeze()
