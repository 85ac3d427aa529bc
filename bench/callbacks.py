"""Callback receipt: signed deliveries for real jobs, a fifth of them duplicates, against the
production server setup (gunicorn 2 gevent workers, PostgreSQL, Redis), next to the same server
answering a bare signed endpoint that does no database work, in one run and under the same
conditions; then the `dramatiq` worker applying what was received.

    make bench-callbacks
    .venv/bin/python -m bench.callbacks --deliveries 2000

Set-up (not measured): documents are uploaded through the API and submitted to an extractor that
accepts every job and never reports back (bench/silent_extractor.py), so they wait in EXTRACTING
on accepted jobs; each delivery is a `job.completed` for one of those jobs.

Measured in interleaved rounds (`--rounds`, default 4): a share of the deliveries to the bare signed
endpoint, then the same share, in the same order from the same client threads, to the callback
endpoint, and so on; the figures add the rounds up. This machine's speed drifts over minutes, and
alternating puts the drift on both halves alike. With `--worker neither` (the default) the worker
is frozen (SIGSTOP) during both, so both halves have the machine's two cores to themselves; the
deliveries are then applied once it is let go. With `--worker both` it runs throughout, so the
callback half shares the cores with the worker applying its deliveries (the bare half's worker
has nothing to do).

"Accepted" counts answers of 202 (new delivery recorded and its processing enqueued) and 200 (a
duplicate recognised); anything else is an error and fails the run. Latency is measured by the
client, per request, over keep-alive connections. The load generator runs on the same two cores
as the server; its CPU is shown apart, as a helper's.
"""
import argparse
import json
import os
import random
import signal
import statistics
import sys
import threading
import time
import uuid
from concurrent.futures import ThreadPoolExecutor

import requests

from bench._stack import SAMPLES, Stack, Uploader, wait_until
from bench.cpu import Rounds, leadflow_ms, report
from leadflow.extraction import webhooks

DEFAULT_DELIVERIES = 2000
DUPLICATE_SHARE = 0.2
WARM_UP = 300
SAMPLE = SAMPLES / "payslips" / "synthetic_payslip_A1_01.pdf"


def main(argv=None) -> int:
    args = parse_args(argv)
    say = Say()
    rng = random.Random(args.seed)
    plan = duplicates_plan(args.deliveries, rng)
    unique = len(set(plan))
    # A Redis of the run's own, so that its CPU is this run's and nobody else's.
    with Stack("callbacks", {"BENCH_ENDPOINTS": "1"}, source=args.source, private_redis=True) as stack:
        stack.keep_logs = args.keep_logs
        tokens = stack.prepare(credits_per_brokerage=10_000_000)
        stack.start_web(workers=2)
        stack.start_worker("workers", processes=1, threads=4)
        stack.start_extractor(module="bench.silent_extractor")
        stack.wait_ready()
        say(f"stack up, running the {stack.code}; uploading {unique} documents to wait on accepted jobs")
        jobs = waiting_jobs(stack, tokens, unique, args.upload_threads, args.timeout)
        bodies = deliveries([jobs[i] for i in plan], plan, rng)
        secret = stack.env["EXTRACTION_WEBHOOK_SECRET"]
        bare_url, real_url = stack.web_url + "/bench/signed-noop", stack.web_url + "/api/extraction/callbacks"

        # Warm-up, not measured: each endpoint's connections and code paths, with deliveries for
        # unknown jobs, which the worker records as ignored before the measured halves start.
        warm = [(f"warm_{uuid.uuid4().hex}", json.dumps({"type": "job.completed", "job_id": uuid.uuid4().hex,
                                                          "data": {}}).encode()) for _ in range(WARM_UP)]
        run(bare_url, secret, warm, args.threads)
        run(real_url, secret, warm, args.threads)
        wait_applied(stack, args.timeout)
        if args.worker == "neither":
            os.killpg(stack.processes["workers"].pid, signal.SIGSTOP)
        say(f"{len(bodies)} deliveries ready ({len(bodies) - unique} duplicates) for {unique} real jobs; "
            f"worker {'frozen during both halves' if args.worker == 'neither' else 'running during both halves'}")

        # Interleaved rounds, each a share of the deliveries to the bare endpoint and then the same
        # share to the callback endpoint: the machine's speed drifts over minutes (other tenants
        # of its cores), and alternating puts that drift on both halves alike.
        bare_rounds, real_rounds, bare_meters, real_meters = [], [], [], []
        for share in rounds(bodies, args.rounds):
            with stack.cpu_meter() as meter:
                bare_rounds.append(run(bare_url, secret, share, args.threads))
            bare_meters.append(meter)
            with stack.cpu_meter() as meter:
                real_rounds.append(run(real_url, secret, share, args.threads))
            real_meters.append(meter)
        bare, real = Result.together(bare_rounds), Result.together(real_rounds)
        bare_cpu, real_cpu = Rounds(bare_meters), Rounds(real_meters)
        recorded = stack.sql("SELECT count(*) FROM callback_deliveries WHERE id NOT LIKE 'warm%%'")[0][0]

        with stack.cpu_meter() as apply_cpu:
            if args.worker == "neither":
                os.killpg(stack.processes["workers"].pid, signal.SIGCONT)
            started = time.monotonic()
            applied = wait_applied(stack, args.timeout)
            apply_seconds = time.monotonic() - started
        statuses = dict(stack.sql("SELECT status, count(*) FROM documents GROUP BY status"))
        say("done; stopping the stack")

    print(f"bench-callbacks: {len(bodies)} signed deliveries ({len(bodies) - unique} duplicates) for "
          f"{unique} real jobs, {args.threads} client threads; gunicorn 2 gevent workers, PostgreSQL, Redis; "
          f"worker {args.worker_description}")
    print(f"  callback endpoint : {real.rate:8.1f} accepted/s   p50 {real.p50:6.1f} ms   p99 {real.p99:6.1f} ms"
          f"   (202: {real.codes.get(202, 0)}, 200 duplicate: {real.codes.get(200, 0)}, errors: {real.errors})")
    print(f"  bare signed noop  : {bare.rate:8.1f} answered/s   p50 {bare.p50:6.1f} ms   p99 {bare.p99:6.1f} ms"
          f"   (errors: {bare.errors})")
    print(f"  ratio (callback / bare): throughput {real.rate / bare.rate:.2f}, p99 latency {real.p99 / bare.p99:.2f}")
    print(f"  LeadFlow CPU per delivery received: callback endpoint {leadflow_ms(real_cpu, len(bodies)):.2f} ms, "
          f"bare {leadflow_ms(bare_cpu, len(bodies)):.2f} ms")
    print(f"  applied by the worker: {applied} of {unique} unique deliveries in {apply_seconds:.1f}s "
          f"({applied / max(apply_seconds, 1e-9):.0f}/s), LeadFlow CPU {leadflow_ms(apply_cpu, unique):.2f} ms "
          f"per delivery applied; documents now {statuses}")
    print(f"  deliveries recorded: {recorded} of {unique} unique")
    print("\n-- bare signed endpoint --\n" + report(bare_cpu, len(bodies), "delivery", f"{bare.rate:.1f} answered/s", "deliveries"))
    print("\n-- callback endpoint (receipt) --\n"
          + report(real_cpu, len(bodies), "delivery", f"{real.rate:.1f} accepted/s", "deliveries"))
    print("\n-- worker applying the deliveries --\n"
          + report(apply_cpu, unique, "delivery", f"{applied / max(apply_seconds, 1e-9):.0f} applied/s", "deliveries"))
    print(f"\n  reproduce: .venv/bin/python -m bench.callbacks --deliveries {args.deliveries} "
          f"--threads {args.threads} --seed {args.seed} --worker {args.worker} --rounds {args.rounds}")
    ok = real.errors == 0 and bare.errors == 0 and recorded == unique and applied == unique
    return 0 if ok else 1


def duplicates_plan(count: int, rng: random.Random) -> list[int]:
    """Which job each delivery is for: a new one, or (a fifth of the time) one sent already."""
    plan: list[int] = []
    fresh = 0
    for _ in range(count):
        if plan and rng.random() < DUPLICATE_SHARE:
            plan.append(rng.choice(plan))
        else:
            plan.append(fresh)
            fresh += 1
    return plan


def deliveries(jobs: list[str], plan: list[int], rng: random.Random) -> list[tuple[str, bytes]]:
    """(webhook-id, body) pairs; a repeat carries the earlier webhook-id and body, like a retrying sender."""
    first: dict[int, tuple[str, bytes]] = {}
    sent = []
    for job_id, index in zip(jobs, plan):
        if index not in first:
            body = {"type": "job.completed", "job_id": job_id,
                    "data": {"pages": 1, "document_type": "payslip", "confidence": 0.93,
                             "content": {"fields": {"employer": "Musterfirma GmbH", "gross": "4820.00",
                                                    "net": "3011.37"},
                                         "text_chars": 2400, "text": "Entgeltabrechnung " * 120},
                             "schema": {"type": "object"}}}
            first[index] = (f"dlv_{uuid.UUID(int=rng.getrandbits(128)).hex}", json.dumps(body).encode())
        sent.append(first[index])
    return sent


def waiting_jobs(stack: Stack, tokens: list[str], count: int, threads: int, timeout: float) -> list[str]:
    """Upload `count` payslips and wait until each waits in EXTRACTING on an accepted job; their job ids."""
    uploader = Uploader(stack.web_url, tokens)
    with ThreadPoolExecutor(threads) as pool:
        ids = [i for i in pool.map(lambda n: uploader.upload(n, SAMPLE, "payslip"), range(count)) if i]
    if uploader.failures:
        raise SystemExit(f"{len(uploader.failures)} uploads failed (first: {uploader.failures[0]})")

    def waiting():
        rows = stack.sql("SELECT j.id FROM documents d JOIN extraction_jobs j ON j.id = d.current_job_id "
                         "WHERE d.id = ANY(%s) AND d.status = 'EXTRACTING' AND j.status = 'accepted'", (ids,))
        return [r[0] for r in rows] if len(rows) == len(ids) else None
    return wait_until(waiting, timeout, "every document to wait on an accepted job", interval=0.5)


def wait_applied(stack: Stack, timeout: float) -> int:
    """Wait until the worker has processed every delivery of the run; how many it processed."""
    def done():
        left = stack.sql("SELECT count(*) FROM callback_deliveries WHERE processed_at IS NULL")[0][0]
        return left == 0
    try:
        wait_until(done, timeout, "the worker to apply every delivery", interval=0.2)
    except TimeoutError:
        pass
    return stack.sql("SELECT count(*) FROM callback_deliveries WHERE processed_at IS NOT NULL "
                     "AND id NOT LIKE 'warm%%'")[0][0]


def rounds(bodies: list, count: int) -> list[list]:
    """`bodies` cut into `count` consecutive shares (a duplicate still comes after its first)."""
    size = -(-len(bodies) // max(count, 1))
    return [bodies[start:start + size] for start in range(0, len(bodies), size)]


class Result:
    def __init__(self, latencies: list[float], codes: dict[int, int], seconds: float):
        self.latencies, self.seconds = latencies, seconds
        self.codes = codes
        self.errors = sum(n for code, n in codes.items() if code not in (200, 202))
        ok = sum(n for code, n in codes.items() if code in (200, 202))
        self.rate = ok / seconds if seconds else 0.0
        ordered = sorted(latencies)
        self.p50 = statistics.median(ordered) * 1000
        self.p99 = ordered[min(len(ordered) - 1, int(len(ordered) * 0.99))] * 1000

    @classmethod
    def together(cls, results: list["Result"]) -> "Result":
        """Rounds as one result: their requests over the seconds they ran (the gaps between
        rounds are not counted)."""
        codes: dict[int, int] = {}
        for result in results:
            for code, n in result.codes.items():
                codes[code] = codes.get(code, 0) + n
        return cls([t for result in results for t in result.latencies], codes, sum(r.seconds for r in results))


def run(url: str, secret: str, bodies: list[tuple[str, bytes]], threads: int) -> Result:
    """Send every delivery once, from `threads` keep-alive connections; time each request."""
    latencies: list[float] = []
    codes: dict[int, int] = {}
    lock = threading.Lock()
    cursor = iter(range(len(bodies)))

    def client():
        session = requests.Session()
        mine, counts = [], {}
        while True:
            with lock:
                index = next(cursor, None)
            if index is None:
                break
            delivery_id, body = bodies[index]
            headers = {**webhooks.headers_for(secret, delivery_id, body), "Content-Type": "application/json"}
            started = time.perf_counter()
            try:
                code = session.post(url, data=body, headers=headers, timeout=30).status_code
            except requests.RequestException:
                code = 0
            mine.append(time.perf_counter() - started)
            counts[code] = counts.get(code, 0) + 1
        with lock:
            latencies.extend(mine)
            for code, n in counts.items():
                codes[code] = codes.get(code, 0) + n

    workers = [threading.Thread(target=client) for _ in range(threads)]
    started = time.perf_counter()
    for w in workers:
        w.start()
    for w in workers:
        w.join()
    return Result(latencies, codes, time.perf_counter() - started)


class Say:
    def __init__(self):
        self.started = time.monotonic()

    def __call__(self, text: str) -> None:
        print(f"bench-callbacks: [{time.monotonic() - self.started:5.0f}s] {text}", flush=True)


def parse_args(argv):
    parser = argparse.ArgumentParser(prog="python -m bench.callbacks", description=__doc__.split("\n\n")[0])
    parser.add_argument("--deliveries", type=int, default=DEFAULT_DELIVERIES)
    parser.add_argument("--threads", type=int, default=8, help="client threads sending deliveries")
    parser.add_argument("--upload-threads", type=int, default=8)
    parser.add_argument("--worker", choices=("neither", "both"), default="neither",
                        help="the dramatiq worker frozen during both halves (neither) or running in both")
    parser.add_argument("--rounds", type=int, default=4,
                        help="interleaved rounds of bare then callback endpoint, each a share of the deliveries")
    parser.add_argument("--seed", type=int, default=7)
    parser.add_argument("--timeout", type=float, default=600.0)
    parser.add_argument("--source", default="worktree", help="what code to run: worktree or a git revision")
    parser.add_argument("--keep-logs", action="store_true")
    args = parser.parse_args(argv)
    args.worker_description = ("frozen (SIGSTOP) while both halves ran, then let go to apply"
                               if args.worker == "neither" else "running during both halves")
    return args


if __name__ == "__main__":
    sys.exit(main())
