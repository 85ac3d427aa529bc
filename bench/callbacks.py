"""Callback receipt: signed deliveries, a fifth of them duplicates, against the production server
setup (gunicorn 2 gevent workers, PostgreSQL, Redis, a `dramatiq` worker applying them), next to the
same server answering a bare signed endpoint that does no database work.

    make bench-callbacks
    .venv/bin/python -m bench.callbacks --deliveries 2000

"Accepted" counts answers of 202 (new delivery recorded and its processing enqueued) and 200
(a duplicate recognised); anything else is an error and fails the run. Latency is measured by
the client, per request, over keep-alive connections. The load generator runs on the same two
cores as the server, so both figures are lower than on separate machines; the ratio is the
figure to compare over time.
"""
import argparse
import json
import random
import statistics
import sys
import threading
import time
import uuid

import requests

from bench._stack import Stack, ensure_redis
from leadflow.extraction import webhooks

DEFAULT_DELIVERIES = 5000
DUPLICATE_SHARE = 0.2


def main(argv=None) -> int:
    args = parse_args(argv)
    ensure_redis()
    with Stack("callbacks", {"BENCH_ENDPOINTS": "1"}, source=args.source) as stack:
        stack.prepare(credits_per_brokerage=10)
        stack.start_web(workers=2)
        stack.start_worker("workers", processes=1, threads=4)
        stack.start_extractor()
        stack.wait_ready()
        secret = stack.env["EXTRACTION_WEBHOOK_SECRET"]
        bodies = deliveries(args.deliveries, random.Random(args.seed))

        run(stack.web_url + "/bench/signed-noop", secret, bodies[: min(500, len(bodies))], args.threads)  # warm-up
        bare = run(stack.web_url + "/bench/signed-noop", secret, bodies, args.threads)
        real = run(stack.web_url + "/api/extraction/callbacks", secret, bodies, args.threads)
        recorded = stack.sql("SELECT count(*) FROM callback_deliveries")[0][0]

    unique = len({d for d, _ in bodies})
    print(f"bench-callbacks: {len(bodies)} signed deliveries ({len(bodies) - unique} duplicates), "
          f"{args.threads} client threads; server gunicorn 2 gevent workers, PostgreSQL, Redis")
    print(f"  callback endpoint : {real.rate:8.1f} accepted/s   p50 {real.p50:6.1f} ms   p99 {real.p99:6.1f} ms"
          f"   (202: {real.codes.get(202, 0)}, 200 duplicate: {real.codes.get(200, 0)}, errors: {real.errors})")
    print(f"  bare signed noop  : {bare.rate:8.1f} answered/s   p50 {bare.p50:6.1f} ms   p99 {bare.p99:6.1f} ms")
    print(f"  ratio (callback / bare): throughput {real.rate / bare.rate:.2f}, p99 latency {real.p99 / bare.p99:.2f}")
    print(f"  deliveries recorded: {recorded} of {unique} unique")
    print(f"  reproduce: .venv/bin/python -m bench.callbacks --deliveries {args.deliveries} "
          f"--threads {args.threads} --seed {args.seed}")
    return 0 if real.errors == 0 and bare.errors == 0 and recorded == unique else 1


def deliveries(count: int, rng: random.Random) -> list[tuple[str, bytes]]:
    """(webhook-id, body) pairs; a fifth repeat an earlier webhook-id and body, like a retrying sender."""
    sent: list[tuple[str, bytes]] = []
    for _ in range(count):
        if sent and rng.random() < DUPLICATE_SHARE:
            sent.append(rng.choice(sent))
            continue
        job_id = uuid.uuid4().hex
        body = {"type": "job.completed", "job_id": job_id,
                "data": {"pages": 2, "document_type": "payslip", "confidence": 0.93,
                         "content": {"fields": {"employer": "Musterfirma GmbH", "gross": "4820.00", "net": "3011.37"},
                                     "text_chars": 2400, "text": "Entgeltabrechnung " * 120},
                         "schema": {"type": "object"}}}
        sent.append((f"dlv_{uuid.uuid4().hex}", json.dumps(body).encode()))
    return sent


class Result:
    def __init__(self, latencies: list[float], codes: dict[int, int], seconds: float):
        self.codes = codes
        self.errors = sum(n for code, n in codes.items() if code not in (200, 202))
        ok = sum(n for code, n in codes.items() if code in (200, 202))
        self.rate = ok / seconds if seconds else 0.0
        ordered = sorted(latencies)
        self.p50 = statistics.median(ordered) * 1000
        self.p99 = ordered[min(len(ordered) - 1, int(len(ordered) * 0.99))] * 1000


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


def parse_args(argv):
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--deliveries", type=int, default=DEFAULT_DELIVERIES)
    parser.add_argument("--threads", type=int, default=8, help="client threads sending deliveries")
    parser.add_argument("--seed", type=int, default=7)
    parser.add_argument("--source", default="worktree", help="what code to run: worktree or a git revision")
    return parser.parse_args(argv)


if __name__ == "__main__":
    sys.exit(main())
