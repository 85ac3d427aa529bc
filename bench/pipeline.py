"""Pipeline throughput: documents from upload to a settled state through the distributed mode
(gunicorn, `dramatiq tasks:worker` with 2 processes, PostgreSQL, Redis, S3) with an instant extractor,
next to a bare Dramatiq no-op actor on the same Redis broker with as many processes and threads.

    make bench-pipeline
    .venv/bin/python -m bench.pipeline --documents 200

Throughput is documents / (last settled - first created); latency is each document's
created_at to verified_at (updated_at for ACTION_REQUIRED), from the database. The uploads
come as fast as the upload threads can send them (or at --rate per second), so by default
latency includes queueing behind the burst.
"""
import argparse
import importlib
import os
import random
import statistics
import sys
import time
from concurrent.futures import ThreadPoolExecutor

from bench._stack import BIN, SETTLED, Stack, Uploader, ensure_redis, sample_pdfs, wait_until
from bench.cpu import leadflow_ms, report

DEFAULT_DOCUMENTS = 2000
DEFAULT_MESSAGES = 20000
CREDITS_PER_BROKERAGE = 10_000_000


def main(argv=None) -> int:
    args = parse_args(argv)
    command = reproduce_command(args)
    samples = sample_pdfs()
    ensure_redis()
    say = Say()
    # A Redis of the run's own, so that its CPU is this run's and nobody else's.
    with Stack("bench", {"EXTRACTOR_WORKERS": "4"}, source=args.source, private_redis=True) as stack:
        stack.keep_logs = args.keep_logs
        tokens = stack.prepare(CREDITS_PER_BROKERAGE)
        stack.start_extractor(module="bench.instant_extractor")
        stack.start_web(workers=2)
        stack.start_worker("workers", processes=args.workers, threads=args.threads)
        stack.wait_ready()
        say(f"stack up, running the {stack.code}; {args.workers} worker processes x {args.threads} threads, "
            f"gunicorn 2 gevent workers, instant extractor")
        uploader = Uploader(stack.web_url, tokens)

        # Warm-up, not measured: every sample once, so that each process has its connections
        # and the extractor each result.
        warm = upload(uploader, samples, len(samples), args.upload_threads, shuffle=False)
        wait_settled(stack, warm, 180)

        meter = stack.cpu_meter().start()
        load_before = os.getloadavg()[0]
        started = time.monotonic()
        ids = upload(uploader, samples, args.documents, args.upload_threads, shuffle=True, rate=args.rate)
        upload_seconds = time.monotonic() - started
        if uploader.failures:
            say(f"{len(uploader.failures)} uploads failed (first: {uploader.failures[0]})")
            stack.keep_logs = True
            return 1
        settled = wait_settled(stack, ids, args.timeout)
        if not settled:
            say(f"not every document settled within {args.timeout:.0f}s: {stack.status_counts()}")
            stack.keep_logs = True
            return 1
        pipeline = measure_pipeline(stack, ids)
        meter.stop()
        load_after = os.getloadavg()[0]
        for name in ("web", "workers", "extractor"):
            stack.stop(name)  # the no-op run gets the machine to itself, as the pipeline had
        noop = measure_noop(stack, args.messages, args.workers, args.threads)

    ratio = pipeline["rate"] / noop["rate"]
    say(f"pipeline: {args.documents} documents in {pipeline['span']:.1f}s = {pipeline['rate']:.1f} documents/s "
        f"(uploads took {upload_seconds:.1f}s, {args.documents / upload_seconds:.0f}/s); "
        f"upload-to-settled latency p50 {pipeline['p50']:.2f}s, p99 {pipeline['p99']:.2f}s; {pipeline['statuses']}")
    # The window runs from the first upload until every document has settled (and the
    # harness has read the latencies), so it holds a little idle time at the end.
    say(f"load average {load_before:.1f} before, {load_after:.1f} after, on {os.cpu_count()} cores")
    print(report(meter, args.documents, "document", f"{pipeline['rate']:.1f} documents/s"), flush=True)
    say(f"no-op actor: {args.messages} messages drained in {noop['span']:.2f}s = {noop['rate']:.0f} messages/s "
        f"({args.workers} dramatiq processes x {args.threads} threads, same Redis)")
    say(f"ratio: pipeline / no-op = {ratio:.4f} (a document costs about {1 / ratio:.0f} no-op messages of time; "
        f"it takes at least 2 messages, verify-document and process-delivery, plus HTTP, S3 and PostgreSQL)")
    say(f"reproduce: {command}")
    print(f"bench-pipeline: documents={args.documents} documents_per_second={pipeline['rate']:.1f} "
          f"p50={pipeline['p50']:.2f}s p99={pipeline['p99']:.2f}s noop_messages_per_second={noop['rate']:.0f} "
          f"ratio={ratio:.4f} leadflow_cpu_ms_per_document={leadflow_ms(meter, args.documents):.1f}", flush=True)
    return 0


def parse_args(argv):
    parser = argparse.ArgumentParser(prog="python -m bench.pipeline", description=__doc__.split("\n\n")[0])
    parser.add_argument("--documents", type=int, default=DEFAULT_DOCUMENTS)
    parser.add_argument("--messages", type=int, default=DEFAULT_MESSAGES, help="no-op messages to drain")
    parser.add_argument("--workers", type=int, default=2, help="dramatiq processes (pipeline and no-op alike)")
    parser.add_argument("--threads", type=int, default=5, help="threads per dramatiq process "
                        "(DOCUMENT_PROCESSING_CONCURRENCY's default)")
    parser.add_argument("--upload-threads", type=int, default=8)
    parser.add_argument("--rate", type=float, default=0.0,
                        help="upload at most this many documents per second (default: as fast as possible); "
                             "below the pipeline's throughput, latency shows the pipeline without queueing")
    parser.add_argument("--timeout", type=float, default=900.0, help="give up waiting for the documents after this")
    parser.add_argument("--source", default="worktree",
                        help="code to run: 'worktree' (a copy of the tree as it is) or a git revision")
    parser.add_argument("--keep-logs", action="store_true")
    args = parser.parse_args(argv)
    if args.documents < 1 or args.messages < 100:
        parser.error("--documents must be at least 1 and --messages at least 100")
    return args


def reproduce_command(args) -> str:
    defaults = vars(parse_args([]))
    parts = [".venv/bin/python -m bench.pipeline"]
    for name, value in vars(args).items():
        if value != defaults[name] or name == "documents":
            flag = "--" + name.replace("_", "-")
            parts.append(flag if isinstance(value, bool) else f"{flag} {value:g}" if isinstance(value, float)
                         else f"{flag} {value}")
    return " ".join(parts)


class Say:
    def __init__(self):
        self.started = time.monotonic()

    def __call__(self, text: str) -> None:
        print(f"bench-pipeline: [{time.monotonic() - self.started:5.0f}s] {text}", flush=True)


def upload(uploader: Uploader, samples, count: int, threads: int, shuffle: bool, rate: float = 0.0) -> list[str]:
    plan = [random.choice(samples) for _ in range(count)] if shuffle else [samples[i % len(samples)]
                                                                           for i in range(count)]
    start = time.monotonic()

    def one(n: int):
        if rate:
            time.sleep(max(0.0, start + n / rate - time.monotonic()))
        return uploader.upload(n, *plan[n])

    with ThreadPoolExecutor(threads, thread_name_prefix="upload") as pool:
        return [i for i in pool.map(one, range(count)) if i]


def wait_settled(stack: Stack, ids: list[str], timeout: float) -> bool:
    def settled():
        return stack.sql("SELECT count(*) FROM documents WHERE id = ANY(%s) AND status = ANY(%s)",
                         (ids, list(SETTLED)))[0][0] == len(ids)
    try:
        wait_until(settled, timeout, "the documents to settle", interval=0.5)
        return True
    except TimeoutError:
        return False


def measure_pipeline(stack: Stack, ids: list[str]) -> dict:
    rows = stack.sql("SELECT created_at, coalesce(verified_at, updated_at), status FROM documents "
                     "WHERE id = ANY(%s)", (ids,))
    first = min(r[0] for r in rows)
    last = max(r[1] for r in rows)
    latencies = sorted((done - created).total_seconds() for created, done, _ in rows)
    span = (last - first).total_seconds()
    statuses = {}
    for *_, status in rows:
        statuses[status] = statuses.get(status, 0) + 1
    return {"span": span, "rate": len(rows) / span, "p50": statistics.median(latencies),
            "p99": percentile(latencies, 99), "statuses": " ".join(f"{k}={v}" for k, v in sorted(statuses.items()))}


def percentile(ordered: list[float], p: float) -> float:
    """Nearest-rank percentile of an ascending list."""
    rank = max(1, -(-len(ordered) * p // 100))
    return ordered[int(rank) - 1]


def measure_noop(stack: Stack, messages: int, processes: int, threads: int) -> dict:
    """Fill the queue first, then start the workers; time from the first acknowledgement to the last."""
    namespace = f"{stack.namespace}-noop"  # under the stack's prefix, so its keys go with it
    os.environ["REDIS_URL"], os.environ["NOOP_NAMESPACE"] = stack.env["REDIS_URL"], namespace
    noop_actor = importlib.import_module("bench.noop_actor")
    for _ in range(messages):
        noop_actor.noop.send()
    pending = f"{namespace}:{noop_actor.QUEUE}.msgs"
    assert stack.redis.hlen(pending) == messages
    stack.start("noop-workers", [str(BIN / "dramatiq"), "bench.noop_actor", "--processes",
                                 str(processes), "--threads", str(threads)], env={"NOOP_NAMESPACE": namespace})
    wait_until(lambda: stack.redis.hlen(pending) < messages, 60, "the no-op workers to start", interval=0.002)
    first = time.monotonic()
    wait_until(lambda: stack.redis.hlen(pending) == 0, 600, "the no-op queue to drain", interval=0.005)
    span = time.monotonic() - first
    stack.stop("noop-workers")
    return {"span": span, "rate": messages / span}


if __name__ == "__main__":
    sys.exit(main())
