"""the daily sweeps look again on a date: documents keep the day the staleness sweep reads them
next, cases the day the reminders sweep looks at them next, each found through an index of
what is due

Revision ID: e5c2b7d94a18
Revises: d7a41c9e0b53
Create Date: 2026-12-06 21:40:00

"""
import sqlalchemy as sa
from alembic import op


# revision identifiers, used by Alembic.
revision = 'e5c2b7d94a18'
down_revision = 'd7a41c9e0b53'
branch_labels = None
depends_on = None


def upgrade():
    # Nullable, no default: added without rewriting the table; NULL is "not looked at yet", so
    # every document and open case already there is looked at once by the next daily run.
    op.add_column("documents", sa.Column("stale_check_on", sa.Date()))
    op.add_column("workspaces", sa.Column("reminders_due_on", sa.Date()))
    if op.get_bind().dialect.name == "postgresql":
        # What is due, oldest first: only VERIFIED payslips and statements (those that age), and
        # only open cases. The constants match the sweeps' queries (leadflow/sweeps.py's DUE).
        op.execute("CREATE INDEX ix_documents_stale_check ON documents "
                   "((coalesce(stale_check_on, '-infinity'::date)), id) "
                   "WHERE status = 'VERIFIED' AND document_type IN ('payslip', 'bank_statement')")
        op.execute("CREATE INDEX ix_workspaces_reminders_due ON workspaces "
                   "((coalesce(reminders_due_on, '-infinity'::date)), id) WHERE closed_at IS NULL")


def downgrade():
    if op.get_bind().dialect.name == "postgresql":
        op.execute("DROP INDEX IF EXISTS ix_workspaces_reminders_due")
        op.execute("DROP INDEX IF EXISTS ix_documents_stale_check")
    op.drop_column("workspaces", "reminders_due_on")
    op.drop_column("documents", "stale_check_on")
