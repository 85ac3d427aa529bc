"""Pipeline throughput: documents from upload to a settled state through the distributed mode
(gunicorn, `dramatiq tasks:worker` with 2 processes, PostgreSQL, Redis, S3) with an instant extractor,
next to a bare Dramatiq no-op actor on the same Redis broker with as many processes and threads.

    make bench-pipeline
    .venv/bin/python -m bench.pipeline --documents 200
    .venv/bin/python -m bench.pipeline --documents 500 --against b6dba67 --rounds 2
    .venv/bin/python -m bench.pipeline --documents 1000 --own-cores 1

Throughput is documents / (last settled - first created); latency is each document's
created_at to verified_at (updated_at for ACTION_REQUIRED), from the database. The uploads
come as fast as the upload threads can send them (or at --rate per second), so by default
latency includes queueing behind the burst.

`--against REV` measures that revision too, alternating with `--source`, each on a stack of its
own, and prints how many times the LeadFlow CPU per document of `--source` it takes: the comparison
of two versions from one run, where figures from different hours differ by a fifth or more.

`--own-cores N` runs LeadFlow's processes, with a Redis and a PostgreSQL of the run's own, on N
cores of their own and the helpers (S3 server, extractor, this load generator) on the others:
the throughput LeadFlow reaches on cores it does not share, which the issue's target is stated
in, where by default every process shares every core.
"""
import argparse
import os
import random
import statistics
import sys
import time
from concurrent.futures import ThreadPoolExecutor
from contextlib import contextmanager

from dramatiq.brokers.redis import RedisBroker

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
    if not args.against:
        result = run(args, args.source, samples, say)
        if result is None:
            return 1
        say(f"reproduce: {command}")
        print(summary_line(args, result), flush=True)
        return 0
    # The same benchmark on two versions of the code, alternating, in one invocation: this
    # machine's speed drifts by a fifth over minutes, so figures from different hours do not
    # compare, and "how many times less work" only means something within one run.
    figures = {args.against: [], args.source: []}
    for round_number in range(1, args.rounds + 1):
        for source in (args.against, args.source):
            say(f"round {round_number} of {args.rounds}: {source}")
            result = run(args, source, samples, say)
            if result is None:
                return 1
            print(summary_line(args, result), flush=True)
            figures[source].append(result["leadflow_ms"])
    before, after = (statistics.mean(figures[source]) for source in (args.against, args.source))
    say(f"LeadFlow CPU per document: {args.against} " + ", ".join(f"{ms:.1f}" for ms in figures[args.against])
        + f" ms (mean {before:.1f}); {args.source} " + ", ".join(f"{ms:.1f}" for ms in figures[args.source])
        + f" ms (mean {after:.1f}): {args.against} takes {before / after:.1f} times the CPU per document of {args.source}")
    say(f"reproduce: {command}")
    print(f"bench-pipeline: against={args.against} source={args.source} rounds={args.rounds} "
          f"against_ms_per_document={before:.1f} source_ms_per_document={after:.1f} "
          f"against_over_source={before / after:.2f}", flush=True)
    return 0


def run(args, source: str, samples, say) -> dict | None:
    """One measured run of `source` on a stack of its own: its report printed, its figures
    returned (None when uploads failed or documents did not settle; the logs are kept)."""
    own_cpus = frozenset(sorted(os.sched_getaffinity(0))[:args.own_cores]) if args.own_cores else None
    # A Redis of the run's own, so that its CPU is this run's and nobody else's.
    with Stack("bench", {"EXTRACTOR_WORKERS": "4"}, source=source, private_redis=True,
               private_postgres=bool(own_cpus), own_cpus=own_cpus) as stack, helpers_on(stack.helper_cpus):
        stack.keep_logs = args.keep_logs
        tokens = stack.prepare(CREDITS_PER_BROKERAGE)
        stack.start_extractor(module="bench.instant_extractor")
        stack.start_web(workers=2)
        stack.start_worker("workers", processes=args.workers, threads=args.threads)
        stack.wait_ready()
        say(f"stack up, running the {stack.code}; {args.workers} worker processes x {args.threads} threads, "
            f"gunicorn 2 gevent workers, instant extractor")
        if own_cpus:
            say(f"LeadFlow's processes, Redis and PostgreSQL on CPU {_cpu_list(stack.own_cpus)}; the S3 server, "
                f"extractor and load generator on CPU {_cpu_list(stack.helper_cpus)}")
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
            return None
        settled = wait_settled(stack, ids, args.timeout)
        if not settled:
            say(f"not every document settled within {args.timeout:.0f}s: {stack.status_counts()}")
            stack.keep_logs = True
            return None
        pipeline = measure_pipeline(stack, ids)
        meter.stop()
        load_after = os.getloadavg()[0]
        for name in ("web", "workers", "extractor"):
            stack.stop(name)  # the no-op run gets the machine to itself, as the pipeline had
        noop = measure_noop(stack, args.messages, args.workers, args.threads)

    ratio = pipeline["rate"] / noop["rate"]
    if own_cpus:
        say(f"LeadFlow on {len(own_cpus)} core{'s' if len(own_cpus) > 1 else ''} of its own: "
            f"{pipeline['rate']:.1f} documents/s, {pipeline['rate'] / len(own_cpus):.1f} per core")
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
    return {**pipeline, "noop_rate": noop["rate"], "ratio": ratio, "leadflow_ms": leadflow_ms(meter, args.documents)}


@contextmanager
def helpers_on(cpus: frozenset[int]):
    """This process (the load generator, and the threads it starts from here on) on `cpus` for
    the block; unchanged when empty."""
    if not cpus:
        yield
        return
    before = os.sched_getaffinity(0)
    os.sched_setaffinity(0, cpus)
    try:
        yield
    finally:
        os.sched_setaffinity(0, before)


def _cpu_list(cpus) -> str:
    return ",".join(str(cpu) for cpu in sorted(cpus))


def summary_line(args, result: dict) -> str:
    own = f"own_cores={args.own_cores} " if args.own_cores else ""
    return (f"bench-pipeline: {own}documents={args.documents} documents_per_second={result['rate']:.1f} "
            f"p50={result['p50']:.2f}s p99={result['p99']:.2f}s noop_messages_per_second={result['noop_rate']:.0f} "
            f"ratio={result['ratio']:.4f} leadflow_cpu_ms_per_document={result['leadflow_ms']:.1f}")


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
    parser.add_argument("--against", default="",
                        help="a git revision to measure too, alternating with --source, and print how many "
                             "times the CPU per document of --source it takes (e.g. b6dba67, where issue 12 began)")
    parser.add_argument("--rounds", type=int, default=1, help="with --against: runs of each, alternating")
    parser.add_argument("--own-cores", type=int, default=0,
                        help="run LeadFlow (web, workers, Redis, PostgreSQL) on this many cores of its own and the "
                             "helpers on the rest (default 0: every process on every core)")
    parser.add_argument("--keep-logs", action="store_true")
    args = parser.parse_args(argv)
    if args.documents < 1 or args.messages < 100:
        parser.error("--documents must be at least 1 and --messages at least 100")
    if args.rounds < 1:
        parser.error("--rounds must be at least 1")
    if args.rounds > 1 and not args.against:
        parser.error("--rounds goes with --against")
    if args.against and args.against == args.source:
        parser.error("--against names the same code as --source; name another revision")
    cores = len(os.sched_getaffinity(0))
    if not 0 <= args.own_cores < cores:
        parser.error(f"--own-cores must leave the helpers at least one of the {cores} cores this process may use "
                     f"(0 to {cores - 1})")
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
    from bench import noop_actor  # here: importing it sets Dramatiq's global broker

    namespace = f"{stack.namespace}-noop"  # under the stack's prefix, so its keys go with it
    # A broker of this run's own (not bench.noop_actor's, made once per process at import), so
    # that a second run in this process (--against) fills its own stack's Redis.
    broker = RedisBroker(url=stack.env["REDIS_URL"], namespace=namespace)
    broker.declare_queue(noop_actor.QUEUE)
    for _ in range(messages):
        broker.enqueue(noop_actor.noop.message())
    broker.close()
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
