"""The ledger under 50 threads at once, on SQLite (the embedded default) and on PostgreSQL.

Each thread reserves pages for jobs of its own, settles one and releases the other, and joins
four others in settling (or releasing) the same shared jobs, all released from one barrier.
Afterwards the ledger check is balanced, every reservation closed exactly once, and the
wallet has settled exactly the pages that the winning settlements said they charged.
"""
import random
import threading
from collections import Counter, defaultdict
from datetime import datetime

import pytest
from sqlalchemy import select

from leadflow.billing import ledger
from leadflow.extensions import db
from tests.plugins.postgres import migrated_app, run_threads

THREADS = 50
SHARED_JOBS = 10          # each raced by THREADS / SHARED_JOBS threads
GRANTED = 250             # less than all reservations would need: some are refused


@pytest.fixture(params=["sqlite", "postgresql"])
def ledger_app(request, tmp_path):
    """An app on an empty migrated database, with the engine settings the mode runs with."""
    with migrated_app(request.param, tmp_path, "ledger") as app:
        yield app


def test_fifty_threads_reserving_settling_and_releasing_leave_the_ledger_balanced(ledger_app):
    from leadflow.billing import service as billing
    from leadflow.extensions import db
    from leadflow.models import CreditReservation, CreditWallet

    app = ledger_app
    rng = random.Random(10)
    own_jobs = [[f"own-{t}-a", f"own-{t}-b"] for t in range(THREADS)]
    shared_jobs = [f"shared-{j}" for j in range(SHARED_JOBS)]
    pages = {job: rng.randint(1, 6) for job in [*sum(own_jobs, []), *shared_jobs]}
    used = {job: rng.randint(0, pages[job] + 2) for job in pages}   # some use more than reserved
    with app.app_context():
        brokerage_id = _seed(db, [*sum(own_jobs, []), *shared_jobs])
        billing.grant(db.session, brokerage_id, GRANTED)
        for job in shared_jobs:
            billing.reserve(db.session, brokerage_id, job, pages[job])
        db.session.commit()
        db.session.remove()

    barrier = threading.Barrier(THREADS)
    lock = threading.Lock()
    charged = []                       # Settlement.charged of every settlement that won
    closes = Counter()                 # job -> how many settle/release calls closed it
    refused = set()                    # jobs the wallet could not cover
    errors = []

    def transaction(action):
        with app.app_context():
            try:
                result = action()
                db.session.commit()
                return result
            except Exception:
                db.session.rollback()
                raise
            finally:
                db.session.remove()

    def worker(t):
        try:
            for job in own_jobs[t]:
                try:
                    transaction(lambda: billing.reserve(db.session, brokerage_id, job, pages[job]))
                except ledger.InsufficientCredits:
                    with lock:
                        refused.add(job)
            barrier.wait(timeout=60)
            first, second = own_jobs[t]
            shared = shared_jobs[t % SHARED_JOBS]
            steps = [("settle", first), ("release", second), ("settle" if t % 5 else "release", shared)]
            if t % 2 == 0:
                # Half the threads settle their own job and the shared one together, as the
                # worker settles a batch's jobs (`settle_many`), racing the others' one by one.
                together = {job: used[job] for verb, job in steps if verb == "settle"}
                for job, result in transaction(lambda: billing.settle_many(db.session, together)).items():
                    with lock:
                        charged.append(result.charged)
                        closes[job] += 1
                steps = [(verb, job) for verb, job in steps if verb == "release"]
            for verb, job in steps:
                if verb == "settle":
                    result = transaction(lambda: billing.settle(db.session, job, used[job]))
                    if result is not None:
                        with lock:
                            charged.append(result.charged)
                            closes[job] += 1
                elif transaction(lambda: billing.release(db.session, job)):
                    with lock:
                        closes[job] += 1
        except Exception as exc:  # reported below: a thread's failure must fail the test
            with lock:
                errors.append(f"thread {t}: {type(exc).__name__}: {exc}")

    run_threads([threading.Thread(target=worker, args=(t,)) for t in range(THREADS)])
    assert errors == []

    with app.app_context():
        assert billing.check_all(db.session) == {}
        wallet = db.session.get(CreditWallet, brokerage_id)
        reservations = db.session.scalars(select(CreditReservation)).all()
        states = defaultdict(list)
        for r in reservations:
            states[r.job_id].append(r.status)
        assert all(s == ["settled"] or s == ["released"] for s in states.values()), states
        assert set(states) == set(pages) - refused
        assert max(closes.values()) == 1, "a reservation was closed twice"
        assert set(closes) == set(states), "every reservation closed by exactly one call"
        assert wallet.settled == sum(charged) == sum(r.pages_charged for r in reservations if r.status == "settled")
        assert (wallet.reserved, wallet.granted) == (0, GRANTED)
        assert wallet.balance == GRANTED - wallet.settled
        assert refused, "the wallet was meant to run short and refuse some reservations"
        db.session.remove()


def _seed(db, job_ids):
    """A brokerage, a client, a document and one extraction job per id (the reservations' keys)."""
    from leadflow.models import Brokerage, Document, ExtractionJob, User
    now = datetime(2026, 11, 15, 12, 0)
    brokerage = Brokerage(name="Race Hypotheken")
    db.session.add(brokerage)
    db.session.flush()
    user = User(email="client@race.example", name="Client", role="client", brokerage_id=brokerage.id,
                password_hash="-")
    db.session.add(user)
    db.session.flush()
    document = Document(id="d" * 32, brokerage_id=brokerage.id, owner_id=user.id, title="payslip", status="EXTRACTING",
                        filename="payslip.pdf", content_type="application/pdf", size_bytes=1, storage_key="k",
                        verification_notes=[], created_at=now, updated_at=now, status_changed_at=now)
    db.session.add(document)
    db.session.flush()
    for job_id in job_ids:
        db.session.add(ExtractionJob(id=job_id, document_id=document.id, brokerage_id=brokerage.id, mode="first",
                                     status="accepted"))
    db.session.commit()
    return brokerage.id


def test_the_credits_page_tick_is_the_ledger_checks_verdict_not_the_wallets_own_sum(world, app):
    """The wallet's columns can add up while the reservations say otherwise (the issue's "wallet
    says 70 settled, reservations charged 79"): the page must show what `ledger-check` says."""
    from leadflow.extensions import db
    from leadflow.models import CreditWallet
    admin = world.admin_a.api
    assert "✓" in _tick(admin.get("/credits").text)
    with app.app_context():
        db.session.execute(db.update(CreditWallet).where(CreditWallet.brokerage_id == world.brokerage_a)
                           .values(balance=CreditWallet.balance - 9, settled=CreditWallet.settled + 9))
        db.session.commit()
        db.session.remove()
    page = admin.get("/credits").text
    assert "✗" in _tick(page)
    assert "wallet says 9 settled, reservations charged 0" in page
    check = app.test_cli_runner().invoke(args=["leadflow", "ledger-check"])
    assert check.exit_code == 1 and "wallet says 9 settled, reservations charged 0" in check.output
    assert "✓" in _tick(world.admin_b.api.get("/credits").text), "another brokerage's wallet is its own"


def _tick(page: str) -> str:
    return page.split('data-testid="balanced"', 1)[1].split("</div>", 1)[0]
