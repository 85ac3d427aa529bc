"""Actors for email: thin, they parse ids and call leadflow.services.notifications. On the mail
queue of their own, so a slow or absent SMTP server holds up only other emails."""
import logging

import dramatiq

from leadflow.extensions import db
from leadflow.mail import MailRefused
from leadflow.ports import current_ports
from leadflow.services import notifications
from tasks.documents import _actor

log = logging.getLogger(__name__)


# An SMTP server down for a while: tried again for about a day (backoff doubling to an hour).
@_actor("send-mail", max_retries=30, min_backoff=30_000, max_backoff=3_600_000, throws=(MailRefused,))
def send_mail(message: dict):
    notifications.deliver(db.session, current_ports(), message)


@_actor("mail-document-rejected", max_retries=5, min_backoff=5_000, max_backoff=300_000)
def mail_document_rejected(document_id: str, brokerage_id: int):
    queued = notifications.document_rejected(db.session, current_ports(), str(document_id), int(brokerage_id))
    log.info("mail-document-rejected %s: %s queued", document_id, queued)


ACTORS: tuple[dramatiq.Actor, ...] = (send_mail, mail_document_rejected)
