"""The worker's queues on the real Redis: a message is read as soon as it is there, and after one
the consumer does not keep asking an empty queue every few milliseconds (each ask is a fetch
script run on Redis and by the worker)."""
import threading
import time

from dramatiq.common import dq_name

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


def test_while_uploads_come_a_gathering_wait_ends_near_its_time_even_if_the_worker_sat_idle_meanwhile(
        redis_url, redis_prefix):
    """An upload's message waits CLAIM_GATHER_MS in the document queue's delay queue; the worker
    fetches it from there and holds it until due. An idle consumer asks once a second, which
    would stretch a tenth of a second's wait to most of a second: while uploads come, the
    gathering queue is asked every GATHERING_POLL_MS."""
    namespace = f"{redis_prefix}:gathering"
    broker = broker_from_config({"REDIS_URL": redis_url, "DRAMATIQ_NAMESPACE": namespace}, jobs.MemoryDedup())
    consumer = broker.consume(dq_name(QUEUE), prefetch=1, timeout=1000)
    sender = jobs.BrokerJobSender(broker, jobs.MemoryDedup())

    def upload(document_id: str) -> threading.Timer:
        # Sent while the consumer waits, as an upload comes whenever it comes.
        timer = threading.Timer(0.02, sender.send, ("verify-document", document_id, 1),
                                {"dedup_key": jobs.verification_key(document_id),
                                 "nudge_key": jobs.brokerage_nudge_key(1), "delay_ms": 100})
        timer.start()
        return timer

    def fetched_after(timer) -> float:
        started = time.monotonic()
        message = next(message for message in consumer if message is not None)
        seconds = time.monotonic() - started
        timer.join()
        consumer.ack(message)
        sender.dedup.release(jobs.brokerage_nudge_key(1))  # as the message's start does
        return seconds

    try:
        fetches = fetches_counted(broker)
        while len(fetches) < 8:
            assert next(consumer) is None  # idle: its waits grow as far as they go
        # The first upload after a quiet spell may wait for the once-a-second ask.
        assert fetched_after(upload("d1")) < 1.2
        del fetches[:]
        while len(fetches) < 8:
            assert next(consumer) is None  # idle again, a moment
        seconds = fetched_after(upload("d2"))
        assert seconds < 0.3, f"fetched {seconds:.3f}s after the upload"
    finally:
        consumer.close()
        broker.client.delete(*broker.client.keys(f"{namespace}*") or ["none"])
