"""An extraction service that answers at once, for the pipeline benchmark: the shipped extractor's
HTTP contract, job table and signed callbacks, with each distinct file extracted once and its
result then served from memory.

    python -m bench.instant_extractor     # the environment of `python -m leadflow.extractor`

Only extraction is replaced; fetching the document, the job table and delivery are the shipped
code's. EXTRACTOR_FAULTS is refused: the benchmark measures LeadFlow, not failures.
"""
import copy
import dataclasses
import hashlib
import json
import logging
import sys
import threading

from leadflow.extractor import pipeline
from leadflow.extractor import service as service_module
from leadflow.extractor.config import ConfigError, from_env

log = logging.getLogger(__name__)


class MemoisedPipeline:
    """Stands in for leadflow.extractor.pipeline inside the service: run() keyed by the file's bytes."""

    def __init__(self):
        self._results: dict[tuple, tuple[str, dict]] = {}
        self._lock = threading.Lock()

    def run(self, fetch, document_url: str, mode: str, output_spec: dict | None, *,
            extractor=None) -> tuple[str, dict]:
        data = fetch(document_url)
        key = (hashlib.sha256(data).hexdigest(), mode, json.dumps(output_spec, sort_keys=True))
        with self._lock:
            known = self._results.get(key)
        if known is None:
            # (An older revision run with --source knows no `extractor`.)
            known = pipeline.run(lambda _url: data, document_url, mode, output_spec,
                                 **({"extractor": extractor} if extractor else {}))
            with self._lock:
                self._results[key] = known
        callback_type, result = known
        return callback_type, copy.deepcopy(result)

    def __getattr__(self, name):  # MODES and the rest, as the real module has them
        return getattr(pipeline, name)


def main() -> int:
    logging.basicConfig(level=logging.WARNING, format="%(asctime)s %(levelname)s %(name)s: %(message)s")
    try:
        config = from_env()
        if hasattr(config, "processes"):  # (an older revision run with --source reads on its threads)
            # Each distinct file is read once: reading processes would only cost their start.
            config = dataclasses.replace(config, processes=0)
    except ConfigError as exc:
        print(f"bench.instant_extractor: refusing to start: {exc}", file=sys.stderr)
        return 2
    if config.faults.any:
        print("bench.instant_extractor: refusing to start: EXTRACTOR_FAULTS is set", file=sys.stderr)
        return 2
    service_module.pipeline = MemoisedPipeline()
    service, server = service_module.serve(config)
    print(f"instant extractor listening on http://{config.host}:{server.server_port}", flush=True)
    service_module.run_until_stopped(service, server)
    return 0


if __name__ == "__main__":
    sys.exit(main())
