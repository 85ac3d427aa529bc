"""the deliveries still to apply get an index of their own, in the order the worker takes them

The index on (processed_at, received_at) could not hand `processed_at IS NULL` over in
received_at order, so every claim of the worker read and sorted the whole backlog. A partial
index on received_at holding only unprocessed deliveries is read in order and left after the
first few. On PostgreSQL it is built concurrently, before the old one goes, so that callbacks
keep being recorded while the status log is indexed.

Revision ID: b8e0c4f1a2d3
Revises: a7c31d2e9b40
Create Date: 2026-12-04 17:00:00

"""
from alembic import op
import sqlalchemy as sa


# revision identifiers, used by Alembic.
revision = 'b8e0c4f1a2d3'
down_revision = 'a7c31d2e9b40'
branch_labels = None
depends_on = None

UNPROCESSED = sa.text('processed_at IS NULL')


def upgrade():
    if op.get_bind().dialect.name == 'postgresql':
        with op.get_context().autocommit_block():
            # A concurrent build cut short leaves an invalid index behind: a second run builds it anew.
            op.drop_index('ix_callback_deliveries_to_apply', table_name='callback_deliveries',
                          postgresql_concurrently=True, if_exists=True)
            op.create_index('ix_callback_deliveries_to_apply', 'callback_deliveries', ['received_at'],
                            postgresql_where=UNPROCESSED, postgresql_concurrently=True)
            op.drop_index('ix_callback_deliveries_unprocessed', table_name='callback_deliveries',
                          postgresql_concurrently=True, if_exists=True)
        return
    with op.batch_alter_table('callback_deliveries', schema=None) as batch_op:
        batch_op.create_index('ix_callback_deliveries_to_apply', ['received_at'], sqlite_where=UNPROCESSED)
        batch_op.drop_index('ix_callback_deliveries_unprocessed')


def downgrade():
    with op.batch_alter_table('callback_deliveries', schema=None) as batch_op:
        batch_op.create_index('ix_callback_deliveries_unprocessed', ['processed_at', 'received_at'], unique=False)
        batch_op.drop_index('ix_callback_deliveries_to_apply')
