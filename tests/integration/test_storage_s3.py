"""S3Storage against moto's S3 server, over HTTP through boto3 and plain `requests`.

moto 5.2.5 stores any browser-form POST without evaluating its policy, so the two tests
that S3 itself refuses a too-large or mistyped upload are expected failures against moto
(strict: they start failing the suite the day moto enforces policies) and run for real when
TEST_S3_ENDPOINT_URL points the suite at MinIO or AWS. What moto cannot check, the policy
document test checks on our side: the conditions S3 would evaluate are exactly ours.
"""
import base64
import calendar
import json
import os
import time

import pytest
import requests

from leadflow.storage import (
    InvalidKey, ObjectInfo, ObjectMissing, Storage, StorageError, storage_from_config,
)
from leadflow.storage.s3 import S3Storage

# The top conftest registers these too; naming them here lets this file run on its own.
pytest_plugins = ["tests.plugins.s3"]

PDF = b"%PDF-1.7\n" + b"x" * 5000 + b"\n%%EOF\n"


@pytest.fixture
def needs_policy_enforcement(request):
    if not os.environ.get("TEST_S3_ENDPOINT_URL"):
        request.applymarker(pytest.mark.xfail(
            strict=True, reason="moto 5.2.5 does not evaluate POST policy conditions"))


def post_form(target: dict, body: bytes, file_content_type: str = "application/octet-stream"):
    # What a browser's multipart form sends: the signed fields first, the file last.
    return requests.post(
        target["url"],
        data=target["fields"],
        files={"file": ("upload.bin", body, file_content_type)},
        timeout=10,
    )


def test_a_document_sized_put_sends_its_body_at_once_and_a_large_one_asks_first(s3_storage):
    sent = []
    s3_storage._client.meta.events.register(
        "before-send.s3.PutObject", lambda request, **_: sent.append(request.headers.get("Expect")))
    large = b"%PDF-1.7\n" + b"x" * (2 * 1024 * 1024)

    s3_storage.put("brokerages/7/documents/1/original/small.pdf", PDF, "application/pdf")
    s3_storage.put("brokerages/7/documents/2/original/large.pdf", large, "application/pdf")

    assert sent == [None, b"100-continue"]
    assert s3_storage.get("brokerages/7/documents/1/original/small.pdf") == PDF
    assert s3_storage.get("brokerages/7/documents/2/original/large.pdf") == large


def test_put_get_head_read_prefix_and_delete_round_trip(s3_storage):
    key = "brokerages/7/documents/42/original.pdf"
    s3_storage.put(key, PDF, "application/pdf")

    assert s3_storage.get(key) == PDF
    assert s3_storage.read_prefix(key, 8) == b"%PDF-1.7"
    assert s3_storage.read_prefix(key, 10**9) == PDF
    assert s3_storage.head(key) == ObjectInfo(size=len(PDF), content_type="application/pdf")

    s3_storage.delete(key)
    assert s3_storage.head(key) is None
    with pytest.raises(ObjectMissing):
        s3_storage.get(key)


def test_a_key_with_spaces_and_non_ascii_names_round_trips(s3_storage):
    key = "brokerages/7/documents/42/original/Gehaltsabrechnung März 2024.pdf"
    s3_storage.put(key, PDF, "application/pdf")
    assert s3_storage.get(key) == PDF
    assert requests.get(s3_storage.download_url(key), timeout=10).content == PDF


def test_a_missing_object_is_object_missing_and_deleting_it_is_fine(s3_storage):
    with pytest.raises(ObjectMissing):
        s3_storage.get("nothing/here")
    with pytest.raises(ObjectMissing):
        s3_storage.read_prefix("nothing/here", 4)
    assert s3_storage.head("nothing/here") is None
    s3_storage.delete("nothing/here")


def test_read_prefix_of_an_empty_object_is_empty(s3_storage):
    # S3 answers 416 to any Range on an empty object; the adapter turns that into b"".
    s3_storage.put("empty", b"", "application/octet-stream")
    assert s3_storage.read_prefix("empty", 4) == b""
    assert s3_storage.read_prefix("empty", 0) == b""
    assert s3_storage.head("empty").size == 0


def test_the_same_keys_are_refused_as_on_local_storage(s3_storage):
    for key in ("../escaped", "/absolute", "a//b", ""):
        with pytest.raises(InvalidKey):
            s3_storage.put(key, b"x", "text/plain")
        with pytest.raises(InvalidKey):
            s3_storage.upload_target(key, "text/plain", 10)


def test_a_missing_bucket_is_a_storage_error_not_a_missing_object(s3_endpoint):
    storage = S3Storage(f"leadflow-test-absent-{os.urandom(6).hex()}", endpoint_url=s3_endpoint)
    with pytest.raises(StorageError) as raised:
        storage.get("doc")
    assert not isinstance(raised.value, ObjectMissing)


def test_storage_from_config_with_a_bucket_is_s3(s3_endpoint):
    storage = storage_from_config({
        "S3_BUCKET": f"leadflow-test-{os.urandom(6).hex()}",
        "S3_ENDPOINT_URL": s3_endpoint,
        "S3_CREATE_BUCKET": "true",
        # Unset means eu-central-1; only a TEST_S3_REGION elsewhere needs it spelled out.
        "S3_REGION": os.environ.get("TEST_S3_REGION"),
    })
    assert isinstance(storage, S3Storage) and isinstance(storage, Storage)
    assert storage.region == os.environ.get("TEST_S3_REGION", "eu-central-1")
    storage.put("doc", b"1", "text/plain")
    assert storage.get("doc") == b"1"
    storage.delete("doc")
    storage._client.delete_bucket(Bucket=storage.bucket)


def test_creating_an_existing_bucket_again_is_fine(s3_storage, s3_endpoint):
    again = S3Storage(s3_storage.bucket, endpoint_url=s3_endpoint, region=s3_storage.region,
                      create_bucket=True)
    s3_storage.put("doc", b"kept", "text/plain")
    assert again.get("doc") == b"kept"


def test_a_download_url_works_with_plain_requests(s3_storage):
    s3_storage.put("doc.pdf", PDF, "application/pdf")
    url = s3_storage.download_url("doc.pdf", expires_in=60)

    response = requests.get(url, timeout=10)
    assert response.status_code == 200
    assert response.content == PDF
    assert response.headers["Content-Type"] == "application/pdf"
    assert "X-Amz-Expires=60" in url and "X-Amz-Signature=" in url


def test_a_presigned_post_really_uploads(s3_storage):
    target = s3_storage.upload_target("uploads/doc.pdf", "application/pdf", max_bytes=len(PDF))
    assert target["method"] == "POST"
    assert target["fields"]["key"] == "uploads/doc.pdf"
    assert target["fields"]["Content-Type"] == "application/pdf"

    response = post_form(target, PDF)
    assert response.status_code == 204, response.text
    assert s3_storage.get("uploads/doc.pdf") == PDF
    # The object's type is the signed form field's, not the file part's.
    assert s3_storage.head("uploads/doc.pdf").content_type == "application/pdf"


def test_the_post_policy_carries_exactly_our_conditions(s3_storage):
    before = time.time()
    target = s3_storage.upload_target("uploads/doc.pdf", "application/pdf", max_bytes=1234,
                                   expires_in=900)
    policy = json.loads(base64.b64decode(target["fields"]["policy"]))
    conditions = policy["conditions"]

    assert ["content-length-range", 1, 1234] in conditions
    assert {"Content-Type": "application/pdf"} in conditions
    assert {"bucket": s3_storage.bucket} in conditions
    assert {"key": "uploads/doc.pdf"} in conditions
    # No condition that would let a client widen what it may send.
    assert not [c for c in conditions if isinstance(c, list) and c[0] == "starts-with"]
    expires = calendar.timegm(time.strptime(policy["expiration"], "%Y-%m-%dT%H:%M:%SZ"))
    assert before + 890 <= expires <= time.time() + 910


def test_s3_refuses_a_post_over_max_bytes(s3_storage, needs_policy_enforcement):
    target = s3_storage.upload_target("uploads/big.pdf", "application/pdf", max_bytes=len(PDF) - 1)
    response = post_form(target, PDF)
    assert response.status_code in (400, 403)
    assert s3_storage.head("uploads/big.pdf") is None


def test_s3_refuses_a_post_of_another_content_type(s3_storage, needs_policy_enforcement):
    target = s3_storage.upload_target("uploads/doc.pdf", "application/pdf", max_bytes=len(PDF))
    target["fields"]["Content-Type"] = "text/html"
    response = post_form(target, PDF, file_content_type="text/html")
    assert response.status_code in (400, 403)
    assert s3_storage.head("uploads/doc.pdf") is None


def test_a_moved_object_is_at_its_new_key_with_its_type_and_gone_from_the_old_one(s3_storage):
    upload, final = "brokerages/7/uploads/42/statement.pdf", "brokerages/7/documents/42/original/statement.pdf"
    s3_storage.put(upload, PDF, "application/pdf")
    s3_storage.move(upload, final)
    assert s3_storage.head(upload) is None
    assert s3_storage.head(final) == ObjectInfo(size=len(PDF), content_type="application/pdf")
    assert s3_storage.get(final) == PDF
    with pytest.raises(ObjectMissing):
        s3_storage.move(upload, final)
