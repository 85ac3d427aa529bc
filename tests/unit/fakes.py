"""In-memory fakes of the ports, and a session on an in-memory SQLite database: use cases run
here with no app, no server and no network.

A test builds a `World` (a brokerage, its people, a case, a wallet), hands `world.session` and
`world.ports` to a use case, and reads what it did from the database and from the fakes:
files stored, jobs submitted, messages sent, and the events that left after commit.
"""
import io
import json
from collections import defaultdict
from datetime import datetime, timedelta

import pytest
from sqlalchemy import create_engine, select
from sqlalchemy.orm import Session
from sqlalchemy.pool import StaticPool

from leadflow import clock, outbox
from leadflow.breaker import Breaker
from leadflow.domain import events as domain_events
from leadflow.domain.lifecycle import Status
from leadflow.extensions import db
from leadflow.extraction.client import ExtractionUnavailable, ServiceBusy, ServiceDown
from leadflow.models import (AuditEntry, Brokerage, CreditWallet, Document, DocumentStatusCount, DocumentVersion,
                             ExtractionJob, User, Workspace, WorkspaceMember, new_id)
from leadflow.ports import Ports
from leadflow.services import counts, pipeline, version_store
from leadflow.storage.base import ObjectInfo, ObjectMissing, StorageError, check_key

# The day the verification rules are judged on (the samples' payslips and statements are current then).
TODAY = datetime(2026, 11, 29, 12, 0, 0)

SETTINGS = {
    "PUBLIC_BASE_URL": "http://leadflow.test",
    "EXTRACTION_DEADLINE_SECONDS": 600,
    "EXTRACTION_MAX_SUBMIT_ATTEMPTS": 3,
    "SYSTEM_RETRY_DELAYS_MINUTES": [5, 15],
    "CLIENT_DAILY_PAGE_ALLOWANCE": 100,
    "MAX_UPLOAD_BYTES": 1024 * 1024,
    "MAX_DOCUMENT_PAGES": 5,
    "MAX_PACKET_PAGES": 20,
    "EXTRACTION_WEBHOOK_SECRET": "whsec_" + "c2VjcmV0LWZvci10ZXN0cy1vbmx5LTMyYnl0ZXMhIQ==",
    "EXTRACTION_WEBHOOK_PREVIOUS_SECRETS": [],
    "PENDING_DOCUMENT_RECOVERY_THRESHOLD_MS": 300_000,
    "STALLED_DOCUMENT_RECOVERY_THRESHOLD_MS": 600_000,
    "BREAKER_FAILURES": 2,
    "BREAKER_COOLDOWN_SECONDS": 60.0,
    "HEALTH_FRESH_SECONDS": 3.0,
}

PAYSLIP = {"employer": "Platzhalter Pharma AG", "employee": "Rahul Mustermann", "period": "2026-10", "tax_class": 1,
           "gross": "5397.47", "net": "3394.72", "payout": "2351.92", "iban": "DE86500300103975461296"}


class FakeStorage:
    """Objects in a dict; `down` makes every call fail as an unreachable store does."""

    def __init__(self):
        self.objects: dict[str, tuple[bytes, str]] = {}
        self.down = False
        self.calls: list[str] = []   # every call that reached the store, by name

    def _reach(self, key: str, call: str) -> None:
        check_key(key)
        self.calls.append(call)
        if self.down:
            raise StorageError("storage is unreachable (fake)")

    def put(self, key, data, content_type):
        self._reach(key, "put")
        self.objects[key] = (bytes(data), content_type)

    def get(self, key):
        self._reach(key, "get")
        if key not in self.objects:
            raise ObjectMissing(key)
        return self.objects[key][0]

    def read_prefix(self, key, length):
        self._reach(key, "read_prefix")
        if key not in self.objects:
            raise ObjectMissing(key)
        return self.objects[key][0][:length]

    def head(self, key):
        self._reach(key, "head")
        found = self.objects.get(key)
        return ObjectInfo(size=len(found[0]), content_type=found[1]) if found else None

    def delete(self, key):
        self._reach(key, "delete")
        self.objects.pop(key, None)

    def move(self, source, target):
        self.objects[target] = self.objects.pop(source) if source in self.objects else _missing(source)

    def download_url(self, key, expires_in=300):
        return f"https://storage.test/{key}?expires_in={expires_in}"

    def upload_target(self, key, content_type, max_bytes, expires_in=900):
        return {"method": "PUT", "url": f"https://storage.test/{key}", "headers": {"Content-Type": content_type}}


def _missing(key):
    raise ObjectMissing(key)


class FakeExtraction:
    """Records submissions; `down` refuses them (after failures enough, the breaker knows);
    `busy` answers that the queue is full, after which `busy_for` holds submissions back."""

    def __init__(self, settings=SETTINGS):
        self.submitted: list[dict] = []
        self.answers: dict[str, dict] = {}
        self.asked: list[str] = []
        self.down = False
        self.busy = False
        self.held_back_seconds = 0.0
        self.breaker = Breaker("extraction", failures=settings["BREAKER_FAILURES"],
                               cooldown=settings["BREAKER_COOLDOWN_SECONDS"])

    def healthy(self) -> bool:
        return not self.down

    def busy_for(self) -> float:
        return self.held_back_seconds

    def submit(self, *, job_id, document_url, callback_url, mode, output_spec=None):
        if self.breaker.is_down():
            raise ServiceDown("extraction service known down (fake)")
        if self.busy:
            self.held_back_seconds = 1.0
            raise ServiceBusy("extraction service busy (fake)", 1.0)
        if self.down:
            self.breaker.failed()
            raise ExtractionUnavailable("connection refused (fake)")
        self.breaker.succeeded()
        self.submitted.append({"job_id": job_id, "document_url": document_url, "callback_url": callback_url,
                               "mode": mode, "output_spec": output_spec})

    def job(self, job_id):
        self.asked.append(job_id)
        if self.breaker.is_down():
            raise ServiceDown("extraction service known down (fake)")
        if self.down:
            raise ExtractionUnavailable("connection refused (fake)")
        return self.answers.get(job_id)


class FakeJobs:
    """Records what was sent by actor name; a dedup key is held until `finish(key)`."""

    def __init__(self):
        self.sent: list[tuple[str, tuple, dict]] = []
        self.held: set[str] = set()

    def send(self, actor_name, *args, dedup_key=None, take_over=False, delay_ms=None, nudge_key=None) -> bool:
        if nudge_key is not None:
            # As a waiting message of the brokerage would take it along: nothing is sent.
            if nudge_key in self.held or (dedup_key in self.held and not take_over):
                return False
            self.held.add(nudge_key)
        if dedup_key is not None:
            if dedup_key in self.held and not take_over:
                return False
            self.held.add(dedup_key)
        self.sent.append((actor_name, args, {"dedup_key": dedup_key, "take_over": take_over, "delay_ms": delay_ms}))
        return True

    def finish(self, key: str) -> None:
        self.held.discard(key)

    def names(self) -> list[str]:
        return [name for name, _, _ in self.sent]


class FakeBus:
    def __init__(self):
        self.published: list[dict] = []

    def publish(self, message: dict) -> None:
        self.published.append(message)


class FakeMail:
    """The mail transport: keeps what was sent; `down` fails as an unreachable SMTP server does."""

    def __init__(self):
        self.sent: list = []
        self.down = False

    def send(self, mail) -> None:
        from leadflow.mail import MailUnavailable
        if self.down:
            raise MailUnavailable("SMTP server unreachable (fake)")
        self.sent.append(mail)

    def forget(self, address: str) -> int:
        kept = [m for m in self.sent if m.to.casefold() != address.casefold()]
        forgotten, self.sent = len(self.sent) - len(kept), kept
        return forgotten


class FixedClock:
    """It is `moment` until a test moves it; LeadFlow's own clock (row stamps) moves with it."""

    def __init__(self, moment: datetime = TODAY):
        self.moment = moment
        clock.travel_to(moment)

    def now(self) -> datetime:
        return self.moment

    def advance(self, delta: timedelta) -> None:
        self.moment += delta
        clock.shift(delta)


def memory_session() -> Session:
    """A plain SQLAlchemy session on a fresh in-memory SQLite database with LeadFlow's tables."""
    engine = create_engine("sqlite://", poolclass=StaticPool, connect_args={"check_same_thread": False})
    db.metadata.create_all(engine)
    return Session(engine, expire_on_commit=True)


class Events:
    """What left the process after commit: every domain event dispatched by the outbox."""

    def __init__(self):
        self.seen: list = []

    def __call__(self, event) -> None:
        self.seen.append(event)

    def of(self, kind) -> list:
        return [e for e in self.seen if isinstance(e, kind)]

    def clear(self) -> None:
        self.seen.clear()


def capture_events(monkeypatch) -> Events:
    """Replace the outbox's handlers (the app's effects) with a recorder, for one test."""
    monkeypatch.setattr(outbox, "_handlers", defaultdict(list))
    monkeypatch.setattr(outbox, "_together", defaultdict(list))
    recorder = Events()
    for kind in (domain_events.DocumentStatusChanged, domain_events.VerificationRequested,
                 domain_events.DeliveryReceived, domain_events.ReservationDue):
        outbox.on(kind, recorder)
    return recorder


class World:
    """One brokerage with an advisor, an admin, a client and their case, a platform admin, and
    a wallet of credits; the session and ports the use cases are handed."""

    def __init__(self, credits: int = 100):
        self.session = memory_session()
        self.storage, self.extraction, self.jobs, self.bus = FakeStorage(), FakeExtraction(), FakeJobs(), FakeBus()
        self.clock = FixedClock()
        self.ports = Ports(storage=self.storage, extraction=self.extraction, jobs=self.jobs, bus=self.bus,
                           clock=self.clock, settings=dict(SETTINGS))
        s = self.session
        self.brokerage = Brokerage(name="Musterbroker")
        self.other_brokerage = Brokerage(name="Anderer Makler")
        s.add_all([self.brokerage, self.other_brokerage])
        s.flush()
        self.client = self._user("client@example.test", "Rahul Mustermann", "client", self.brokerage.id)
        self.advisor = self._user("advisor@example.test", "Anna Berater", "advisor", self.brokerage.id)
        self.broker_admin = self._user("admin@example.test", "Bea Chefin", "brokerage_admin", self.brokerage.id)
        self.platform_admin = self._user("platform@example.test", "Paula Plattform", "platform_admin", None)
        self.stranger = self._user("advisor@other.test", "Otto Fremd", "advisor", self.other_brokerage.id)
        self.case = Workspace(brokerage_id=self.brokerage.id, name="Mustermann purchase")
        s.add(self.case)
        s.flush()
        s.add(WorkspaceMember(workspace_id=self.case.id, user_id=self.client.id))
        s.add(CreditWallet(brokerage_id=self.brokerage.id, granted=credits, balance=credits, reserved=0, settled=0))
        s.commit()

    def _user(self, email, name, role, brokerage_id) -> User:
        user = User(email=email, name=name, role=role, brokerage_id=brokerage_id, password_hash="-")
        self.session.add(user)
        self.session.flush()
        return user

    def document(self, *, data: bytes | None = None, status: Status = Status.PENDING, kind: str | None = "payslip",
                 document_type: str | None = None, owner: User | None = None, notes=None,
                 rejection_code: str | None = None, prechecked: bool = True) -> str:
        """A document as an upload leaves it (file stored, pre-checked, counted), then put in
        `status`; `prechecked=False`: stored before uploads recorded their pre-check."""
        owner = owner or self.client
        document_id = new_id()
        key = f"brokerages/{self.brokerage.id}/documents/{document_id}/original/payslip.pdf"
        data = pdf() if data is None else data
        self.storage.put(key, data, "application/pdf")
        problem, pages = pipeline.check_file(data, self.ports.settings) if prechecked else (None, None)
        now = self.clock.now()
        self.session.add(Document(
            id=document_id, brokerage_id=self.brokerage.id, owner_id=owner.id, workspace_id=self.case.id,
            title="October payslip", kind=kind, status=status.value, filename="payslip.pdf",
            content_type="application/pdf", size_bytes=len(data), storage_key=key,
            precheck=(problem[0].value if problem else pipeline.PRECHECK_PASSED) if prechecked else None,
            page_count=pages or None,
            verification_notes=notes or [], document_type=document_type, rejection_code=rejection_code,
            created_at=now, updated_at=now, status_changed_at=now))
        counts.bump(self.session, self.brokerage.id, {status.value: +1})
        self.session.commit()
        return document_id

    def extracted(self, *, fields: dict | None = None, status: Status = Status.VERIFIED,
                  document_type: str = "payslip", two_objects: bool = False) -> str:
        """A document the pipeline finished: its first content and schema versions are stored, as
        one object (or, `two_objects`, one per part, as versions were stored before envelopes)."""
        document_id = self.document(status=status, document_type=document_type)
        parts = {"content": {"fields": fields if fields is not None else PAYSLIP}, "schema": {"type": document_type}}
        shared = version_store.key(self.brokerage.id, document_id, "first")
        if not two_objects:
            version_store.write(self.storage, shared, parts)
        for part, body in parts.items():
            key = shared
            if two_objects:
                key = f"brokerages/{self.brokerage.id}/documents/{document_id}/{part}/first.json"
                self.storage.put(key, _json(body), "application/json")
            self.session.add(DocumentVersion(document_id=document_id, part=part, number=1, cause="generated",
                                             storage_key=key, created_at=self.clock.now()))
        self.session.commit()
        return document_id

    def get(self, document_id: str) -> Document:
        self.session.expire_all()
        return self.session.get(Document, document_id)

    def job(self, job_id: str) -> ExtractionJob:
        self.session.expire_all()
        return self.session.get(ExtractionJob, job_id)

    def wallet(self) -> CreditWallet:
        self.session.expire_all()
        return self.session.get(CreditWallet, self.brokerage.id)

    def audit(self, document_id: str) -> list[str]:
        return list(self.session.scalars(select(AuditEntry.action).where(AuditEntry.document_id == document_id)
                                         .order_by(AuditEntry.id)))

    def count(self, status: Status) -> int | None:
        return self.session.scalar(select(DocumentStatusCount.count).where(
            DocumentStatusCount.brokerage_id == self.brokerage.id, DocumentStatusCount.status == status.value))

    def close(self) -> None:
        self.session.close()
        clock.reset()


def _json(body) -> bytes:
    return json.dumps(body).encode()


def pdf(pages: int = 1, text: str = "Gehaltsabrechnung Oktober 2026") -> bytes:
    """A small valid PDF whose every page shows `text` (an empty text draws a blank page)."""
    objects = ["<< /Type /Catalog /Pages 2 0 R >>", None,
               "<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica >>"]
    kids = []
    for _ in range(pages):
        content = f"BT /F1 12 Tf 72 720 Td ({text}) Tj ET".encode() if text else b""
        objects.append(f"<< /Length {len(content)} >>\nstream\n{content.decode()}\nendstream")
        objects.append(f"<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Resources << /Font << /F1 3 0 R >> >>"
                       f" /Contents {len(objects)} 0 R >>")
        kids.append(f"{len(objects)} 0 R")
    objects[1] = f"<< /Type /Pages /Kids [{' '.join(kids)}] /Count {pages} >>"
    out = io.BytesIO()
    out.write(b"%PDF-1.4\n")
    offsets = []
    for number, body in enumerate(objects, start=1):
        offsets.append(out.tell())
        out.write(f"{number} 0 obj\n{body}\nendobj\n".encode())
    xref = out.tell()
    out.write(f"xref\n0 {len(objects) + 1}\n0000000000 65535 f \n".encode())
    for offset in offsets:
        out.write(f"{offset:010d} 00000 n \n".encode())
    out.write(f"trailer\n<< /Size {len(objects) + 1} /Root 1 0 R >>\nstartxref\n{xref}\n%%EOF\n".encode())
    return out.getvalue()


@pytest.fixture
def world():
    """A fresh World per test; import this fixture (and `events`) into a test module to use it."""
    made = World()
    yield made
    made.close()


@pytest.fixture
def events(monkeypatch) -> Events:
    return capture_events(monkeypatch)
