"""Actors for lender packages: thin, they parse ids and call services.packages."""
import logging

from leadflow.extensions import db
from leadflow.ports import current_ports
from leadflow.services import packages
from tasks.documents import _actor

log = logging.getLogger(__name__)


@_actor("build-package", max_retries=2, min_backoff=2000, max_backoff=10000,
        on_retry_exhausted="build-package-failed")
def build_package(package_id: str, brokerage_id: int):
    outcome = packages.build(db.session, current_ports(), str(package_id), int(brokerage_id))
    log.info("build-package %s: %s", package_id, outcome)


@_actor("build-package-failed", max_retries=5)
def build_package_failed(message: dict, retry_info: dict):
    package_id, brokerage_id = message["args"][:2]
    reason = (message.get("options", {}).get("traceback") or "").strip().splitlines()[-1:] or ["unknown error"]
    packages.fail(db.session, str(package_id), int(brokerage_id), reason[0])


ACTORS = (build_package, build_package_failed)
