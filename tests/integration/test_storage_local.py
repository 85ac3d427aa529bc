"""LocalStorage on a real folder, and its signed URLs through the files blueprint."""
import io
import os
from urllib.parse import urlsplit

import pytest
from flask import Flask

from leadflow.storage import (
    InvalidKey, ObjectInfo, ObjectMissing, Storage, StorageError, storage_from_config,
)
from leadflow.storage.local import LocalStorage
from leadflow.web.files import files_bp

BASE_URL = "http://leadflow.test"
PDF = b"%PDF-1.7\n" + b"x" * 5000 + b"\n%%EOF\n"


class FakeClock:
    """Time that moves only when a test says so, so expiry is tested without sleeping."""

    def __init__(self, now: float = 1_700_000_000.0):
        self.now = now

    def __call__(self) -> float:
        return self.now


@pytest.fixture
def clock():
    return FakeClock()


@pytest.fixture
def storage(tmp_path, clock):
    return LocalStorage(
        tmp_path / "storage", public_base_url=BASE_URL, secret_key="test-secret", clock=clock
    )


@pytest.fixture
def client(storage):
    app = Flask(__name__)
    app.extensions["leadflow_storage"] = storage
    app.register_blueprint(files_bp)
    return app.test_client()


def path_of(url: str) -> str:
    assert url.startswith(BASE_URL + "/files/")
    return urlsplit(url).path


# -- the Storage interface --------------------------------------------------------------


def test_put_get_head_read_prefix_and_delete_round_trip(storage):
    key = "brokerages/7/documents/42/original.pdf"
    storage.put(key, PDF, "application/pdf")

    assert storage.get(key) == PDF
    assert storage.read_prefix(key, 8) == b"%PDF-1.7"
    assert storage.read_prefix(key, 10**9) == PDF
    assert storage.head(key) == ObjectInfo(size=len(PDF), content_type="application/pdf")

    storage.delete(key)
    assert storage.head(key) is None
    with pytest.raises(ObjectMissing):
        storage.get(key)


def test_a_missing_object_is_object_missing_and_deleting_it_is_fine(storage):
    with pytest.raises(ObjectMissing):
        storage.get("nothing/here")
    with pytest.raises(ObjectMissing):
        storage.read_prefix("nothing/here", 4)
    assert storage.head("nothing/here") is None
    storage.delete("nothing/here")


def test_a_folder_of_other_keys_is_not_an_object(storage):
    storage.put("a/b", b"1", "text/plain")
    assert storage.head("a") is None
    with pytest.raises(ObjectMissing):
        storage.get("a")
    storage.delete("a")
    assert storage.get("a/b") == b"1"


def test_put_replaces_the_object_and_leaves_no_temporary_files(storage):
    storage.put("doc", b"first", "text/plain")
    storage.put("doc", b"second version", "application/json")

    assert storage.get("doc") == b"second version"
    assert storage.head("doc") == ObjectInfo(size=14, content_type="application/json")
    assert os.listdir(os.path.join(storage.root, "tmp")) == []


def test_an_empty_object_round_trips(storage):
    storage.put("empty", b"", "application/octet-stream")
    assert storage.get("empty") == b""
    assert storage.read_prefix("empty", 4) == b""
    assert storage.head("empty") == ObjectInfo(size=0, content_type="application/octet-stream")


def test_a_key_that_looks_like_a_sidecar_does_not_collide_with_one(storage):
    storage.put("doc", b"bytes", "application/pdf")
    storage.put("doc.json", b"{}", "application/json")
    assert storage.head("doc").content_type == "application/pdf"
    assert storage.head("doc.json").content_type == "application/json"


@pytest.mark.parametrize(
    "key",
    ["../escaped", "a/../../escaped", "/etc/passwd", "a//b", "a/./b", "", "..", "a/..",
     "a\\..\\b", "a/", "x" * 1025, "nul\x00byte", "line\nbreak"],
)
def test_keys_that_could_escape_the_folder_are_refused(storage, tmp_path, key):
    for call in (
        lambda: storage.put(key, b"x", "text/plain"),
        lambda: storage.get(key),
        lambda: storage.read_prefix(key, 1),
        lambda: storage.head(key),
        lambda: storage.delete(key),
        lambda: storage.download_url(key),
        lambda: storage.upload_target(key, "text/plain", 10),
    ):
        with pytest.raises(InvalidKey):
            call()
    assert not (tmp_path / "escaped").exists()


def test_a_key_with_spaces_and_non_ascii_names_round_trips(storage, client):
    key = "brokerages/7/documents/42/original/Gehaltsabrechnung März \"2024\".pdf"
    storage.put(key, PDF, "application/pdf")
    assert storage.get(key) == PDF

    response = client.get(path_of(storage.download_url(key)))
    assert response.status_code == 200 and response.data == PDF
    disposition = response.headers["Content-Disposition"]
    assert disposition.startswith('inline; filename="Gehaltsabrechnung M_rz _2024_.pdf"')
    assert "filename*=UTF-8''Gehaltsabrechnung%20M%C3%A4rz%20%222024%22.pdf" in disposition


def test_a_symlink_planted_in_the_folder_cannot_lead_out_of_it(storage, tmp_path):
    outside = tmp_path / "outside"
    outside.mkdir()
    (outside / "secret").write_bytes(b"not yours")
    os.symlink(outside, os.path.join(storage.root, "objects", "link"))

    with pytest.raises(StorageError):
        storage.get("link/secret")
    with pytest.raises(StorageError):
        storage.put("link/planted", b"x", "text/plain")
    assert not (outside / "planted").exists()


def test_storage_from_config_without_a_bucket_is_local(tmp_path):
    storage = storage_from_config(
        {"LOCAL_STORAGE_DIR": str(tmp_path), "PUBLIC_BASE_URL": BASE_URL + "/", "SECRET_KEY": "k"}
    )
    assert isinstance(storage, LocalStorage) and isinstance(storage, Storage)
    assert storage.download_url("a").startswith(BASE_URL + "/files/")


def test_local_storage_refuses_to_sign_without_a_secret_key(tmp_path):
    with pytest.raises(ValueError):
        storage_from_config({"LOCAL_STORAGE_DIR": str(tmp_path), "SECRET_KEY": ""})


def test_a_link_signed_with_a_rotated_out_key_still_verifies_during_the_fallback(tmp_path):
    old = storage_from_config({"LOCAL_STORAGE_DIR": str(tmp_path), "SECRET_KEY": "old"})
    url = old.download_url("doc")
    new = storage_from_config(
        {"LOCAL_STORAGE_DIR": str(tmp_path), "SECRET_KEY": "new", "SECRET_KEY_FALLBACKS": ["old"]}
    )
    assert new.verify_download(url.rsplit("/", 1)[1]) == "doc"


# -- signed URLs through the blueprint --------------------------------------------------


def test_a_signed_put_stores_the_body_and_a_signed_get_streams_it_back(storage, client):
    key = "brokerages/7/documents/42/original.pdf"
    target = storage.upload_target(key, "application/pdf", max_bytes=len(PDF))
    assert target["method"] == "PUT"
    assert target["headers"] == {"Content-Type": "application/pdf"}

    response = client.put(path_of(target["url"]), data=PDF, headers=target["headers"])
    assert response.status_code == 204
    assert storage.head(key) == ObjectInfo(size=len(PDF), content_type="application/pdf")

    response = client.get(path_of(storage.download_url(key)))
    assert response.status_code == 200
    assert response.data == PDF
    assert response.headers["Content-Type"] == "application/pdf"
    assert response.headers["Content-Length"] == str(len(PDF))
    assert response.headers["X-Content-Type-Options"] == "nosniff"
    assert "no-store" in response.headers["Cache-Control"]


def test_an_expired_download_link_is_refused(storage, client, clock):
    storage.put("doc", b"data", "text/plain")
    url = storage.download_url("doc", expires_in=60)

    clock.now += 59
    assert client.get(path_of(url)).status_code == 200
    clock.now += 1
    response = client.get(path_of(url))
    assert response.status_code == 403
    assert response.json["error"]["code"] == "invalid_token"


def test_an_expired_upload_link_is_refused_and_stores_nothing(storage, client, clock):
    target = storage.upload_target("doc", "text/plain", max_bytes=100, expires_in=900)
    clock.now += 900
    response = client.put(path_of(target["url"]), data=b"late", headers=target["headers"])
    assert response.status_code == 403
    assert storage.head("doc") is None


def test_forged_and_swapped_tokens_are_refused(storage, client):
    storage.put("doc", b"data", "text/plain")
    download = path_of(storage.download_url("doc"))
    upload = path_of(storage.upload_target("doc", "text/plain", max_bytes=100)["url"])
    download_token, upload_token = download.rsplit("/", 1)[1], upload.rsplit("/", 1)[1]

    assert client.get(download[:-2] + "AA").status_code == 403
    other = LocalStorage(storage.root, public_base_url=BASE_URL, secret_key="another-secret")
    assert client.get(path_of(other.download_url("doc"))).status_code == 403
    # A download token cannot upload, and an upload token cannot download.
    put = client.put(f"/files/upload/{download_token}", data=b"evil",
                     headers={"Content-Type": "text/plain"})
    assert put.status_code == 403
    assert client.get(f"/files/{upload_token}").status_code == 403
    assert storage.get("doc") == b"data"


def test_a_path_in_the_url_instead_of_a_token_is_refused(client, storage):
    storage.put("doc", b"data", "text/plain")
    for path in ("/files/..%2F..%2Fetc%2Fpasswd", "/files/objects%2Fdoc", "/files/doc"):
        assert client.get(path).status_code in (403, 404)


def test_an_upload_over_max_bytes_is_refused_with_413_and_stores_nothing(storage, client):
    target = storage.upload_target("doc", "application/pdf", max_bytes=len(PDF) - 1)
    response = client.put(path_of(target["url"]), data=PDF, headers=target["headers"])
    assert response.status_code == 413
    assert response.json["error"]["code"] == "too_large"
    assert storage.head("doc") is None


def test_an_upload_without_content_length_is_counted_as_it_arrives(storage, client):
    # A chunked request has no Content-Length; the limit must hold on the bytes themselves.
    target = storage.upload_target("doc", "application/pdf", max_bytes=len(PDF) - 1)
    response = client.put(
        path_of(target["url"]),
        input_stream=io.BytesIO(PDF),
        headers=target["headers"],
        environ_base={"wsgi.input_terminated": True},
    )
    assert response.status_code == 413
    assert storage.head("doc") is None

    target = storage.upload_target("doc", "application/pdf", max_bytes=len(PDF))
    response = client.put(
        path_of(target["url"]),
        input_stream=io.BytesIO(PDF),
        headers=target["headers"],
        environ_base={"wsgi.input_terminated": True},
    )
    assert response.status_code == 204
    assert storage.get("doc") == PDF


def test_an_upload_of_another_content_type_is_refused_with_400(storage, client):
    target = storage.upload_target("doc", "application/pdf", max_bytes=len(PDF))
    for content_type in ("text/html", "application/pdf; charset=utf-8", None):
        headers = {"Content-Type": content_type} if content_type else {}
        response = client.put(path_of(target["url"]), data=PDF, headers=headers)
        assert response.status_code == 400
        assert response.json["error"]["code"] == "wrong_content_type"
    assert storage.head("doc") is None


def test_an_empty_upload_is_refused(storage, client):
    target = storage.upload_target("doc", "application/pdf", max_bytes=100)
    response = client.put(path_of(target["url"]), data=b"", headers=target["headers"])
    assert response.status_code == 400
    assert storage.head("doc") is None


def test_downloading_a_missing_object_is_404(storage, client):
    response = client.get(path_of(storage.download_url("never/stored")))
    assert response.status_code == 404
    assert response.json["error"]["code"] == "not_found"


def test_a_stored_html_file_is_sent_as_a_sandboxed_attachment(storage, client):
    storage.put("page.html", b"<script>alert(1)</script>", "text/html")
    response = client.get(path_of(storage.download_url("page.html")))
    assert response.status_code == 200
    assert response.headers["Content-Disposition"].startswith("attachment")
    assert "sandbox" in response.headers["Content-Security-Policy"]


def test_the_routes_do_not_exist_when_storage_is_not_local(storage):
    app = Flask(__name__)
    app.extensions["leadflow_storage"] = object()
    app.register_blueprint(files_bp)
    token = storage.download_url("doc").rsplit("/", 1)[1]
    assert app.test_client().get(f"/files/{token}").status_code == 404


def test_a_download_url_ignores_the_requests_host_but_an_upload_target_follows_it(storage):
    # Download URLs go to the extraction service: a forged Host header must not redirect a
    # signed token elsewhere. Upload targets go back to the browser that asked, same origin.
    app = Flask(__name__)
    with app.test_request_context(base_url="http://evil.example"):
        assert storage.download_url("brokerages/1/a.pdf").startswith(storage.public_base_url + "/files/")
        target = storage.upload_target("brokerages/1/b.pdf", "application/pdf", max_bytes=10)
        assert target["url"].startswith("http://evil.example/files/upload/")
    assert storage.upload_target("brokerages/1/b.pdf", "application/pdf", 10)["url"].startswith(
        storage.public_base_url)


def test_a_moved_upload_is_at_its_new_key_and_its_upload_link_is_refused_from_then_on(storage, client):
    upload, final = "brokerages/7/uploads/42/statement.pdf", "brokerages/7/documents/42/original/statement.pdf"
    target = storage.upload_target(upload, "application/pdf", max_bytes=len(PDF))
    assert client.put(path_of(target["url"]), data=PDF, headers=target["headers"]).status_code == 204

    storage.move(upload, final)
    assert storage.head(upload) is None
    assert storage.head(final) == ObjectInfo(size=len(PDF), content_type="application/pdf")

    again = client.put(path_of(target["url"]), data=b"%PDF-1.4 other bytes", headers=target["headers"])
    assert again.status_code == 410 and again.get_json()["error"]["code"] == "upload_completed"
    assert storage.head(upload) is None and storage.get(final) == PDF


def test_moving_a_missing_object_is_object_missing(storage):
    with pytest.raises(ObjectMissing):
        storage.move("brokerages/7/uploads/none/a.pdf", "brokerages/7/documents/none/original/a.pdf")


def test_a_completed_upload_is_sealed_without_its_key_or_file_name_left_on_disk(storage, tmp_path):
    upload_key = "brokerages/1/uploads/abc/Gehalt Rahul Mustermann.pdf"
    storage.put(upload_key, b"%PDF-1.4 payslip", content_type="application/pdf")
    storage.move(upload_key, "brokerages/1/documents/abc/original.pdf")
    storage.delete("brokerages/1/documents/abc/original.pdf")   # the client's files erased

    assert storage.is_sealed(upload_key)   # the spent upload link stays refused
    # What stays is folders named by random ids and the seal, named by a hash: no file of hers.
    files = [os.path.join(folder, name) for folder, _, names in os.walk(storage.root) for name in names]
    folders = [folder for folder, _, _ in os.walk(storage.root)]
    assert len(files) == 1 and "abc" not in files[0] and not [f for f in folders if "Mustermann" in f]
