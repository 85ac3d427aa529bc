"""The web process's nudges about new deliveries: receipt groups recorded within the wait are named
by one send, duplicates by none, those recorded during a send by the next one, and a failed send
leaves nothing stuck."""
import threading

import flask
import pytest

from leadflow.services.callbacks import Receipt
from leadflow.web import callbacks as web_callbacks


class Sends:
    """Stands in for `callbacks.nudge_worker`: records the delivery ids of each send; a send can be
    held until released, or fail."""

    def __init__(self):
        self.calls: list[list[str]] = []
        self.threads: list[str] = []
        self.started = threading.Semaphore(0)
        self.release = threading.Event()
        self.release.set()
        self.fail = False

    def __call__(self, receipts):
        assert flask.current_app  # the send runs in the app's context (it reaches the ports)
        self.calls.append([receipt.delivery_id for receipt in receipts if not receipt.duplicate])
        self.threads.append(threading.current_thread().name)
        self.started.release()
        assert self.release.wait(timeout=30)
        if self.fail:
            self.fail = False
            raise ConnectionError("redis went away")


@pytest.fixture
def sends(monkeypatch):
    sends = Sends()
    monkeypatch.setattr(web_callbacks.callbacks, "nudge_worker", sends)
    return sends


def receipts(*ids, duplicate=()):
    return [Receipt(delivery_id, duplicate=delivery_id in duplicate) for delivery_id in ids]


def test_groups_recorded_within_the_wait_are_named_by_one_send_without_their_duplicates(sends):
    nudges = web_callbacks.DeliveryNudges(flask.Flask(__name__), wait_seconds=0.2)
    nudges(receipts("d1", "d2"))
    nudges(receipts("d3", "d1", duplicate={"d1"}))
    nudges(receipts("d4"))
    assert nudges.join(timeout=10)
    assert sends.calls == [["d1", "d2", "d3", "d4"]]


def test_only_duplicates_send_nothing(sends):
    nudges = web_callbacks.DeliveryNudges(flask.Flask(__name__), wait_seconds=0.01)
    nudges(receipts("d1", duplicate={"d1"}))
    assert nudges.join(timeout=10)
    assert sends.calls == []


def test_without_a_wait_the_request_that_wrote_sends_at_once(sends):
    app = flask.Flask(__name__)
    nudges = web_callbacks.DeliveryNudges(app, wait_seconds=0)
    with app.app_context():  # the request's
        nudges(receipts("d1"))
    assert sends.calls == [["d1"]]
    assert sends.threads == [threading.current_thread().name]


def test_deliveries_recorded_during_a_send_are_named_by_the_next(sends):
    nudges = web_callbacks.DeliveryNudges(flask.Flask(__name__), wait_seconds=0.01)
    sends.release.clear()
    nudges(receipts("d1"))
    assert sends.started.acquire(timeout=10)  # the first send is under way, held
    nudges(receipts("d2"))
    nudges(receipts("d3"))
    assert not nudges.join(timeout=0.05)  # the held send, and the next one, are still to come
    sends.release.set()
    assert nudges.join(timeout=10)
    assert sends.calls == [["d1"], ["d2", "d3"]]


def test_a_failed_send_is_logged_and_later_deliveries_are_still_sent(sends, caplog):
    nudges = web_callbacks.DeliveryNudges(flask.Flask(__name__), wait_seconds=0.01)
    sends.fail = True
    nudges(receipts("d1"))
    assert nudges.join(timeout=10)
    assert "could not nudge the worker about 1 deliveries" in caplog.text
    nudges(receipts("d2"))
    assert nudges.join(timeout=10)
    assert sends.calls == [["d1"], ["d2"]]
