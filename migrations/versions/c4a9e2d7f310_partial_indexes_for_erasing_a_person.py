"""erasing a person finds the jobs they requested and the audit entries they made by an index

The retention sweep and an erasure forget the erased person as the requester of jobs and the
actor of audit entries (`UPDATE ... WHERE requested_by_id IN (...)`): with no index, each read
every job and every audit entry of every brokerage. Both indexes are partial, holding only the
rows that name a person: jobs a person asked for (reruns) and entries of human actions, so the
pipeline's own writes (no person) do not maintain them. Built concurrently on PostgreSQL.

Revision ID: c4a9e2d7f310
Revises: e7a2c4b9d113
Create Date: 2026-12-06 18:40:00

"""
from alembic import op
import sqlalchemy as sa


# revision identifiers, used by Alembic.
revision = 'c4a9e2d7f310'
down_revision = 'e7a2c4b9d113'
branch_labels = None
depends_on = None

INDEXES = (('ix_extraction_jobs_requested_by', 'extraction_jobs', 'requested_by_id'),
           ('ix_audit_entries_actor', 'audit_entries', 'actor_id'))


def upgrade():
    if op.get_bind().dialect.name == 'postgresql':
        with op.get_context().autocommit_block():
            for name, table, column in INDEXES:
                # A concurrent build cut short leaves an invalid index behind: a second run builds it anew.
                op.drop_index(name, table_name=table, postgresql_concurrently=True, if_exists=True)
                op.create_index(name, table, [column], postgresql_where=sa.text(f'{column} IS NOT NULL'),
                                postgresql_concurrently=True)
        return
    for name, table, column in INDEXES:
        with op.batch_alter_table(table, schema=None) as batch_op:
            batch_op.create_index(name, [column], sqlite_where=sa.text(f'{column} IS NOT NULL'))


def downgrade():
    for name, table, _ in INDEXES:
        with op.batch_alter_table(table, schema=None) as batch_op:
            batch_op.drop_index(name)
