"""The extractor over real HTTP: submissions, callbacks, failures and the job resource."""
import io
import struct
import threading
import time
import uuid
import zlib

import pytest
import requests

from leadflow.extractor.faults import Faults
from leadflow.extractor.service import start_in_thread
from tests.extractor.conftest import API_KEY, SECRET, WAIT_SECONDS, requires_tesseract, sample

AUTH = {"Authorization": f"Bearer {API_KEY}"}


def submit(extractor, receiver, document_url, *, job_id=None, mode="first", output_spec=None,
           headers=AUTH):
    job_id = job_id or f"job_{uuid.uuid4().hex}"
    response = requests.post(f"{extractor.url}/jobs", json={
        "job_id": job_id, "document_url": document_url, "callback_url": receiver.callback_url,
        "mode": mode, "output_spec": output_spec}, headers=headers, timeout=10)
    return job_id, response


def run(extractor, receiver, name, data, **kwargs) -> dict:
    job_id, response = submit(extractor, receiver, receiver.add(name, data), **kwargs)
    assert response.status_code == 202, response.text
    assert response.json() == {"job_id": job_id}
    return receiver.callback_for(job_id)


def png_header_only(width: int, height: int) -> bytes:
    """A PNG whose header claims width x height; no pixel data needs to exist to be refused."""
    def chunk(kind: bytes, payload: bytes) -> bytes:
        return struct.pack(">I", len(payload)) + kind + payload + struct.pack(">I", zlib.crc32(kind + payload))
    ihdr = struct.pack(">IIBBBBB", width, height, 8, 0, 0, 0, 0)
    return b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", ihdr) + chunk(b"IDAT", zlib.compress(b"\x00" * 64)) + chunk(b"IEND", b"")


def test_health_answers_ok(extractor):
    response = requests.get(f"{extractor.url}/health", timeout=5)
    assert response.status_code == 200
    assert response.json() == {"status": "ok"}


def test_a_text_pdf_bank_statement_completes_with_its_page_count_and_type(extractor, receiver):
    body = run(extractor, receiver, "statement.pdf",
               sample("bank-statements/synthetic_bank_statement_A1_02.pdf").read_bytes())
    assert body["type"] == "job.completed"
    data = body["data"]
    assert data["pages"] == 2
    assert data["document_type"] == "bank_statement"
    assert 0.6 <= data["confidence"] <= 1
    assert data["error"] is None
    content = data["content"]
    assert content["language"] == "de"
    assert [p["number"] for p in content["pages"]] == [1, 2]
    assert content["text_chars"] == len(content["text"]) > 1000
    assert "Kontoauszug" in content["text"]


def test_an_invoice_pdf_completes_as_an_invoice(extractor, receiver):
    body = run(extractor, receiver, "invoice.pdf", sample("invoices/invoice2data_QualityHosting.pdf").read_bytes())
    assert body["type"] == "job.completed"
    assert body["data"]["pages"] == 2
    assert body["data"]["document_type"] == "invoice"


def test_the_content_matches_the_schema_sent_with_it(extractor, receiver):
    jsonschema = pytest.importorskip("jsonschema")
    body = run(extractor, receiver, "payslip.pdf", sample("payslips/synthetic_payslip_A1_01.pdf").read_bytes())
    schema = body["data"]["schema"]
    assert schema["$schema"] == "https://json-schema.org/draft/2020-12/schema"
    jsonschema.Draft202012Validator.check_schema(schema)
    jsonschema.Draft202012Validator(schema).validate(body["data"]["content"])


@requires_tesseract
def test_an_image_is_read_through_ocr(extractor, receiver):
    body = run(extractor, receiver, "payslip.jpg",
               sample("payslips/synthetic_payslip_A1_01_scan_p1.jpg").read_bytes())
    assert body["type"] == "job.completed", body
    data = body["data"]
    assert data["pages"] == 1
    assert data["document_type"] == "payslip"
    assert data["content"]["pages"][0]["method"] == "ocr"
    assert data["content"]["text_chars"] > 500
    assert "Netto" in data["content"]["text"]


def test_a_malformed_pdf_fails_unreadable_and_the_service_keeps_serving(extractor, receiver):
    body = run(extractor, receiver, "broken.pdf", sample("malformed/qpdf_issue-146.pdf").read_bytes())
    assert body["type"] == "job.failed"
    assert body["data"]["error"]["code"] == "unreadable"
    assert body["data"]["error"]["retryable"] is False
    assert requests.get(f"{extractor.url}/health", timeout=5).status_code == 200
    after = run(extractor, receiver, "fine.pdf", sample("invoices/invoice2data_saeco.pdf").read_bytes())
    assert after["type"] == "job.completed"


def test_a_truncated_pdf_fails_unreadable(extractor, receiver):
    whole = sample("tax/synthetic_tax_assessment_A1_01.pdf").read_bytes()
    body = run(extractor, receiver, "truncated.pdf", whole[: len(whole) // 3])
    assert body["type"] == "job.failed"
    assert body["data"]["error"]["code"] == "unreadable"


def test_a_pdf_whose_content_stream_is_corrupt_fails_unreadable(extractor, receiver):
    body = run(extractor, receiver, "lzw.pdf", sample("malformed/qpdf_broken-lzw.pdf").read_bytes())
    assert body["data"]["error"]["code"] == "unreadable"


def test_a_password_protected_pdf_fails_unreadable(extractor, receiver):
    body = run(extractor, receiver, "locked.pdf", sample("malformed/pypdf_encrypted-file.pdf").read_bytes())
    assert body["data"]["error"]["code"] == "unreadable"
    assert "password" in body["data"]["error"]["message"]


def test_an_image_too_large_in_pixels_fails_too_large(extractor, receiver):
    body = run(extractor, receiver, "huge.png", png_header_only(10_000, 10_000))
    assert body["type"] == "job.failed"
    assert body["data"]["error"]["code"] == "too_large"


def test_a_truncated_image_fails_unreadable(extractor, receiver):
    from PIL import Image
    buffer = io.BytesIO()
    Image.new("L", (400, 300), 255).save(buffer, format="PNG")
    body = run(extractor, receiver, "cut.png", buffer.getvalue()[:60])
    assert body["data"]["error"]["code"] == "unreadable"


def test_a_file_that_is_no_supported_format_fails_unsupported_type(extractor, receiver):
    body = run(extractor, receiver, "oops.pdf", sample("malformed/qpdf_bad1.pdf").read_bytes())
    assert body["data"]["error"]["code"] == "unsupported_type"


def test_a_document_url_that_answers_404_fails_fetch_failed(extractor, receiver):
    job_id, response = submit(extractor, receiver, f"{receiver.url}/docs/nothing-here")
    assert response.status_code == 202
    body = receiver.callback_for(job_id)
    assert body["data"]["error"]["code"] == "fetch_failed"
    assert body["data"]["error"]["retryable"] is False


@pytest.mark.parametrize("headers", [{}, {"Authorization": "Bearer wrong"}, {"Authorization": API_KEY}])
def test_a_submission_without_the_right_bearer_token_is_401(extractor, receiver, headers):
    job_id, response = submit(extractor, receiver, receiver.add("x.pdf", b"%PDF-"), headers=headers)
    assert response.status_code == 401
    assert response.json()["error"]["code"] == "unauthorized"
    assert requests.get(f"{extractor.url}/jobs/{job_id}", headers=AUTH, timeout=5).status_code == 404


def test_reading_a_job_needs_the_bearer_token(extractor):
    assert requests.get(f"{extractor.url}/jobs/anything", timeout=5).status_code == 401


@pytest.mark.parametrize("body", [
    None, [], {"job_id": "a"},
    {"job_id": "a/b", "document_url": "http://x/d", "callback_url": "http://x/c", "mode": "first"},
    {"job_id": "a", "document_url": "ftp://x/d", "callback_url": "http://x/c", "mode": "first"},
    {"job_id": "a", "document_url": "http://x/d", "callback_url": "nope", "mode": "first"},
    {"job_id": "a", "document_url": "http://x/d", "callback_url": "http://x/c", "mode": "other"},
    {"job_id": "a", "document_url": "http://x/d", "callback_url": "http://x/c", "mode": "customise",
     "output_spec": None},
    {"job_id": "a", "document_url": "http://x/d", "callback_url": "http://x/c", "mode": "first",
     "output_spec": "fields"},
])
def test_a_malformed_submission_is_400(extractor, body):
    response = requests.post(f"{extractor.url}/jobs", data=b"{not json" if body is None else None,
                             json=body, headers={**AUTH, "Content-Type": "application/json"}, timeout=5)
    assert response.status_code == 400
    assert response.json()["error"]["code"] == "bad_request"


def test_a_duplicate_job_id_is_accepted_but_not_run_twice(serial_extractor, receiver):
    pdf = sample("invoices/invoice2data_saeco.pdf").read_bytes()
    url = receiver.add("dup.pdf", pdf)
    job_id, first = submit(serial_extractor, receiver, url)
    _, again = submit(serial_extractor, receiver, url, job_id=job_id)
    assert (first.status_code, again.status_code) == (202, 202)
    assert again.json() == {"job_id": job_id}
    # One worker runs jobs in order: once a later job is done, a second run of the first
    # would have fetched its document already.
    later_id, _ = submit(serial_extractor, receiver, receiver.add("later.pdf", pdf))
    receiver.callback_for(later_id)
    receiver.callback_for(job_id)
    assert receiver.fetches["dup.pdf"] == 1
    assert len(receiver.callbacks_for(job_id)) == 1


def test_the_job_resource_reports_the_finished_result(extractor, receiver):
    job_id, response = submit(extractor, receiver,
                              receiver.add("s.pdf", sample("invoices/invoice2data_saeco.pdf").read_bytes()))
    callback = receiver.callback_for(job_id)
    job = requests.get(f"{extractor.url}/jobs/{job_id}", headers=AUTH, timeout=5)
    assert job.status_code == 200
    assert job.json() == {"job_id": job_id, "status": "completed",
                          "type": callback["type"], "data": callback["data"]}


def test_an_unknown_job_is_404(extractor):
    response = requests.get(f"{extractor.url}/jobs/never-submitted", headers=AUTH, timeout=5)
    assert response.status_code == 404


def test_a_failed_callback_is_retried_under_the_same_webhook_id(extractor, receiver):
    receiver.fail_next = 1
    job_id, _ = submit(extractor, receiver,
                       receiver.add("r.pdf", sample("invoices/invoice2data_saeco.pdf").read_bytes()))
    receiver.callback_for(job_id)
    failed = [r for r in receiver.rejected if r.startswith("failed on purpose")]
    delivered = receiver.callbacks_for(job_id)
    assert len(failed) == 1 and len(delivered) == 1
    assert failed[0].endswith(delivered[0]["webhook_id"])
    assert delivered[0]["webhook_id"].startswith("dlv_")


def test_customise_returns_only_the_requested_fields(extractor, receiver):
    body = run(extractor, receiver, "c.pdf", sample("payslips/synthetic_payslip_A1_01.pdf").read_bytes(),
               mode="customise", output_spec={"fields": ["net", "no_such_field"]})
    data = body["data"]
    assert list(data["content"]["fields"]) == ["net", "no_such_field"]
    assert list(data["schema"]["properties"]["fields"]["properties"]) == ["net", "no_such_field"]
    assert data["content"]["fields"] == {"net": "3394.72", "no_such_field": None}


def test_fault_injection_duplicates_a_delivery_under_the_same_webhook_id(receiver):
    running = start_in_thread(API_KEY, SECRET, faults=Faults(duplicate=1.0, seed=1))
    try:
        job_id, _ = submit(running, receiver,
                           receiver.add("f.pdf", sample("invoices/invoice2data_saeco.pdf").read_bytes()))
        twice = receiver.wait_for(lambda cbs: len([c for c in cbs if c["body"]["job_id"] == job_id]) >= 2 and
                                  [c for c in cbs if c["body"]["job_id"] == job_id])
        assert twice[0]["webhook_id"] == twice[1]["webhook_id"]
    finally:
        running.stop()


def test_fault_injection_can_drop_a_callback_yet_the_job_resource_has_the_result(receiver):
    running = start_in_thread(API_KEY, SECRET, faults=Faults(drop=1.0))
    try:
        job_id, _ = submit(running, receiver,
                           receiver.add("d.pdf", sample("invoices/invoice2data_saeco.pdf").read_bytes()))
        deadline = time.monotonic() + WAIT_SECONDS
        while time.monotonic() < deadline:
            job = requests.get(f"{running.url}/jobs/{job_id}", headers=AUTH, timeout=5).json()
            if job["status"] == "completed":
                break
            threading.Event().wait(0.05)  # polling the resource under test, bounded by the deadline
        assert job["status"] == "completed" and job["data"]["document_type"] == "invoice"
        assert receiver.callbacks_for(job_id) == []
    finally:
        running.stop()


def test_fault_injection_can_refuse_submissions(receiver):
    running = start_in_thread(API_KEY, SECRET, faults=Faults(fail_submit=1.0))
    try:
        _, response = submit(running, receiver, receiver.add("r.pdf", b"%PDF-"))
        assert response.status_code == 503
    finally:
        running.stop()


def test_a_batch_of_jobs_is_taken_in_one_request_and_each_runs_once(extractor, receiver):
    pdf = sample("invoices/invoice2data_saeco.pdf").read_bytes()
    jobs = [{"job_id": f"job_{uuid.uuid4().hex}", "document_url": receiver.add(f"b{i}.pdf", pdf),
             "callback_url": receiver.callback_url, "mode": "first", "output_spec": None} for i in range(3)]
    response = requests.post(f"{extractor.url}/jobs/batch", json={"jobs": jobs}, headers=AUTH, timeout=10)
    assert response.status_code == 200, response.text
    assert response.json() == {"jobs": [{"job_id": job["job_id"], "status": 202} for job in jobs]}
    for job in jobs:
        assert receiver.callback_for(job["job_id"])["type"] == "job.completed"
        assert len(receiver.callbacks_for(job["job_id"])) == 1


@pytest.mark.parametrize("body", [None, {}, {"jobs": []}, {"jobs": "x"},
                                  {"jobs": [{"job_id": "ok", "document_url": "ftp://x", "callback_url": "http://x",
                                             "mode": "first"}]}])
def test_a_malformed_batch_is_400_and_takes_nothing(extractor, body):
    response = requests.post(f"{extractor.url}/jobs/batch", json=body, headers=AUTH, timeout=10)
    assert response.status_code == 400
    assert response.json()["error"]["code"] == "bad_request"
    assert requests.get(f"{extractor.url}/jobs/ok", headers=AUTH, timeout=5).status_code == 404


def test_a_batch_needs_the_bearer_token(extractor, receiver):
    response = requests.post(f"{extractor.url}/jobs/batch", json={"jobs": []}, timeout=10)
    assert response.status_code == 401


def test_the_client_submits_a_batch_and_reads_each_jobs_answer(receiver):
    from leadflow import breaker
    from leadflow.extraction.client import ExtractionClient, ExtractionUnavailable
    running = start_in_thread(API_KEY, SECRET, faults=Faults(fail_submit=1.0))
    try:
        client = ExtractionClient(running.url, API_KEY, breaker=breaker.Breaker("extraction", failures=3,
                                                                                cooldown=5, fresh=3))
        answers = client.submit_many([{"job_id": f"job_{i}", "document_url": receiver.add(f"r{i}.pdf", b"%PDF-"),
                                       "callback_url": receiver.callback_url, "mode": "first"} for i in range(2)])
        # Every job refused by the fault: each has its own answer, the request itself succeeded.
        assert [type(a) for a in answers] == [ExtractionUnavailable, ExtractionUnavailable]
        assert "503" in str(answers[0])
    finally:
        running.stop()


def test_a_full_queue_answers_busy_and_the_client_holds_back_without_counting_a_failure(
        receiver, monkeypatch):
    from leadflow import breaker
    from leadflow.extraction.client import ExtractionClient, ServiceBusy
    from leadflow.extractor import service as extractor_service
    running = start_in_thread(API_KEY, SECRET)
    monkeypatch.setattr(extractor_service, "MAX_BACKLOG", 0)  # every new job finds the queue full
    sent = []

    class Counting(requests.Session):
        def request(self, method, url, *args, **kwargs):
            sent.append(url)
            return super().request(method, url, *args, **kwargs)

    try:
        _, response = submit(running, receiver, receiver.add("b.pdf", b"%PDF-"))
        assert response.status_code == 503 and response.json()["error"]["code"] == "busy"
        assert response.headers["Retry-After"] == "1"
        client = ExtractionClient(running.url, API_KEY, breaker=breaker.Breaker("extraction", failures=1,
                                                                                cooldown=5, fresh=3))
        counting = Counting()
        counting.headers.update(client._session.headers)
        client._session = counting
        job = {"job_id": "job_busy", "document_url": receiver.add("c.pdf", b"%PDF-"),
               "callback_url": receiver.callback_url, "mode": "first"}
        [answer] = client.submit_many([job])
        assert isinstance(answer, ServiceBusy) and answer.seconds == 1.0
        assert client.breaker.state == breaker.CLOSED, "a full queue is a working service, not an outage"
        assert 0 < client.busy_for() <= 1.0
        calls = len(sent)
        with pytest.raises(ServiceBusy):
            client.submit(**job)
        assert len(sent) == calls, "within the Retry-After nothing is sent"
    finally:
        running.stop()


@pytest.mark.parametrize("retry_after, seconds", [("2", 2.0), (None, 1.0), ("100", 30.0), ("-5", 0.1),
                                                  ("nan", 1.0), ("inf", 1.0), ("Wed, 21 Oct 2015 07:28:00 GMT", 1.0)])
def test_a_busy_answer_holds_submissions_back_for_its_retry_after_within_bounds(retry_after, seconds):
    from leadflow import breaker
    from leadflow.extraction.client import ExtractionClient
    client = ExtractionClient("http://127.0.0.1:9", API_KEY, breaker=breaker.Breaker("extraction"))
    assert client._busy(retry_after).seconds == seconds
    assert 0 < client.busy_for() <= seconds


def test_a_refusal_that_is_not_busy_stays_a_failed_submission(receiver):
    from leadflow import breaker
    from leadflow.extraction.client import ExtractionClient, ServiceBusy, ExtractionUnavailable
    running = start_in_thread(API_KEY, SECRET, faults=Faults(fail_submit=1.0))
    try:
        client = ExtractionClient(running.url, API_KEY, breaker=breaker.Breaker("extraction", failures=3,
                                                                                cooldown=5, fresh=3))
        with pytest.raises(ExtractionUnavailable) as refused:
            client.submit(job_id="job_x", document_url=receiver.add("x.pdf", b"%PDF-"),
                          callback_url=receiver.callback_url, mode="first")
        assert not isinstance(refused.value, ServiceBusy) and client.busy_for() == 0
    finally:
        running.stop()


def test_the_client_learns_that_a_service_takes_jobs_one_by_one(receiver):
    import flask
    from werkzeug.serving import make_server
    from leadflow import breaker
    from leadflow.extraction.client import BatchUnsupported, ExtractionClient
    old = flask.Flask("an-older-service")
    old.add_url_rule("/health", "health", lambda: {"status": "ok"})
    old.add_url_rule("/jobs/<job_id>", "job", lambda job_id: ({}, 404))
    server = make_server("127.0.0.1", 0, old)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        client = ExtractionClient(f"http://127.0.0.1:{server.server_port}", API_KEY,
                                  breaker=breaker.Breaker("extraction", failures=3, cooldown=5, fresh=3))
        job = {"job_id": "j1", "document_url": "http://x/a", "callback_url": "http://x/c", "mode": "first"}
        with pytest.raises(BatchUnsupported):
            client.submit_many([job])
        assert client.batch_supported is False
        with pytest.raises(BatchUnsupported):   # not asked again
            client.submit_many([job])
    finally:
        server.shutdown()


def test_reading_processes_read_as_the_threads_do_and_a_reader_that_dies_fails_only_its_job(receiver):
    import os
    import signal
    statement = sample("bank-statements/synthetic_bank_statement_A1_02.pdf").read_bytes()
    running = start_in_thread(API_KEY, SECRET, processes=1)
    try:
        body = run(running, receiver, "p1.pdf", statement)
        assert body["type"] == "job.completed" and body["data"]["document_type"] == "bank_statement"
        assert body["data"]["pages"] == 2
        [reader] = running.service.readers._pool._processes.values()
        assert reader.pid != os.getpid(), "read in another process"
        os.kill(reader.pid, signal.SIGKILL)
        body = run(running, receiver, "p2.pdf", statement)
        assert body["type"] == "job.failed"
        assert body["data"]["error"] == {"code": "internal_error", "message": "the process reading the document died",
                                         "retryable": True}
        # A fresh reader takes the next job.
        body = run(running, receiver, "p3.pdf", statement)
        assert body["type"] == "job.completed" and body["data"]["document_type"] == "bank_statement"
    finally:
        running.stop()


def test_the_standalone_service_killed_outright_leaves_no_reading_process_behind(receiver, tmp_path):
    import os
    import signal
    import subprocess
    import sys
    import types
    from tests.plugins.live import free_port, wait_until
    port = free_port()
    env = {**os.environ, "EXTRACTION_API_KEY": API_KEY, "EXTRACTION_WEBHOOK_SECRET": SECRET,
           "EXTRACTOR_PORT": str(port), "EXTRACTOR_PROCESSES": "1"}
    service = subprocess.Popen([sys.executable, "-m", "leadflow.extractor"], env=env, stdout=subprocess.DEVNULL,
                               stderr=(tmp_path / "extractor.log").open("w"))
    try:
        url = f"http://127.0.0.1:{port}"

        def up():
            try:
                return requests.get(f"{url}/health", timeout=1).status_code == 200
            except requests.RequestException:
                return False

        wait_until(up, timeout=30, message="the extractor to answer")
        running = types.SimpleNamespace(url=url)  # what `run` needs of a running extractor
        statement = sample("bank-statements/synthetic_bank_statement_A1_02.pdf").read_bytes()
        assert run(running, receiver, "k.pdf", statement)["type"] == "job.completed"
        readers = [int(pid) for pid in subprocess.run(["pgrep", "-P", str(service.pid)], capture_output=True,
                                                      text=True).stdout.split()]
        assert readers, "the job was read in a process of the service's"
        os.kill(service.pid, signal.SIGKILL)
        service.wait(timeout=10)

        def gone():
            return not any(os.path.exists(f"/proc/{pid}") and _running(pid) for pid in readers)

        wait_until(gone, timeout=15, message="the reading processes to leave with the service")
    finally:
        if service.poll() is None:
            service.kill()


def _running(pid: int) -> bool:
    try:
        with open(f"/proc/{pid}/stat") as stat:
            return stat.read().split(")")[-1].split()[0] != "Z"  # a zombie has left
    except OSError:
        return False
