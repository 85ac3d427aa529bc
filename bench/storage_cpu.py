"""CPU per storage call in one process: LeadFlow's S3 client (`leadflow.storage.s3.S3Storage`)
next to a client with botocore's default settings, on the benchmarks' S3 server (moto's app
behind gunicorn, `bench/s3_server.py`), one call at a time, in interleaved rounds.

    .venv/bin/python -m bench.storage_cpu
    .venv/bin/python -m bench.storage_cpu --calls 1000 --rounds 5 --bytes 14000

Measured per call: the CPU of the thread that made it (`time.thread_time`), so neither the S3
server nor anything else on the machine is counted. The calls are the ones a document costs:
the upload's put of the file, the worker's put of a version, and the signed URL the extractor
fetches the file from. A document makes two puts and one signed URL.
"""
import argparse
import os
import signal
import subprocess
import sys
import time
import uuid

from bench._stack import BIN, ROOT, answers, free_port, wait_until

DEFAULTS, OURS = "botocore defaults", "LeadFlow's client"


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(prog="python -m bench.storage_cpu", description=__doc__.split("\n\n")[0])
    parser.add_argument("--calls", type=int, default=500, help="calls per client per round")
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--bytes", type=int, default=14_000, help="size of each put (the sample PDFs: about 14 kB)")
    args = parser.parse_args(argv)
    if args.calls < 10 or args.rounds < 1 or args.bytes < 1:
        parser.error("--calls must be at least 10, --rounds and --bytes at least 1")
    os.environ.setdefault("AWS_ACCESS_KEY_ID", "testing")
    os.environ.setdefault("AWS_SECRET_ACCESS_KEY", "testing")
    port = free_port()
    endpoint = f"http://127.0.0.1:{port}"
    server = subprocess.Popen([str(BIN / "gunicorn"), "--config", str(ROOT / "bench" / "s3_gunicorn.conf.py"),
                               "--bind", f"127.0.0.1:{port}", "--chdir", str(ROOT), "bench.s3_server:app"],
                              stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, start_new_session=True)
    try:
        wait_until(lambda: answers(endpoint), 30, "the S3 server")
        return run(args, endpoint)
    finally:
        os.killpg(server.pid, signal.SIGTERM)
        server.wait(15)


def run(args, endpoint: str) -> int:
    import boto3
    from botocore.config import Config

    from leadflow.storage.s3 import S3Storage

    bucket = f"storage-cpu-{uuid.uuid4().hex[:8]}"
    ours = S3Storage(bucket, endpoint_url=endpoint, create_bucket=True)
    # The same client as LeadFlow's but for the settings botocore chooses itself.
    defaults = S3Storage(bucket, endpoint_url=endpoint, client=boto3.session.Session().client(
        "s3", endpoint_url=endpoint, region_name=ours.region,
        config=Config(signature_version="s3v4", s3={"addressing_style": "path"},
                      retries={"mode": "standard", "max_attempts": 3})))
    data = os.urandom(args.bytes)

    def measure(storage: S3Storage, count: int) -> tuple[float, float]:
        keys = [f"brokerages/1/documents/{uuid.uuid4().hex}/original/file.pdf" for _ in range(count)]
        started = time.thread_time()
        for key in keys:
            storage.put(key, data, "application/pdf")
        put = time.thread_time() - started
        started = time.thread_time()
        for key in keys:
            storage.download_url(key, expires_in=3600)
        signed = time.thread_time() - started
        return put * 1000 / count, signed * 1000 / count

    clients = {DEFAULTS: defaults, OURS: ours}
    for storage in clients.values():  # warm-up: imports, connections, botocore's caches
        measure(storage, 50)
    totals = {name: [0.0, 0.0] for name in clients}
    for number in range(1, args.rounds + 1):
        line = []
        for name, storage in clients.items():
            put, signed = measure(storage, args.calls)
            totals[name][0] += put
            totals[name][1] += signed
            line.append(f"{name}: put {put:.2f}, signed URL {signed:.2f}")
        say(f"round {number}: " + "; ".join(line) + " (ms of this thread's CPU per call)")
    for name in clients:
        put, signed = (value / args.rounds for value in totals[name])
        say(f"{name}: put {put:.2f} ms, signed URL {signed:.2f} ms; per document (two puts, one URL) "
            f"{2 * put + signed:.2f} ms")
    say(f"reproduce: .venv/bin/python -m bench.storage_cpu --calls {args.calls} --rounds {args.rounds} "
        f"--bytes {args.bytes}")
    return 0


def say(text: str) -> None:
    print(f"bench-storage-cpu: {text}", flush=True)


if __name__ == "__main__":
    sys.exit(main())
