"""The worker's queues on the real Redis: a message is read as soon as it is there, and after one
the consumer does not keep asking an empty queue every few milliseconds (each ask is a fetch
script run on Redis and by the worker)."""
import time

from leadflow import jobs
from leadflow.bootstrap import broker_from_config

QUEUE = jobs.QUEUES["verify-document"]


def fetches_counted(broker) -> list:
    calls = []
    fetch = broker.do_fetch

    def counted(*args):
        calls.append(time.monotonic())
        return fetch(*args)

    broker.do_fetch = counted
    return calls


def test_after_a_message_an_empty_queue_is_asked_a_few_times_a_second_not_every_few_milliseconds(
        redis_url, redis_prefix):
    broker = broker_from_config({"REDIS_URL": redis_url, "DRAMATIQ_NAMESPACE": f"{redis_prefix}:polling"},
                                jobs.MemoryDedup())
    consumer = broker.consume(QUEUE, prefetch=1, timeout=1000)
    try:
        sender = jobs.BrokerJobSender(broker, jobs.MemoryDedup())
        assert sender.send("verify-document", "d1", 1)
        message = next(message for message in consumer if message is not None)
        assert message.args == ("d1", 1)
        consumer.ack(message)

        fetches = fetches_counted(broker)
        started = time.monotonic()
        while time.monotonic() - started < 0.25:
            assert next(consumer) is None  # the queue stays empty; each call is one ask and its wait
        # Dramatiq's own consumer waits 5-10 ms, then 10-20, 20-40, 40-80, 80-160: five or six
        # asks in the first quarter second. This one starts at 40-80 ms.
        assert len(fetches) <= 3, [round(t - started, 3) for t in fetches]

        assert sender.send("verify-document", "d2", 1)
        message = next(message for message in consumer if message is not None)
        assert message.args == ("d2", 1)
        consumer.ack(message)
    finally:
        consumer.close()
        broker.client.delete(*broker.client.keys(f"{redis_prefix}:polling*") or ["none"])
