"""A scan's pages on every core: a 12-page scan read serially and in parallel, and the service's
pages per second under load against what the `tesseract` command does on the same cores.

    .venv/bin/python -m bench.ocr_parallel
    .venv/bin/python -m bench.ocr_parallel --pages 12 --documents 8 --cores 2

1. One 12-page scan (a letter of prose and figures, printed and scanned by bench.synthetic's
   scanner) read by pipeline.extract with its pages one after another, then with them read at
   once (EXTRACTOR_PAGE_READERS = cores): wall time each, and their ratio (target <= 0.6).
2. The `tesseract` command, as ocr.py runs it, on each page's picture, one page at a time on
   one core: pages per second; times the cores, what the machine can do at best.
3. The service (its reading processes and page slots as `python -m leadflow.extractor` starts
   them) given `--documents` 3-page scans at once: pages per second from the first submission
   to the last result, against (2) (target >= 0.9).
"""
import argparse
import io
import os
import random
import resource
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
WORDS = ("Vertrag", "Darlehen", "Zinssatz", "Tilgung", "monatlich", "Rate", "Grundschuld", "Objekt", "Kaufpreis",
         "Eigenkapital", "Notar", "Grundbuch", "Auszahlung", "Bereitstellungszins", "Sondertilgung", "loan",
         "interest", "repayment", "property", "purchase", "price", "equity", "the", "and", "of", "für", "und", "die")


def multi_page_scan(pages: int, seed: int = 1) -> bytes:
    """A scanned PDF of `pages` pages of dense prose and figures, different on every page."""
    from reportlab.lib.pagesizes import A4
    from reportlab.pdfgen.canvas import Canvas

    from bench.synthetic import _sheet
    rng = random.Random(seed)
    out = io.BytesIO()
    canvas = Canvas(out, pagesize=A4, invariant=1)
    for number in range(1, pages + 1):
        canvas.setFont("Helvetica-Bold", 14)
        canvas.drawString(60, 790, f"Darlehensvertrag Nr. {rng.randint(10000, 99999)} - Seite {number} von {pages}")
        canvas.setFont("Helvetica", 10)
        y = 760
        while y > 70:
            line = " ".join(rng.choice(WORDS) for _ in range(rng.randint(7, 11)))
            canvas.drawString(60, y, f"{line} {rng.randint(100, 99999):,},{rng.randint(0, 99):02d} EUR")
            y -= 16
        canvas.showPage()
    canvas.save()
    return _sheet.scan_pdf(out.getvalue(), random.Random(seed))


def main(argv=None) -> int:
    args = parse_args(argv)
    sys.path.insert(0, str(ROOT))
    from leadflow.extractor import ocr
    if not ocr.tesseract_path():
        sys.exit("tesseract is not installed")
    scan = multi_page_scan(args.pages)
    print(f"\nA {args.pages}-page scan ({len(scan) // 1024} KiB), {args.cores} cores "
          f"(os.cpu_count() {os.cpu_count()}); load average before: {_load()}\n")

    serial, parallel, same = serial_and_parallel(scan, args.cores)
    ratio = parallel / serial
    print(f"1. serial {serial:.2f} s, parallel {parallel:.2f} s: {ratio:.2f} of serial (target <= 0.6: "
          f"{'yes' if ratio <= 0.6 else 'NO'}); the same reading: {'yes' if same else 'NO'}", flush=True)

    pictures = page_pictures(scan)
    per_second, page_cpu = tesseract_pages_per_second(pictures, 1)
    print(f"2. the tesseract command, one page at a time: {per_second:.3f} pages/s ({page_cpu:.2f} CPU s a page); "
          f"x {args.cores} cores = {per_second * args.cores:.3f} pages/s", flush=True)
    together, _ = tesseract_pages_per_second(pictures, args.cores)
    print(f"   and {args.cores} at once (what the cores give Tesseract now): {together:.3f} pages/s", flush=True)

    pages, seconds, cpu = service_under_load(args.documents, args.cores)
    rate = pages / seconds
    share = rate / (per_second * args.cores)
    print(f"3. the service: {pages} pages of {args.documents} 3-page scans in {seconds:.1f} s = {rate:.3f} pages/s, "
          f"{share:.2f} of cores x tesseract (target >= 0.9: {'yes' if share >= 0.9 else 'NO'}), "
          f"{rate / together:.2f} of {args.cores} tesseract commands at once")
    print(f"   its CPU: {cpu / pages:.2f} s a page (reading processes and their Tesseract runs, the warm-up's "
          f"page and start-up included): the bare command's CPU is {page_cpu * pages / cpu:.2f} of it", flush=True)
    print(f"\nLoad average after: {_load()}\n")
    return 0 if ratio <= 0.6 and share >= 0.9 and same else 1


def parse_args(argv):
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--pages", type=int, default=12)
    parser.add_argument("--documents", type=int, default=8, help="3-page scans given to the service at once")
    parser.add_argument("--cores", type=int, default=2)
    return parser.parse_args(argv)


def serial_and_parallel(scan: bytes, cores: int) -> tuple[float, float, bool]:
    from leadflow.extractor import pipeline
    from leadflow.extractor.service import multiprocessing
    pipeline.read_pages_at_once(1)
    started = time.perf_counter()
    one_by_one = pipeline.extract(scan)
    serial = time.perf_counter() - started
    pipeline.read_pages_at_once(cores, multiprocessing.get_context("spawn").BoundedSemaphore(cores))
    try:
        started = time.perf_counter()
        at_once = pipeline.extract(scan)
        parallel = time.perf_counter() - started
    finally:
        pipeline.read_pages_at_once(1)
    return serial, parallel, one_by_one == at_once


def page_pictures(scan: bytes):
    """Each page's picture as the reading hands it to Tesseract (the rehearsal records them)."""
    from concurrent.futures import Future

    from leadflow.extractor import ocr
    from leadflow.extractor.reading import read_document
    pictures = []

    class Recording:
        def submit(self, function, image, *args):
            pictures.append(image)
            done = Future()
            done.set_result(ocr.STAND_IN)
            return done

    ocr.pages_in_parallel(lambda: read_document(scan), Recording())
    return pictures


def tesseract_pages_per_second(pictures, at_once: int) -> tuple[float, float]:
    """Pages per second of the bare `tesseract` command as ocr.py runs it (one OpenMP thread,
    txt and tsv), `at_once` commands at a time over the pages, and its CPU seconds per page."""
    from concurrent.futures import ThreadPoolExecutor

    from leadflow.extractor import ocr
    env = {**os.environ, "OMP_THREAD_LIMIT": "1"}
    with tempfile.TemporaryDirectory() as folder:
        paths = []
        for i, picture in enumerate(pictures):
            path = os.path.join(folder, f"page{i}.pgm")
            picture.convert("L").save(path, format="PPM")
            paths.append(path)

        def run(path):
            subprocess.run([ocr.tesseract_path(), path, path[:-4], "-l", ocr.LANGUAGES, "--psm", str(ocr.PSM),
                            "txt", "tsv"], check=True, capture_output=True, env=env)

        started, cpu = time.perf_counter(), _cpu()
        with ThreadPoolExecutor(at_once) as pool:
            list(pool.map(run, paths))
        return len(paths) / (time.perf_counter() - started), (_cpu() - cpu) / len(paths)


def service_under_load(documents: int, cores: int) -> tuple[int, float, float]:
    import logging

    from werkzeug.serving import make_server
    from werkzeug.wrappers import Response
    logging.getLogger("werkzeug").setLevel(logging.ERROR)

    from leadflow.extractor.config import ExtractorConfig
    from leadflow.extractor.jobs import COMPLETED, Job
    from leadflow.extractor.service import ExtractorService
    scans = {f"http://bench/{i}.pdf": multi_page_scan(3, seed=100 + i) for i in range(documents)}
    receiver = make_server("127.0.0.1", 0, lambda environ, start: Response(status=204)(environ, start), threaded=True)
    threading.Thread(target=receiver.serve_forever, daemon=True).start()
    config = ExtractorConfig(api_key="bench", webhook_secret="whsec_" + "A" * 32, workers=cores, processes=cores,
                             page_readers=cores)
    service = ExtractorService(config, fetcher=scans.__getitem__)
    try:
        # The reading processes start (and import the readers) before the clock does.
        cpu = _cpu()
        service.readers.extract(multi_page_scan(1, seed=99), "first", None)
        started = time.perf_counter()
        for i, url in enumerate(scans):
            service.submit(Job(job_id=f"bench-{i}", document_url=url,
                               callback_url=f"http://127.0.0.1:{receiver.server_port}/callback", mode="first",
                               output_spec=None))
        assert service.wait_idle(600), "the service did not finish"
        seconds = time.perf_counter() - started
        results = [service.jobs.get(f"bench-{i}") for i in range(documents)]
        assert all(job.status == COMPLETED for job in results), [job.result for job in results]
        # The reading processes' CPU (their Tesseract runs' with it) counts once they have ended.
        service.readers._pool.shutdown(wait=True)
        return sum(job.result["data"]["pages"] for job in results), seconds, _cpu() - cpu
    finally:
        service.shutdown()
        receiver.shutdown()


def _cpu() -> float:
    """CPU seconds of this process and of its children that have ended (Tesseract runs, reading processes)."""
    me, children = resource.getrusage(resource.RUSAGE_SELF), resource.getrusage(resource.RUSAGE_CHILDREN)
    return me.ru_utime + me.ru_stime + children.ru_utime + children.ru_stime


def _load() -> str:
    return ", ".join(f"{x:.1f}" for x in os.getloadavg())


if __name__ == "__main__":
    sys.exit(main())
