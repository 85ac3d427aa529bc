"""The extractor's settings, read from the environment with the defaults DESIGN.md names."""
import os
from dataclasses import dataclass, field

from leadflow.extractor.faults import Faults, parse_faults

DEFAULT_HOST = "127.0.0.1"
DEFAULT_PORT = 5100


class ConfigError(Exception):
    """A required setting is missing or malformed; the service refuses to start."""


@dataclass(frozen=True)
class ExtractorConfig:
    api_key: str
    webhook_secret: str
    host: str = DEFAULT_HOST
    port: int = DEFAULT_PORT
    faults: Faults = field(default_factory=Faults)
    workers: int = 2  # extraction threads; OCR is CPU-bound, so about one per core
    # Processes the threads hand the reading to: reading a PDF's words is pure Python, which
    # one process runs on one core at a time. 0: on the threads themselves (the embedded mode).
    processes: int = 0
    # Tesseract runs at once, a scanned PDF's pages among them: about one per core. 1: a
    # document's pages are read one after another (the embedded mode: cheap, no rehearsal).
    page_readers: int = 1


def from_env(environ=None) -> ExtractorConfig:
    """Build the config from `environ` (default os.environ); raise ConfigError with a clear message."""
    env = os.environ if environ is None else environ
    api_key = env.get("EXTRACTION_API_KEY", "").strip()
    secret = env.get("EXTRACTION_WEBHOOK_SECRET", "").strip()
    missing = [name for name, value in (("EXTRACTION_API_KEY", api_key),
                                        ("EXTRACTION_WEBHOOK_SECRET", secret)) if not value]
    if missing:
        raise ConfigError(
            f"{' and '.join(missing)} must be set: the extractor requires a bearer key on /jobs "
            "and signs every callback (secret format whsec_<base64>)")
    check_secret(secret)
    try:
        port = int(env.get("EXTRACTOR_PORT", DEFAULT_PORT))
        workers = int(env.get("EXTRACTOR_WORKERS", 2))
        processes = int(env.get("EXTRACTOR_PROCESSES", workers))
        page_readers = int(env.get("EXTRACTOR_PAGE_READERS", os.cpu_count() or 1))
    except ValueError as exc:
        raise ConfigError("EXTRACTOR_PORT, EXTRACTOR_WORKERS, EXTRACTOR_PROCESSES and EXTRACTOR_PAGE_READERS "
                          f"must be integers: {exc}") from exc
    if workers < 1:
        raise ConfigError("EXTRACTOR_WORKERS must be at least 1")
    if page_readers < 1:
        raise ConfigError("EXTRACTOR_PAGE_READERS must be at least 1 (1: a document's pages one after another)")
    if processes < 0:
        raise ConfigError("EXTRACTOR_PROCESSES must be 0 (read on the worker threads) or more")
    try:
        faults = parse_faults(env.get("EXTRACTOR_FAULTS", ""), env.get("EXTRACTOR_FAULTS_SEED"))
    except ValueError as exc:
        raise ConfigError(f"EXTRACTOR_FAULTS: {exc}") from exc
    return ExtractorConfig(api_key=api_key, webhook_secret=secret,
                           host=env.get("EXTRACTOR_HOST", DEFAULT_HOST) or DEFAULT_HOST,
                           port=port, faults=faults, workers=workers, processes=processes,
                           page_readers=page_readers)


def check_secret(secret: str) -> None:
    """Fail at start-up, not at the first callback, when the signing secret is unusable."""
    from leadflow.extraction.webhooks import SECRET_PREFIX, decode_secret
    if not secret.startswith(SECRET_PREFIX):
        raise ConfigError("EXTRACTION_WEBHOOK_SECRET must look like whsec_<base64>")
    try:
        decode_secret(secret)
    except ValueError as exc:
        raise ConfigError(f"EXTRACTION_WEBHOOK_SECRET: {exc}") from exc
