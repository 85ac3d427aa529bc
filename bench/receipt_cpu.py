"""CPU per callback receipt in one process, next to the bare signed endpoint, without the noise of
a full stack: the app is called in this process (Flask's test client, no HTTP server), on a
fresh PostgreSQL database and Redis, one request at a time, in interleaved rounds.

    .venv/bin/python -m bench.receipt_cpu
    .venv/bin/python -m bench.receipt_cpu --requests 1000 --rounds 5

One request at a time means every receipt is a group of one (its own insert, commit and nudge):
what `make bench-callbacks` shares between concurrent receipts is paid in full here. Reported
per request: the CPU of the thread that served it (Flask, SQLAlchemy, the Redis client) and of
the PostgreSQL backends serving the run's database, from /proc. The figure repeats within a few per
cent where bench-callbacks varies by a fifth on a shared 2-core machine; to compare two versions
of the code, run it from a worktree of each (`git worktree add /tmp/old <rev>`).
"""
import argparse
import json
import os
import sys
import time
import uuid

import psycopg
import redis

from bench._stack import ADMIN_URL, REDIS_URL
from bench.cpu import Meter

BARE, RECEIPT = "/bench/signed-noop", "/api/extraction/callbacks"


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(prog="python -m bench.receipt_cpu", description=__doc__.split("\n\n")[0])
    parser.add_argument("--requests", type=int, default=500, help="requests per endpoint per round")
    parser.add_argument("--rounds", type=int, default=3)
    args = parser.parse_args(argv)
    if args.requests < 10 or args.rounds < 1:
        parser.error("--requests must be at least 10 and --rounds at least 1")
    label = uuid.uuid4().hex[:8]
    database = f"leadflow_receipt_{label}"
    with psycopg.connect(ADMIN_URL, autocommit=True, connect_timeout=5) as admin:
        admin.execute(f'CREATE DATABASE "{database}"')
    namespace = f"receipt-{label}"
    try:
        return run(args, database, namespace)
    finally:
        with psycopg.connect(ADMIN_URL, autocommit=True, connect_timeout=5) as admin:
            admin.execute(f'DROP DATABASE IF EXISTS "{database}" WITH (FORCE)')
        queues = redis.Redis.from_url(REDIS_URL, socket_timeout=5)
        for key in list(queues.scan_iter(match=f"{namespace}*", count=1000)):
            queues.delete(key)


def run(args, database: str, namespace: str) -> int:
    os.environ.update(DATABASE_URL=f"{ADMIN_URL.rsplit('/', 1)[0]}/{database}", REDIS_URL=REDIS_URL,
                      DRAMATIQ_NAMESPACE=namespace, REALTIME_CHANNEL=f"{namespace}:events", BENCH_ENDPOINTS="1")
    from flask_migrate import upgrade

    from leadflow.extraction import webhooks
    from leadflow.factory import create_app

    app = create_app(listen=False)
    with app.app_context():
        upgrade()
    client = app.test_client()
    secret = app.config["EXTRACTION_WEBHOOK_SECRET"]

    def requests(count: int):
        made = []
        for _ in range(count):
            # Deliveries for jobs we do not know: recorded and nudged like any other; what the
            # worker would make of them is not measured here (no worker runs).
            body = json.dumps({"type": "job.completed", "job_id": uuid.uuid4().hex,
                               "data": {"pages": 1, "content": {"fields": {}}, "schema": {}}}).encode()
            made.append((body, {**webhooks.headers_for(secret, f"msg_{uuid.uuid4().hex}", body),
                                "Content-Type": "application/json"}))
        return made

    def measure(path: str, count: int) -> tuple[float, float]:
        batch = requests(count)
        # The requests run in this thread, start to end (the test client, the group commit's
        # leader, the nudge after it); the meter's own reading of /proc runs in another.
        meter = Meter({}, database=database, interval=1.0, this_process=None).start()
        started = time.thread_time()
        for body, headers in batch:
            answer = client.post(path, data=body, headers=headers)
            if answer.status_code not in (200, 202):
                raise SystemExit(f"{path} answered {answer.status_code}: {answer.get_data(as_text=True)[:200]}")
        own = time.thread_time() - started
        meter.stop()
        return own * 1000 / count, meter.seconds.get("PostgreSQL", 0.0) * 1000 / count

    for path in (BARE, RECEIPT):  # warm-up: imports, prepared statements, connections
        measure(path, 50)
    totals = {BARE: [0.0, 0.0], RECEIPT: [0.0, 0.0]}
    for number in range(1, args.rounds + 1):
        line = []
        for path in (BARE, RECEIPT):
            own, postgres = measure(path, args.requests)
            totals[path][0] += own
            totals[path][1] += postgres
            line.append(f"{'bare' if path == BARE else 'receipt'} {own:.2f} + {postgres:.2f} ms")
        say(f"round {number}: " + ", ".join(line) + " (this process + PostgreSQL, per request)")
    bare, receipt = (sum(totals[path]) / args.rounds for path in (BARE, RECEIPT))
    say(f"CPU per request: bare signed endpoint {bare:.2f} ms, callback receipt {receipt:.2f} ms "
        f"(this process {totals[RECEIPT][0] / args.rounds:.2f}, PostgreSQL {totals[RECEIPT][1] / args.rounds:.2f}); "
        f"receipt / bare {receipt / bare:.2f}")
    say(f"reproduce: .venv/bin/python -m bench.receipt_cpu --requests {args.requests} --rounds {args.rounds}")
    return 0


def say(text: str) -> None:
    print(f"bench-receipt-cpu: {text}", flush=True)


if __name__ == "__main__":
    sys.exit(main())
