"""The sweeps on a timer (APScheduler): at start-up and every RECONCILIATION_INTERVAL_MS.

Distributed mode runs it as its own process: `python -m tasks.scheduler`. Several may run;
each sweep's lock lets only one of them work at a time.
"""
import logging
from datetime import datetime

from apscheduler.schedulers.background import BackgroundScheduler
from apscheduler.schedulers.blocking import BlockingScheduler

from leadflow import sweeps

log = logging.getLogger(__name__)


def _run(app, name: str) -> None:
    with app.app_context():
        try:
            sweeps.run(name)
        except Exception:  # one failed sweep run must not stop the timer; the next run retries
            log.exception("sweep %s failed", name)


def build(app, blocking: bool = False):
    scheduler = (BlockingScheduler if blocking else BackgroundScheduler)(timezone="UTC")
    interval = app.config["RECONCILIATION_INTERVAL_MS"] / 1000
    for name in sweeps.SWEEPS:
        scheduler.add_job(_run, "interval", args=(app, name), seconds=interval, id=f"sweep-{name}",
                          next_run_time=datetime.now(), coalesce=True, max_instances=1)
    # Daily, not at start-up: a restart must not start another round of reminders and digests
    # (the use cases would refuse most of it anyway); a run missed by up to an hour still happens.
    for name in sweeps.DAILY:
        scheduler.add_job(_run, "cron", args=(app, name), hour=app.config.get("MAIL_DAILY_HOUR", 7),
                          id=f"daily-{name}", coalesce=True, max_instances=1, misfire_grace_time=3600)
    return scheduler


def main() -> None:
    logging.basicConfig(level=logging.INFO, format="%(asctime)s %(levelname)s %(name)s: %(message)s")
    from leadflow.factory import create_app  # its ports send the sweeps' jobs by actor name
    app = create_app(listen=False)
    log.info("scheduler running every %s ms", app.config["RECONCILIATION_INTERVAL_MS"])
    build(app, blocking=True).start()


if __name__ == "__main__":
    main()
