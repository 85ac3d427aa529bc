"""The chaos run: documents flow while workers die by SIGKILL, Redis restarts empty and the
extractor duplicates, drops, delays, reorders and refuses; optionally the S3 server freezes
(`--freeze-s3 8`: SIGSTOP for 8 seconds, then SIGCONT) and PostgreSQL restarts mid-flow
(`--restart-postgres`: the run then has a PostgreSQL cluster of its own, really stopped and
started; the machine's cluster is never touched). Then the sweeps run to quiescence and the
database must show nothing lost, nothing stuck, nothing done twice, no document settled for a
failure of ours (REJECTED or handed to a person with a SYSTEM_ code), and a balanced ledger.

    make chaos
    .venv/bin/python -m bench.chaos --documents 300 --seed 7 --freeze-s3 8 --restart-postgres

Besides single documents it uploads packets (`--packets`, default a tenth of the documents): PDFs of
two to four sample documents one after another, sent with `split=auto`, so that splits, their
children and the credits they hand over go through the same kills, restarts and faults.

It ends with exactly one line and exits 1 when any figure on it is off:

    chaos: documents=N packets=P children=C kills=K redis_restarts=R s3_frozen=8s postgres_restarts=1
           lost=0 stuck=0 duplicate_effects=0 system_rejections=0 ledger=balanced   (one line)

The seed fixes the kill schedule and the extractor's fault dice; thread timing still varies
from run to run, so a seed reproduces the same kind of run, not the same interleaving.
"""
import argparse
import io
import json
import math
import random
import sys
import threading
import time
from concurrent.futures import ThreadPoolExecutor
from datetime import datetime, timezone

import redis
from pypdf import PdfReader, PdfWriter

from bench._stack import SETTLED, Stack, Uploader, ensure_redis, sample_pdfs

DEFAULT_DOCUMENTS = 250
DEFAULT_FAULTS = "duplicate=0.2,drop=0.1,delay=0.5:2.0,reorder=0.1,fail_submit=0.1,fail_callback=0.1"
# Thresholds short enough that the sweeps act within the run (production defaults: minutes).
RUN_ENV = {
    "PENDING_DOCUMENT_RECOVERY_THRESHOLD_MS": "5000",
    "STALLED_DOCUMENT_RECOVERY_THRESHOLD_MS": "15000",
    "EXTRACTION_DEADLINE_SECONDS": "20",
    "RECONCILIATION_INTERVAL_MS": "3000",
    # A failure of ours is retried after 6 s, 15 s and 30 s (production: minutes to hours).
    "SYSTEM_RETRY_DELAYS_MINUTES": "0.1,0.25,0.5",
    "BREAKER_COOLDOWN_SECONDS": "2",
}
CREDITS_PER_BROKERAGE = 1_000_000  # the run tests the pipeline, not running out of credits
UPLOAD_THREADS = 4
# With the run's thresholds (pending 5 s, stalled 15 s, deadline 20 s, sweeps every 3 s) and
# Dramatiq's heartbeat timeout (60 s), a healthy stack moves within this: a document settles or
# a delivery is processed. The wait counts from the last such move, not from its start, so that
# a backlog the real extractor is still reading (about 140 ms of CPU per PDF on a shared 2-core
# machine) is not taken for documents that are stuck; SETTLE_LIMIT caps the whole wait.
SETTLE_TIMEOUT = 120.0
SETTLE_LIMIT = 900.0
QUIET_SECONDS = 20.0  # no callback arrived for this long: the extractor's retries and holds are over
PROGRESS_EVERY = 30.0


def main(argv=None) -> int:
    args = parse_args(argv)
    seed = args.seed if args.seed is not None else random.SystemRandom().randrange(1_000_000)
    command = reproduce_command(args, seed)
    env = {**RUN_ENV, "EXTRACTOR_FAULTS": args.faults, "EXTRACTOR_FAULTS_SEED": str(seed)}
    clock = Clock()
    samples = sample_pdfs()
    ensure_redis()
    result = None
    try:
        # Redis (restarted empty once) is the run's own; so is PostgreSQL when it is restarted.
        with Stack("chaos", env, source=args.source, private_postgres=args.restart_postgres,
                   private_redis=True) as stack:
            stack.keep_logs = args.keep_logs
            tokens = stack.prepare(CREDITS_PER_BROKERAGE)
            stack.start_extractor()
            stack.start_web(workers=2)
            stack.start_scheduler()
            workers = [f"worker-{i}" for i in range(1, args.workers + 1)]
            for name in workers:
                stack.start_worker(name, processes=1, threads=args.threads)
            stack.wait_ready()
            clock.say(f"stack up, running the {stack.code}: PostgreSQL {stack.database}, Redis namespace {stack.namespace}, "
                      f"{args.workers} workers x {args.threads} threads, faults {args.faults}, seed {seed}; "
                      f"logs in {stack.dir}")

            chaos = Chaos(stack, random.Random(seed), workers, args.threads, args.kill_every, clock)
            uploader = Uploader(stack.web_url, tokens)
            clock.say(f"uploading {args.documents} documents ({len(samples)} sample PDFs) over "
                      f"~{args.upload_seconds:.0f}s; a worker is SIGKILLed every ~{args.kill_every:.0f}s, "
                      f"Redis restarts once")
            chaos.redis_at = time.monotonic() + args.upload_seconds * 0.5
            if args.freeze_s3:
                chaos.freeze_at, chaos.freeze_seconds = time.monotonic() + args.upload_seconds * 0.3, args.freeze_s3
            if args.restart_postgres:
                chaos.postgres_at = time.monotonic() + args.upload_seconds * 0.7
            progress = Progress(stack, clock, chaos, args.documents + args.packets)
            chaos.start()
            progress.start()
            try:
                packets = Packets(uploader, samples, args.packets, args.upload_seconds, random.Random(seed + 1))
                packets.start()
                ids = upload_all(uploader, samples, args.documents, args.upload_seconds, random.Random(seed))
                packets.join()
                clock.say(f"uploads done: {len(ids)} documents and {len(packets.ids)} packets acknowledged, "
                          f"{len(uploader.failures)} failed"
                          + (f" (first: {uploader.failures[0]})" if uploader.failures else ""))
                time.sleep(args.kill_tail)
            finally:
                chaos.finish()  # before the stack goes down, so that it starts nothing more
            chaos.join_outages()
            clock.say(f"chaos over: kills={chaos.kills} redis_restarts={chaos.redis_restarts} "
                      f"s3_frozen={chaos.s3_frozen:.0f}s postgres_restarts={chaos.postgres_restarts}"
                      + (f", processes that exited by themselves: {chaos.crashes}" if chaos.crashes else ""))

            try:
                quiet = settle(stack, ids, args.settle_timeout, clock)
            finally:
                progress.stop()
            for name, code in stack.exited().items():
                clock.say(f"{name} exited by itself with code {code} after the chaos phase")
            result = check(stack, ids + packets.ids, clock)
            result.documents = len(ids)
            result.requested = args.documents
            result.packets, result.packets_requested = len(packets.ids), args.packets
            result.kills, result.redis_restarts = chaos.kills, chaos.redis_restarts
            result.s3_frozen, result.postgres_restarts = chaos.s3_frozen, chaos.postgres_restarts
            result.quiet = quiet
            if not result.ok:
                stack.keep_logs = True
    finally:
        ensure_redis()
    clock.say(f"done in {clock.elapsed():.0f}s; reproduce with: {command}")
    if result is None:
        return 1
    print(result.line(), flush=True)
    return 0 if result.ok else 1


def parse_args(argv):
    parser = argparse.ArgumentParser(prog="python -m bench.chaos", description=__doc__.split("\n\n")[0])
    parser.add_argument("--documents", type=int, default=DEFAULT_DOCUMENTS, help="documents to upload")
    parser.add_argument("--packets", type=int, default=None,
                        help="packets to upload besides the documents (default: a tenth of --documents)")
    parser.add_argument("--seed", type=int, default=None, help="kill schedule and fault dice (default: random)")
    parser.add_argument("--faults", default=DEFAULT_FAULTS, help="EXTRACTOR_FAULTS for the extractor")
    parser.add_argument("--workers", type=int, default=3, help="`dramatiq tasks:worker` processes (1 worker each)")
    parser.add_argument("--threads", type=int, default=3, help="threads per worker process")
    parser.add_argument("--upload-seconds", type=float, default=75.0, help="spread the uploads over this long")
    parser.add_argument("--kill-every", type=float, default=6.0, help="mean seconds between worker kills")
    parser.add_argument("--kill-tail", type=float, default=15.0, help="keep killing this long after the uploads")
    parser.add_argument("--source", default="worktree",
                        help="code to run: 'worktree' (a copy of the tree as it is) or a git revision")
    parser.add_argument("--settle-timeout", type=float, default=SETTLE_TIMEOUT,
                        help="after the chaos, give up waiting for quiescence once nothing moved (no document "
                             "settled, no delivery processed) for this long")
    parser.add_argument("--keep-logs", action="store_true", help="keep the processes' logs even when all is well")
    parser.add_argument("--freeze-s3", type=float, default=0.0, metavar="SECONDS",
                        help="freeze the S3 server (SIGSTOP) this long, a third into the uploads")
    parser.add_argument("--restart-postgres", action="store_true",
                        help="run on a PostgreSQL cluster of the run's own and restart it, later in the uploads")
    args = parser.parse_args(argv)
    if args.documents < 1 or args.workers < 2:
        parser.error("--documents must be at least 1 and --workers at least 2 (one is killed at a time)")
    if args.packets is None:
        args.packets = args.documents // 10
    if args.packets < 0:
        parser.error("--packets must be 0 or more")
    return args


def reproduce_command(args, seed: int) -> str:
    parts = [".venv/bin/python -m bench.chaos", f"--documents {args.documents}", f"--seed {seed}"]
    defaults = vars(parse_args([]))
    for name, value in vars(args).items():
        if name not in ("documents", "seed") and value != defaults[name]:
            flag = "--" + name.replace("_", "-")
            if isinstance(value, bool):
                parts.append(flag)
            else:
                parts.append(f"{flag} '{value}'" if isinstance(value, str) else f"{flag} {value:g}")
    return " ".join(parts)


class Clock:
    def __init__(self):
        self.started = time.monotonic()

    def elapsed(self) -> float:
        return time.monotonic() - self.started

    def say(self, text: str) -> None:
        print(f"chaos: [{self.elapsed():5.0f}s] {text}", flush=True)


def upload_all(uploader: Uploader, samples, count: int, spread: float, rng: random.Random) -> list[str]:
    """Upload `count` documents, evenly spread over `spread` seconds; the acknowledged ids."""
    plan = [rng.choice(samples) for _ in range(count)]
    start = time.monotonic()

    def one(index: int):
        delay = start + index * spread / count - time.monotonic()
        if delay > 0:
            time.sleep(delay)
        path, kind = plan[index]
        return uploader.upload(index, path, kind)

    with ThreadPoolExecutor(UPLOAD_THREADS, thread_name_prefix="upload") as pool:
        return [document_id for document_id in pool.map(one, range(count)) if document_id]


class Packets(threading.Thread):
    """Uploads `count` packets beside the documents, spread over the same seconds: each a PDF of
    two to four sample documents one after another, sent with split=auto."""

    def __init__(self, uploader: Uploader, samples, count: int, spread: float, rng: random.Random):
        super().__init__(name="packets", daemon=True)
        self.uploader, self.count, self.spread = uploader, count, spread
        self.plans = [rng.sample(samples, rng.randint(2, 4)) for _ in range(count)]
        self.ids: list[str] = []

    def run(self) -> None:
        start = time.monotonic()
        for index, plan in enumerate(self.plans):
            delay = start + (index + 0.5) * self.spread / max(self.count, 1) - time.monotonic()
            if delay > 0:
                time.sleep(delay)
            packet_id = self.uploader.upload_packet(index, f"packet_{index}.pdf", joined([path for path, _ in plan]))
            if packet_id:
                self.ids.append(packet_id)


def joined(paths) -> bytes:
    writer = PdfWriter()
    for path in paths:
        for page in PdfReader(str(path)).pages:
            writer.add_page(page)
    out = io.BytesIO()
    writer.write(out)
    return out.getvalue()


class Chaos(threading.Thread):
    """Kills a random worker now and then (and starts a replacement), restarts Redis once, and
    brings back any process that ended by itself."""

    def __init__(self, stack: Stack, rng: random.Random, workers: list[str], threads: int, kill_every: float,
                 clock: Clock):
        super().__init__(name="chaos", daemon=True)
        self.stack, self.rng, self.workers, self.threads = stack, rng, list(workers), threads
        self.kill_every, self.clock = kill_every, clock
        self.kills = 0
        self.redis_restarts = 0
        self.redis_at: float | None = None
        self.freeze_at: float | None = None
        self.freeze_seconds = 0.0
        self.s3_frozen = 0.0
        self.postgres_at: float | None = None
        self.postgres_restarts = 0
        self._outages: list[threading.Thread] = []
        self.crashes: list[str] = []
        self._stopping = threading.Event()
        self._next_name = len(workers) + 1

    def finish(self) -> None:
        self._stopping.set()
        self.join()
        self.join_outages()

    def join_outages(self) -> None:
        for outage in self._outages:
            outage.join()

    def run(self) -> None:
        next_kill = time.monotonic() + self._interval()
        while not self._stopping.wait(0.2):
            self._revive()
            now = time.monotonic()
            if self.redis_at is not None and now >= self.redis_at:
                self.redis_at = None
                down = self.stack.restart_redis()
                self.redis_restarts += 1
                self.clock.say(f"Redis restarted empty (unreachable for {down:.1f}s)")
            if self.freeze_at is not None and now >= self.freeze_at:
                self.freeze_at = None
                self._aside("s3-freeze", self._freeze_s3)
            if self.postgres_at is not None and now >= self.postgres_at:
                self.postgres_at = None
                self._aside("postgres-restart", self._restart_postgres)
            if now >= next_kill:
                victim = self.rng.choice(self.workers)
                self.stack.kill(victim)
                self.workers.remove(victim)
                self.kills += 1
                self._stopping.wait(self.rng.uniform(0.5, 2.0))
                self._start_worker()
                next_kill = time.monotonic() + self._interval()

    def _aside(self, name: str, run) -> None:
        # Outages run beside the kills, as they would: a frozen S3 does not stop a machine dying.
        outage = threading.Thread(target=run, name=name, daemon=True)
        self._outages.append(outage)
        outage.start()

    def _freeze_s3(self) -> None:
        self.clock.say(f"S3 server frozen (SIGSTOP) for {self.freeze_seconds:g}s")
        # Not cut short by the end of the chaos phase: a freeze always lasts what was asked.
        self.s3_frozen = self.stack.freeze("s3", self.freeze_seconds)
        self.clock.say(f"S3 server thawed (SIGCONT) after {self.s3_frozen:.1f}s")

    def _restart_postgres(self) -> None:
        self.clock.say("PostgreSQL stopping (fast: every connection cut) for a restart")
        down = self.stack.restart_postgres()
        self.postgres_restarts += 1
        self.clock.say(f"PostgreSQL restarted (unreachable for {down:.1f}s)")

    def _interval(self) -> float:
        return self.kill_every * self.rng.uniform(0.5, 1.5)

    def _start_worker(self) -> None:
        name = f"worker-{self._next_name}"
        self._next_name += 1
        self.stack.start_worker(name, processes=1, threads=self.threads)
        self.workers.append(name)

    def _revive(self) -> None:
        for name, code in self.stack.exited().items():
            self.crashes.append(f"{name} (exit {code})")
            self.clock.say(f"{name} exited by itself with code {code}; starting it again")
            self.stack.processes.pop(name)
            if name in self.workers:
                self.workers.remove(name)
                self._start_worker()
            elif name == "web":
                self.stack.start_web(workers=2)
            elif name == "extractor":
                self.stack.start_extractor()
            elif name == "scheduler":
                self.stack.start_scheduler()


class Progress(threading.Thread):
    """A line every PROGRESS_EVERY seconds: how far the documents got."""

    def __init__(self, stack: Stack, clock: Clock, chaos: Chaos, requested: int):
        super().__init__(name="progress", daemon=True)
        self.stack, self.clock, self.chaos, self.requested = stack, clock, chaos, requested
        self._stopping = threading.Event()

    def stop(self) -> None:
        self._stopping.set()

    def run(self) -> None:
        while not self._stopping.wait(PROGRESS_EVERY):
            try:
                counts = self.stack.status_counts()
            except Exception as exc:  # a progress line must never end the run
                self.clock.say(f"progress unavailable: {exc}")
                continue
            self.clock.say(f"progress: {sum(counts.values())}/{self.requested} uploaded, {format_counts(counts)}, "
                           f"kills={self.chaos.kills}, backlog={backlog(self.stack)}")


def backlog(stack: Stack):
    try:
        return stack.backlog()
    except redis.RedisError:
        return "?"


def format_counts(counts: dict[str, int]) -> str:
    order = ("PENDING", "PROCESSING", "EXTRACTING", *SETTLED)
    return " ".join(f"{status}={counts[status]}" for status in order if counts.get(status))


def settle(stack: Stack, ids: list[str], timeout: float, clock: Clock, limit: float = SETTLE_LIMIT) -> bool:
    """Wait until every document is settled, the queues are empty, every delivery processed and
    no callback arrived for QUIET_SECONDS; then run all sweeps once more. False when nothing moved
    (no document settled, no delivery processed) for `timeout`, or after `limit` in all."""
    started = time.monotonic()
    deadline = started + timeout
    last_line = 0.0
    quiet = False
    fewest_unsettled, most_processed = math.inf, -1  # how far the run has come: any step further is a move
    while True:
        counts = stack.status_counts()
        unsettled = sum(n for status, n in counts.items() if status not in SETTLED)
        queued = backlog(stack)
        try:
            # A message a dead worker took with it counts once Dramatiq gives it back; with every
            # document settled and every delivery processed it has nothing left to do.
            live = queued - sum(held_by_dead_workers(stack)[0].values())
        except (redis.RedisError, TypeError):
            live = queued
        (unprocessed, processed, last_received), = stack.sql(
            "SELECT count(*) FILTER (WHERE processed_at IS NULL), count(processed_at), max(received_at) "
            "FROM callback_deliveries")
        now = datetime.now(timezone.utc).replace(tzinfo=None)
        quiet_for = (now - last_received).total_seconds() if last_received else QUIET_SECONDS
        if unsettled == 0 and live == 0 and unprocessed == 0 and quiet_for >= QUIET_SECONDS:
            quiet = True
            break
        if unsettled < fewest_unsettled or processed > most_processed:
            deadline = min(time.monotonic() + timeout, started + limit)
            fewest_unsettled, most_processed = min(unsettled, fewest_unsettled), max(processed, most_processed)
        if time.monotonic() > deadline:
            clock.say(f"not quiet: nothing moved for {timeout:.0f}s, or {limit:.0f}s in all "
                      f"({time.monotonic() - started:.0f}s waited): {format_counts(counts)}, backlog={queued}, "
                      f"unprocessed deliveries={unprocessed}" + describe_held(stack))
            break
        if time.monotonic() - last_line >= PROGRESS_EVERY:
            last_line = time.monotonic()
            clock.say(f"settling: {format_counts(counts)}, backlog={queued}, unprocessed deliveries={unprocessed}"
                      + describe_held(stack))
        time.sleep(1.0)
    swept = stack.flask("leadflow", "sweep").stdout.split()
    clock.say(("quiet: every document settled, every delivery processed, no live message left" if quiet
               else "checking anyway") + f"; final sweep: {' '.join(swept)}" + describe_held(stack))
    try:
        wait = time.monotonic() + 10
        while stack.backlog() and time.monotonic() < wait:
            time.sleep(0.5)
    except redis.RedisError:
        pass
    return quiet


def held_by_dead_workers(stack: Stack) -> tuple[dict[str, int], float]:
    """Messages in the ack set of a worker that stopped sending heartbeats, per actor, and how long
    the longest-silent of those workers has been quiet. Dramatiq gives them back only after its
    heartbeat_timeout (60 s), at a maintenance pass that runs on a random 0.1% of broker calls."""
    ns, r = stack.namespace, stack.redis
    beats = {k.decode(): v for k, v in r.zrange(f"{ns}:__heartbeats__", 0, -1, withscores=True)}
    now_ms = time.time() * 1000
    held, oldest = {}, 0.0
    for key in r.scan_iter(match=f"{ns}:__acks__.*", count=1000):
        worker_id, queue = key.decode()[len(f"{ns}:__acks__."):].split(".", 1)
        silent = (now_ms - beats.get(worker_id, 0)) / 1000
        if silent < 10:  # a live worker calls Redis (and so beats) at least every second or so
            continue
        for message_id in r.smembers(key):
            body = r.hget(f"{ns}:{queue}.msgs", message_id)
            if body:
                actor = json.loads(body).get("actor_name", "?")
                held[actor] = held.get(actor, 0) + 1
                oldest = max(oldest, min(silent, 1e6))
    return held, oldest


def describe_held(stack: Stack) -> str:
    try:
        held, oldest = held_by_dead_workers(stack)
        if not held:
            return ""
        dedup = sum(1 for _ in stack.redis.scan_iter(match=f"{stack.namespace}:dedup:*", count=1000))
        return f"; held by dead workers: {held} (silent for up to {oldest:.0f}s), dedup keys taken: {dedup}"
    except redis.RedisError as exc:
        return f"; Redis: {exc}"


class Result:
    def __init__(self):
        self.documents = self.requested = self.kills = self.redis_restarts = 0
        self.packets = self.packets_requested = self.children = 0
        self.lost = self.stuck = self.duplicate_effects = self.system_rejections = 0
        self.s3_frozen, self.postgres_restarts = 0.0, 0
        self.ledger = "unknown"
        self.quiet = False

    @property
    def ok(self) -> bool:
        # Not being quiet at the deadline matters through `stuck`: a message still waiting in a
        # dead worker's ack set with every document settled changes none of the figures.
        return (self.documents == self.requested and self.packets == self.packets_requested and not self.lost and not self.stuck
                and not self.duplicate_effects and not self.system_rejections and self.ledger == "balanced")

    def line(self) -> str:
        return (f"chaos: documents={self.documents} packets={self.packets} children={self.children} "
                f"kills={self.kills} redis_restarts={self.redis_restarts} "
                f"s3_frozen={self.s3_frozen:.0f}s postgres_restarts={self.postgres_restarts} "
                f"lost={self.lost} stuck={self.stuck} duplicate_effects={self.duplicate_effects} "
                f"system_rejections={self.system_rejections} ledger={self.ledger}")


# Each query returns one row per duplicated effect with how many times too many it happened.
# Nobody reprocesses, corrects or decides during the run, so every document enters a settled
# state once, gets one result from one completed job, and is charged once.
DUPLICATE_CHECKS = {
    "versions_per_job_and_part": """
        SELECT job_id, part, count(*) - 1 FROM document_versions WHERE job_id IS NOT NULL
        GROUP BY job_id, part HAVING count(*) > 1""",
    "versions_per_document_and_part": """
        SELECT document_id, part, count(*) - 1 FROM document_versions
        GROUP BY document_id, part HAVING count(*) > 1""",
    "same_settling_transition_twice": """
        SELECT document_id, from_status, to_status, count(*) - 1 FROM audit_entries
        WHERE to_status IN ('VERIFIED', 'REJECTED', 'ACTION_REQUIRED')
        GROUP BY document_id, from_status, to_status HAVING count(*) > 1""",
    "settled_more_than_once": """
        SELECT document_id, count(DISTINCT coalesce(from_status, '') || '>' || to_status) - 1 FROM audit_entries
        WHERE to_status IN ('VERIFIED', 'REJECTED', 'ACTION_REQUIRED')
        GROUP BY document_id HAVING count(DISTINCT coalesce(from_status, '') || '>' || to_status) > 1""",
    "extraction_completed_twice": """
        SELECT document_id, count(*) - 1 FROM audit_entries WHERE action = 'extraction_completed'
        GROUP BY document_id HAVING count(*) > 1""",
    "jobs_completed_per_document": """
        SELECT document_id, count(*) - 1 FROM extraction_jobs WHERE status = 'completed' AND mode <> 'split'
        GROUP BY document_id HAVING count(*) > 1""",
    # A packet's split applied once: one completed split job, one child per part.
    "splits_completed_per_packet": """
        SELECT document_id, count(*) - 1 FROM extraction_jobs WHERE status = 'completed' AND mode = 'split'
        GROUP BY document_id HAVING count(*) > 1""",
    "children_per_packet_part": """
        SELECT packet_id, part_number, count(*) - 1 FROM documents WHERE packet_id IS NOT NULL
        GROUP BY packet_id, part_number HAVING count(*) > 1""",
    "children_beyond_the_split": """
        SELECT p.document_id, count(d.id) - json_array_length(p.parts) FROM packets p
        JOIN documents d ON d.packet_id = p.document_id WHERE p.state = 'split'
        GROUP BY p.document_id, json_array_length(p.parts) HAVING count(d.id) > json_array_length(p.parts)""",
    "reservations_settled_per_document": """
        SELECT j.document_id, count(*) - 1 FROM credit_reservations r JOIN extraction_jobs j ON j.id = r.job_id
        WHERE r.status = 'settled' GROUP BY j.document_id HAVING count(*) > 1""",
    "changed_after_settling": """
        SELECT d.id, 1 FROM documents d
        WHERE d.status IN ('VERIFIED', 'REJECTED', 'ACTION_REQUIRED')
          AND d.updated_at IS DISTINCT FROM (SELECT max(a.created_at) FROM audit_entries a WHERE a.document_id = d.id)""",
    "verified_at_moved": """
        SELECT d.id, 1 FROM documents d
        WHERE d.verified_at IS DISTINCT FROM (
            SELECT min(a.created_at) FROM audit_entries a
            WHERE a.document_id = d.id AND a.to_status IN ('VERIFIED', 'REJECTED'))""",
}


def check(stack: Stack, ids: list[str], clock: Clock) -> Result:
    result = Result()
    found = dict(stack.sql("SELECT id, status FROM documents WHERE id = ANY(%s)", (ids,)))
    result.lost = sum(1 for i in ids if i not in found)
    # A packet's children are documents of the run too: each must settle, and a packet split must
    # have a child for every part (one missing is lost); a packet never split is stuck.
    children = dict(stack.sql("SELECT id, status FROM documents WHERE packet_id = ANY(%s)", (ids,)))
    result.children = len(children)
    missing = stack.sql("""
        SELECT p.document_id, json_array_length(p.parts) - count(d.id) FROM packets p
        LEFT JOIN documents d ON d.packet_id = p.document_id
        WHERE p.document_id = ANY(%s) AND p.state = 'split'
        GROUP BY p.document_id, json_array_length(p.parts) HAVING count(d.id) < json_array_length(p.parts)""", (ids,))
    result.lost += sum(int(row[1]) for row in missing)
    if missing:
        clock.say("packets missing children: " + ", ".join(" ".join(map(str, row)) for row in missing[:10]))
    unsplit = stack.sql("SELECT p.document_id, p.state, d.status FROM packets p JOIN documents d ON d.id = "
                        "p.document_id WHERE p.document_id = ANY(%s) AND p.state = 'reading'", (ids,))
    result.stuck += len(unsplit)
    if unsplit:
        clock.say("packets never split: " + ", ".join(" ".join(map(str, row)) for row in unsplit[:10]))
    found.update(children)
    stuck = {i: s for i, s in found.items() if s not in SETTLED}
    result.stuck += len(stuck)
    if stuck:
        clock.say("stuck: " + ", ".join(f"{i} {s}" for i, s in list(stuck.items())[:10]))
    extra = stack.sql("SELECT count(*) FROM documents WHERE NOT (id = ANY(%s))", (list(found),))[0][0]
    # Settled for a failure of ours: a client's rejection, or a person asked, with a SYSTEM_ code.
    system = stack.sql("SELECT id, status, rejection_code FROM documents WHERE id = ANY(%s) "
                       "AND status IN ('REJECTED', 'ACTION_REQUIRED') AND rejection_code LIKE 'SYSTEM\\_%%'",
                       (list(found),))
    result.system_rejections = len(system)
    if system:
        clock.say("settled for a system reason: " + ", ".join(" ".join(map(str, row)) for row in system[:10]))

    effects = {}
    for name, query in DUPLICATE_CHECKS.items():
        rows = stack.sql(query)
        effects[name] = sum(int(row[-1]) for row in rows)
        if rows:
            clock.say(f"duplicate effect {name}: " + "; ".join(" ".join(map(str, r)) for r in rows[:5]))
    result.duplicate_effects = sum(effects.values())
    clock.say("duplicate checks: " + " ".join(f"{k}={v}" for k, v in effects.items()))

    ledger = stack.flask("leadflow", "ledger-check", check=False)
    open_terminal, open_settled_docs, open_total = stack.sql("""
        SELECT count(*) FILTER (WHERE j.status IN ('completed', 'failed')),
               count(*) FILTER (WHERE d.status IN ('VERIFIED', 'REJECTED', 'ACTION_REQUIRED')),
               count(*)
        FROM credit_reservations r JOIN extraction_jobs j ON j.id = r.job_id JOIN documents d ON d.id = j.document_id
        WHERE r.status = 'open'""")[0]
    said = [line for line in ledger.stdout.splitlines() if line.startswith(("ledger:", "brokerage"))]
    clock.say(f"ledger-check exit {ledger.returncode}: {' / '.join(said) or ledger.stderr.strip()[-300:]}; "
              f"open reservations: {open_total} ({open_terminal} of finished jobs, "
              f"{open_settled_docs} of settled documents)")
    if ledger.returncode != 0:
        result.ledger = "discrepancy"
    elif open_terminal or open_settled_docs:
        result.ledger = f"open_reservations:{max(open_terminal, open_settled_docs)}"
    else:
        result.ledger = "balanced"

    summary(stack, clock, extra)
    return result


def summary(stack: Stack, clock: Clock, extra: int) -> None:
    codes = stack.sql("SELECT coalesce(rejection_code, '-'), count(*) FROM documents WHERE status = 'REJECTED' "
                      "GROUP BY 1 ORDER BY 2 DESC")
    (jobs, failed_jobs), = stack.sql("SELECT count(*), count(*) FILTER (WHERE status = 'failed') FROM extraction_jobs")
    (deliveries, polled), = stack.sql(
        "SELECT count(*), count(*) FILTER (WHERE id LIKE 'poll-%') FROM callback_deliveries")
    actions = dict(stack.sql("SELECT action, count(*) FROM audit_entries WHERE action IN "
                             "('stalled_reset', 'deadline_passed', 'submission_retry', 'submission_failed', "
                             "'retries_exhausted', 'attempt_failed', 'waiting_for_service', 'system_retry', "
                             "'system_retries_spent') GROUP BY action"))
    packets = dict(stack.sql("SELECT state, count(*) FROM packets GROUP BY state"))
    clock.say(f"outcome: {format_counts(stack.status_counts())}; rejections {dict(codes)}; packets {packets}; "
              f"jobs={jobs} (failed {failed_jobs}); deliveries={deliveries} (from deadline polls {polled}); "
              f"recoveries {actions}; dead letters={backlog_dead(stack)}; documents not from this run's "
              f"acknowledged uploads={extra}")


def backlog_dead(stack: Stack):
    try:
        return stack.dead_letters()
    except redis.RedisError:
        return "?"


if __name__ == "__main__":
    sys.exit(main())
