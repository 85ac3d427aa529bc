"""Operator commands: `flask --app app leadflow ...`. `serve` (the embedded mode) is added by
the composition root, app.py, from tasks.embedded."""
import secrets
import sys

import click
from flask.cli import AppGroup
from sqlalchemy import select

from leadflow import cli_seed, sweeps
from leadflow.billing import service as billing
from leadflow.domain.audience import Role
from leadflow.extensions import db
from leadflow.models import Applicant, Brokerage, User, Workspace, WorkspaceMember
from leadflow.ports import current_ports
from leadflow.services import pipeline

cli = AppGroup("leadflow", help="LeadFlow operator commands.")

DEMO_BROKERAGES = {
    "Rhein Hypotheken GmbH": {
        "advisor": ("advisor@rhein.example", "Anna Advisor"),
        "brokerage_admin": ("admin@rhein.example", "Bernd Admin"),
        # The clients are the personas of the sample documents (../shared/samples, A1-01 to A1-03):
        # a case's documents must name its applicants, so each uploads their own.
        "clients": [("rahul@client.example", "Rahul Mustermann", "Mustermann purchase, Köln"),
                    ("james@client.example", "James Beispiel", "Beispiel refinancing")],
    },
    "Isar Baufinanz AG": {
        "advisor": ("advisor@isar.example", "Ida Advisor"),
        "brokerage_admin": ("admin@isar.example", "Ivo Admin"),
        "clients": [("amira@client.example", "Amira Vorlage", "Vorlage apartment, München")],
    },
}
DEMO_CREDITS = 500


@cli.command("demo")
@click.option("--password", envvar="LEADFLOW_DEMO_PASSWORD", default=None,
              help="Password for every demo login (default: a random one, printed once).")
def demo(password):
    """Create sample brokerages, users and workspaces; print the logins. Safe to run again."""
    password = password or secrets.token_urlsafe(9)
    logins = []
    admin = _ensure_user("review@leadflow.example", "Pat Platform", Role.PLATFORM_ADMIN, None, password)
    logins.append((admin.email, "platform admin"))
    for name, people in DEMO_BROKERAGES.items():
        brokerage = db.session.scalar(select(Brokerage).where(Brokerage.name == name))
        if brokerage is None:
            brokerage = Brokerage(name=name)
            db.session.add(brokerage)
            db.session.flush()
            billing.grant(db.session, brokerage.id, DEMO_CREDITS)
        for role in ("advisor", "brokerage_admin"):
            email, person = people[role]
            _ensure_user(email, person, Role(role), brokerage.id, password)
            logins.append((email, f"{role.replace('_', ' ')}, {name}"))
        for email, person, case in people["clients"]:
            client = _ensure_user(email, person, Role.CLIENT, brokerage.id, password)
            workspace = db.session.scalar(select(Workspace).where(Workspace.brokerage_id == brokerage.id,
                                                                  Workspace.name == case))
            if workspace is None:
                workspace = Workspace(brokerage_id=brokerage.id, name=case)
                db.session.add(workspace)
                db.session.flush()
                db.session.add(WorkspaceMember(workspace_id=workspace.id, user_id=client.id))
                db.session.add(Applicant(brokerage_id=brokerage.id, workspace_id=workspace.id, role="client",
                                         user_id=client.id, name=client.name))
            logins.append((email, f"client, {name}"))
    db.session.commit()
    click.echo("Demo logins (every one has the same password):")
    for email, what in logins:
        click.echo(f"  {email:28} {what}")
    click.echo(f"  password: {password}")


@cli.command("create-user")
@click.argument("email")
@click.option("--name", required=True)
@click.option("--role", type=click.Choice([r.value for r in Role]), required=True)
@click.option("--brokerage", "brokerage_name", help="Brokerage name (created if new); not for platform admins.")
@click.password_option()
def create_user(email, name, role, brokerage_name, password):
    """Create a user (the password is prompted for, never echoed)."""
    brokerage_id = None
    if role != Role.PLATFORM_ADMIN:
        if not brokerage_name:
            raise click.UsageError("--brokerage is required for this role")
        brokerage = db.session.scalar(select(Brokerage).where(Brokerage.name == brokerage_name))
        if brokerage is None:
            brokerage = Brokerage(name=brokerage_name)
            db.session.add(brokerage)
            db.session.flush()
        brokerage_id = brokerage.id
    if db.session.scalar(select(User).where(User.email == email.lower())):
        raise click.UsageError(f"{email} exists already")
    _ensure_user(email, name, Role(role), brokerage_id, password)
    db.session.commit()
    click.echo(f"created {email} ({role})")


@cli.command("create-token")
@click.argument("email")
def create_token(email):
    """Make a bearer token for the JSON API; it is shown once."""
    from leadflow.web.auth import create_token as make
    user = db.session.scalar(select(User).where(User.email == email.lower()))
    if user is None:
        raise click.UsageError(f"no user {email}")
    click.echo(make(user))


@cli.command("set-password")
@click.argument("email")
@click.password_option()
def set_password(email, password):
    """Give a user a new password (prompted for, never echoed); every session they had ends."""
    user = db.session.scalar(select(User).where(User.email == email.strip().lower()))
    if user is None:
        raise click.UsageError(f"no user {email}")
    _ensure_user(user.email, user.name, Role(user.role), user.brokerage_id, password)
    db.session.commit()
    click.echo(f"new password set for {user.email}; their sessions have ended")


@cli.command("grant-credits")
@click.argument("brokerage")
@click.argument("pages", type=int)
def grant_credits(brokerage, pages):
    """Add extraction credits to a brokerage (by name or id); waiting documents go on."""
    row = db.session.scalar(select(Brokerage).where(
        (Brokerage.name == brokerage) | (Brokerage.id == (int(brokerage) if brokerage.isdigit() else -1))))
    if row is None:
        raise click.UsageError(f"no brokerage {brokerage}")
    wallet, waiting = pipeline.grant_credits(db.session, row.id, pages)
    click.echo(f"{row.name}: balance {wallet.balance} pages; {waiting} waiting documents enqueued")


@cli.command("sweep")
@click.argument("name", required=False, type=click.Choice([*sweeps.SWEEPS, *sweeps.DAILY]))
def sweep(name):
    """Run one sweep now, or all of the frequent ones (the daily ones, such as digests, by name)."""
    for sweep_name in [name] if name else list(sweeps.SWEEPS):
        count = sweeps.run(sweep_name)
        click.echo(f"{sweep_name}: {'skipped (running elsewhere)' if count is None else count}")


@cli.command("ledger-check")
def ledger_check():
    """Print the ledger invariants; exit 1 on any discrepancy."""
    problems = billing.check_all(db.session)
    for brokerage_id, found in problems.items():
        for problem in found:
            click.echo(f"brokerage {brokerage_id}: {problem}")
    if problems:
        sys.exit(1)
    click.echo("ledger: balanced (balance + open reservations + settled = granted, for every wallet)")


@cli.command("replay-delivery")
@click.argument("delivery_id")
def replay_delivery(delivery_id):
    """Apply a recorded callback delivery again (a no-op where it was applied)."""
    from leadflow.services import callbacks
    try:
        click.echo(callbacks.process(db.session, current_ports(), delivery_id))
    except callbacks.DeliveryTooEarly as exc:
        click.echo(f"not yet: {exc}; try again in a moment")
        sys.exit(1)


def _ensure_user(email, name, role: Role, brokerage_id, password) -> User:
    user = db.session.scalar(select(User).where(User.email == email.lower()))
    if user is None:
        user = User(email=email.lower(), name=name, role=role.value, brokerage_id=brokerage_id)
        db.session.add(user)
    else:
        from leadflow.web.auth import end_sessions
        end_sessions(user.id)  # a new password ends every session signed in with the old one
    user.set_password(password)
    db.session.flush()
    return user


cli.add_command(cli_seed.seed_documents)
