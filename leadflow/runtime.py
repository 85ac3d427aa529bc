"""The embedded mode's in-process parts: extractor, Dramatiq worker, sweep scheduler."""
import logging

log = logging.getLogger(__name__)


def start_embedded(app) -> dict:
    """Start what the configuration says runs inside this process; returns the handles."""
    import dramatiq

    import tasks
    from leadflow.extraction.client import ExtractionClient
    from tasks import context, scheduler

    started = {}
    config = app.config
    if not config["EXTRACTION_URL"]:
        from leadflow.extractor.service import start_in_thread
        extractor = start_in_thread(config["EXTRACTION_API_KEY"], config["EXTRACTION_WEBHOOK_SECRET"])
        config["EXTRACTION_URL"] = extractor.url
        app.extensions["leadflow"].extraction = ExtractionClient(
            extractor.url, config["EXTRACTION_API_KEY"], config["EXTRACTION_TIMEOUT_SECONDS"])
        started["extractor"] = extractor
        log.info("extractor running in-process at %s", extractor.url)
    if config["EMBEDDED_WORKER"]:
        context.bind(app)
        worker = dramatiq.Worker(tasks.broker, worker_threads=config["DOCUMENT_PROCESSING_CONCURRENCY"],
                                 worker_timeout=100)
        worker.start()
        started["worker"] = worker
    if config["EMBEDDED_SCHEDULER"]:
        started["scheduler"] = scheduler.build(app)
        started["scheduler"].start()
    return started


def stop_embedded(started: dict) -> None:
    if "scheduler" in started:
        started["scheduler"].shutdown(wait=False)
    if "worker" in started:
        started["worker"].stop()
    if "extractor" in started:
        started["extractor"].stop()
