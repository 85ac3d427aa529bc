"""A Dramatiq actor that does nothing, on a Redis namespace of its own: the broker's and the
worker's own cost per message on this machine, the ceiling any pipeline on them stays under.

    REDIS_URL=redis://127.0.0.1:6379/0 NOOP_NAMESPACE=bench-noop dramatiq bench.noop_actor --processes 2
"""
import os

import dramatiq
from dramatiq.brokers.redis import RedisBroker

QUEUE = "noop"

broker = RedisBroker(url=os.environ.get("REDIS_URL", "redis://127.0.0.1:6379/0"),
                     namespace=os.environ.get("NOOP_NAMESPACE", "bench-noop"))
dramatiq.set_broker(broker)


@dramatiq.actor(actor_name="noop", queue_name=QUEUE, max_retries=0)
def noop():
    """Nothing at all."""
