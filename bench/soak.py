"""Memory that stays flat: the distributed mode under steady load for half an hour, its processes'
resident memory printed every minute.

    make bench-soak
    .venv/bin/python -m bench.soak --minutes 3 --settled-minutes 1     # a quick look

Starts the stack as bench.pipeline and bench.live do (gunicorn with gevent workers, --workers
Dramatiq worker groups, the scheduler, the instant extractor so that OCR does not dominate, a
PostgreSQL database and a Redis of the run's own, moto for S3), opens --live-pages websockets
as advisors of the brokerage whose clients upload, then uploads a document every 1/--rate
seconds over loopback for --minutes (a bounded count: minutes x 60 x rate). Every minute it
prints each LeadFlow process group's RSS (bench/rss.py); at the end a table of each one's RSS
at --settled-minutes and at the end, its growth against the 10% target, the documents
processed, upload-to-verdict p50/p95 (created_at to verified_at, from the database) and
LeadFlow's CPU milliseconds per document from /proc (bench/cpu.py). Exits 1 when a process grew
more than the target, an upload failed, a document did not settle, a process died or a live
page closed.
"""
import argparse
import multiprocessing
import os
import selectors
import sys
import threading
import time
from concurrent.futures import ThreadPoolExecutor

from bench import rss
from bench._stack import SETTLED, Stack, Uploader, ensure_redis, sample_pdfs, wait_until
from bench.cpu import leadflow_ms, report
from bench.live import CONNECT_AT_ONCE, RHEIN_CLIENTS, RowReader, make_advisors, raise_open_files
from bench.pipeline import percentile

MAX_DOCUMENTS = 100_000  # the bound on one run's uploads, whatever --minutes and --rate say
SAMPLE_EVERY_SECONDS = 60.0


def main(argv=None) -> int:
    args = parse_args(argv)
    raise_open_files(args.live_pages)
    samples = sample_pdfs()
    ensure_redis()
    say = Say()
    documents = round(args.minutes * 60 * args.rate)
    with Stack("soak", source=args.source, private_redis=True) as stack:
        stack.keep_logs = args.keep_logs
        if not stack.web_url.startswith("http://127.0.0.1:"):
            raise SystemExit(f"the soak uploads over loopback only, not to {stack.web_url}")
        tokens = stack.prepare(10_000_000)
        advisor_tokens = make_advisors(stack, args.live_pages)
        stack.start_extractor(module="bench.instant_extractor")
        stack.start_web(workers=args.web_workers)
        workers = [f"worker-{i}" for i in range(1, args.workers + 1)]
        for name in workers:
            stack.start_worker(name, processes=1, threads=args.threads)
        stack.start_scheduler()
        stack.wait_ready()
        measured = {"web": stack.processes["web"].pid, **{w: stack.processes[w].pid for w in workers},
                    "scheduler": stack.processes["scheduler"].pid}
        uploader = Uploader(stack.web_url, tokens[:RHEIN_CLIENTS])

        pages = LivePages(stack.web_url, advisor_tokens)
        opened = pages.start(timeout=max(120.0, args.live_pages / 10))
        say(f"running the {stack.code}: gunicorn {args.web_workers} gevent workers, {args.workers} dramatiq "
            f"worker groups x 1 process x {args.threads} threads, scheduler, instant extractor; "
            f"{opened} of {args.live_pages} live pages open")
        if opened < args.live_pages:
            stack.keep_logs = True
            pages.stop()
            return 1

        # Warm-up, not measured: every sample once, so that each process has its connections and
        # caches and the extractor each result before minute 0.
        warm = [uploader.upload(i, path, kind) for i, (path, kind) in enumerate(samples)]
        wait_settled(stack, [d for d in warm if d], 180)

        meter = stack.cpu_meter(interval=2.0)
        for name in workers:  # LeadFlow's workers, whichever group they run in
            meter.by_pgid[measured[name]] = "workers"
        meter.by_pgid[pages.pid] = "live pages' client"  # a helper: its own process group
        meter.start()
        flow = Uploads(uploader, samples, documents, args.rate)
        sizes: list[dict[str, int]] = []
        problems: list[str] = []
        started = time.monotonic()
        flow.start()
        for minute in range(args.minutes + 1):
            delay = started + minute * SAMPLE_EVERY_SECONDS - time.monotonic()
            if delay > 0:
                time.sleep(delay)
            now = rss.group_rss_kib(measured)
            sizes.append({name: kib for name, (kib, _) in now.items()})
            settled = stack.sql("SELECT count(*) FROM documents WHERE status = ANY(%s)", (list(SETTLED),))[0][0]
            print(f"{rss.minute_line(minute, now)}; {flow.sent} uploaded, {settled} settled in all", flush=True)
            dead = stack.exited()
            if dead:
                problems.append(f"processes ended during the soak: {dead}")
                flow.stop()  # what is left would only fail slowly against a broken stack
                break
        ids = flow.join()
        if flow.failures:
            problems.append(f"{len(flow.failures)} uploads failed, the first: {flow.failures[0]}")
        if not wait_settled(stack, ids, args.timeout):
            problems.append(f"not every document settled within {args.timeout:.0f}s after the last upload: "
                            f"{stack.status_counts()}")
        meter.stop()
        latencies = upload_to_verdict(stack, ids)
        still_open, frames = pages.stop()
        stack.keep_logs = stack.keep_logs or bool(problems)  # the processes' logs, to see what went wrong

    end_minute = len(sizes) - 1
    if end_minute <= args.settled_minutes:
        problems.append(f"no samples after minute {args.settled_minutes}")
        for problem in problems:
            say(f"FAILED: {problem}")
        return 1
    rows = rss.rows_from(sizes, args.settled_minutes)
    say(f"resident memory (VmRSS summed over each process group), growth from minute {args.settled_minutes} "
        f"to minute {end_minute}:")
    print(rss.table(rows, args.settled_minutes, end_minute), flush=True)
    say(f"{len(ids)} documents uploaded at {args.rate:g}/s over {args.minutes} minutes, {len(latencies)} "
        f"processed; upload-to-verdict p50 {percentile(latencies, 50):.2f}s, p95 {percentile(latencies, 95):.2f}s, "
        f"max {latencies[-1]:.2f}s" if latencies else "no document processed")
    say(f"{still_open} of {args.live_pages} live pages still open at the end, {frames} rows pushed to them")
    print(report(meter, len(ids), "document", f"{args.rate:g} uploads/s"), flush=True)
    say(f"LeadFlow CPU per document: {leadflow_ms(meter, len(ids)):.1f} ms")
    say(f"load average {', '.join(f'{x:.1f}' for x in os.getloadavg())} on {os.cpu_count()} cores "
        f"(shared with other people's work)")
    problems += [f"{r.name} grew {r.growth:+.1f}% (target <= {rss.TARGET_GROWTH_PERCENT:g}%)"
                 for r in rows if not r.within()]
    if still_open < args.live_pages:
        problems.append(f"{args.live_pages - still_open} live pages closed during the soak")
    say(f"command: {command(args)}")
    for problem in problems:
        say(f"FAILED: {problem}")
    say("targets NOT met" if problems else "targets met")
    return 1 if problems else 0


def parse_args(argv):
    parser = argparse.ArgumentParser(prog="python -m bench.soak", description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--minutes", type=int, default=30, help="how long documents flow")
    parser.add_argument("--rate", type=float, default=5.0, help="uploads per second")
    parser.add_argument("--live-pages", type=int, default=200, help="websockets open, one advisor each")
    parser.add_argument("--settled-minutes", type=int, default=5,
                        help="growth counts from this minute's sample on (caches fill, pools open before it)")
    parser.add_argument("--workers", type=int, default=2, help="dramatiq worker groups of one process each")
    parser.add_argument("--threads", type=int, default=5, help="threads per dramatiq process")
    parser.add_argument("--web-workers", type=int, default=2, help="gunicorn gevent workers (the shipped default)")
    parser.add_argument("--timeout", type=float, default=600.0,
                        help="how long the last documents may take to settle after the last upload")
    parser.add_argument("--source", default="worktree", help="worktree (default) or a git revision to run")
    parser.add_argument("--keep-logs", action="store_true")
    args = parser.parse_args(argv)
    if args.minutes < 1 or not 0 <= args.settled_minutes < args.minutes:
        parser.error("--minutes must be at least 1 and --settled-minutes from 0 to --minutes - 1")
    if not 0 < args.rate * args.minutes * 60 <= MAX_DOCUMENTS:
        parser.error(f"--rate x --minutes x 60 must be between 1 and {MAX_DOCUMENTS} documents")
    if args.live_pages < 0 or args.workers < 1 or args.threads < 1 or args.web_workers < 1:
        parser.error("--live-pages, --workers, --threads and --web-workers must be positive")
    return args


def command(args) -> str:
    defaults = vars(parse_args([]))
    changed = [f"--{k.replace('_', '-')}" + ("" if v is True else f" {v:g}" if isinstance(v, float) else f" {v}")
               for k, v in vars(args).items() if v != defaults[k]]
    return " ".join([".venv/bin/python -m bench.soak", *changed])


class Say:
    def __init__(self):
        self.started = time.monotonic()

    def __call__(self, text: str) -> None:
        print(f"bench-soak: [{time.monotonic() - self.started:5.0f}s] {text}", flush=True)


# -- documents flowing ---------------------------------------------------------------------------

class Uploads:
    """`count` uploads, one started every 1/rate seconds on a thread of its own (late starts catch
    up), so that the minute samples are taken on time."""

    def __init__(self, uploader: Uploader, samples, count: int, rate: float):
        self.uploader, self.samples, self.count, self.rate = uploader, samples, count, rate
        self.sent = 0
        self.failures = uploader.failures
        self._ids: list[str] = []
        self._stopping = threading.Event()
        self._thread = threading.Thread(target=self._run, name="uploads", daemon=True)

    def start(self) -> None:
        self._thread.start()

    def stop(self) -> None:
        """Start no more uploads; join() still waits for those under way."""
        self._stopping.set()

    def join(self) -> list[str]:
        self._thread.join()
        return self._ids

    def _run(self) -> None:
        started = time.monotonic()
        with ThreadPoolExecutor(8, thread_name_prefix="upload") as pool:
            futures = []
            for i in range(self.count):
                if self._stopping.wait(max(0.0, started + i / self.rate - time.monotonic())):
                    break
                path, kind = self.samples[i % len(self.samples)]
                futures.append(pool.submit(self.uploader.upload, i, path, kind))
                self.sent = i + 1
            self._ids = [d for d in (f.result() for f in futures) if d]


def wait_settled(stack: Stack, ids: list[str], timeout: float) -> bool:
    def settled():
        return stack.sql("SELECT count(*) FROM documents WHERE id = ANY(%s) AND status = ANY(%s)",
                         (ids, list(SETTLED)))[0][0] == len(ids)
    try:
        wait_until(settled, timeout, "the documents to settle", interval=1.0)
        return True
    except TimeoutError:
        return False


def upload_to_verdict(stack: Stack, ids: list[str]) -> list[float]:
    """Seconds from each settled document's upload (created_at) to its verdict, ascending."""
    rows = stack.sql("SELECT extract(epoch FROM coalesce(verified_at, updated_at) - created_at) FROM documents "
                     "WHERE id = ANY(%s) AND status = ANY(%s)", (ids, list(SETTLED)))
    return sorted(float(r[0]) for r in rows)


# -- live pages, in a process of their own ---------------------------------------------------------

class LivePages:
    """The websockets in a child process (its own process group, so the CPU table counts it as a
    helper): opened as advisors, frames read and counted, nothing kept, so that the client's own
    memory stays flat over half an hour of pushes too."""

    def __init__(self, url: str, tokens: list[str]):
        context = multiprocessing.get_context("spawn")
        self._conn, child = context.Pipe()
        self._process = context.Process(target=_pages_main, args=(url, tokens, child), daemon=True)

    @property
    def pid(self) -> int:
        return self._process.pid  # also its process group (_pages_main makes one of its own)

    def start(self, timeout: float) -> int:
        self._process.start()
        if not self._conn.poll(timeout):
            raise SystemExit("the live pages did not open in time")
        return self._conn.recv()

    def stop(self) -> tuple[int, int]:
        """(pages still open, rows pushed to them in all)."""
        self._conn.send("stop")
        result = self._conn.recv()
        self._process.join(timeout=30)
        return result


class _Count:
    """Stands in for RowReader's list of rows: counts them and keeps none."""

    def __init__(self):
        self.rows = 0

    def extend(self, rows) -> None:
        self.rows += sum(1 for _ in rows)


def _pages_main(url: str, tokens: list[str], conn) -> None:
    os.setpgid(0, 0)
    host, port = url.split("//", 1)[1].split(":")
    selector = selectors.DefaultSelector()
    count = _Count()
    waiting = list(tokens)
    opening: set[RowReader] = set()
    open_pages: set[RowReader] = set()
    deadline = time.monotonic() + 60 + len(tokens) / 10
    while (waiting or opening) and time.monotonic() < deadline:
        while waiting and len(opening) < CONNECT_AT_ONCE:
            reader = RowReader.connect(host, int(port), waiting.pop(), count)
            selector.register(reader.sock, selectors.EVENT_READ, reader)
            opening.add(reader)
        for key, _ in selector.select(timeout=1.0):
            _read(key.data, selector, open_pages)
            if key.data.opened or key.data.closed:
                opening.discard(key.data)
                if key.data.opened and not key.data.closed:
                    open_pages.add(key.data)
    conn.send(len(open_pages))
    selector.register(conn, selectors.EVENT_READ, None)
    stopping = False
    while not stopping:
        for key, _ in selector.select(timeout=1.0):
            stopping = _read(key.data, selector, open_pages) or stopping
    conn.recv()
    conn.send((len(open_pages), count.rows))
    for reader in open_pages:
        reader.sock.close()


def _read(reader, selector, open_pages) -> bool:
    """Read one ready socket (True for the control pipe); forget a page once it closes."""
    if reader is None:
        return True
    alive = reader.read()
    reader.late.clear()  # arrival delays are bench.live's subject, not kept over a soak
    if not alive:
        selector.unregister(reader.sock)
        open_pages.discard(reader)
    return False


if __name__ == "__main__":
    sys.exit(main())
