"""The job sender's dedup keys: one message per document, and a waiting one is not presumed lost."""
from datetime import timedelta

import dramatiq
import pytest
from dramatiq import Worker
from dramatiq.brokers.stub import StubBroker

from leadflow import clock, jobs
from leadflow.bootstrap import broker_from_config

KEY = jobs.verification_key("d1")


@pytest.fixture
def sender():
    broker = StubBroker()
    broker.declare_queue(jobs.QUEUES["verify-document"])
    yield jobs.BrokerJobSender(broker, jobs.MemoryDedup())
    clock.reset()


def sent(sender) -> int:
    queue = jobs.QUEUES["verify-document"]
    return sender.broker.queues[queue].qsize() + sender.broker.queues[f"{queue}.DQ"].qsize()


def test_a_sweep_takes_over_the_key_of_a_message_presumed_lost(sender):
    assert sender.send("verify-document", "d1", 1, dedup_key=KEY)
    assert not sender.send("verify-document", "d1", 1, dedup_key=KEY), "one message per document"
    assert sender.send("verify-document", "d1", 1, dedup_key=KEY, take_over=True)
    assert sent(sender) == 2


def test_a_message_waiting_for_a_busy_reader_is_not_taken_over_until_it_is_overdue(sender):
    assert sender.send("verify-document", "d1", 1, 1, dedup_key=KEY, delay_ms=30_000)
    assert not sender.send("verify-document", "d1", 1, dedup_key=KEY, take_over=True)
    clock.shift(timedelta(seconds=30 + jobs.TAKE_OVER_GRACE_SECONDS - 5))
    assert not sender.send("verify-document", "d1", 1, dedup_key=KEY, take_over=True), "due, but within grace"
    assert sent(sender) == 1
    clock.shift(timedelta(seconds=10))
    assert sender.send("verify-document", "d1", 1, dedup_key=KEY, take_over=True), "overdue: presumed lost"
    assert sent(sender) == 2


def test_a_message_that_fails_for_good_gives_its_key_back_so_the_system_retry_can_send_another():
    dedup = jobs.MemoryDedup()
    broker = broker_from_config({}, dedup)  # the middleware as every LeadFlow process has it
    tries = []

    @dramatiq.actor(actor_name="verify-document", queue_name=jobs.QUEUES["verify-document"], broker=broker,
                    max_retries=1, min_backoff=1, max_backoff=1)
    def always_failing(document_id, brokerage_id):
        tries.append(document_id)
        raise RuntimeError("the reader is down")

    sender = jobs.BrokerJobSender(broker, dedup)
    worker = Worker(broker, worker_timeout=50)
    worker.start()
    try:
        assert sender.send("verify-document", "d1", 1, dedup_key=KEY)
        broker.join(jobs.QUEUES["verify-document"], fail_fast=False)
        worker.join()
    finally:
        worker.stop()
    assert tries == ["d1", "d1"], "tried, then retried once, then failed for good"
    assert dedup.holder(KEY) is None
    assert sender.send("verify-document", "d1", 1, dedup_key=KEY), "the system retry's message is sent"


NUDGE = jobs.brokerage_nudge_key(1)


def test_while_a_message_of_a_brokerage_waits_its_new_uploads_send_none_and_other_brokerages_do(sender):
    assert sender.send("verify-document", "d1", 1, dedup_key=KEY, nudge_key=NUDGE)
    assert not sender.send("verify-document", "d2", 1, dedup_key=jobs.verification_key("d2"), nudge_key=NUDGE)
    assert sender.send("verify-document", "d3", 2, dedup_key=jobs.verification_key("d3"),
                       nudge_key=jobs.brokerage_nudge_key(2))
    assert sent(sender) == 2
    assert sender.dedup.holder(jobs.verification_key("d2")) is None, "the document taken along holds no key"


def test_a_nudge_that_finds_its_documents_own_message_queued_sends_nothing_and_gives_the_key_back(sender):
    assert sender.send("verify-document", "d1", 1, dedup_key=KEY)
    assert not sender.send("verify-document", "d1", 1, dedup_key=KEY, nudge_key=NUDGE)
    assert sender.dedup.holder(NUDGE) is None, "no message holds the nudge: the next upload sends one"
    assert sender.send("verify-document", "d2", 1, dedup_key=jobs.verification_key("d2"), nudge_key=NUDGE)


def test_a_message_gives_its_brokerages_nudge_back_as_it_starts():
    dedup = jobs.MemoryDedup()
    broker = broker_from_config({}, dedup)  # the middleware as every LeadFlow process has it
    sender = jobs.BrokerJobSender(broker, dedup)
    seen = []

    @dramatiq.actor(actor_name="verify-document", queue_name=jobs.QUEUES["verify-document"], broker=broker)
    def verify(document_id, brokerage_id):
        seen.append((document_id, dedup.holder(NUDGE)))

    assert sender.send("verify-document", "d1", 1, dedup_key=KEY, nudge_key=NUDGE)
    assert dedup.holder(NUDGE) is not None
    worker = Worker(broker, worker_timeout=50, worker_threads=1)
    worker.start()
    try:
        broker.join(jobs.QUEUES["verify-document"], fail_fast=True)
        worker.join()
    finally:
        worker.stop()
    assert seen == [("d1", None)], "the key was given back before the message's work began"


def test_a_retried_message_leaves_the_nudge_key_of_a_newer_message_alone():
    dedup = jobs.MemoryDedup()
    broker = broker_from_config({}, dedup)
    sender = jobs.BrokerJobSender(broker, dedup)
    release = next(m for m in broker.middleware if isinstance(m, jobs.ReleaseDedupKey))
    assert sender.send("verify-document", "d1", 1, dedup_key=KEY, nudge_key=NUDGE)
    first = broker.queues[jobs.QUEUES["verify-document"]].get()
    first = dramatiq.Message.decode(first)
    release.before_process_message(broker, first)
    assert sender.send("verify-document", "d2", 1, dedup_key=jobs.verification_key("d2"), nudge_key=NUDGE)
    newer = dedup.holder(NUDGE)
    release.before_process_message(broker, first)  # its retry starts
    assert dedup.holder(NUDGE) == newer, "the newer message still holds it, and takes what comes along"


def test_a_nudge_sent_to_gather_waits_in_the_queue_holding_its_brokerages_key(sender):
    """An upload's message waits a moment (delay_ms) for more uploads: it holds the brokerage's
    key while it waits, so the uploads of that moment ride along instead of sending their own."""
    queue = jobs.QUEUES["verify-document"]
    assert sender.send("verify-document", "d1", 1, dedup_key=KEY, nudge_key=NUDGE, delay_ms=100)
    waiting = [dramatiq.Message.decode(data) for data in list(sender.broker.queues[f"{queue}.DQ"].queue)]
    assert [m.args for m in waiting] == [("d1", 1)] and sender.broker.queues[queue].qsize() == 0
    assert waiting[0].options["nudge_key"] == NUDGE and waiting[0].options["dedup_key"] == KEY
    assert not sender.send("verify-document", "d2", 1, dedup_key=jobs.verification_key("d2"), nudge_key=NUDGE,
                           delay_ms=100), "taken along by the waiting message"
    assert sent(sender) == 1
