"""callback deliveries are the status log: each delivery row names its document; status_log goes

A callback's receipt is one INSERT ... ON CONFLICT DO NOTHING; the delivery row already held the
whole payload as it came, so the separate status_log row (a savepoint, a read of the job and a
second insert per callback) is folded into it: the document it is about is copied over, and
status_log's rows are dropped with the table (each one repeats its delivery's payload).

Revision ID: a7c31d2e9b40
Revises: c13a5d0e7f21
Create Date: 2026-11-30 14:05:00

"""
from alembic import op
import sqlalchemy as sa


# revision identifiers, used by Alembic.
revision = 'a7c31d2e9b40'
down_revision = 'c13a5d0e7f21'
branch_labels = None
depends_on = None


def upgrade():
    with op.batch_alter_table('callback_deliveries', schema=None) as batch_op:
        batch_op.add_column(sa.Column('document_id', sa.String(length=32), nullable=True))
        batch_op.create_index(batch_op.f('ix_callback_deliveries_document_id'), ['document_id'], unique=False)
    # Where the log knew the document, it is the truth; else our job record tells.
    op.execute("UPDATE callback_deliveries SET document_id = (SELECT s.document_id FROM status_log s "
               "WHERE s.delivery_id = callback_deliveries.id AND s.document_id IS NOT NULL LIMIT 1)")
    op.execute("UPDATE callback_deliveries SET document_id = (SELECT j.document_id FROM extraction_jobs j "
               "WHERE j.id = callback_deliveries.job_id) WHERE document_id IS NULL")
    with op.batch_alter_table('status_log', schema=None) as batch_op:
        batch_op.drop_index(batch_op.f('ix_status_log_document_id'))
    op.drop_table('status_log')


def downgrade():
    op.create_table('status_log',
    sa.Column('id', sa.Integer(), nullable=False),
    sa.Column('document_id', sa.String(length=32), nullable=True),
    sa.Column('job_id', sa.String(length=64), nullable=True),
    sa.Column('delivery_id', sa.String(length=255), nullable=True),
    sa.Column('event_type', sa.String(length=40), nullable=True),
    sa.Column('payload', sa.JSON(), nullable=False),
    sa.Column('created_at', sa.DateTime(), nullable=False),
    sa.PrimaryKeyConstraint('id', name=op.f('pk_status_log'))
    )
    with op.batch_alter_table('status_log', schema=None) as batch_op:
        batch_op.create_index(batch_op.f('ix_status_log_document_id'), ['document_id'], unique=False)
    op.execute("INSERT INTO status_log (document_id, job_id, delivery_id, event_type, payload, created_at) "
               "SELECT document_id, job_id, id, event_type, payload, received_at FROM callback_deliveries "
               "ORDER BY received_at")
    with op.batch_alter_table('callback_deliveries', schema=None) as batch_op:
        batch_op.drop_index(batch_op.f('ix_callback_deliveries_document_id'))
        batch_op.drop_column('document_id')
