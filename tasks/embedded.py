"""The embedded mode's in-process parts: extractor, Dramatiq worker, sweep scheduler; and the
`serve` command that starts them with the web app (`flask --app app leadflow serve`)."""
import logging
import os

import click
from flask import current_app
from flask.cli import with_appcontext

log = logging.getLogger(__name__)


def start_embedded(app) -> dict:
    """Start what the configuration says runs inside this process; returns the handles."""
    import dramatiq

    from leadflow.extraction.client import ExtractionClient
    from tasks import bind, scheduler

    started = {}
    config = app.config
    ports = app.extensions["leadflow"]
    if not config["EXTRACTION_URL"]:
        from leadflow.extractor.service import start_in_thread
        extractor = start_in_thread(config["EXTRACTION_API_KEY"], config["EXTRACTION_WEBHOOK_SECRET"])
        config["EXTRACTION_URL"] = extractor.url
        ports.extraction = ExtractionClient(extractor.url, config["EXTRACTION_API_KEY"],
                                            config["EXTRACTION_TIMEOUT_SECONDS"])
        started["extractor"] = extractor
        log.info("extractor running in-process at %s", extractor.url)
    if config["EMBEDDED_WORKER"]:
        worker = dramatiq.Worker(bind(app), worker_threads=config["DOCUMENT_PROCESSING_CONCURRENCY"],
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


@click.command("serve")
@click.option("--host", default="127.0.0.1")
@click.option("--port", default=5000, type=int)
@with_appcontext
def serve(host, port):
    """Run the web app with the embedded worker, scheduler and extractor (the `make run` mode)."""
    app = current_app._get_current_object()
    if "PUBLIC_BASE_URL" not in os.environ:
        app.config["PUBLIC_BASE_URL"] = f"http://{host}:{port}"
        # The app's ports were built before this command knew its port: local storage signs the
        # links the extractor fetches with the address, so it must be the one served here.
        storage = app.extensions["leadflow"].storage
        if hasattr(storage, "public_base_url"):
            storage.public_base_url = app.config["PUBLIC_BASE_URL"]
    start_embedded(app)
    from werkzeug.serving import run_simple
    click.echo(f"LeadFlow is running at http://{host}:{port}/  (Ctrl-C stops it)")
    run_simple(host, port, app, threaded=True, use_reloader=False)
