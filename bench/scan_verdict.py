"""Upload-to-verdict of a scanned document: 3-page scans uploaded one a second through the whole
distributed mode, with the real extraction service reading them (OCR, its pages on every core).

    make bench-scan-verdict
    .venv/bin/python -m bench.scan_verdict --seconds 60 --rate 1 --pages 3

Starts the stack as bench.soak does (gunicorn, a Dramatiq worker group, the scheduler, a
PostgreSQL database and Redis namespace of the run's own, moto for S3), but with the extraction
service itself (`python -m leadflow.extractor`, its reading processes and page slots as
configured), not the instant stand-in. One scan is read first to warm up (not measured). Then it
uploads a `--pages`-page scan (bench.ocr_parallel.multi_page_scan: a loan contract's prose and
figures, printed and scanned, a different one each upload) every 1/--rate seconds for
--seconds, as the demo's clients, and waits until each is settled. Prints upload-to-verdict
(the document's created_at to its verdict, from the database) p50, p95 and max, how far the
service fell behind (the last verdict after the last upload) and the load average.

At one upload a second a 3-page scan asks for 3 pages of OCR a second: when the service reads
fewer (bench.ocr_parallel prints what it and the `tesseract` command read on these cores), the
scans queue up, and the figures show the queue's growth over the run, not a steady state.
Exits 1 when an upload failed or a document did not settle.
"""
import argparse
import os
import sys
import time
from concurrent.futures import ThreadPoolExecutor

from bench._stack import SETTLED, Stack, Uploader, ensure_redis
from bench.ocr_parallel import multi_page_scan
from bench.pipeline import percentile
from bench.soak import wait_settled

# What the client says the scan is; the reader finds a loan contract's prose, and a person decides (ACTION_REQUIRED).
KIND = "employment_contract"


def main(argv=None) -> int:
    args = parse_args(argv)
    ensure_redis()
    uploads = round(args.seconds * args.rate)
    problems = []
    with Stack("scanverdict") as stack:
        tokens = stack.prepare(10_000_000)
        stack.start_extractor()
        stack.start_web(workers=1)
        stack.start_worker("worker-1", processes=1, threads=4)
        stack.start_scheduler()
        stack.wait_ready(timeout=120)
        scans = []
        for i in range(uploads + 1):
            path = stack.dir / f"scan-{i}.pdf"
            path.write_bytes(multi_page_scan(args.pages, seed=1000 + i))
            scans.append(path)
        uploader = Uploader(stack.web_url, tokens)
        warm = uploader.upload(0, scans[0], KIND)
        if warm is None or not wait_settled(stack, [warm], 300):
            stack.keep_logs = True
            print(f"the warm-up scan did not settle: {uploader.failures or stack.status_counts()}")
            return 1
        print(f"\n{uploads} scans of {args.pages} pages at {args.rate:g} a second through the {stack.code} "
              f"(gunicorn 1 worker, dramatiq 1 x 4 threads, scheduler, the extraction service); "
              f"load average before: {_load()}", flush=True)
        ids, started = [], time.monotonic()
        with ThreadPoolExecutor(8) as pool:
            futures = []
            for i in range(uploads):
                delay = started + i / args.rate - time.monotonic()
                if delay > 0:
                    time.sleep(delay)
                futures.append(pool.submit(uploader.upload, i + 1, scans[i + 1], KIND))
            ids = [f.result() for f in futures]
        last_upload = time.monotonic()
        failed = [i for i in ids if i is None]
        ids = [i for i in ids if i]
        if failed:
            problems.append(f"{len(failed)} uploads failed, the first: {uploader.failures[0]}")
        if not wait_settled(stack, ids, args.timeout):
            problems.append(f"not every scan settled within {args.timeout:.0f} s: {stack.status_counts()}")
        behind = time.monotonic() - last_upload
        rows = stack.sql("SELECT extract(epoch FROM status_changed_at - created_at), status FROM documents "
                         "WHERE id = ANY(%s) AND status = ANY(%s)", (ids, list(SETTLED)))
        stack.keep_logs = bool(problems)
    latencies = sorted(float(seconds) for seconds, _ in rows)
    verdicts = {}
    for _, status in rows:
        verdicts[status] = verdicts.get(status, 0) + 1
    if latencies:
        print(f"upload-to-verdict of {len(latencies)} scans: p50 {percentile(latencies, 50):.1f} s, "
              f"p95 {percentile(latencies, 95):.1f} s, max {latencies[-1]:.1f} s; verdicts {verdicts}; the last "
              f"verdict {behind:.0f} s after the last upload")
    print(f"load average after: {_load()} on {os.cpu_count()} cores (shared with other people's work)")
    print(f"command: .venv/bin/python -m bench.scan_verdict --seconds {args.seconds:g} --rate {args.rate:g} "
          f"--pages {args.pages}")
    for problem in problems:
        print(f"FAILED: {problem}")
    return 1 if problems else 0


def parse_args(argv):
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--seconds", type=float, default=60)
    parser.add_argument("--rate", type=float, default=1.0, help="uploads a second")
    parser.add_argument("--pages", type=int, default=3)
    parser.add_argument("--timeout", type=float, default=900, help="seconds to wait for the last verdicts")
    return parser.parse_args(argv)


def _load() -> str:
    return ", ".join(f"{x:.1f}" for x in os.getloadavg())


if __name__ == "__main__":
    sys.exit(main())
