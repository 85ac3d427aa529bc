"""The realtime buses: RedisBus against the real Redis, InMemoryBus in process.

Two RedisBus instances stand for two processes (each has its own connections). Tests wait
on threading.Event or the bus's subscription count, always with a timeout, never a sleep.
"""
import json
import threading
import time

import pytest
import redis

from leadflow.realtime import CHANNEL, Bus, InMemoryBus, RedisBus, bus_from_config

# The top conftest registers this too; naming it here lets this file run on its own.
pytest_plugins = ["tests.plugins.redis_server"]

WAIT = 5.0  # seconds; generous for a loaded CI machine, never reached when things work
UNREACHABLE = "redis://127.0.0.1:1/0"


class Inbox:
    """A handler that records events and lets a test wait for the n-th one."""

    def __init__(self):
        self.events: list[dict] = []
        self._changed = threading.Condition()

    def __call__(self, event: dict) -> None:
        with self._changed:
            self.events.append(event)
            self._changed.notify_all()

    def wait_for(self, count: int, timeout: float = WAIT) -> bool:
        with self._changed:
            return self._changed.wait_for(lambda: len(self.events) >= count, timeout)


def explode(event: dict) -> None:
    raise RuntimeError("a handler bug")


@pytest.fixture
def make_bus():
    """Builds buses and stops every one of them after the test."""
    made = []

    def make(cls=RedisBus, *args, **kwargs):
        bus = cls(*args, **kwargs)
        made.append(bus)
        return bus

    yield make
    for bus in made:
        bus.stop()


@pytest.fixture
def admin(redis_url):
    client = redis.Redis.from_url(redis_url)
    yield client
    client.close()


def started_listener(make_bus, redis_url, redis_channel, *handlers) -> RedisBus:
    bus = make_bus(RedisBus, redis_url, redis_channel)
    for handler in handlers:
        bus.subscribe(handler)
    bus.start()
    # Pub/sub keeps nothing for late subscribers: publish only once Redis confirmed.
    assert bus.wait_until_listening(WAIT) >= 1
    return bus


# -- RedisBus ---------------------------------------------------------------------------


def test_an_event_published_by_one_process_reaches_a_handler_in_another(
    make_bus, redis_url, redis_channel
):
    inbox = Inbox()
    started_listener(make_bus, redis_url, redis_channel, inbox)
    publisher = make_bus(RedisBus, redis_url, redis_channel)

    event = {"document_id": 42, "brokerage_id": 7, "status": "VERIFIED", "notes": ["ok"]}
    assert publisher.publish(event) is True

    assert inbox.wait_for(1)
    assert inbox.events == [event]


def test_events_published_together_reach_another_process_in_order(make_bus, redis_url, redis_channel):
    # A worker's batch settles several documents in one commit and sends their events at once.
    inbox = Inbox()
    started_listener(make_bus, redis_url, redis_channel, inbox)
    publisher = make_bus(RedisBus, redis_url, redis_channel)

    events = [{"document_id": n, "status": "VERIFIED"} for n in range(3)]
    assert publisher.publish_many(events) is True

    assert inbox.wait_for(3)
    assert inbox.events == events


def test_events_published_together_travel_as_one_message(make_bus, redis_url, redis_channel, admin):
    # One message for every web process to read and decode, not one per event.
    raw = admin.pubsub()
    raw.subscribe(redis_channel)
    assert raw.get_message(timeout=WAIT)["type"] == "subscribe"
    publisher = make_bus(RedisBus, redis_url, redis_channel)

    assert publisher.publish_many([{"document_id": n} for n in range(3)]) is True
    assert publisher.publish({"document_id": 3}) is True

    messages = [raw.get_message(timeout=WAIT) for _ in range(2)]
    raw.close()
    assert [json.loads(message["data"]) for message in messages] == [
        [{"document_id": 0}, {"document_id": 1}, {"document_id": 2}], {"document_id": 3}]


def test_events_published_together_that_cannot_all_be_sent_say_so(make_bus, redis_url, redis_channel):
    inbox = Inbox()
    started_listener(make_bus, redis_url, redis_channel, inbox)
    publisher = make_bus(RedisBus, redis_url, redis_channel)

    assert publisher.publish_many([{"n": 1}, {"when": object()}, {"n": 2}]) is False
    assert publisher.publish_many([{"when": object()}]) is False

    assert inbox.wait_for(2)
    assert inbox.events == [{"n": 1}, {"n": 2}]


def test_events_published_together_to_an_unreachable_redis_return_false(make_bus):
    bus = make_bus(RedisBus, UNREACHABLE, "unused")
    assert bus.publish_many([{"document_id": 1}, {"document_id": 2}]) is False


def test_a_handler_that_raises_does_not_stop_later_events(make_bus, redis_url, redis_channel):
    inbox = Inbox()
    started_listener(make_bus, redis_url, redis_channel, explode, inbox)
    publisher = make_bus(RedisBus, redis_url, redis_channel)

    assert publisher.publish({"n": 1})
    assert publisher.publish({"n": 2})

    assert inbox.wait_for(2)
    assert inbox.events == [{"n": 1}, {"n": 2}]


def test_a_handler_that_raises_on_one_event_of_a_batch_still_gets_the_rest(make_bus, redis_url, redis_channel):
    inbox = Inbox()
    fussy = Inbox()

    def refuse_the_first(event):
        if event["n"] == 1:
            raise RuntimeError("a handler bug")
        fussy(event)

    started_listener(make_bus, redis_url, redis_channel, refuse_the_first, inbox)
    publisher = make_bus(RedisBus, redis_url, redis_channel)

    assert publisher.publish_many([{"n": 1}, {"n": 2}, {"n": 3}])

    assert inbox.wait_for(3) and fussy.wait_for(2)
    assert inbox.events == [{"n": 1}, {"n": 2}, {"n": 3}]
    assert fussy.events == [{"n": 2}, {"n": 3}]


def test_redis_handlers_get_their_own_copy_of_each_event(make_bus, redis_url, redis_channel):
    inbox = Inbox()
    started_listener(make_bus, redis_url, redis_channel,
                     lambda event: event.update(status="MUTATED"), inbox, lambda event: event.update(status="LAST"))
    publisher = make_bus(RedisBus, redis_url, redis_channel)

    assert publisher.publish_many([{"n": 1, "status": "VERIFIED"}, {"n": 2, "status": "VERIFIED"}])

    assert inbox.wait_for(2)
    assert inbox.events == [{"n": 1, "status": "VERIFIED"}, {"n": 2, "status": "VERIFIED"}]


def test_a_message_that_is_not_an_event_is_skipped(make_bus, redis_url, redis_channel, admin):
    inbox = Inbox()
    started_listener(make_bus, redis_url, redis_channel, inbox)

    admin.publish(redis_channel, b"not json")
    admin.publish(redis_channel, b"[1, 2]")
    admin.publish(redis_channel, b'[{"n": 1}, 2]')  # a list is taken whole or not at all
    admin.publish(redis_channel, b'{"n": 3}')

    assert inbox.wait_for(1)
    assert inbox.events == [{"n": 3}]


def test_publish_to_an_unreachable_redis_returns_false_and_does_not_raise(make_bus):
    bus = make_bus(RedisBus, UNREACHABLE, "unused")
    started = time.monotonic()
    assert bus.publish({"document_id": 1}) is False
    # It runs inside a request: a Redis that is down must not hold the request up.
    assert time.monotonic() - started < 3


def test_publish_refuses_an_event_that_is_not_json(make_bus, redis_url, redis_channel):
    bus = make_bus(RedisBus, redis_url, redis_channel)
    assert bus.publish({"when": object()}) is False
    assert bus.publish(["not", "a", "dict"]) is False


def test_the_listener_receives_again_after_its_connection_is_killed(
    make_bus, redis_url, redis_channel, admin
):
    inbox = Inbox()
    listener = started_listener(make_bus, redis_url, redis_channel, inbox)
    publisher = make_bus(RedisBus, redis_url, redis_channel)
    assert publisher.publish({"n": 1}) and inbox.wait_for(1)

    # Kill only this listener's connection (found by its client name), as a Redis restart
    # or a network cut would; CLIENT KILL TYPE pubsub would hit everyone else's too.
    ids = [c["id"] for c in admin.client_list() if c["name"] == listener.client_name]
    assert len(ids) == 1
    subscriptions = listener.wait_until_listening(0)
    assert admin.client_kill_filter(_id=ids[0]) == 1

    assert listener.wait_until_listening(WAIT, after=subscriptions) > subscriptions
    assert publisher.publish({"n": 2})
    assert inbox.wait_for(2)
    assert inbox.events == [{"n": 1}, {"n": 2}]
    new_ids = [c["id"] for c in admin.client_list() if c["name"] == listener.client_name]
    assert len(new_ids) == 1 and new_ids != ids


def test_stop_ends_the_listener_promptly(make_bus, redis_url, redis_channel):
    listener = started_listener(make_bus, redis_url, redis_channel)
    thread = listener._thread
    started = time.monotonic()
    listener.stop()
    assert not thread.is_alive()
    assert time.monotonic() - started < 1.5


def test_stop_ends_a_listener_that_is_waiting_to_reconnect(make_bus):
    bus = make_bus(RedisBus, UNREACHABLE, "unused")
    bus.start()
    thread = bus._thread
    assert bus.wait_until_listening(0.3) == 0  # it cannot subscribe, and keeps trying
    assert thread.is_alive()
    started = time.monotonic()
    bus.stop()
    assert not thread.is_alive()
    assert time.monotonic() - started < 1.5


def test_the_listener_connection_never_logs_the_password(make_bus, caplog):
    bus = make_bus(RedisBus, "redis://leadflow:s3cret-pass@127.0.0.1:1/0", "unused")
    assert bus.publish({"n": 1}) is False
    assert "s3cret-pass" not in caplog.text
    assert "127.0.0.1:1" in caplog.text


# -- InMemoryBus and the choice by config -----------------------------------------------


def test_the_in_memory_bus_delivers_to_every_handler_and_survives_a_raising_one(make_bus):
    bus = make_bus(InMemoryBus)
    first, second = Inbox(), Inbox()
    bus.subscribe(first)
    bus.subscribe(explode)
    bus.subscribe(second)
    bus.start()

    assert bus.publish({"n": 1}) and bus.publish({"n": 2})

    assert first.wait_for(2) and second.wait_for(2)
    assert first.events == second.events == [{"n": 1}, {"n": 2}]
    assert bus.join(WAIT)


def test_in_memory_handlers_get_their_own_copy_of_the_event(make_bus):
    bus = make_bus(InMemoryBus, synchronous=True)
    inbox = Inbox()
    bus.subscribe(lambda event: event.update(status="MUTATED"))
    bus.subscribe(inbox)
    event = {"status": "VERIFIED"}

    assert bus.publish(event)
    assert inbox.events == [{"status": "VERIFIED"}]
    assert event == {"status": "VERIFIED"}


def test_the_in_memory_bus_refuses_what_redis_would_refuse(make_bus):
    bus = make_bus(InMemoryBus, synchronous=True)
    assert bus.publish({"when": object()}) is False
    assert bus.publish({"ratio": float("nan")}) is False


def test_bus_from_config_picks_redis_only_when_redis_url_is_set(make_bus, redis_url):
    assert isinstance(bus_from_config({}), InMemoryBus)
    assert isinstance(bus_from_config({}), Bus)
    assert isinstance(bus_from_config({"REDIS_URL": None}), InMemoryBus)
    bus = bus_from_config({"REDIS_URL": redis_url})
    make_bus(lambda: bus)
    assert isinstance(bus, RedisBus) and isinstance(bus, Bus) and bus.channel == CHANNEL
    assert bus_from_config({"REDIS_URL": redis_url, "REALTIME_CHANNEL": "other"}).channel == "other"
