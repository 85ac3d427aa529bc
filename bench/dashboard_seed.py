"""Seed the dashboard benchmark's database: N documents over 1,000 brokerages, generated on the
server.

The largest brokerage ("Bench Hypotheken GmbH", the one the benchmark reads as an advisor) holds
a fifth of the documents; the other 999 share the rest by Zipf's law (the k-th largest holds in
proportion to 1/k). Each brokerage has one client per ten documents, each client one case.

Rows are made by PostgreSQL itself (INSERT ... SELECT over generate_series), not sent from
Python: at ten million documents, building and sending rows from Python costs more than
everything else together. The documents' secondary indexes and foreign keys are dropped for the
load and made again after it (one sort per index instead of ten million index insertions), then
the counts per status are rebuilt and the tables ANALYZEd. The spread of statuses, types and
titles follows leadflow/cli_seed.py. Rows are written oldest first, every brokerage's interleaved
as in a live table (so one brokerage's rows are not read from a block of their own), and clients'
ids interleave the same way. Document ids are 32 hex digits in that order (random ids would only
make the primary key's build slower; nothing orders by id but ties).
"""
import json
import secrets
import time
from dataclasses import dataclass

import psycopg
from werkzeug.security import generate_password_hash

from leadflow.cli_seed import (BANKS, CASE_KINDS, CITIES, EMPLOYERS, FIRST_NAMES, HISTORY_DAYS, LAST_NAMES, MONTHS,
                               NOTES, REJECTIONS, STATUSES, TYPES)

BROKERAGES = 1_000
LARGEST_SHARE = 0.2
DOCUMENTS_PER_CLIENT = 10
LARGEST = "Bench Hypotheken GmbH"


@dataclass
class Plan:
    brokerage: int   # 1 = the largest
    documents: int
    clients: int


def plan(documents: int, brokerages: int = BROKERAGES) -> list[Plan]:
    """Documents per brokerage: a fifth in the largest, the rest by 1/k over the others."""
    largest = round(documents * LARGEST_SHARE)
    weights = [1 / k for k in range(2, brokerages + 1)]
    total = sum(weights)
    rest = [int((documents - largest) * w / total) for w in weights]
    rest[0] += documents - largest - sum(rest)  # rounding: the second largest takes the remainder
    return [Plan(k + 1, n, max(1, n // DOCUMENTS_PER_CLIENT)) for k, n in enumerate([largest] + rest)]


def seed(url: str, documents: int, now, progress=print) -> float:
    """Load everything into an empty, migrated database at `url`; returns the seconds it took."""
    started = time.monotonic()
    plans = plan(documents)
    with psycopg.connect(url) as conn:
        conn.execute("SET maintenance_work_mem = '1GB'")
        conn.execute("SET synchronous_commit = off")
        conn.execute("SET max_parallel_maintenance_workers = 2")
        conn.execute("SET work_mem = '512MB'")
        _functions(conn)
        ids = _people(conn, plans, now)
        conn.commit()
        progress(f"{len(plans):,} brokerages, {sum(p.clients for p in plans):,} clients and cases "
                 f"({time.monotonic() - started:.0f} s)")
        indexes, foreign_keys = _drop_documents_indexes(conn)
        conn.commit()
        step = time.monotonic()
        conn.execute(_DOCUMENTS_SQL, {"now": now, "history": HISTORY_DAYS * 86400})
        conn.commit()
        progress(f"{documents:,} documents inserted ({time.monotonic() - step:.0f} s)")
        step = time.monotonic()
        for statement in indexes + foreign_keys:
            conn.execute(statement)
            conn.commit()
        progress(f"{len(indexes)} indexes and {len(foreign_keys)} foreign keys made ({time.monotonic() - step:.0f} s)")
        step = time.monotonic()
        conn.execute("DELETE FROM document_status_counts")
        conn.execute("INSERT INTO document_status_counts (brokerage_id, status, count) "
                     "SELECT brokerage_id, status, count(*) FROM documents GROUP BY brokerage_id, status")
        conn.commit()
        conn.autocommit = True
        for table in ("documents", "users", "workspaces", "workspace_members", "document_status_counts", "brokerages"):
            conn.execute(f"VACUUM ANALYZE {table}")
        progress(f"counted, vacuumed and analyzed ({time.monotonic() - step:.0f} s)")
    return time.monotonic() - started


def _functions(conn) -> None:
    """Helpers of this session only (pg_temp): a client's names from their user id."""
    conn.execute(f"CREATE FUNCTION pg_temp.first_name(int) RETURNS text IMMUTABLE LANGUAGE sql AS "
                 f"$$ SELECT {_array(FIRST_NAMES)}[1 + (hashint4($1) & 2147483647) % {len(FIRST_NAMES)}] $$")
    conn.execute(f"CREATE FUNCTION pg_temp.last_name(int) RETURNS text IMMUTABLE LANGUAGE sql AS "
                 f"$$ SELECT {_array(LAST_NAMES)}[1 + (hashint4($1 * 7 + 3) & 2147483647) % {len(LAST_NAMES)}] $$")


def _people(conn, plans: list[Plan], now) -> None:
    """Brokerages, their clients (explicit ids, so a document can name its owner and case by
    arithmetic) and one case per client."""
    password_hash = generate_password_hash(secrets.token_urlsafe(16))  # nobody signs in as a seeded client
    user_base = conn.execute("SELECT coalesce(max(id), 0) FROM users").fetchone()[0] + 1
    case_base = conn.execute("SELECT coalesce(max(id), 0) FROM workspaces").fetchone()[0] + 1
    brokerage_ids = []
    for p in plans:
        name = LARGEST if p.brokerage == 1 else f"Bench Brokerage {p.brokerage:04d}"
        brokerage_ids.append(conn.execute("INSERT INTO brokerages (name, created_at) VALUES (%s, %s) RETURNING id",
                                          (name, now.replace(year=now.year - 4))).fetchone()[0])
    conn.execute("CREATE TEMP TABLE seed_plan (brokerage_id int, documents int, clients int)")
    with conn.cursor().copy("COPY seed_plan FROM STDIN") as copy:
        for p, brokerage_id in zip(plans, brokerage_ids):
            copy.write_row((brokerage_id, p.documents, p.clients))
    # Clients of every brokerage interleaved in the order they signed up, as ids are in a live
    # database (not a brokerage's clients in one block): k numbers a brokerage's own clients.
    conn.execute("""
        CREATE TEMP TABLE seed_clients AS
        SELECT brokerage_id, k, created_at, (%(user_base)s + row_number() OVER (ORDER BY created_at) - 1)::int AS user_id,
               (%(case_base)s + row_number() OVER (ORDER BY created_at) - 1)::int AS case_id
        FROM (SELECT p.brokerage_id, k, %(now)s - make_interval(secs => random() * %(history)s) AS created_at
              FROM seed_plan p, generate_series(0, p.clients - 1) k) c""",
                 {"user_base": user_base, "case_base": case_base, "now": now, "history": HISTORY_DAYS * 86400})
    conn.execute("CREATE UNIQUE INDEX ON seed_clients (brokerage_id, k)")
    conn.execute("ANALYZE seed_clients")
    conn.execute("""
        INSERT INTO users (id, brokerage_id, email, name, role, password_hash, language, created_at)
        SELECT user_id, brokerage_id, 'client.' || user_id || '@seed.example',
               pg_temp.first_name(user_id) || ' ' || pg_temp.last_name(user_id),
               'client', %(hash)s, (ARRAY['en', 'en', 'de'])[1 + (user_id %% 3)], created_at
        FROM seed_clients ORDER BY user_id""", {"hash": password_hash})
    kinds, cities = _array(CASE_KINDS), _array(CITIES)
    conn.execute(f"""
        INSERT INTO workspaces (id, brokerage_id, name, created_at)
        SELECT case_id, brokerage_id,
               pg_temp.last_name(user_id) || ' ' || {kinds}[1 + (hashint4(user_id) & 255) % {len(CASE_KINDS)}]
                 || ', ' || {cities}[1 + (hashint4(user_id + 1) & 255) % {len(CITIES)}], created_at
        FROM seed_clients ORDER BY case_id""")
    conn.execute("INSERT INTO workspace_members (workspace_id, user_id) SELECT case_id, user_id FROM seed_clients")
    for table in ("users", "workspaces"):
        conn.execute(f"SELECT setval(pg_get_serial_sequence('{table}', 'id'), (SELECT max(id) FROM {table}))")


def _drop_documents_indexes(conn) -> tuple[list[str], list[str]]:
    """Drop the documents' indexes (but its primary key and unique ones) and foreign keys; returns
    the statements that make them again."""
    indexes = conn.execute("""SELECT indexrelid::regclass::text, pg_get_indexdef(indexrelid) FROM pg_index
                              WHERE indrelid = 'documents'::regclass AND NOT indisprimary AND NOT indisunique""").fetchall()
    foreign_keys = conn.execute("""SELECT conname, pg_get_constraintdef(oid) FROM pg_constraint
                                   WHERE conrelid = 'documents'::regclass AND contype = 'f'""").fetchall()
    for name, _ in foreign_keys:
        conn.execute(f'ALTER TABLE documents DROP CONSTRAINT "{name}"')
    for name, _ in indexes:
        conn.execute(f'DROP INDEX "{name}"')
    return ([definition for _, definition in indexes],
            [f'ALTER TABLE documents ADD CONSTRAINT "{name}" {definition}' for name, definition in foreign_keys])


def _array(values) -> str:
    return "(ARRAY[" + ", ".join("'" + str(v).replace("'", "''") + "'" for v in values) + "])"


def _pick(weighted, draw: str) -> str:
    """A CASE choosing among (value, share) pairs by the uniform draw `draw` (leadflow.cli_seed._pick)."""
    total, whens = 0.0, []
    for value, share in weighted[:-1]:
        total += share
        whens.append(f"WHEN {draw} < {total:.4f} THEN '{value}'")
    return f"CASE {' '.join(whens)} ELSE '{weighted[-1][0]}' END"


def _documents_sql() -> str:
    type_names = _array([t for t, _ in TYPES])
    months = _array(MONTHS)
    note_cases = " ".join(f"WHEN '{code}' THEN '{json.dumps([note])}'" for code, note in NOTES.items())
    # Each random draw is taken once in the inner query (OFFSET 0 keeps PostgreSQL from folding
    # it into the outer one and drawing again per use).
    return f"""
    INSERT INTO documents (id, brokerage_id, owner_id, workspace_id, title, kind, document_type, confidence, status,
                           filename, content_type, size_bytes, storage_key, page_count, verification_notes,
                           rejection_code, current_job_id, created_at, updated_at, status_changed_at, verified_at)
    SELECT id, brokerage_id, owner_id, workspace_id, title, kind, document_type, confidence, status,
           filename, content_type, size_bytes,
           'brokerages/' || brokerage_id || '/documents/' || id || '/original/' || filename,
           page_count, notes::json, rejection_code, NULL, created_at, changed, changed,
           CASE WHEN status = 'VERIFIED' THEN changed END
    FROM (
     SELECT lpad(to_hex(row_number() OVER (ORDER BY created_at)), 32, '0') AS id, * FROM (
      SELECT *, left(btrim(regexp_replace(lower(title), '[^[:alnum:]]', '_', 'g'), '_'), 60)
                || CASE WHEN pdf THEN '.pdf' ELSE '.jpg' END AS filename,
             CASE WHEN status = 'PENDING' THEN created_at ELSE created_at + make_interval(secs => 2 + r_changed * 38) END AS changed,
             CASE WHEN pdf THEN 'application/pdf' ELSE 'image/jpeg' END AS content_type,
             CASE rejection_code {note_cases} ELSE '[]' END AS notes
      FROM (
        SELECT *,
          CASE true_type
            WHEN 'payslip' THEN CASE WHEN german THEN 'Gehaltsabrechnung ' || to_char(created_at, 'MM') || '/' || prev_year
                                ELSE 'Payslip ' || prev_month || ' ' || prev_year END
            WHEN 'bank_statement' THEN CASE WHEN german THEN 'Kontoauszug ' ELSE 'Bank statement ' END
                                       || {_array(BANKS)}[1 + floor(r_pick * {len(BANKS)})::int] || ' ' || prev_month || ' ' || prev_year
            WHEN 'id_document' THEN (ARRAY['Passport', 'Reisepass', 'ID card', 'Personalausweis'])[1 + floor(r_pick * 4)::int] || ' ' || surname
            WHEN 'residence_permit' THEN CASE WHEN german THEN 'Aufenthaltstitel ' ELSE 'Residence permit ' END || surname
            WHEN 'tax_assessment' THEN CASE WHEN german THEN 'Steuerbescheid ' ELSE 'Tax assessment ' END || (prev_year - 1)
            WHEN 'wage_tax_certificate' THEN CASE WHEN german THEN 'Lohnsteuerbescheinigung ' ELSE 'Wage tax certificate ' END || (prev_year - 1)
            WHEN 'employment_contract' THEN CASE WHEN german THEN 'Arbeitsvertrag ' ELSE 'Employment contract ' END
                                            || {_array(EMPLOYERS)}[1 + floor(r_pick * {len(EMPLOYERS)})::int]
            WHEN 'invoice' THEN CASE WHEN german THEN 'Rechnung ' ELSE 'Invoice ' END
                                || (ARRAY['Notar', 'Makler', 'Gutachter', 'Umzug'])[1 + floor(r_pick * 4)::int] || ' ' || (1000 + floor(r_pick2 * 98999)::int)
            ELSE CASE WHEN german THEN 'Quittung ' ELSE 'Receipt ' END || (ARRAY['Reservierung', 'Makler', 'Kaution'])[1 + floor(r_pick * 3)::int]
          END || CASE WHEN r_surname < 0.3 THEN ' – ' || surname ELSE '' END AS title
        FROM (
          SELECT *,
            {months}[extract(month FROM created_at - interval '1 month')::int] AS prev_month,
            extract(year FROM created_at - interval '1 month')::int AS prev_year
          FROM (
            SELECT *,
              CASE WHEN status IN ('PENDING', 'PROCESSING', 'EXTRACTING') THEN NULL
                   WHEN status = 'ACTION_REQUIRED' THEN NULL ELSE true_type END AS document_type,
              CASE WHEN status IN ('PENDING', 'PROCESSING', 'EXTRACTING') THEN NULL
                   WHEN status = 'ACTION_REQUIRED' THEN round((0.2 + r_confidence * 0.39)::numeric, 2)::float8
                   ELSE round((0.62 + r_confidence * 0.37)::numeric, 2)::float8 END AS confidence,
              CASE WHEN status IN ('PENDING', 'PROCESSING', 'EXTRACTING')
                   THEN %(now)s - make_interval(secs => 5 + r_created * 895)
                   ELSE %(now)s - make_interval(secs => %(history)s * power(r_created, 1.6) + 60 + r_changed * 540) END AS created_at,
              CASE WHEN r_declared < 0.85 THEN true_type WHEN r_declared < 0.95 THEN NULL
                   ELSE {type_names}[1 + floor(r_pick2 * {len(TYPES)})::int] END AS kind,
              CASE WHEN status = 'REJECTED' THEN {_pick(REJECTIONS, 'r_rejection')} END AS rejection_code,
              CASE WHEN status IN ('PENDING', 'PROCESSING') THEN NULL ELSE 1 + floor(r_pick2 * 4)::int END AS page_count
            FROM (
              SELECT *, {_pick(STATUSES, 'r_status')} AS status, {_pick(TYPES, 'r_type')} AS true_type,
                     pg_temp.last_name(owner_id) AS surname
              FROM (
                SELECT d.brokerage_id, client.user_id AS owner_id, client.case_id AS workspace_id,
                       random() AS r_status, random() AS r_type, random() AS r_declared, random() AS r_created,
                       random() AS r_changed, random() AS r_confidence, random() AS r_pick, random() AS r_pick2,
                       random() AS r_surname, random() AS r_rejection, random() < 0.35 AS german, random() < 0.8 AS pdf,
                       40000 + floor(random() * 3960000)::int AS size_bytes
                FROM (SELECT p.brokerage_id, floor(random() * p.clients)::int AS k
                      FROM seed_plan p, generate_series(1, p.documents) g OFFSET 0) d
                     JOIN seed_clients client ON client.brokerage_id = d.brokerage_id AND client.k = d.k
                OFFSET 0
              ) draws OFFSET 0
            ) kinds OFFSET 0
          ) dated OFFSET 0
        ) months OFFSET 0
      ) titled OFFSET 0
    ) named
     ) numbered ORDER BY created_at"""


_DOCUMENTS_SQL = _documents_sql()
