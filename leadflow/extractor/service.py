"""The extractor's HTTP layer and worker pools: accept jobs, run them, deliver their callbacks."""
import hmac
import logging
import multiprocessing
import os
import re
import threading
import time
from concurrent.futures import ProcessPoolExecutor, ThreadPoolExecutor
from concurrent.futures import wait as futures_wait
from concurrent.futures.process import BrokenProcessPool
from dataclasses import dataclass
from urllib.parse import urlsplit

from flask import Flask, jsonify, request
from werkzeug.serving import make_server

from leadflow.extractor import classify as classifier
from leadflow.extractor import packet_jobs, pipeline
from leadflow.extractor.config import ExtractorConfig, check_secret
from leadflow.extractor.delivery import Deliverer, new_delivery_id
from leadflow.extractor.errors import InternalError
from leadflow.extractor.faults import Dice, Faults
from leadflow.extractor.fetch import fetch
from leadflow.extractor.jobs import Job, JobStore

log = logging.getLogger(__name__)

MAX_BACKLOG = 256  # queued + running jobs; beyond it POST /jobs answers 503 and LeadFlow retries later
MAX_BATCH = 50     # jobs in one POST /jobs/batch
# A full backlog is answered 503 "busy" with this: LeadFlow holds its submissions back so long.
BUSY_HEADERS = {"Retry-After": "1"}
JOB_ID = re.compile(r"^[A-Za-z0-9_.:\-]{1,200}$")  # it travels in a URL path: no slashes
REORDER_HOLD_SECONDS = 10.0  # a held-back callback goes out at the latest after this


class ExtractorService:
    """Owns the job table, the extraction pool and the delivery pool of one extractor process."""

    def __init__(self, config: ExtractorConfig, fetcher=fetch):
        self.config = config
        self.jobs = JobStore()
        # Pages a packet's split read, for its documents' jobs (packet_jobs.py).
        self.pages = packet_jobs.PageCache()
        self.fetcher = fetcher
        self.dice = Dice(config.faults)
        self.stopping = threading.Event()
        self.deliverer = Deliverer(config.webhook_secret, self.stopping,
                                   fail_attempt=lambda: self.dice.roll("fail_callback"))
        self.workers = ThreadPoolExecutor(config.workers, thread_name_prefix="extractor-job")
        self.readers = ReaderProcesses(config.processes, config.page_readers) if config.processes else None
        if self.readers is None and config.page_readers > 1:
            pipeline.read_pages_at_once(config.page_readers, threading.BoundedSemaphore(config.page_readers))
        # Deliveries have their own pool so a slow or down receiver never holds up extraction.
        self.senders = ThreadPoolExecutor(4, thread_name_prefix="extractor-callback")
        self._held = None  # (url, body, msg_id) kept back by the reorder fault
        self._held_lock = threading.Lock()
        self._outstanding: set = set()  # futures of jobs and deliveries not finished yet
        self._outstanding_lock = threading.Lock()

    # -- use cases the HTTP layer calls -------------------------------------------------------

    def submit(self, job: Job) -> bool:
        """Accept a job; False when its id was already known (it is not run again)."""
        if not self.jobs.add(job):
            log.info("job %s submitted again; not run twice", job.job_id)
            return False
        try:
            self._track(self.workers.submit(self._run, job.job_id))
        except RuntimeError:  # the pool is shut down: forget the job so a resubmission can run it
            self.jobs.remove(job.job_id)
            raise
        return True

    def wait_idle(self, timeout: float) -> bool:
        """Wait until every accepted job has run and its callback has been delivered (or given
        up); False on timeout. Tests use it so that no callback lands after a test ended."""
        deadline = time.monotonic() + timeout
        while True:
            with self._outstanding_lock:
                outstanding = list(self._outstanding)
            if not outstanding:
                return True
            remaining = deadline - time.monotonic()
            if remaining <= 0:
                return False
            futures_wait(outstanding, timeout=remaining)

    def _track(self, future) -> None:
        with self._outstanding_lock:
            self._outstanding.add(future)
        future.add_done_callback(self._forget)

    def _forget(self, future) -> None:
        with self._outstanding_lock:
            self._outstanding.discard(future)

    def backlog_full(self) -> bool:
        return self.jobs.unfinished() >= MAX_BACKLOG

    def shutdown(self) -> None:
        self.stopping.set()
        self.workers.shutdown(wait=False, cancel_futures=True)
        self.senders.shutdown(wait=False, cancel_futures=True)
        if self.readers is not None:
            self.readers.shutdown()
        elif self.config.page_readers > 1:
            pipeline.read_pages_at_once(1)

    # -- work --------------------------------------------------------------------------------

    def _run(self, job_id: str) -> None:
        if self.stopping.is_set():
            return
        job = self.jobs.get(job_id)
        self.jobs.mark_running(job_id)
        callback_type, data = pipeline.run(self.fetcher, job.document_url, job.mode, job.output_spec,
                                           extractor=self._extract)
        # The result is recorded before the callback leaves, so GET /jobs/<id> never lags it.
        self.jobs.finish(job_id, callback_type, data)
        body = {"type": callback_type, "job_id": job_id, "data": data}
        try:
            self._track(self.senders.submit(self._deliver, job.callback_url, body))
        except RuntimeError:
            log.warning("job %s finished during shutdown; its callback was not sent", job_id)

    def _extract(self, data: bytes, mode: str, output_spec: dict | None) -> dict:
        """One job's reading, on the reading processes when there are any: a packet's split, a
        document of a packet from the pages its split read, or a whole document."""
        return packet_jobs.run(data, mode, output_spec, cache=self.pages,
                               call=self.readers.call if self.readers else _call_here)

    def _deliver(self, url: str, body: dict) -> None:
        job_id = body["job_id"]
        if self.dice.roll("drop"):
            log.info("callback for %s dropped by fault injection", job_id)
            return
        delay = self.dice.delay_seconds()
        if delay and self.stopping.wait(delay):
            return
        msg_id = new_delivery_id()
        if self.dice.roll("reorder") and self._hold(url, body, msg_id):
            return
        self.deliverer.deliver(url, body, msg_id)
        if self.dice.roll("duplicate"):
            self.deliverer.deliver(url, body, msg_id)  # the same delivery again, same webhook-id
        self._release_held()

    def _hold(self, url, body, msg_id) -> bool:
        with self._held_lock:
            if self._held is not None:
                return False
            self._held = (url, body, msg_id)
        timer = threading.Timer(REORDER_HOLD_SECONDS, self._release_held)
        timer.daemon = True
        timer.start()
        return True

    def _release_held(self) -> None:
        with self._held_lock:
            held, self._held = self._held, None
        if held and not self.stopping.is_set():
            self.deliverer.deliver(*held)


def create_app(service: ExtractorService) -> Flask:
    """A Flask app of the extractor's own: no other app's config, globals or extensions."""
    app = Flask("leadflow.extractor")
    app.config["MAX_CONTENT_LENGTH"] = 512 * 1024  # a batch of jobs is a few URLs each, never a document

    def authorized() -> bool:
        scheme, _, token = request.headers.get("Authorization", "").partition(" ")
        return scheme.lower() == "bearer" and hmac.compare_digest(
            token.strip().encode(), service.config.api_key.encode())

    @app.get("/health")
    def health():
        return jsonify(status="ok")

    @app.post("/jobs")
    def submit_job():
        if not authorized():
            return error(401, "unauthorized", "a valid bearer token is required")
        body = request.get_json(silent=True)
        problem = validate_job(body)
        if problem:
            return error(400, "bad_request", problem)
        status, code, message = take(body)
        if status != 202:
            response = error(status, code, message)
            return (*response, BUSY_HEADERS) if code == "busy" else response
        return jsonify(job_id=body["job_id"]), 202

    @app.post("/jobs/batch")
    def submit_batch():
        """Several jobs in one request: each taken or refused on its own, as POST /jobs would."""
        if not authorized():
            return error(401, "unauthorized", "a valid bearer token is required")
        body = request.get_json(silent=True)
        jobs = body.get("jobs") if isinstance(body, dict) else None
        if not isinstance(jobs, list) or not 0 < len(jobs) <= MAX_BATCH:
            return error(400, "bad_request", f"body must be {{\"jobs\": [...]}} with 1-{MAX_BATCH} jobs")
        problems = [validate_job(job) for job in jobs]
        if any(problems):
            return error(400, "bad_request", "; ".join(f"job {i}: {p}" for i, p in enumerate(problems) if p))
        answers = []
        for job in jobs:
            status, code, message = take(job)
            answers.append({"job_id": job["job_id"], "status": status} if status == 202 else
                           {"job_id": job["job_id"], "status": status, "error": {"code": code, "message": message}})
        busy = any(a.get("error", {}).get("code") == "busy" for a in answers)
        return jsonify(jobs=answers), 200, (BUSY_HEADERS if busy else {})

    def take(body: dict) -> tuple[int, str | None, str | None]:
        """Accept one well-formed job: (202, None, None), or the status, code and message of its refusal."""
        if service.dice.roll("fail_submit"):
            return 503, "unavailable", "submission refused by fault injection"
        known = service.jobs.get(body["job_id"])
        if known is None and service.backlog_full():
            return 503, "busy", "too many unfinished jobs; retry later"
        job = Job(job_id=body["job_id"], document_url=body["document_url"],
                  callback_url=body["callback_url"], mode=body["mode"],
                  output_spec=body.get("output_spec"))
        try:
            service.submit(job)
        except RuntimeError:
            return 503, "stopping", "the extractor is shutting down"
        return 202, None, None

    @app.get("/jobs/<job_id>")
    def get_job(job_id):
        if not authorized():
            return error(401, "unauthorized", "a valid bearer token is required")
        job = service.jobs.get(job_id)
        if job is None:
            return error(404, "not_found", "no such job")
        return jsonify(job.as_wire())

    @app.errorhandler(404)
    def not_found(_exc):
        return error(404, "not_found", "no such resource")

    @app.errorhandler(405)
    def not_allowed(_exc):
        return error(405, "method_not_allowed", "method not allowed")

    @app.errorhandler(413)
    def too_big(_exc):
        return error(413, "too_large", "request body too large")

    @app.errorhandler(Exception)
    def crashed(exc):
        log.exception("request failed")
        return error(500, "internal_error", "internal error")

    return app


def validate_job(body) -> str | None:
    """None when the submission is well-formed, else what is wrong with it (for the 400)."""
    if not isinstance(body, dict):
        return "body must be a JSON object"
    job_id = body.get("job_id")
    if not isinstance(job_id, str) or not JOB_ID.match(job_id):
        return "job_id must be 1-200 characters of letters, digits, _ . : -"
    for key in ("document_url", "callback_url"):
        value = body.get(key)
        if not isinstance(value, str) or urlsplit(value).scheme not in ("http", "https") \
                or not urlsplit(value).netloc:
            return f"{key} must be an http(s) URL"
    if body.get("mode") not in pipeline.MODES:
        return f"mode must be one of {', '.join(pipeline.MODES)}"
    spec = body.get("output_spec")
    if spec is not None and not isinstance(spec, dict):
        return "output_spec must be an object or null"
    if spec is not None and "pages" in spec and not packet_jobs.valid_pages(spec["pages"]):
        return "output_spec.pages must be [first, last], page numbers from 1"
    decided = (spec or {}).get("document_type")
    if decided is not None and decided not in classifier.DOCUMENT_TYPES:
        return f"output_spec.document_type must be one of {', '.join(classifier.DOCUMENT_TYPES)}"
    if body["mode"] == "customise":
        names = (spec or {}).get("fields")
        if not isinstance(names, list) or not names or len(names) > 100 or not all(
                isinstance(n, str) and 0 < len(n) <= 100 for n in names):
            return 'customise needs output_spec {"fields": ["name", ...]} (1-100 names)'
    return None


class ReaderProcesses:
    """A pool of processes that read documents (`pipeline.extract`), so that reading uses every
    core. Started with spawn, not fork: the service has threads running when it starts one.
    A reader that dies (killed, out of memory) fails its job as an internal error, which
    LeadFlow retries, and the pool is started afresh for the next jobs."""

    # A reader is replaced after this many documents, so what a parser library keeps grows no further.
    DOCUMENTS_PER_PROCESS = 500

    def __init__(self, processes: int, page_readers: int = 1):
        self.processes = processes
        self.page_readers = page_readers
        self._lock = threading.Lock()
        self._pool = self._start()

    def _start(self) -> ProcessPoolExecutor:
        context = multiprocessing.get_context("spawn")
        # One Tesseract run per slot, whichever reader or document it is for: a document's pages
        # take the free cores, and share them with other documents' under load. New slots with
        # each pool: a reader killed while it held one would never give it back.
        self.slots = context.BoundedSemaphore(self.page_readers) if self.page_readers > 1 else None
        return ProcessPoolExecutor(self.processes, mp_context=context,
                                   max_tasks_per_child=self.DOCUMENTS_PER_PROCESS, initializer=_start_reader,
                                   initargs=(os.getpid(), self.page_readers, self.slots))

    def extract(self, data: bytes, mode: str, output_spec: dict | None) -> dict:
        return self.call(pipeline.extract, data, mode, output_spec)

    def call(self, function, *arguments):
        """`function(*arguments)` on a reading process (a module-level function: it is pickled)."""
        pool = self._pool
        try:
            return pool.submit(function, *arguments).result()
        except BrokenProcessPool as exc:
            with self._lock:
                if self._pool is pool:
                    self._pool = self._start()
            raise InternalError("the process reading the document died") from exc

    def shutdown(self) -> None:
        self._pool.shutdown(wait=False, cancel_futures=True)


def _start_reader(service_pid: int, page_readers: int, slots) -> None:
    """In a new reading process: its pages read at once, in the service's shared slots."""
    _leave_with(service_pid)
    if page_readers > 1:
        pipeline.read_pages_at_once(page_readers, slots)


def _leave_with(service_pid: int) -> None:
    """In a reading process: exit once the service that started it is gone. A service killed
    outright (SIGKILL, out of memory) cannot stop its pool, and a reader waiting for work would
    wait for ever (it holds its queue's writing end too, so it never reads an end of file)."""
    def watch():
        while os.getppid() == service_pid:
            time.sleep(PARENT_CHECK_SECONDS)
        os._exit(0)

    threading.Thread(target=watch, name="reader-leaves-with-service", daemon=True).start()


PARENT_CHECK_SECONDS = 1.0


def _call_here(function, *arguments):
    return function(*arguments)


def error(status: int, code: str, message: str):
    return jsonify(error={"code": code, "message": message}), status


@dataclass
class RunningExtractor:
    """A started extractor: its base URL, and stop()."""
    url: str
    service: ExtractorService
    _server: object
    _thread: threading.Thread

    def stop(self, timeout: float = 5.0) -> None:
        self.service.shutdown()
        self._server.shutdown()
        self._server.server_close()
        self._thread.join(timeout)


def serve(config: ExtractorConfig, *, fetcher=fetch):
    """Build the service and its WSGI server (not yet serving)."""
    check_secret(config.webhook_secret)
    service = ExtractorService(config, fetcher=fetcher)
    # Werkzeug's threaded server: jobs live in this process's memory, so one process it is;
    # requests are tiny (extraction happens on the pools), so a thread per request is plenty.
    server = make_server(config.host, config.port, create_app(service), threaded=True)
    return service, server


def run_until_stopped(service: "ExtractorService", server) -> None:
    """Serve until interrupted, then stop the pools and close the socket."""
    try:
        server.serve_forever()
    except KeyboardInterrupt:
        pass
    finally:
        service.shutdown()
        server.server_close()


def start_in_thread(api_key: str, webhook_secret: str, host: str = "127.0.0.1", port: int = 0,
                    faults: Faults | None = None, *, workers: int = 2, processes: int = 0,
                    page_readers: int = 1) -> RunningExtractor:
    """Run an extractor on a daemon thread (LeadFlow's embedded mode, tests); port 0 picks one."""
    if not api_key:
        raise ValueError("api_key is required")
    config = ExtractorConfig(api_key=api_key, webhook_secret=webhook_secret, host=host, port=port,
                             faults=faults or Faults(), workers=workers, processes=processes,
                             page_readers=page_readers)
    service, server = serve(config)
    # A short poll interval makes stop() prompt; an idle poll every 0.1 s costs nothing.
    thread = threading.Thread(target=server.serve_forever, kwargs={"poll_interval": 0.1},
                              name="extractor-http", daemon=True)
    thread.start()
    url_host = f"[{host}]" if ":" in host else host
    return RunningExtractor(url=f"http://{url_host}:{server.server_port}", service=service,
                            _server=server, _thread=thread)
