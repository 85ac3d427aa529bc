"""Standard Webhooks signatures, with the specification's published known-answer vector."""
import pytest

from leadflow.extraction import webhooks
from leadflow.extraction.webhooks import WebhookVerificationError

SECRET = "whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw"
MSG_ID = "msg_p5jXN8AQM9LWM0D4loKWxJek"
TIMESTAMP = 1614265330
BODY = b'{"test": 2432232314}'
SIGNATURE = "v1,g0hM9SsE+OTPJTGt/tmIKtSyZlE3uFJELVlNIOLJ1OE="
HEADERS = {"webhook-id": MSG_ID, "webhook-timestamp": str(TIMESTAMP), "webhook-signature": SIGNATURE}


def test_signing_gives_the_published_signature():
    assert webhooks.sign(SECRET, MSG_ID, TIMESTAMP, BODY) == SIGNATURE


def test_the_published_delivery_verifies_at_its_time():
    assert webhooks.verify(SECRET, HEADERS, BODY, now=TIMESTAMP + 10) == MSG_ID


def test_any_of_several_signatures_and_any_of_several_secrets_passes():
    headers = dict(HEADERS, **{"webhook-signature": "v1,bm90IGl0 " + SIGNATURE})
    assert webhooks.verify(["whsec_" + "QUJD" * 8, SECRET], headers, BODY, now=TIMESTAMP) == MSG_ID


def test_a_changed_body_fails():
    with pytest.raises(WebhookVerificationError):
        webhooks.verify(SECRET, HEADERS, b'{"test": 2432232315}', now=TIMESTAMP)


@pytest.mark.parametrize("offset", [-301, 301])
def test_a_timestamp_outside_five_minutes_fails(offset):
    with pytest.raises(WebhookVerificationError, match="tolerance"):
        webhooks.verify(SECRET, HEADERS, BODY, now=TIMESTAMP + offset)


@pytest.mark.parametrize("changes", [
    {"webhook-id": ""}, {"webhook-timestamp": "yesterday"}, {"webhook-timestamp": "1614265330.5"},
    {"webhook-signature": "v1"}, {"webhook-signature": "v1,***notbase64***"}, {"webhook-signature": "v2,abc"},
    {"webhook-signature": ",,,"}, {"webhook-id": "x" * 300},
    {"webhook-timestamp": "9" * 5000}, {"webhook-timestamp": "1" * 13}, {"webhook-timestamp": "²"},
    {"webhook-timestamp": "١٦١٤٢٦٥٣٣٠"}, {"webhook-timestamp": "-1614265330"}, {"webhook-id": "msg\x00id"},
])
def test_a_malformed_header_is_a_verification_error_never_another_exception(changes):
    with pytest.raises(WebhookVerificationError):
        webhooks.verify(SECRET, dict(HEADERS, **changes), BODY, now=TIMESTAMP)
