"""Starting LeadFlow's distributed mode as separate processes, for the chaos run and the benchmarks.

A `Stack` owns a fresh PostgreSQL database, an S3 server (moto's app behind gunicorn, which keeps
connections alive: `bench/s3_server.py`), a Redis namespace and realtime channel of its own, and
every process it starts. Each process runs in a process group of its own, so a SIGKILL takes a
`dramatiq` master together with its worker children, the way a machine going away would.
Leaving the `with` block stops them all, drops the database and deletes the namespace's Redis
keys; the logs stay when something failed.
"""
import base64
import os
import random
import secrets
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import threading
import time
from datetime import datetime, timezone
import uuid
from pathlib import Path
from urllib.parse import urlsplit

import psycopg
import redis
import requests

from tests.corpus import SAMPLES

ROOT = Path(__file__).resolve().parents[1]
BIN = Path(sys.executable).parent
ADMIN_URL = os.environ.get("BENCH_DATABASE_ADMIN_URL", "postgresql://postgres@127.0.0.1:5432/postgres")
REDIS_URL = os.environ.get("BENCH_REDIS_URL", "redis://127.0.0.1:6379/0")

# What the processes run: a copy taken at the start, so that edits to the tree during a run
# (other people work in it) never mix two versions of the code in one run.
CODE = ("app.py", "gunicorn.conf.py", "leadflow", "tasks", "migrations", "templates", "static", "bench")
SETTLED = ("VERIFIED", "REJECTED", "ACTION_REQUIRED")
QUEUES = ("document-processing", "callbacks")  # leadflow.jobs.DOCUMENT_QUEUE, CALLBACK_QUEUE
# The demo's brokerages (leadflow.cli.DEMO_BROKERAGES), one case each.
BROKERAGES = ("Rhein Hypotheken GmbH", "Isar Baufinanz AG")
# Text-layer PDFs this small read in tens of milliseconds: the runs exercise the pipeline, not OCR.
SMALL_PDF_BYTES = 64 * 1024
KIND_BY_FOLDER = {"payslips": "payslip", "bank-statements": "bank_statement",
                  "employment-contracts": "employment_contract", "invoices": "invoice", "receipts": "receipt"}


def sample_pdfs() -> list[tuple[Path, str]]:
    """The small, well-formed sample PDFs with the kind a client would pick for each."""
    found = []
    for path in sorted(SAMPLES.glob("*/*.pdf")):
        if path.parent.name == "tax":
            kind = "wage_tax_certificate" if "wage_tax" in path.name else "tax_assessment"
        else:
            kind = KIND_BY_FOLDER.get(path.parent.name)
        if kind and path.stat().st_size <= SMALL_PDF_BYTES:
            found.append((path, kind))
    if not found:
        raise SystemExit(f"no sample PDFs under {SAMPLES}")
    return found


def pinned_to(cpus):
    """A `preexec_fn` that runs a child on `cpus` only (and all it starts or forks later, which
    inherit it), or None for no pinning."""
    if not cpus:
        return None
    cpus = frozenset(cpus)

    def pin():
        os.sched_setaffinity(0, cpus)
    return pin


def _stop_on_sigterm(signum, _frame):
    raise SystemExit(128 + signum)


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def answers(url: str) -> bool:
    try:
        return requests.get(url, timeout=1).status_code < 500
    except requests.RequestException:
        return False


def wait_until(predicate, timeout: float, message: str, interval: float = 0.2):
    deadline = time.monotonic() + timeout
    while True:
        value = predicate()
        if value:
            return value
        if time.monotonic() > deadline:
            raise TimeoutError(f"timed out after {timeout:.0f}s waiting for {message}")
        time.sleep(interval)


# The day the sample documents are current on (their expected results' `as_of`).
SAMPLES_CURRENT_ON = datetime(2026, 11, 15, 12, 0, 0)


def clock_offset_to(moment: datetime) -> int:
    """LEADFLOW_CLOCK_OFFSET_SECONDS that makes it `moment` now, for every process of a run."""
    return round((moment - datetime.now(timezone.utc).replace(tzinfo=None)).total_seconds())


class Stack:
    """PostgreSQL database, S3 server, Redis namespace and LeadFlow processes of one run."""

    # Processes that are not LeadFlow's: with `own_cpus`, they run on the other CPUs. Helpers are
    # the ones named, so that one forgotten here competes with LeadFlow (understating it) rather
    # than a LeadFlow process getting the helpers' core (overstating it).
    HELPERS = ("s3", "extractor")

    def __init__(self, label: str, env: dict | None = None, source: str = "worktree",
                 private_postgres: bool = False, private_redis: bool = False,
                 own_cpus: frozenset[int] | None = None):
        if own_cpus and not (private_postgres and private_redis):
            raise ValueError("LeadFlow on CPUs of its own needs a PostgreSQL and a Redis of the run's own "
                             "(the machine's serve everyone else too)")
        self.label = label
        # LeadFlow's processes, its Redis and its PostgreSQL on `own_cpus`, the helpers on the
        # rest: what LeadFlow does on cores of its own, without the helpers competing for them.
        self.own_cpus = frozenset(own_cpus or ())
        self.helper_cpus = frozenset(os.sched_getaffinity(0)) - self.own_cpus if own_cpus else frozenset()
        self.source = source
        tag = uuid.uuid4().hex[:8]
        self.namespace = f"leadflow-{label}-{tag}"
        self.database = f"leadflow_{label}_{tag}"
        self.dir = Path(tempfile.mkdtemp(prefix=f"leadflow-{label}-"))
        # A PostgreSQL cluster of the run's own can be restarted for real without touching the
        # machine's cluster, which other people's tests use at the same time.
        # On CPUs of its own it is durable like the machine's, as it is measured; for the chaos
        # run, whose restarts it exists for, speed matters more.
        self.postgres = PrivatePostgres(self.dir / "postgres", cpus=self.own_cpus, durable=bool(own_cpus)) \
            if private_postgres else None
        self.admin_url = ADMIN_URL
        self.database_url = f"{ADMIN_URL.rsplit('/', 1)[0]}/{self.database}"
        self.extra_env = env or {}
        self.processes: dict[str, subprocess.Popen] = {}
        self.keep_logs = False
        # Likewise a Redis of the run's own, so that restarting it empty harms nobody else's tests.
        self.redis_port = free_port() if private_redis else None
        self.redis_url = f"redis://127.0.0.1:{self.redis_port}/0" if private_redis else REDIS_URL
        self.redis = redis.Redis.from_url(self.redis_url, socket_timeout=5, socket_connect_timeout=2)
        self._db = None
        self._db_lock = threading.Lock()
        self._created = False

    # -- lifecycle -------------------------------------------------------------------------

    def __enter__(self) -> "Stack":
        if threading.current_thread() is threading.main_thread():
            # `timeout` and CI stop a run with SIGTERM; as an exception it takes the stack down
            # too, instead of leaving its servers running.
            signal.signal(signal.SIGTERM, _stop_on_sigterm)
        try:
            self._up()
        except BaseException:
            self.keep_logs = True
            self.down()
            raise
        return self

    def __exit__(self, exc_type, exc, tb) -> None:
        if exc_type is not None:
            self.keep_logs = True
        self.down()

    def _up(self) -> None:
        self.code_dir, self.code = snapshot(self.source, self.dir / "code")
        if self.postgres is not None:
            self.admin_url = self.postgres.start()
            self.database_url = f"{self.admin_url.rsplit('/', 1)[0]}/{self.database}"
        with psycopg.connect(self.admin_url, autocommit=True, connect_timeout=5) as admin:
            admin.execute(f'CREATE DATABASE "{self.database}"')
        self._created = True
        s3_port, self.web_port, extractor_port = free_port(), free_port(), free_port()
        self.web_url = f"http://127.0.0.1:{self.web_port}"
        self.extraction_url = f"http://127.0.0.1:{extractor_port}"
        no_proxy = ",".join(filter(None, [os.environ.get("NO_PROXY"), "127.0.0.1", "localhost"]))
        self.env = {
            **{k: v for k, v in os.environ.items() if k not in ("CI", "AWS_PROFILE", "AWS_DEFAULT_PROFILE")},
            "PYTHONUNBUFFERED": "1",
            "NO_PROXY": no_proxy, "no_proxy": no_proxy,
            "DATABASE_URL": self.database_url,
            "REDIS_URL": self.redis_url,
            "DRAMATIQ_NAMESPACE": self.namespace,
            "REALTIME_CHANNEL": f"{self.namespace}:events",
            "S3_BUCKET": self.namespace,
            "S3_ENDPOINT_URL": f"http://127.0.0.1:{s3_port}",
            "S3_CREATE_BUCKET": "1",
            # The demo clients upload far more than one client's daily page allowance here.
            "CLIENT_DAILY_PAGE_ALLOWANCE": "0",
            "AWS_ACCESS_KEY_ID": "testing", "AWS_SECRET_ACCESS_KEY": "testing",
            "AWS_DEFAULT_REGION": "eu-central-1",
            "EXTRACTION_URL": self.extraction_url,
            "EXTRACTOR_PORT": str(extractor_port),
            "EXTRACTION_API_KEY": secrets.token_urlsafe(16),
            "EXTRACTION_WEBHOOK_SECRET": "whsec_" + base64.b64encode(secrets.token_bytes(24)).decode(),
            "PUBLIC_BASE_URL": self.web_url,
            "SECRET_KEY": secrets.token_urlsafe(32),
            "LEADFLOW_INSTANCE_DIR": str(self.dir / "instance"),
            "LEADFLOW_DEMO_PASSWORD": secrets.token_urlsafe(12),
            # The sample documents were issued to be current on one day (their `as_of`); on the
            # real date a run's verdicts would change as they age.
            "LEADFLOW_CLOCK_OFFSET_SECONDS": str(clock_offset_to(SAMPLES_CURRENT_ON)),
            **self.extra_env,
        }
        if self.redis_port is not None:
            self._start_redis()
        self.start("s3", [str(BIN / "gunicorn"), "--config", str(ROOT / "bench" / "s3_gunicorn.conf.py"),
                          "--bind", f"127.0.0.1:{s3_port}", "--chdir", str(ROOT), "bench.s3_server:app"])
        wait_until(lambda: answers(self.env["S3_ENDPOINT_URL"]), 30, "the S3 server")

    def down(self) -> None:
        for name in reversed(list(self.processes)):
            self.stop(name)
        if self._db is not None:
            self._db.close()
        if self._created and self.postgres is None:
            try:
                with psycopg.connect(self.admin_url, autocommit=True, connect_timeout=5) as admin:
                    admin.execute(f'DROP DATABASE IF EXISTS "{self.database}" WITH (FORCE)')
            except psycopg.Error as exc:
                print(f"{self.label}: could not drop database {self.database}: {exc}", file=sys.stderr)
        if self.postgres is not None:
            self.postgres.stop()
        try:
            if self.redis_port is None:  # a Redis of the run's own went with its processes
                self.delete_redis_keys()
        except redis.RedisError as exc:
            print(f"{self.label}: could not delete Redis keys {self.namespace}*: {exc}", file=sys.stderr)
        if self.keep_logs:
            print(f"{self.label}: logs kept in {self.dir}", file=sys.stderr)
        else:
            shutil.rmtree(self.dir, ignore_errors=True)

    def delete_redis_keys(self) -> None:
        keys = list(self.redis.scan_iter(match=f"{self.namespace}*", count=1000))
        for i in range(0, len(keys), 500):
            self.redis.delete(*keys[i:i + 500])

    # -- processes -------------------------------------------------------------------------

    def start(self, name: str, args: list[str], env: dict | None = None) -> subprocess.Popen:
        log = open(self.dir / f"{name}.log", "ab")
        cpus = self.helper_cpus if name in self.HELPERS else self.own_cpus
        process = subprocess.Popen(args, cwd=self.code_dir, env={**self.env, **(env or {})}, stdout=log,
                                   stderr=subprocess.STDOUT, stdin=subprocess.DEVNULL, start_new_session=True,
                                   preexec_fn=pinned_to(cpus))
        log.close()
        self.processes[name] = process
        return process

    def kill(self, name: str, sig: int = signal.SIGKILL) -> None:
        """Signal the process group (a dramatiq master and its children); wait for the leader."""
        process = self.processes.pop(name)
        try:
            os.killpg(process.pid, sig)
        except ProcessLookupError:
            pass
        process.wait()

    def stop(self, name: str, timeout: float = 15.0) -> None:
        process = self.processes.get(name)
        if process is None:
            return
        if process.poll() is None:
            try:
                os.killpg(process.pid, signal.SIGTERM)
                process.wait(timeout)
            except subprocess.TimeoutExpired:
                os.killpg(process.pid, signal.SIGKILL)
                process.wait()
            except ProcessLookupError:
                pass
        # Children of a group leader that exited on its own may still be around.
        try:
            os.killpg(process.pid, signal.SIGKILL)
        except (ProcessLookupError, PermissionError):
            pass
        self.processes.pop(name, None)

    def freeze(self, name: str, seconds: float, stopping: threading.Event | None = None) -> float:
        """SIGSTOP a process group for `seconds` (a server that accepts connections and answers
        nothing, as a hung machine does), then SIGCONT it; returns how long it was frozen."""
        process = self.processes[name]
        started = time.monotonic()
        os.killpg(process.pid, signal.SIGSTOP)
        try:
            if stopping is not None:
                stopping.wait(seconds)
            else:
                time.sleep(seconds)
        finally:
            os.killpg(process.pid, signal.SIGCONT)
        return time.monotonic() - started

    def _start_redis(self) -> None:
        self.start("redis", ["redis-server", "--bind", "127.0.0.1", "--port", str(self.redis_port),
                             "--save", "", "--appendonly", "no", "--dir", str(self.dir)])
        wait_until(lambda: _pings(self.redis), 15, "the run's Redis")

    def restart_redis(self, down_seconds: float = 2.0) -> float:
        """Stop the run's own Redis (every key and queued message is gone) and start it again;
        returns how long it was unreachable."""
        if self.redis_port is None:
            return restart_redis(down_seconds)
        started = time.monotonic()
        self.stop("redis")
        try:
            time.sleep(down_seconds)
        finally:
            self._start_redis()
        return time.monotonic() - started

    def restart_postgres(self, down_seconds: float = 3.0) -> float:
        """Restart the run's own PostgreSQL (fast shutdown: every connection is cut, as in a
        crash or failover) after `down_seconds` down; returns how long it was unreachable."""
        if self.postgres is None:
            raise RuntimeError("the stack uses the shared PostgreSQL; start it with private_postgres=True")
        with self._db_lock:
            if self._db is not None:
                self._db.close()
                self._db = None
            return self.postgres.restart(down_seconds)

    def exited(self) -> dict[str, int]:
        """Processes that ended without being asked to, with their exit codes."""
        return {name: p.returncode for name, p in self.processes.items() if p.poll() is not None}

    def cpu_meter(self, interval: float = 0.5):
        """A bench.cpu.Meter over this run's processes (its PostgreSQL database's backends, its
        Redis when it has its own, the helpers, this process); `with stack.cpu_meter() as m:`."""
        from bench.cpu import Meter
        names = {"web": "web", "workers": "workers", "scheduler": "scheduler", "redis": "Redis",
                 "s3": "S3 server (moto)", "extractor": "extractor"}
        groups = {names.get(name, name): process.pid for name, process in self.processes.items()
                  if process.poll() is None}
        return Meter(groups, database=self.database, interval=interval)

    def start_extractor(self, module: str = "leadflow.extractor", env: dict | None = None) -> None:
        self.start("extractor", [sys.executable, "-m", module], env=env)

    def start_web(self, workers: int = 2) -> None:
        # The production settings (gunicorn.conf.py, gevent workers), only the address and size ours.
        self.start("web", [str(BIN / "gunicorn"), "-c", "gunicorn.conf.py", "app:app"],
                   env={"WEB_BIND": f"127.0.0.1:{self.web_port}", "WEB_WORKERS": str(workers),
                        "WEB_ACCESS_LOG": "-"})

    def start_worker(self, name: str, processes: int = 1, threads: int = 5) -> None:
        self.start(name, [str(BIN / "dramatiq"), "tasks:worker", "--processes", str(processes), "--threads", str(threads)])

    def start_scheduler(self) -> None:
        self.start("scheduler", [sys.executable, "-m", "tasks.scheduler"])

    def wait_ready(self, timeout: float = 60.0) -> None:
        wait_until(lambda: answers(self.web_url + "/healthz"), timeout, "the web process")
        wait_until(lambda: answers(self.extraction_url + "/health"), timeout, "the extractor")

    # -- operator commands -------------------------------------------------------------------

    def flask(self, *args: str, env: dict | None = None, check: bool = True) -> subprocess.CompletedProcess:
        result = subprocess.run([str(BIN / "flask"), "--app", "app", *args], cwd=self.code_dir,
                                env={**self.env, **(env or {})}, capture_output=True, text=True, timeout=120)
        if check and result.returncode != 0:
            raise RuntimeError(f"flask {' '.join(args)} exited {result.returncode}:\n{result.stdout}{result.stderr}")
        return result

    def prepare(self, credits_per_brokerage: int) -> list[str]:
        """Migrate, create the demo data, grant credits; return a bearer token per demo client."""
        self.flask("db", "upgrade")
        self.flask("leadflow", "demo")
        for brokerage in BROKERAGES:
            self.flask("leadflow", "grant-credits", brokerage, str(credits_per_brokerage))
        # The demo's clients as this revision's demo made them (an older revision, under --against,
        # has other personas), in the order it made them.
        clients = [email for (email,) in self.sql("SELECT email FROM users WHERE role = 'client' ORDER BY id")]
        return [self.flask("leadflow", "create-token", email).stdout.strip() for email in clients]

    # -- reading the state ------------------------------------------------------------------

    def sql(self, query: str, params: tuple | dict | None = None) -> list[tuple]:
        with self._db_lock:
            if self._db is None or self._db.closed:
                self._db = psycopg.connect(self.database_url, autocommit=True, connect_timeout=5)
            cursor = self._db.execute(query, params)
            return cursor.fetchall() if cursor.description else []

    def status_counts(self) -> dict[str, int]:
        return dict(self.sql("SELECT status, count(*) FROM documents GROUP BY status"))

    def backlog(self) -> int:
        """Messages enqueued or in flight (not yet acknowledged) on the run's Dramatiq queues."""
        keys = [f"{self.namespace}:{q}{suffix}.msgs" for q in QUEUES for suffix in ("", ".DQ")]
        with self.redis.pipeline() as pipe:
            for key in keys:
                pipe.hlen(key)
            return sum(pipe.execute())

    def dead_letters(self) -> int:
        with self.redis.pipeline() as pipe:
            for q in QUEUES:
                pipe.hlen(f"{self.namespace}:{q}.XQ.msgs")
            return sum(pipe.execute())


class PrivatePostgres:
    """A throwaway PostgreSQL cluster (initdb in a temporary folder, its own port and socket
    folder), run as the `postgres` user when we are root, as the server refuses to run as root."""

    def __init__(self, directory: Path, cpus: frozenset[int] = frozenset(), durable: bool = False):
        self.dir = directory
        self.port = free_port()
        # The server, and every backend it forks, on these CPUs (all when empty).
        self.cpus = cpus
        # Without fsync a commit costs less CPU than on a real server; a measured cluster keeps it.
        self.durable = durable
        found = sorted(Path("/usr/lib/postgresql").glob("*/bin/pg_ctl"))
        if not found:
            raise SystemExit("--restart-postgres needs PostgreSQL's server binaries (/usr/lib/postgresql/*/bin)")
        self.bin = found[-1].parent
        self._as = ["runuser", "-u", "postgres", "--"] if os.geteuid() == 0 else []

    def _run(self, *args: str, timeout: float = 120) -> None:
        subprocess.run([*self._as, *args], check=True, capture_output=True, timeout=timeout,
                       preexec_fn=pinned_to(self.cpus))

    def start(self) -> str:
        self.dir.mkdir(parents=True)
        if self._as:
            shutil.chown(self.dir, "postgres", "postgres")
            os.chmod(self.dir.parent, 0o711)  # the run's folder (ours, 0700) must let the server through
        self._run(str(self.bin / "initdb"), "-D", str(self.dir / "data"), "-U", "postgres", "--auth=trust",
                  "-E", "UTF8", "--no-sync")
        self._ctl("start")
        return f"postgresql://postgres@127.0.0.1:{self.port}/postgres"

    def restart(self, down_seconds: float = 3.0) -> float:
        started = time.monotonic()
        self._ctl("stop", "-m", "fast")
        try:
            time.sleep(down_seconds)
        finally:
            self._ctl("start")
        return time.monotonic() - started

    def stop(self) -> None:
        if (self.dir / "data" / "postmaster.pid").exists():
            try:
                self._ctl("stop", "-m", "immediate")
            except subprocess.SubprocessError as exc:
                print(f"could not stop the private PostgreSQL in {self.dir}: {exc}", file=sys.stderr)

    def _ctl(self, action: str, *args: str) -> None:
        options = f"-p {self.port} -k {self.dir} -c listen_addresses=127.0.0.1 -c max_connections=200"
        if not self.durable:
            options += " -c fsync=off"
        self._run(str(self.bin / "pg_ctl"), action, "-D", str(self.dir / "data"), "-w", "-t", "60",
                  "-l", str(self.dir / "server.log"), "-o", options, *args)


def snapshot(source: str, target: Path) -> tuple[Path, str]:
    """Copy the code the processes run into `target`: the working tree as it is now, or a git
    revision (with the working tree's bench/). Returns the directory and a description."""
    def git(*args) -> str:
        return subprocess.run(["git", *args], cwd=ROOT, capture_output=True, text=True, check=True).stdout.strip()

    target.mkdir(parents=True)
    if source == "worktree":
        for name in CODE:
            path = ROOT / name
            if path.is_dir():
                shutil.copytree(path, target / name, ignore=shutil.ignore_patterns("__pycache__", "*.pyc"))
            elif path.exists():
                shutil.copy2(path, target / name)
        changed = [line for line in git("status", "--porcelain", "--", *CODE).splitlines()
                   if not line[3:].startswith("bench")]
        described = f"working tree at {git('rev-parse', '--short', 'HEAD')}"
        return target, described + (f" + {len(changed)} uncommitted changes" if changed else " (clean)")
    revision = git("rev-parse", "--short", source)
    archive = subprocess.run(["git", "archive", "--format=tar", revision, *CODE[:-1]], cwd=ROOT,
                             capture_output=True, check=True).stdout
    subprocess.run(["tar", "-x", "-C", str(target)], input=archive, check=True)
    shutil.copytree(ROOT / "bench", target / "bench", ignore=shutil.ignore_patterns("__pycache__", "*.pyc"))
    return target, f"commit {revision}"


class Uploader:
    """Uploads sample PDFs through the JSON API as the demo clients; safe to call from threads."""

    ATTEMPTS = 5

    def __init__(self, base_url: str, tokens: list[str]):
        self.base_url = base_url
        self.tokens = tokens
        self.failures: list[str] = []
        self._local = threading.local()
        self._bytes: dict[Path, bytes] = {}

    def upload(self, index: int, path: Path, kind: str) -> str | None:
        """The new document's id, or None after the attempts ran out (the failure is kept)."""
        data = self._bytes.get(path) or self._bytes.setdefault(path, path.read_bytes())
        return self._post_file(index, "/api/documents/upload", path.name, data,
                               {"kind": kind, "title": f"{path.stem} #{index}"})

    def upload_packet(self, index: int, name: str, data: bytes) -> str | None:
        """A packet (several documents in one PDF, `split=auto`): its id, or None after the attempts."""
        return self._post_file(index, "/api/documents?split=auto", name, data, {"title": f"{name} #{index}"})

    def _post_file(self, index: int, route: str, name: str, data: bytes, fields: dict) -> str | None:
        session = self._session(self.tokens[index % len(self.tokens)])
        problem = "no attempt"
        for attempt in range(self.ATTEMPTS):
            try:
                response = session.post(self.base_url + route, timeout=30,
                                        files={"file": (name, data, "application/pdf")}, data=fields)
            except requests.RequestException as exc:
                problem = f"{type(exc).__name__}: {exc}"
            else:
                if response.status_code == 201:
                    return response.json()["id"]
                problem = f"HTTP {response.status_code}: {response.text[:200]}"
                if response.status_code < 500:
                    break
            time.sleep(0.25 * 2 ** attempt * (1 + random.random()))
        self.failures.append(problem)
        return None

    def _session(self, token: str) -> requests.Session:
        sessions = getattr(self._local, "sessions", None)
        if sessions is None:
            sessions = self._local.sessions = {}
        if token not in sessions:
            sessions[token] = requests.Session()
            sessions[token].headers["Authorization"] = f"Bearer {token}"
        return sessions[token]


def _pings(client: redis.Redis) -> bool:
    try:
        return bool(client.ping())
    except redis.RedisError:
        return False


def redis_port() -> int:
    return urlsplit(REDIS_URL).port or 6379


def restart_redis(down_seconds: float = 2.0) -> float:
    """Shut the shared Redis down without saving (every key and queued message is gone), start it
    again the way scripts/ensure-services.sh does; return how long it was unreachable."""
    port = str(redis_port())
    started = time.monotonic()
    subprocess.run(["redis-cli", "-p", port, "shutdown", "nosave"], capture_output=True, timeout=10)
    try:
        time.sleep(down_seconds)
    finally:
        ensure_redis()
    return time.monotonic() - started


def ensure_redis() -> None:
    """Start the local Redis if it does not answer (also the safety net after an interrupted restart)."""
    port = str(redis_port())
    if subprocess.run(["redis-cli", "-p", port, "ping"], capture_output=True, timeout=10).returncode == 0:
        return
    subprocess.run(["redis-server", "--daemonize", "yes", "--bind", "127.0.0.1", "-::1", "--port", port,
                    "--save", "", "--appendonly", "no"], check=True, capture_output=True, timeout=10,
                   start_new_session=True)
    wait_until(lambda: subprocess.run(["redis-cli", "-p", port, "ping"], capture_output=True,
                                      timeout=10).returncode == 0, 15, "Redis to come back")
