"""`flask --app app leadflow seed-documents N`: a brokerage of N realistic documents, bulk-loaded.

For benchmarks and for trying the dashboard at scale. Clients, their cases and the documents
are written in chunks: PostgreSQL through COPY, other databases through multi-row INSERTs.
The documents spread over statuses, types, cases, clients, titles and three years of
created_at the way a brokerage's would; their files are not stored (a seeded document's
preview is empty). Documents in flight (PENDING, PROCESSING, EXTRACTING) are made a few minutes
old, so a running scheduler would pick them up and find no file: seed a database of its own.
"""
import json
import random
import secrets
import time
from dataclasses import dataclass
from datetime import datetime, timedelta

import click
from sqlalchemy import func, insert, select, text
from werkzeug.security import generate_password_hash

from flask.cli import with_appcontext

from leadflow import clock
from leadflow.extensions import db
from leadflow.models import Brokerage, Document, DocumentStatusCount, User, Workspace, WorkspaceMember
from leadflow.services import counts

DEFAULT_BROKERAGE = "Bench Hypotheken GmbH"
DOCUMENTS_PER_CASE = 40
CHUNK = 50_000
HISTORY_DAYS = 3 * 365

# (status, share); settled documents dominate, as in a brokerage that has been working a while.
STATUSES = (("VERIFIED", 0.78), ("REJECTED", 0.13), ("ACTION_REQUIRED", 0.04),
            ("PENDING", 0.02), ("PROCESSING", 0.01), ("EXTRACTING", 0.02))
TYPES = (("payslip", 0.28), ("bank_statement", 0.24), ("id_document", 0.08), ("residence_permit", 0.04),
         ("tax_assessment", 0.08), ("wage_tax_certificate", 0.08), ("employment_contract", 0.07),
         ("invoice", 0.07), ("receipt", 0.06))
REJECTIONS = (("VERIFICATION_FAILED", 0.62), ("ILLEGIBLE", 0.12), ("UNREADABLE", 0.06),
              ("UNSUPPORTED_FILE", 0.04), ("REJECTED_BY_REVIEWER", 0.08), ("SYSTEM_RETRIES_EXHAUSTED", 0.04),
              ("SYSTEM_EXTRACTION_FAILED", 0.04))
FIRST_NAMES = ("Priya", "Lucas", "Chen", "Aisha", "Mateo", "Olga", "Kenji", "Fatima", "Liam", "Sofia", "Arjun",
               "Mei", "Omar", "Elena", "Tomasz", "Yuki", "Diego", "Amara", "Noah", "Ines", "Ravi", "Hana",
               "Jonas", "Leila", "Andrei", "Camila", "Kwame", "Sara", "Viktor", "Nadia", "Hiroshi", "Zara")
LAST_NAMES = ("Sharma", "Martin", "Wei", "Khan", "Garcia", "Ivanova", "Tanaka", "Haddad", "O'Brien", "Rossi",
              "Patel", "Zhang", "Nasser", "Popescu", "Kowalski", "Sato", "Fernandez", "Okafor", "Smith",
              "Silva", "Iyer", "Kim", "Andersen", "Rahimi", "Novak", "Lopez", "Mensah", "Cohen", "Petrov",
              "Nakamura", "Ahmed", "Müller", "Dubois", "Costa", "Yilmaz", "Nguyen", "Gupta")
CITIES = ("Berlin", "München", "Hamburg", "Köln", "Frankfurt", "Stuttgart", "Düsseldorf", "Leipzig")
CASE_KINDS = ("purchase", "refinancing", "apartment", "house", "new build")
BANKS = ("N26", "Sparkasse", "Deutsche Bank", "Commerzbank", "ING", "DKB", "Volksbank", "Postbank")
EMPLOYERS = ("Siemens", "SAP", "Zalando", "Bosch", "Allianz", "Delivery Hero", "BMW", "Celonis", "BioNTech")
MONTHS = ("January", "February", "March", "April", "May", "June", "July", "August", "September", "October",
          "November", "December")
COLUMNS = ("id", "brokerage_id", "owner_id", "workspace_id", "title", "kind", "document_type", "confidence",
           "status", "filename", "content_type", "size_bytes", "storage_key", "page_count", "verification_notes",
           "rejection_code", "current_job_id", "created_at", "updated_at", "status_changed_at", "verified_at")
NOTES = {
    "VERIFICATION_FAILED": {"code": "too_old", "en": "This document is more than three months old. Please upload a recent one.",
                            "de": "Dieses Dokument ist älter als drei Monate. Bitte laden Sie ein aktuelles hoch."},
    "ILLEGIBLE": {"code": "illegible", "en": "We could not read enough of this scan. Please upload a sharper photo.",
                  "de": "Wir konnten diesen Scan nicht lesen. Bitte laden Sie ein schärferes Foto hoch."},
}


@dataclass
class Seeded:
    brokerage_id: int
    documents: int
    cases: int
    seconds: float


@click.command("seed-documents")
@with_appcontext
@click.argument("count", type=click.IntRange(min=1))
@click.option("--brokerage", "brokerage_name", default=DEFAULT_BROKERAGE, show_default=True,
              help="Brokerage to seed (created if new).")
@click.option("--random-seed", default=1, show_default=True, help="Same seed, same spread of documents.")
def seed_documents(count, brokerage_name, random_seed):
    """Bulk-insert COUNT documents (with clients and cases) into a brokerage, then recount and ANALYZE."""
    result = seed(count, brokerage_name, random_seed=random_seed, progress=click.echo)
    click.echo(f"{brokerage_name} (#{result.brokerage_id}): {result.documents:,} documents in {result.cases:,} cases, "
               f"{result.seconds:.1f} s")


def seed(count: int, brokerage_name: str = DEFAULT_BROKERAGE, *, random_seed: int = 1, now: datetime | None = None,
         statuses=STATUSES, per_case: int = DOCUMENTS_PER_CASE, progress=lambda message: None) -> Seeded:
    """Insert `count` documents into the brokerage (created if new), spread over `statuses`
    ((status, share) pairs); returns what was made."""
    started = time.monotonic()
    rng = random.Random(random_seed)
    now = now or clock.now()
    brokerage = db.session.scalar(select(Brokerage).where(Brokerage.name == brokerage_name))
    if brokerage is None:
        brokerage = Brokerage(name=brokerage_name, created_at=now - timedelta(days=HISTORY_DAYS + 30))
        db.session.add(brokerage)
        db.session.flush()
    cases = _cases(brokerage.id, max(1, count // per_case), rng, now)
    db.session.commit()
    progress(f"{len(cases):,} clients and their cases")

    made = 0
    while made < count:
        size = min(CHUNK, count - made)
        rows = [_document(brokerage.id, cases, rng, now, statuses) for _ in range(size)]
        _write(rows)
        db.session.commit()
        made += size
        progress(f"{made:,} / {count:,} documents")

    counts.recount(db.session)
    db.session.commit()
    if db.engine.dialect.name == "postgresql":
        for table in ("documents", "users", "workspaces", "workspace_members", "document_status_counts"):
            db.session.execute(text(f"ANALYZE {table}"))
        db.session.commit()
    return Seeded(brokerage.id, made, len(cases), time.monotonic() - started)


def seeded_count(brokerage_name: str) -> int:
    """How many documents the brokerage holds (from the kept counts: no scan)."""
    brokerage_id = db.session.scalar(select(Brokerage.id).where(Brokerage.name == brokerage_name))
    if brokerage_id is None:
        return 0
    return int(db.session.scalar(select(func.coalesce(func.sum(DocumentStatusCount.count), 0))
                                 .where(DocumentStatusCount.brokerage_id == brokerage_id)))


def _cases(brokerage_id: int, n: int, rng: random.Random, now: datetime) -> list[tuple[int, int, str]]:
    """n clients, each with one case: [(workspace_id, client_id, client's last name)]."""
    token = secrets.token_hex(3)
    password_hash = generate_password_hash(secrets.token_urlsafe(16))  # nobody signs in as a seeded client
    people = []
    for i in range(n):
        first, last = rng.choice(FIRST_NAMES), rng.choice(LAST_NAMES)
        people.append({"email": f"{first.lower()}.{i}.{token}@seed.example", "name": f"{first} {last}",
                       "role": "client", "brokerage_id": brokerage_id, "password_hash": password_hash,
                       "language": rng.choice(("en", "en", "de")),
                       "created_at": now - timedelta(days=rng.uniform(0, HISTORY_DAYS))})
    user_ids = _insert_returning_ids(User, people)
    workspaces = [{"brokerage_id": brokerage_id,
                   "name": f"{p['name'].split()[-1]} {rng.choice(CASE_KINDS)}, {rng.choice(CITIES)}",
                   "created_at": p["created_at"]} for p in people]
    workspace_ids = _insert_returning_ids(Workspace, workspaces)
    for start in range(0, n, CHUNK):
        db.session.execute(insert(WorkspaceMember), [{"workspace_id": w, "user_id": u} for w, u in
                                                     zip(workspace_ids[start:start + CHUNK], user_ids[start:start + CHUNK])])
    return [(w, u, p["name"].split()[-1]) for w, u, p in zip(workspace_ids, user_ids, people)]


def _insert_returning_ids(model, rows: list[dict]) -> list[int]:
    ids = []
    for start in range(0, len(rows), CHUNK):
        ids += db.session.scalars(insert(model).returning(model.id, sort_by_parameter_order=True),
                                  rows[start:start + CHUNK]).all()
    return ids


def _document(brokerage_id: int, cases, rng: random.Random, now: datetime, statuses) -> tuple:
    workspace_id, owner_id, surname = rng.choice(cases)
    status = _pick(rng, statuses)
    true_type = _pick(rng, TYPES)
    declared = rng.random()
    kind = true_type if declared < 0.85 else (None if declared < 0.95 else _pick(rng, TYPES))
    if status in ("PENDING", "PROCESSING", "EXTRACTING"):
        created = now - timedelta(seconds=rng.uniform(5, 900))
        document_type, confidence = None, None
    else:
        # More documents lately: a brokerage that grows.
        created = now - timedelta(seconds=HISTORY_DAYS * 86400 * rng.random() ** 1.6 + rng.uniform(60, 600))
        if status == "ACTION_REQUIRED":
            document_type, confidence = None, round(rng.uniform(0.2, 0.59), 2)
        else:
            document_type, confidence = true_type, round(rng.uniform(0.62, 0.99), 2)
    title, filename = _title(true_type, surname, created, rng)
    pdf = rng.random() < 0.8
    content_type = "application/pdf" if pdf else "image/jpeg"
    filename = f"{filename}.{'pdf' if pdf else 'jpg'}"
    document_id = secrets.token_hex(16)
    rejection = _pick(rng, REJECTIONS) if status == "REJECTED" else None
    notes = [NOTES[rejection]] if rejection in NOTES else []
    changed = created + timedelta(seconds=rng.uniform(2, 40)) if status not in ("PENDING",) else created
    updated = changed
    return (document_id, brokerage_id, owner_id, workspace_id, title, kind, document_type, confidence, status,
            filename, content_type, rng.randint(40_000, 4_000_000),
            f"brokerages/{brokerage_id}/documents/{document_id}/original/{filename}",
            rng.randint(1, 4) if status not in ("PENDING", "PROCESSING") else None, json.dumps(notes), rejection,
            None, created, updated, changed, changed if status == "VERIFIED" else None)


def _title(doc_type: str, surname: str, when: datetime, rng: random.Random) -> tuple[str, str]:
    month, year = MONTHS[(when.month - 2) % 12], when.year if when.month > 1 else when.year - 1
    german = rng.random() < 0.35
    if doc_type == "payslip":
        title = f"Gehaltsabrechnung {when.month:02d}/{year}" if german else f"Payslip {month} {year}"
    elif doc_type == "bank_statement":
        bank = rng.choice(BANKS)
        title = f"Kontoauszug {bank} {month} {year}" if german else f"Bank statement {bank} {month} {year}"
    elif doc_type == "id_document":
        title = f"{rng.choice(('Passport', 'Reisepass', 'ID card', 'Personalausweis'))} {surname}"
    elif doc_type == "residence_permit":
        title = f"{'Aufenthaltstitel' if german else 'Residence permit'} {surname}"
    elif doc_type == "tax_assessment":
        title = f"{'Steuerbescheid' if german else 'Tax assessment'} {year - 1}"
    elif doc_type == "wage_tax_certificate":
        title = f"{'Lohnsteuerbescheinigung' if german else 'Wage tax certificate'} {year - 1}"
    elif doc_type == "employment_contract":
        title = f"{'Arbeitsvertrag' if german else 'Employment contract'} {rng.choice(EMPLOYERS)}"
    elif doc_type == "invoice":
        title = f"{'Rechnung' if german else 'Invoice'} {rng.choice(('Notar', 'Makler', 'Gutachter', 'Umzug'))} {rng.randint(1000, 99999)}"
    else:
        title = f"{'Quittung' if german else 'Receipt'} {rng.choice(('Reservierung', 'Makler', 'Kaution'))}"
    if rng.random() < 0.3:
        title += f" – {surname}"
    filename = "".join(c if c.isalnum() else "_" for c in title.lower())[:60].strip("_")
    return title, filename


def _pick(rng: random.Random, weighted) -> str:
    roll, total = rng.random(), 0.0
    for value, share in weighted:
        total += share
        if roll < total:
            return value
    return weighted[-1][0]


def _write(rows: list[tuple]) -> None:
    connection = db.session.connection()
    if connection.dialect.name == "postgresql":
        raw = connection.connection.dbapi_connection
        with raw.cursor() as cursor, cursor.copy(f"COPY documents ({', '.join(COLUMNS)}) FROM STDIN") as copy:
            for row in rows:
                copy.write_row(row)
    else:
        notes = COLUMNS.index("verification_notes")
        db.session.execute(insert(Document.__table__),
                           [dict(zip(COLUMNS, row[:notes] + (json.loads(row[notes]),) + row[notes + 1:])) for row in rows])
