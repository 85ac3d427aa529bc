"""Live pages at scale: N sockets signed in as advisors of one brokerage on ONE web process
(gunicorn, gevent worker, `gunicorn.conf.py`) while documents flow through the distributed mode.

    make bench-live
    .venv/bin/python -m bench.live --sockets 200 --seconds 20

Prints commit-to-frame latency p50/p99 (the event's `committed_at`, stamped when the status
transaction committed, against the moment the kernel received, on the client's socket, the frame
holding that document at that status or a later one: a burst pushed as its latest state counts
for every event in it), `/healthz` latency p50/p99 during the run, CPU seconds per process group
from /proc (bench/cpu.py; the sockets' client a helper of its own), and how long the web process
waited in the run queue for a core: on a machine shared with other work that waiting is part of
every latency printed, whatever the code does.

Each socket is its own advisor (N users, each with an API token, inserted straight into the run's
database), so the per-user socket cap (WS_MAX_SOCKETS_PER_USER) stays as shipped. The sockets run
in a child process of their own (one epoll loop, a minimal client that offers no compression),
which reads each frame's arrival time from the kernel (SO_TIMESTAMPNS), so that neither it nor
this process being slow to read adds to what is measured; `--uploads-on other` puts the uploads
and the extractor's callbacks on a second web process; the documents are uploaded as the
brokerage's clients at a rate that makes about --events status events a second (four per
document: PENDING, PROCESSING, EXTRACTING and a verdict).
"""
import argparse
import base64
import hashlib
import json
import multiprocessing
import os
import re
import resource
import secrets
import selectors
import socket
import statistics
import struct
import sys
import threading
import time
from collections import defaultdict
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import redis
import requests

from bench._stack import BIN, Stack, Uploader, answers, ensure_redis, free_port, sample_pdfs, wait_until
from bench.cpu import report

BROKERAGE = "Rhein Hypotheken GmbH"  # the demo brokerage whose clients upload (leadflow.cli.DEMO_BROKERAGES)
RHEIN_CLIENTS = 2  # the demo makes its first brokerage's two clients first (bench._stack.prepare keeps that order)
EVENTS_PER_DOCUMENT = 4
TARGET_P99_MS = 250
TARGET_HEALTHZ_P99_MS = 50
HEALTHZ_EVERY_SECONDS = 0.1
CONNECT_AT_ONCE = 50  # sockets opening at the same time, as pages opening at the start of a day
# Linux's SO_TIMESTAMPNS (asm-generic/socket.h), which Python's socket module does not name.
SO_TIMESTAMPNS = getattr(socket, "SO_TIMESTAMPNS", 35)
ROW = re.compile(rb'<tr id="document-([0-9a-f]{32})" data-status="([A-Z_]+)"')


def main(argv=None) -> int:
    args = parse_args(argv)
    raise_open_files(args.sockets)
    samples = sample_pdfs()
    ensure_redis()
    say = lambda text: print(f"[bench-live] {text}", flush=True)  # noqa: E731
    with Stack("live", source=args.source, private_redis=True) as stack:
        stack.keep_logs = args.keep_logs
        tokens = stack.prepare(10_000_000)
        advisor_tokens = make_advisors(stack, args.sockets)
        stack.start_extractor(module="bench.instant_extractor")
        stack.start_web(workers=1)
        api_url, worker_env = stack.web_url, {}
        if args.uploads_on == "other":
            # A second web process takes the uploads and the extractor's callbacks (the workers
            # name it as where callbacks go), as a load balancer would spread them over several;
            # the sockets and /healthz stay on the first.
            api_url = f"http://127.0.0.1:{free_port()}"
            stack.start("api-web", [str(BIN / "gunicorn"), "-c", "gunicorn.conf.py", "app:app"],
                        env={"WEB_BIND": api_url.split("//", 1)[1], "WEB_WORKERS": "1", "WEB_ACCESS_LOG": "-"})
            worker_env = {"PUBLIC_BASE_URL": api_url}
        stack.start("workers", [str(BIN / "dramatiq"), "tasks:worker", "--processes", str(args.workers),
                                "--threads", "5"], env=worker_env)
        stack.wait_ready()
        wait_until(lambda: answers(api_url + "/healthz"), 60, "the web process for uploads")
        uploader = Uploader(api_url, tokens[:RHEIN_CLIENTS])
        events = EventLog(stack.redis_url, stack.env["REALTIME_CHANNEL"])
        events.start()

        sockets = SocketsProcess(stack.web_url, advisor_tokens)
        opened = sockets.start(timeout=max(120.0, args.sockets / 10))
        say(f"{opened} of {args.sockets} sockets open on one gunicorn gevent worker (pid group "
            f"{stack.processes['web'].pid}), each an advisor of {BROKERAGE}; running the {stack.code}")
        if opened < args.sockets:
            stack.keep_logs = True
            sockets.stop()
            return 1

        # Warm-up, not measured: every sample once, so each process has its connections and caches.
        warm = upload_at(uploader, samples, len(samples), rate=len(samples))
        wait_settled(stack, warm, 120)

        health = HealthProbe(stack.web_url + "/healthz")
        web_pids = stack.processes["web"].pid
        meter = stack.cpu_meter()
        meter.by_pgid[sockets.pid] = "sockets' client"  # a helper: its own process group
        if "api-web" in stack.processes:
            meter.by_pgid[stack.processes["api-web"].pid] = "web"  # LeadFlow's either way
        meter.start()
        sched_before, started = group_schedstat(web_pids), time.monotonic()
        measure_from = time.time()
        health.start()
        documents = max(1, round(args.events * args.seconds / EVENTS_PER_DOCUMENT))
        ids = upload_at(uploader, samples, documents, rate=args.events / EVENTS_PER_DOCUMENT)
        wait_settled(stack, ids, 120)
        measure_to = time.time()
        health.stop()
        meter.stop()
        ran, waited = (after - before for after, before in zip(group_schedstat(web_pids), sched_before))
        elapsed = time.monotonic() - started
        time.sleep(1.0)  # the frames of the last events are still on their way
        frames = sockets.stop()
        events.stop()

    ours = {d for d in ids}
    committed = [(d, s, t) for d, s, t in events.items() if d in ours and measure_from <= t <= measure_to]
    latencies, missing = commit_to_frame(committed, frames)
    rate = len(committed) / max(measure_to - measure_from, 1e-9)
    say(f"{len(ids)} documents, {len(committed)} status events in {measure_to - measure_from:.1f}s "
        f"= {rate:.1f} events/s; {sum(len(f) for f in frames)} rows received over {len(frames)} sockets")
    p50, p99 = percentile(latencies, 50), percentile(latencies, 99)
    say(f"commit-to-frame over {len(latencies)} (event, socket) pairs: p50 {p50:.0f} ms, p99 {p99:.0f} ms, "
        f"max {max(latencies, default=0):.0f} ms; {missing} never arrived   (target p99 < {TARGET_P99_MS} ms)")
    bus = events.bus_ms(ours)
    say(f"of which commit to the bus (heard by this process on the channel): p50 {percentile(bus, 50):.0f} ms, "
        f"p99 {percentile(bus, 99):.0f} ms")
    late = [1000 * x for x in sockets.late]
    say(f"a frame counts when the kernel received it (SO_TIMESTAMPNS); the client read frames "
        f"p50 {percentile(late, 50):.0f} ms, p99 {percentile(late, 99):.0f} ms later (not counted)"
        + (f"; {sockets.unstamped} reads without a timestamp counted when read" if sockets.unstamped else ""))
    h50, h99 = percentile(health.latencies, 50), percentile(health.latencies, 99)
    say(f"/healthz during it, {len(health.latencies)} requests: p50 {h50:.1f} ms, p99 {h99:.1f} ms, "
        f"max {max(health.latencies, default=0):.1f} ms; {health.failures} failed   "
        f"(target p99 < {TARGET_HEALTHZ_P99_MS} ms)")
    say(f"the sockets' web process (gunicorn arbiter and its one worker): {ran:.1f} CPU s in {elapsed:.1f} s "
        f"= {100 * ran / elapsed:.0f}% of a core, {1000 * ran / max(len(committed), 1):.1f} ms per event "
        + ("(the uploads and callbacks included)" if args.uploads_on == "live" else
           "(uploads and callbacks on the other; both are the table's web)"))
    say(f"the web process waited {waited:.1f} s for a core (run queue, /proc/<pid>/schedstat) beside "
        f"{ran:.1f} s running: {waited / max(ran, 1e-9):.1f} s of waiting per second of work")
    print(report(meter, len(committed), "event", f"{rate:.1f} events/s"), flush=True)
    say(f"the sockets' client process used {sockets.cpu_seconds:.1f} CPU s in all (opening them included)")
    say(f"load average {', '.join(f'{x:.1f}' for x in os.getloadavg())} on {os.cpu_count()} cores "
        f"(the sockets' client, the workers, PostgreSQL, Redis and other people's work share them)")
    ok = latencies and p99 < TARGET_P99_MS and h99 < TARGET_HEALTHZ_P99_MS and not missing and not health.failures
    say("targets met" if ok else "targets NOT met")
    say(f"command: .venv/bin/python -m bench.live --sockets {args.sockets} --events {args.events:g} "
        f"--seconds {args.seconds:g} --workers {args.workers} --uploads-on {args.uploads_on} --source {args.source}")
    return 0 if ok else 1


def parse_args(argv):
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--sockets", type=int, default=1000, help="open sockets, one advisor each")
    parser.add_argument("--events", type=float, default=20.0, help="status events per second to cause")
    parser.add_argument("--seconds", type=float, default=30.0, help="how long documents flow")
    parser.add_argument("--workers", type=int, default=1, help="dramatiq worker processes")
    parser.add_argument("--uploads-on", choices=("live", "other"), default="live",
                        help="the web process the uploads and the extractor's callbacks go to: the sockets' "
                             "own (default) or another one")
    parser.add_argument("--source", default="worktree", help="worktree (default) or a git revision to run")
    parser.add_argument("--keep-logs", action="store_true")
    return parser.parse_args(argv)


# -- the run's people ----------------------------------------------------------------------------

def make_advisors(stack: Stack, count: int) -> list[str]:
    """`count` advisors of the brokerage with an API token each (no password: never signed in by form)."""
    [(brokerage_id,)] = stack.sql("SELECT id FROM brokerages WHERE name = %s", (BROKERAGE,))
    tokens = ["lf_" + secrets.token_urlsafe(24) for _ in range(count)]
    emails = [f"bench-advisor-{i}@live.example" for i in range(count)]
    stack.sql("""
        WITH new AS (
            INSERT INTO users (brokerage_id, email, name, role, password_hash, language, created_at)
            SELECT %(b)s, e, 'Bench advisor', 'advisor', '!no-password', 'en', now() FROM unnest(%(emails)s::text[]) e
            RETURNING id, email)
        INSERT INTO api_tokens (user_id, token_hash, created_at)
        SELECT new.id, t.hash, now() FROM new JOIN unnest(%(emails)s::text[], %(hashes)s::text[]) AS t(email, hash)
          ON t.email = new.email""",
              {"b": brokerage_id, "emails": emails, "hashes": [hashlib.sha256(t.encode()).hexdigest() for t in tokens]})
    return tokens


# -- documents flowing ---------------------------------------------------------------------------

def upload_at(uploader: Uploader, samples, count: int, rate: float) -> list[str]:
    """Upload `count` samples, starting one every 1/rate seconds (late starts catch up)."""
    started = time.monotonic()
    with ThreadPoolExecutor(16) as pool:
        futures = []
        for i in range(count):
            delay = started + i / rate - time.monotonic()
            if delay > 0:
                time.sleep(delay)
            path, kind = samples[i % len(samples)]
            futures.append(pool.submit(uploader.upload, i, path, kind))
        ids = [f.result() for f in futures]
    if uploader.failures:
        raise SystemExit(f"{len(uploader.failures)} uploads failed, the first: {uploader.failures[0]}")
    return ids


def wait_settled(stack: Stack, ids: list[str], timeout: float) -> None:
    wait_until(lambda: stack.sql("SELECT count(*) FROM documents WHERE id = ANY(%s) AND status IN "
                                 "('VERIFIED', 'REJECTED', 'ACTION_REQUIRED')", (ids,))[0][0] == len(ids),
               timeout, "every document to settle", interval=0.25)


class EventLog:
    """Every status event on the run's channel: (document, status) -> when it was committed."""

    def __init__(self, url: str, channel: str):
        self._committed: dict[tuple[str, str], float] = {}
        self._heard: dict[tuple[str, str], float] = {}
        self._pubsub = redis.Redis.from_url(url).pubsub(ignore_subscribe_messages=True)
        self._pubsub.subscribe(**{channel: self.handle})
        self._thread = None

    def start(self) -> None:
        self._thread = self._pubsub.run_in_thread(sleep_time=0.05, daemon=True)

    def stop(self) -> None:
        self._thread.stop()
        self._thread.join(timeout=5)

    def items(self):
        return [(d, s, t) for (d, s), t in self._committed.items()]

    def bus_ms(self, documents: set) -> list[float]:
        """Commit to this process hearing of it on the bus: the part of the latency before any web process."""
        return [1000 * (self._heard[key] - t) for key, t in self._committed.items()
                if key[0] in documents and key in self._heard]

    def handle(self, message) -> None:
        heard = time.time()
        events = json.loads(message["data"])
        # One event, or the events one commit published together (RedisBus.publish_many).
        for event in events if isinstance(events, list) else [events]:
            if event.get("type") == "document_status" and "committed_at" in event:
                key = (event["document_id"], event["status"])
                self._committed[key] = float(event["committed_at"])
                self._heard[key] = heard


def commit_to_frame(committed, frames) -> tuple[list[float], int]:
    """Milliseconds from each event's commit to the first frame on each socket that shows its
    document at that status or at one committed later; and how many (event, socket) never got one."""
    by_document = defaultdict(dict)
    for document_id, status, at in committed:
        by_document[document_id][status] = at
    latencies, missing = [], 0
    for rows in frames:
        seen = defaultdict(list)  # document -> [(received, commit of the status shown)]
        for received, document_id, status in rows:
            at = by_document.get(document_id, {}).get(status)
            if at is not None:
                seen[document_id].append((received, at))
        for document_id, statuses in by_document.items():
            shown = seen.get(document_id, [])
            for at in statuses.values():
                first = min((received for received, shown_at in shown if shown_at >= at), default=None)
                if first is None:
                    missing += 1
                else:
                    latencies.append(1000 * (first - at))
    return latencies, missing


# -- /healthz and CPU -----------------------------------------------------------------------------

class HealthProbe:
    def __init__(self, url: str):
        self.url = url
        self.latencies: list[float] = []
        self.failures = 0
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._run, daemon=True)

    def start(self) -> None:
        self._thread.start()

    def stop(self) -> None:
        self._stop.set()
        self._thread.join()

    def _run(self) -> None:
        session = requests.Session()  # keep-alive, as a load balancer's probe
        while not self._stop.wait(HEALTHZ_EVERY_SECONDS):
            started = time.perf_counter()
            try:
                ok = session.get(self.url, timeout=5).status_code == 200
            except requests.RequestException:
                ok = False
            if ok:
                self.latencies.append(1000 * (time.perf_counter() - started))
            else:
                self.failures += 1


def group_schedstat(pgid: int) -> tuple[float, float]:
    """Seconds the live threads of a process group's processes have run on a core, and waited in
    the run queue for one, from /proc/<pid>/task/<tid>/schedstat. The waiting is what a loaded
    machine adds to every latency whatever the code does."""
    ran = waited = 0.0
    for stat in Path("/proc").glob("[0-9]*/stat"):
        try:
            if int(stat.read_text().rsplit(")", 1)[1].split()[2]) != pgid:
                continue
            for task in (stat.parent / "task").iterdir():
                on_cpu, queued, _ = (task / "schedstat").read_text().split()
                ran, waited = ran + int(on_cpu) / 1e9, waited + int(queued) / 1e9
        except (OSError, ValueError, IndexError):
            continue
    return ran, waited


def percentile(values, p: float) -> float:
    if not values:
        return float("nan")
    if len(values) == 1:
        return values[0]
    return statistics.quantiles(values, n=100, method="inclusive")[int(p) - 1]


def raise_open_files(sockets: int) -> None:
    """A socket is a file on both ends; the web process inherits this limit from us."""
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    wanted = min(hard, max(soft, 2 * sockets + 1024))
    if wanted > soft:
        resource.setrlimit(resource.RLIMIT_NOFILE, (wanted, hard))
    if wanted < 2 * sockets + 256:
        raise SystemExit(f"ulimit -n is {hard}; {sockets} sockets need about {2 * sockets + 256}")


# -- the sockets, in a process of their own ----------------------------------------------------------

class SocketsProcess:
    """The child process holding the sockets; it records (arrived, document, status) per row."""

    def __init__(self, url: str, tokens: list[str]):
        context = multiprocessing.get_context("spawn")
        self._conn, child = context.Pipe()
        self._process = context.Process(target=_sockets_main, args=(url, tokens, child), daemon=True)
        self.late: list[float] = []

    @property
    def pid(self) -> int:
        return self._process.pid  # also its process group (_sockets_main makes one of its own)

    def start(self, timeout: float) -> int:
        self._process.start()
        if not self._conn.poll(timeout):
            raise SystemExit("the sockets did not open in time")
        return self._conn.recv()

    def stop(self) -> list[list[tuple[float, str, str]]]:
        self._conn.send("stop")
        frames, self.late, self.unstamped, self.cpu_seconds = self._conn.recv()
        self._process.join(timeout=30)
        return frames


def _sockets_main(url: str, tokens: list[str], conn) -> None:
    os.setpgid(0, 0)  # a process group of its own: the CPU table counts the client apart
    host, port = url.split("//", 1)[1].split(":")
    selector = selectors.DefaultSelector()
    records: list[list[tuple[float, bytes, bytes]]] = [[] for _ in tokens]
    readers: list[RowReader] = []
    waiting = list(enumerate(tokens))[::-1]
    opening: set[RowReader] = set()
    deadline = time.monotonic() + 60 + len(tokens) / 10
    while (waiting or opening) and time.monotonic() < deadline:
        while waiting and len(opening) < CONNECT_AT_ONCE:
            i, token = waiting.pop()
            try:
                reader = RowReader.connect(host, int(port), token, records[i])
            except OSError as exc:
                print(f"socket {i} did not open: {exc!r}", file=sys.stderr)
                continue
            selector.register(reader.sock, selectors.EVENT_READ, reader)
            opening.add(reader)
        for key, _ in selector.select(timeout=1.0):
            reader = key.data
            if not reader.read() and not reader.opened:
                print(f"a socket did not open: {reader.refused}", file=sys.stderr)
            if reader in opening and (reader.opened or reader.closed):
                opening.discard(reader)
                if reader.opened:
                    readers.append(reader)
                else:
                    selector.unregister(reader.sock)
    conn.send(len(readers))
    selector.register(conn, selectors.EVENT_READ, None)
    stopping = False
    while not stopping:
        for key, _ in selector.select(timeout=1.0):
            if key.data is None:
                stopping = True
            elif not key.data.read():
                selector.unregister(key.fileobj)
    for reader in readers:
        reader.sock.close()
    conn.send(([[(t, d.decode(), s.decode()) for t, d, s in rows] for rows in records],
               [x for reader in readers for x in reader.late], sum(r.unstamped for r in readers),
               time.process_time()))


class RowReader:
    """One socket: the handshake's answer, then frames parsed straight from the buffer.

    A frame counts as arrived when the kernel received its last bytes (SO_TIMESTAMPNS on the
    read that completed it), not when this process got round to reading it: a thousand sockets
    read one after another, on cores the web process and the workers also want, would otherwise
    add the client's own delays to what is measured. How late the client read is kept apart."""

    @classmethod
    def connect(cls, host: str, port: int, token: str, rows: list) -> "RowReader":
        sock = socket.create_connection((host, port), timeout=60)
        sock.setsockopt(socket.SOL_SOCKET, SO_TIMESTAMPNS, 1)
        key = base64.b64encode(os.urandom(16)).decode()
        sock.sendall((f"GET /ws HTTP/1.1\r\nHost: {host}:{port}\r\nUpgrade: websocket\r\n"
                      f"Connection: Upgrade\r\nSec-WebSocket-Key: {key}\r\nSec-WebSocket-Version: 13\r\n"
                      f"Authorization: Bearer {token}\r\n\r\n").encode())
        sock.setblocking(False)
        return cls(sock, rows)

    def __init__(self, sock: socket.socket, rows: list):
        self.sock = sock
        self.rows = rows
        self.opened = self.closed = False
        self.refused = ""
        self.buffer = b""
        self.message = b""
        self.late: list[float] = []  # seconds between a frame's arrival and this process reading it
        self.unstamped = 0  # reads the kernel gave no timestamp for (then the read's own clock counts)

    def read(self) -> bool:
        """Take everything the socket holds now; False once it is closed."""
        while True:
            try:
                data, ancillary, _, _ = self.sock.recvmsg(1 << 16, socket.CMSG_SPACE(16))
            except (BlockingIOError, InterruptedError):
                return True
            except OSError:
                data, ancillary = b"", []
            now = time.time()
            if not data:
                self.closed = True
                return False
            arrived = next((sec + nsec / 1e9 for level, kind, value in ancillary
                            if level == socket.SOL_SOCKET and kind == SO_TIMESTAMPNS
                            for sec, nsec in [struct.unpack("qq", value[:16])]), None)
            if arrived is None:
                self.unstamped += 1
                arrived = now
            self.take(data, arrived, now)
            if self.closed:
                return False

    def take(self, data: bytes, arrived: float, now: float) -> None:
        self.buffer += data
        if not self.opened:
            head, sep, rest = self.buffer.partition(b"\r\n\r\n")
            if not sep:
                return
            if b" 101 " not in head.split(b"\r\n", 1)[0]:
                self.refused = head.split(b"\r\n", 1)[0].decode(errors="replace")
                self.sock.close()
                self.closed = True
                return
            self.opened = True
            self.buffer = rest
        while len(self.buffer) >= 2:
            fin, opcode, length = self.buffer[0] & 0x80, self.buffer[0] & 0x0F, self.buffer[1] & 0x7F
            start = 2
            if length == 126:
                if len(self.buffer) < 4:
                    return
                (length,), start = struct.unpack_from("!H", self.buffer, 2), 4
            elif length == 127:
                if len(self.buffer) < 10:
                    return
                (length,), start = struct.unpack_from("!Q", self.buffer, 2), 10
            if len(self.buffer) < start + length:
                return
            payload, self.buffer = self.buffer[start:start + length], self.buffer[start + length:]
            if opcode == 0x9:  # ping: a client's frames are masked
                try:
                    self.sock.send(_masked(0xA, payload))
                except OSError:
                    pass  # the next read finds out
            elif opcode == 0x8:
                self.sock.close()
                self.closed = True
                return
            elif opcode in (0x0, 0x1, 0x2):
                self.message += payload
                if fin:
                    rows = ROW.findall(self.message)
                    self.rows.extend((arrived, d, s) for d, s in rows)
                    if rows:
                        self.late.append(now - arrived)
                    self.message = b""


def _masked(opcode: int, payload: bytes) -> bytes:
    mask = os.urandom(4)
    body = bytes(b ^ mask[i % 4] for i, b in enumerate(payload))
    return bytes([0x80 | opcode, 0x80 | len(payload)]) + mask + body


if __name__ == "__main__":
    sys.exit(main())
