"""The dashboard at ten million documents: server time of its first page, each filter, each
search and the counts, for an advisor of the largest of 1,000 brokerages.

    make bench-dashboard DASHBOARD_ARGS="--documents 10000000"
    .venv/bin/python -m bench.dashboard --documents 1000000 --runs 40

Seeds a PostgreSQL database of its own per size (`leadflow_bench_dashboard_<documents>`, kept
between runs; --fresh starts over) with bench/dashboard_seed.py: the largest brokerage holds a
fifth of the documents and one client per ten of them, the other 999 share the rest by Zipf's
law. Then it times each page inside the app: a Flask test client request by a signed-in advisor
of the largest brokerage, so routing, the queries and the template all count, the network does
not. Each page is requested a few times to warm up, then `--runs` times; the table shows the
median (p50) and the 95th percentile (p95) of the server time, the median CPU time the request
took in this process (what the app itself costs, however loaded the machine is), and the median
of the page's list query alone.
"""
import argparse
import math
import os
import re
import statistics
import sys
import tempfile
import time
from pathlib import Path
from urllib.parse import quote

import psycopg

ROOT = Path(__file__).resolve().parents[1]
ADMIN_URL = os.environ.get("BENCH_DATABASE_ADMIN_URL", "postgresql://postgres@127.0.0.1:5432/postgres")
DATABASE = "leadflow_bench_dashboard_{documents}"
BROKERAGE = "Bench Hypotheken GmbH"
ADVISOR = "bench-advisor@bench.example"
BUDGET_MS = 50   # at p95
WARM_UP = 3


def main(argv=None) -> int:
    args = parse_args(argv)
    url = prepare_database(DATABASE.format(documents=args.documents), args.fresh)
    os.environ.setdefault("LEADFLOW_INSTANCE_DIR", tempfile.mkdtemp(prefix="leadflow-bench-"))
    sys.path.insert(0, str(ROOT))
    from flask_migrate import upgrade

    from leadflow.factory import create_app
    app = create_app({"SQLALCHEMY_DATABASE_URI": url, "EMBEDDED_WORKER": False, "EMBEDDED_SCHEDULER": False,
                      "EXTRACTION_URL": "http://127.0.0.1:9"}, listen=False)
    with app.app_context():
        upgrade()
        seed_once(url, args.documents)
        advisor_id, cases = bench_cases()
        sizes = table_sizes()
    client = app.test_client()
    with client.session_transaction() as session:
        session["_user_id"] = str(advisor_id)
        session["_fresh"] = True

    print(f"\nDashboard of {BROKERAGE}, the largest of {sizes['brokerages']:,} brokerages: "
          f"{sizes['largest']:,} of {sizes['documents']:,} documents, {sizes['clients']:,} of its clients; "
          f"PostgreSQL {server_version(url)}; {args.runs} requests after {WARM_UP} to warm up, Flask test client, "
          f"signed-in advisor")
    print(f"Sizes: documents {sizes['documents_table']} (indexes {sizes['documents_indexes']}), "
          f"users {sizes['users_table']}; load average at the start: "
          f"{', '.join(f'{x:.1f}' for x in os.getloadavg())} on {os.cpu_count()} CPUs\n")
    header = (f"{'page':40} {'rows':>5} {'p50 ms':>8} {'p95 ms':>8} {'max ms':>8} {'CPU p50':>8} {'SQL p50':>8}  "
              f"p95 under {BUDGET_MS} ms")
    print(header)
    print("-" * len(header))
    slow = 0
    for name, path in cases:
        if args.pages not in name:
            continue
        rows, median, p95, worst, cpu = measure(client, path, args.runs)
        with app.app_context():
            query_ms = measure_query(advisor_id, path, args.runs)
        ok = p95 < BUDGET_MS
        slow += not ok
        sql = f"{query_ms:.1f}" if query_ms is not None else "-"
        print(f"{name:40} {rows:>5} {median:>8.1f} {p95:>8.1f} {worst:>8.1f} {cpu:>8.1f} {sql:>8}  "
              f"{'yes' if ok else 'NO'}")
        if args.verbose:
            print(f"    {path}")
    print("\n'CPU p50': the median CPU time of this process per request (the app's own work, whatever the load: "
          "the rest of a request's time is PostgreSQL and waiting for a core).")
    print("'SQL p50': the median time of the page's list query alone (views.document_page), no rendering.")
    print(f"Load average while measuring: {', '.join(f'{x:.1f}' for x in os.getloadavg())} on {os.cpu_count()} CPUs.\n")
    return 1 if slow else 0


def parse_args(argv):
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--documents", type=int, default=1_000_000)
    parser.add_argument("--runs", type=int, default=40)
    parser.add_argument("--fresh", action="store_true", help="drop the bench database and seed again")
    parser.add_argument("--verbose", action="store_true", help="print each page's URL")
    parser.add_argument("--pages", default="", help="time only the pages whose name holds this, e.g. search")
    return parser.parse_args(argv)


def prepare_database(database: str, fresh: bool) -> str:
    with psycopg.connect(ADMIN_URL, autocommit=True, connect_timeout=5) as admin:
        if fresh:
            admin.execute(f'DROP DATABASE IF EXISTS "{database}" WITH (FORCE)')
        exists = admin.execute("SELECT 1 FROM pg_database WHERE datname = %s", (database,)).fetchone()
        if not exists:
            admin.execute(f'CREATE DATABASE "{database}"')
            print(f"created database {database}")
    base = ADMIN_URL.rsplit("/", 1)[0]
    return f"{base}/{database}".replace("postgresql://", "postgresql+psycopg://", 1)


def seed_once(url: str, documents: int) -> None:
    from bench import dashboard_seed
    from leadflow import clock
    from leadflow.extensions import db
    from leadflow.models import Brokerage, User
    have = db.session.scalar(db.select(db.func.count()).select_from(Brokerage))
    if have:
        print(f"{have:,} brokerages there already: not seeding (--fresh starts over)")
    else:
        print(f"seeding {documents:,} documents over {dashboard_seed.BROKERAGES:,} brokerages")
        db.session.remove()
        seconds = dashboard_seed.seed(url.replace("postgresql+psycopg://", "postgresql://", 1), documents, clock.now(),
                                      progress=lambda m: print("  " + m, flush=True))
        print(f"seeded in {seconds:.0f} s ({seconds / 60:.1f} min)")
    if db.session.scalar(db.select(User).where(User.email == ADVISOR)) is None:
        brokerage = db.session.scalar(db.select(Brokerage).where(Brokerage.name == BROKERAGE))
        user = User(email=ADVISOR, name="Bench Advisor", role="advisor", brokerage_id=brokerage.id)
        user.set_password(os.urandom(16).hex())
        db.session.add(user)
        db.session.commit()


def bench_cases() -> tuple[int, list[tuple[str, str]]]:
    """The pages to time, with a case, a client, a file name and search words taken from the data."""
    from leadflow.domain.lifecycle import Status
    from leadflow.domain.verification import DOCUMENT_TYPES
    from leadflow.extensions import db
    from leadflow.models import Document, User, Workspace
    from leadflow.services import search, views
    advisor = db.session.scalar(db.select(User).where(User.email == ADVISOR))
    brokerage_id = advisor.brokerage_id
    case = db.session.scalar(db.select(Workspace).where(Workspace.brokerage_id == brokerage_id)
                             .order_by(Workspace.id).offset(100).limit(1))
    client = db.session.scalar(db.select(User).where(User.brokerage_id == brokerage_id, User.role == "client")
                               .order_by(User.id.desc()).offset(100).limit(1))
    surname = client.name.split()[-1]
    first = views.document_page(db.session, advisor.viewer, search.Filters(), 100)
    # A cursor half way down the table: keyset pages cost the same at any depth.
    middle = db.session.execute(db.select(Document.created_at, Document.id, Document.filename)
                                .where(Document.brokerage_id == brokerage_id)
                                .order_by(Document.created_at.desc(), Document.id.desc())
                                .offset(seeded_total(brokerage_id) // 2).limit(1)).one()
    deep = search.Cursor(middle.created_at, middle.id).encode()
    db.session.remove()
    cases = [
        ("first page", "/dashboard"),
        ("page 2 (cursor)", f"/dashboard?cursor={first.next_cursor.encode()}"),
        ("page at the middle (cursor)", f"/dashboard?cursor={deep}"),
        *[(f"status {status.value}", f"/dashboard?status={status.value}") for status in Status],
        *[(f"type {kind}", f"/dashboard?type={kind}") for kind in DOCUMENT_TYPES],
        ("workspace (a case)", f"/dashboard?workspace={case.id}"),
        ("client", f"/dashboard?client={client.id}"),
        (f"search client '{client.name}'", f"/dashboard?q={quote(client.name)}"),
        (f"search misspelt '{misspelt(client.name)}'", f"/dashboard?q={quote(misspelt(client.name))}"),
        (f"search surname '{surname}'", f"/dashboard?q={quote(surname)}"),
        (f"search file '{middle.filename[:24]}'", f"/dashboard?q={quote(middle.filename)}"),
        ("search 'lohnsteuer'", "/dashboard?q=lohnsteuer"),
        ("search 'commerzbank'", "/dashboard?q=commerzbank"),
        # Words that match a little under 1% of titles: the slowest kind for either plan (the
        # newest-first walk reads many rows per match, the trigram index finds many matches).
        ("search 'celonis'", "/dashboard?q=celonis"),
        ("search 'quittung kaution'", "/dashboard?q=quittung%20kaution"),
        ("search 'no such title'", "/dashboard?q=no%20such%20title"),
        ("status REJECTED + type payslip", "/dashboard?status=REJECTED&type=payslip"),
        ("status VERIFIED + type residence_permit", "/dashboard?status=VERIFIED&type=residence_permit"),
        # None: a document waiting for a person has no detected type yet.
        ("status ACTION_REQUIRED + type payslip", "/dashboard?status=ACTION_REQUIRED&type=payslip"),
        ("search 'payslip' + REJECTED", "/dashboard?q=payslip&status=REJECTED"),
        ("counts partial", "/dashboard/counts"),
        ("live snapshot (socket reopen)", "/partials/documents?view=dashboard"),
    ]
    return advisor.id, cases


def misspelt(name: str) -> str:
    """The name with two letters of its surname swapped, as a hurried advisor types it."""
    first, _, last = name.rpartition(" ")
    i = max(1, len(last) // 2)
    return f"{first} {last[:i - 1]}{last[i]}{last[i - 1]}{last[i + 1:]}".strip()


def seeded_total(brokerage_id: int) -> int:
    from leadflow.extensions import db
    from leadflow.services import counts
    return sum(counts.for_brokerage(db.session, brokerage_id).values())


def table_sizes() -> dict:
    from leadflow.extensions import db
    from leadflow.models import User
    advisor = db.session.scalar(db.select(User).where(User.email == ADVISOR))
    one = lambda sql, **params: db.session.execute(db.text(sql), params).scalar()  # noqa: E731
    sizes = {
        "brokerages": one("SELECT count(*) FROM brokerages"),
        "documents": one("SELECT sum(count) FROM document_status_counts"),
        "largest": seeded_total(advisor.brokerage_id),
        "clients": one("SELECT count(*) FROM users WHERE brokerage_id = :b AND role = 'client'", b=advisor.brokerage_id),
        "documents_table": one("SELECT pg_size_pretty(pg_table_size('documents'))"),
        "documents_indexes": one("SELECT pg_size_pretty(pg_indexes_size('documents'))"),
        "users_table": one("SELECT pg_size_pretty(pg_total_relation_size('users'))"),
    }
    db.session.remove()
    return sizes


def measure(client, path: str, runs: int) -> tuple[int, float, float, float, float]:
    for _ in range(WARM_UP):
        response = client.get(path)
        assert response.status_code == 200, (path, response.status_code)
    times, cpu = [], []
    for _ in range(runs):
        started, used = time.perf_counter(), time.process_time()
        response = client.get(path)
        body = response.get_data()
        times.append((time.perf_counter() - started) * 1000)
        cpu.append((time.process_time() - used) * 1000)
    rows = len(re.findall(rb'<tr id="document-', body))
    return rows, statistics.median(times), percentile(times, 0.95), max(times), statistics.median(cpu)


def percentile(times: list[float], share: float) -> float:
    """The nearest-rank percentile: the smallest time at least `share` of the runs took no longer than."""
    return sorted(times)[max(0, math.ceil(share * len(times)) - 1)]


def measure_query(advisor_id: int, path: str, runs: int) -> float | None:
    """Median time of the dashboard list query a page runs, without rendering; None for others."""
    from urllib.parse import parse_qsl, urlsplit

    from leadflow.extensions import db
    from leadflow.models import User
    from leadflow.services import search, views
    parts = urlsplit(path)
    if parts.path not in ("/dashboard", "/partials/documents"):
        return None
    viewer = db.session.get(User, advisor_id).viewer
    filters = search.Filters.from_args(dict(parse_qsl(parts.query)))
    times = []
    for i in range(WARM_UP + runs):
        started = time.perf_counter()
        views.document_page(db.session, viewer, filters, 100)
        if i >= WARM_UP:
            times.append((time.perf_counter() - started) * 1000)
    db.session.remove()
    return statistics.median(times)


def server_version(url: str) -> str:
    with psycopg.connect(url.replace("postgresql+psycopg://", "postgresql://", 1)) as conn:
        return conn.execute("SHOW server_version").fetchone()[0].split()[0]


if __name__ == "__main__":
    sys.exit(main())
