"""The dashboard at a million documents: server time of its first page and of filtered pages.

    make bench-dashboard
    .venv/bin/python -m bench.dashboard --documents 100000 --runs 20

Seeds a PostgreSQL database of its own (`leadflow_bench_dashboard`, kept between runs: seeding
is skipped when the brokerage already holds the documents; --fresh starts over), then times
each page inside the app: a Flask test client request by a signed-in advisor, so routing, the
queries and the template all count, the network does not. Each page is requested a few times
to warm up, then `--runs` times; the table shows the median and the slowest run.
"""
import argparse
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
DATABASE = "leadflow_bench_dashboard"
BROKERAGE = "Bench Hypotheken GmbH"
ADVISOR = "bench-advisor@bench.example"
BUDGET_MS = 100
WARM_UP = 3


def main(argv=None) -> int:
    args = parse_args(argv)
    url = prepare_database(args.fresh)
    os.environ.setdefault("LEADFLOW_INSTANCE_DIR", tempfile.mkdtemp(prefix="leadflow-bench-"))
    sys.path.insert(0, str(ROOT))
    from flask_migrate import upgrade

    from leadflow.factory import create_app
    app = create_app({"SQLALCHEMY_DATABASE_URI": url, "EMBEDDED_WORKER": False, "EMBEDDED_SCHEDULER": False,
                      "EXTRACTION_URL": "http://127.0.0.1:9"}, listen=False)
    with app.app_context():
        upgrade()
        seed_once(args.documents)
        advisor_id, cases = bench_cases()
    client = app.test_client()
    with client.session_transaction() as session:
        session["_user_id"] = str(advisor_id)
        session["_fresh"] = True

    print(f"\nDashboard of {BROKERAGE}: {args.documents:,} documents, PostgreSQL {server_version(url)}; "
          f"median of {args.runs} requests after {WARM_UP} to warm up, Flask test client, signed-in advisor\n")
    header = (f"{'page':34} {'rows':>5} {'median ms':>10} {'max ms':>8} {'of which SQL':>13}  "
              f"under {BUDGET_MS} ms")
    print(header)
    print("-" * len(header))
    slow = 0
    for name, path in cases:
        rows, median, worst = measure(client, path, args.runs)
        with app.app_context():
            query_ms = measure_query(advisor_id, path, args.runs)
        ok = median < BUDGET_MS
        slow += not ok
        sql = f"{query_ms:.1f}" if query_ms is not None else "-"
        print(f"{name:34} {rows:>5} {median:>10.1f} {worst:>8.1f} {sql:>13}  {'yes' if ok else 'NO'}")
        if args.verbose:
            print(f"    {path}")
    print("\n'of which SQL': the median time of the page's list query alone (views.document_page), no rendering.")
    print(f"Load average while measuring: {', '.join(f'{x:.1f}' for x in os.getloadavg())} on {os.cpu_count()} CPUs.\n")
    return 1 if slow else 0


def parse_args(argv):
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--documents", type=int, default=1_000_000)
    parser.add_argument("--runs", type=int, default=20)
    parser.add_argument("--fresh", action="store_true", help="drop the bench database and seed again")
    parser.add_argument("--verbose", action="store_true", help="print each page's URL")
    return parser.parse_args(argv)


def prepare_database(fresh: bool) -> str:
    with psycopg.connect(ADMIN_URL, autocommit=True, connect_timeout=5) as admin:
        if fresh:
            admin.execute(f'DROP DATABASE IF EXISTS "{DATABASE}" WITH (FORCE)')
        exists = admin.execute("SELECT 1 FROM pg_database WHERE datname = %s", (DATABASE,)).fetchone()
        if not exists:
            admin.execute(f'CREATE DATABASE "{DATABASE}"')
            print(f"created database {DATABASE}")
    base = ADMIN_URL.rsplit("/", 1)[0]
    return f"{base}/{DATABASE}".replace("postgresql://", "postgresql+psycopg://", 1)


def seed_once(documents: int) -> None:
    from leadflow.cli_seed import seed, seeded_count
    from leadflow.extensions import db
    from leadflow.models import Brokerage, User
    have = seeded_count(BROKERAGE)
    if have >= documents:
        print(f"{BROKERAGE} holds {have:,} documents already: not seeding")
    else:
        print(f"seeding {documents - have:,} documents into {BROKERAGE} (holds {have:,})")
        result = seed(documents - have, BROKERAGE, progress=lambda m: print("  " + m, flush=True))
        print(f"seeded in {result.seconds:.0f} s")
    if db.session.scalar(db.select(User).where(User.email == ADVISOR)) is None:
        brokerage = db.session.scalar(db.select(Brokerage).where(Brokerage.name == BROKERAGE))
        user = User(email=ADVISOR, name="Bench Advisor", role="advisor", brokerage_id=brokerage.id)
        user.set_password(os.urandom(16).hex())
        db.session.add(user)
        db.session.commit()


def bench_cases() -> tuple[int, list[tuple[str, str]]]:
    """The pages to time, with a case, a client and search words taken from the data."""
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
    middle = db.session.execute(db.select(Document.created_at, Document.id)
                                .where(Document.brokerage_id == brokerage_id)
                                .order_by(Document.created_at.desc(), Document.id.desc())
                                .offset(seeded_total(brokerage_id) // 2).limit(1)).one()
    deep = search.Cursor(middle.created_at, middle.id).encode()
    db.session.remove()
    cases = [
        ("first page", "/dashboard"),
        ("page 2 (cursor)", f"/dashboard?cursor={first.next_cursor.encode()}"),
        ("page at the middle (cursor)", f"/dashboard?cursor={deep}"),
        ("status VERIFIED", "/dashboard?status=VERIFIED"),
        ("status ACTION_REQUIRED", "/dashboard?status=ACTION_REQUIRED"),
        ("status PENDING", "/dashboard?status=PENDING"),
        ("type tax_assessment", "/dashboard?type=tax_assessment"),
        ("type residence_permit", "/dashboard?type=residence_permit"),
        ("workspace (a case)", f"/dashboard?workspace={case.id}"),
        ("client", f"/dashboard?client={client.id}"),
        (f"search '{surname}'", f"/dashboard?q={quote(surname)}"),
        ("search 'lohnsteuer'", "/dashboard?q=lohnsteuer"),
        ("search 'commerzbank'", "/dashboard?q=commerzbank"),
        # Words that match a little under 1% of titles: the slowest kind for either plan (the
        # newest-first walk reads many rows per match, the trigram index finds many matches).
        ("search 'celonis'", "/dashboard?q=celonis"),
        ("search 'quittung kaution'", "/dashboard?q=quittung%20kaution"),
        ("search 'no such title'", "/dashboard?q=no%20such%20title"),
        ("status REJECTED + type payslip", "/dashboard?status=REJECTED&type=payslip"),
        ("search 'payslip' + REJECTED", "/dashboard?q=payslip&status=REJECTED"),
        ("counts partial", "/dashboard/counts"),
        ("live snapshot (socket reopen)", "/partials/documents?view=dashboard"),
    ]
    return advisor.id, cases


def seeded_total(brokerage_id: int) -> int:
    from leadflow.extensions import db
    from leadflow.services import counts
    return sum(counts.for_brokerage(db.session, brokerage_id).values())


def measure(client, path: str, runs: int) -> tuple[int, float, float]:
    for _ in range(WARM_UP):
        response = client.get(path)
        assert response.status_code == 200, (path, response.status_code)
    times = []
    for _ in range(runs):
        started = time.perf_counter()
        response = client.get(path)
        body = response.get_data()
        times.append((time.perf_counter() - started) * 1000)
    rows = len(re.findall(rb'<tr id="document-', body))
    return rows, statistics.median(times), max(times)


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
