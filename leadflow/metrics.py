"""Prometheus metrics: what operators watch, in the Prometheus text format.

Gauges are read at scrape time from where the truth lives: documents per status from the counts
table (summed over brokerages: no brokerage label, so a scrape tells nothing about any one
customer) and queue depth from the broker. Counters and the latency histogram are kept by the
process that does the work, per process; with `PROMETHEUS_MULTIPROC_DIR` set (prometheus_client's
multi-process mode, one directory shared by the gunicorn and dramatiq processes of a machine) a
scrape adds up every process of that machine.
"""
import logging
import os
from datetime import datetime

from prometheus_client import CollectorRegistry, Counter, Histogram
from prometheus_client.core import GaugeMetricFamily
from prometheus_client.exposition import CONTENT_TYPE_LATEST, generate_latest

log = logging.getLogger(__name__)

CONTENT_TYPE = CONTENT_TYPE_LATEST
# This process's counters; not the library's global registry, which would add its own
# process and platform collectors to every scrape.
PROCESS = CollectorRegistry(auto_describe=True)

SETTLE_SECONDS = Histogram(
    "leadflow_document_settle_seconds",
    "Seconds from upload to the document's first settled status (VERIFIED, REJECTED or ACTION_REQUIRED).",
    ["status"], registry=PROCESS,
    # From an instant extractor (a second) to a document that waited for credits (hours).
    buckets=(1, 2, 5, 10, 20, 30, 60, 120, 300, 600, 1800, 3600, 4 * 3600, 24 * 3600))
CALLBACKS = Counter(
    "leadflow_callback_deliveries", "Extraction callbacks processed, by outcome (applied or ignored).",
    ["outcome"], registry=PROCESS)
SWEEP_RUNS = Counter(
    "leadflow_sweep_runs", "Sweep runs, by sweep and result (ok or failed).", ["sweep", "result"],
    registry=PROCESS)


def document_settled(source, target, created_at: datetime | None, verified_at: datetime | None,
                     now: datetime) -> None:
    """Observe upload-to-settled once per document: its first VERIFIED or REJECTED (verified_at is set
    only then) unless a person decided it, or its arrival in ACTION_REQUIRED from the pipeline."""
    from leadflow.domain.lifecycle import TERMINAL, Status
    if created_at is None:
        return
    first_verdict = target in TERMINAL and verified_at == now and source != Status.ACTION_REQUIRED
    asks_a_person = target == Status.ACTION_REQUIRED and source != Status.ACTION_REQUIRED
    if first_verdict or asks_a_person:
        SETTLE_SECONDS.labels(status=target.value).observe(max((now - created_at).total_seconds(), 0.0))


def callback_processed(outcome: str) -> None:
    CALLBACKS.labels(outcome=outcome.split(":", 1)[0].strip() or "unknown").inc()


def counted_sweep(name: str, run, *args):
    """Run one sweep and count the run as ok or failed; a failure still raises."""
    try:
        result = run(*args)
    except Exception:
        SWEEP_RUNS.labels(sweep=name, result="failed").inc()
        raise
    SWEEP_RUNS.labels(sweep=name, result="ok").inc()
    return result


def render() -> bytes:
    """The scrape: gauges read now, then the counters of this process (or of every process)."""
    return generate_latest(_Scrape())


class _Scrape:
    def collect(self):
        yield _documents_by_status()
        yield _queue_depth()
        directory = os.environ.get("PROMETHEUS_MULTIPROC_DIR")
        if directory:
            from prometheus_client.multiprocess import MultiProcessCollector
            yield from MultiProcessCollector(None, path=directory).collect()
        else:
            yield from PROCESS.collect()


def _documents_by_status() -> GaugeMetricFamily:
    from leadflow.domain.lifecycle import Status
    from leadflow.extensions import db
    from leadflow.services import counts
    family = GaugeMetricFamily("leadflow_documents", "Documents in each status, all brokerages together.",
                               labels=["status"])
    rows = counts.for_brokerage(db.session, None)
    for status in Status:  # every status, zero included: a series that vanishes reads as missing data
        family.add_metric([status.value], float(rows.get(status.value) or 0))
    return family


def _queue_depth() -> GaugeMetricFamily:
    from dramatiq.common import dq_name

    from leadflow.ports import current_ports
    family = GaugeMetricFamily("leadflow_queue_messages",
                               "Messages waiting or in progress on each job queue (delayed retries included).",
                               labels=["queue"])
    broker = current_ports().jobs.broker
    for queue in sorted(broker.get_declared_queues()):
        try:
            if hasattr(broker, "client"):  # Redis: the broker's own count (waiting, delayed and unacked)
                depth = broker.do_qsize(queue)
            else:  # StubBroker: its in-memory queues
                depth = sum(broker.queues[q].unfinished_tasks for q in (queue, dq_name(queue)) if q in broker.queues)
        except Exception:  # the broker is down: leave the series out rather than fail the scrape
            log.warning("queue depth of %s unavailable", queue, exc_info=True)
            continue
        family.add_metric([queue], float(depth))
    return family
