"""Settling the reservations of several finished jobs at once (`billing.settle_many`), as the
worker does for the jobs one batch of deliveries finished: the same arithmetic as one by one."""
from datetime import timedelta

from sqlalchemy import event, select

from leadflow.billing import service as billing
from leadflow.models import CreditReservation, CreditWallet, ExtractionJob, utcnow
from tests.unit.fakes import world  # noqa: F401  (fixture)


def _jobs(world, brokerage_id, pages_each):
    """A job with an open reservation per entry of `pages_each`, committed; their ids."""
    document_id = world.document()
    ids = []
    for n, pages in enumerate(pages_each):
        job_id = f"job-{brokerage_id}-{n}"
        world.session.add(ExtractionJob(id=job_id, document_id=document_id, brokerage_id=brokerage_id, mode="first",
                                        status="accepted"))
        world.session.flush()
        billing.reserve(world.session, brokerage_id, job_id, pages, fresh_job=True)
        ids.append(job_id)
    world.session.commit()
    return ids


def test_settling_together_charges_as_one_by_one_and_moves_each_wallet_once(world):
    other = world.other_brokerage.id
    world.session.add(CreditWallet(brokerage_id=other, granted=10, balance=10, reserved=0, settled=0))
    world.session.commit()
    mine = _jobs(world, world.brokerage.id, [3, 2, 2])
    theirs = _jobs(world, other, [4])
    wallet_updates = []

    def seen(_conn, _cursor, statement, *_args):
        if statement.startswith("UPDATE credit_wallets"):
            wallet_updates.append(statement)

    engine = world.session.get_bind()
    event.listen(engine, "before_cursor_execute", seen)
    try:
        # Fewer pages than reserved, exactly as many, more (charged from the balance); another brokerage.
        settled = billing.settle_many(world.session, {mine[0]: 1, mine[1]: 2, mine[2]: 5, theirs[0]: 4})
        world.session.commit()
    finally:
        event.remove(engine, "before_cursor_execute", seen)
    assert {job: (s.charged, s.returned, s.overage) for job, s in settled.items()} == {
        mine[0]: (1, 2, 0), mine[1]: (2, 0, 0), mine[2]: (5, 0, 0), theirs[0]: (4, 0, 0)}
    # One move per brokerage, and one charge from the balance for the pages beyond a reservation.
    assert len(wallet_updates) == 3
    wallet = world.wallet()
    assert (wallet.balance, wallet.reserved, wallet.settled) == (100 - 8, 0, 8)
    assert world.session.get(CreditWallet, other).settled == 4
    assert billing.check_all(world.session) == {}


def test_a_job_settled_already_or_expired_is_left_out_and_nothing_is_charged_twice(world):
    done, expired, due = _jobs(world, world.brokerage.id, [1, 2, 1])
    billing.settle(world.session, done, 1)
    world.session.execute(CreditReservation.__table__.update().where(CreditReservation.job_id == expired)
                          .values(expires_at=utcnow() - timedelta(minutes=1)))
    world.session.commit()
    settled = billing.settle_many(world.session, {done: 1, expired: 2, due: 1})
    world.session.commit()
    assert set(settled) == {due}
    statuses = dict(world.session.execute(select(CreditReservation.job_id, CreditReservation.status)).all())
    assert statuses == {done: "settled", expired: "open", due: "settled"}
    assert (world.wallet().settled, world.wallet().reserved) == (2, 2)
    assert billing.check_all(world.session) == {}
