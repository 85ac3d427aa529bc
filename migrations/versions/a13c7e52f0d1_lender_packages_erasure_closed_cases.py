"""lender packages, erasure records, closed cases; ledger rows outlive an erased client's jobs

Revision ID: a13c7e52f0d1
Revises: f3b1c2d4e5a6
Create Date: 2026-11-30 14:00:00

"""
from alembic import op
import sqlalchemy as sa


# revision identifiers, used by Alembic.
revision = 'a13c7e52f0d1'
down_revision = 'f3b1c2d4e5a6'
branch_labels = None
depends_on = None


def upgrade():
    with op.batch_alter_table('workspaces', schema=None) as batch_op:
        batch_op.add_column(sa.Column('closed_at', sa.DateTime(), nullable=True))
        batch_op.create_index(batch_op.f('ix_workspaces_closed_at'), ['closed_at'], unique=False)
    # Erasing a client removes their extraction jobs; the credit reservation stays (accounting).
    with op.batch_alter_table('credit_reservations', schema=None) as batch_op:
        batch_op.drop_constraint(batch_op.f('fk_credit_reservations_job_id_extraction_jobs'), type_='foreignkey')
    op.create_table('lender_packages',
    sa.Column('id', sa.String(length=32), nullable=False),
    sa.Column('brokerage_id', sa.Integer(), nullable=False),
    sa.Column('workspace_id', sa.Integer(), nullable=False),
    sa.Column('requested_by_id', sa.Integer(), nullable=True),
    sa.Column('status', sa.String(length=10), nullable=False),
    sa.Column('done_steps', sa.Integer(), nullable=False),
    sa.Column('total_steps', sa.Integer(), nullable=False),
    sa.Column('storage_key', sa.String(length=500), nullable=True),
    sa.Column('size_bytes', sa.Integer(), nullable=True),
    sa.Column('error', sa.String(length=200), nullable=True),
    sa.Column('created_at', sa.DateTime(), nullable=False),
    sa.Column('finished_at', sa.DateTime(), nullable=True),
    sa.CheckConstraint("status in ('building', 'ready', 'failed')", name=op.f('ck_lender_packages_status')),
    sa.ForeignKeyConstraint(['brokerage_id'], ['brokerages.id'], name=op.f('fk_lender_packages_brokerage_id_brokerages')),
    sa.ForeignKeyConstraint(['requested_by_id'], ['users.id'], name=op.f('fk_lender_packages_requested_by_id_users')),
    sa.ForeignKeyConstraint(['workspace_id'], ['workspaces.id'], name=op.f('fk_lender_packages_workspace_id_workspaces')),
    sa.PrimaryKeyConstraint('id', name=op.f('pk_lender_packages'))
    )
    with op.batch_alter_table('lender_packages', schema=None) as batch_op:
        batch_op.create_index(batch_op.f('ix_lender_packages_brokerage_id'), ['brokerage_id'], unique=False)
        batch_op.create_index(batch_op.f('ix_lender_packages_workspace_id'), ['workspace_id'], unique=False)
    op.create_table('erasure_records',
    sa.Column('id', sa.Integer(), nullable=False),
    sa.Column('brokerage_id', sa.Integer(), nullable=False),
    sa.Column('actor_id', sa.Integer(), nullable=True),
    sa.Column('subject', sa.String(length=10), nullable=False),
    sa.Column('reason', sa.String(length=10), nullable=False),
    sa.Column('removed', sa.JSON(), nullable=False),
    sa.Column('created_at', sa.DateTime(), nullable=False),
    sa.CheckConstraint("reason in ('request', 'retention')", name=op.f('ck_erasure_records_reason')),
    sa.CheckConstraint("subject in ('client', 'case')", name=op.f('ck_erasure_records_subject')),
    sa.ForeignKeyConstraint(['actor_id'], ['users.id'], name=op.f('fk_erasure_records_actor_id_users')),
    sa.ForeignKeyConstraint(['brokerage_id'], ['brokerages.id'], name=op.f('fk_erasure_records_brokerage_id_brokerages')),
    sa.PrimaryKeyConstraint('id', name=op.f('pk_erasure_records'))
    )
    with op.batch_alter_table('erasure_records', schema=None) as batch_op:
        batch_op.create_index(batch_op.f('ix_erasure_records_brokerage_id'), ['brokerage_id'], unique=False)


def downgrade():
    with op.batch_alter_table('erasure_records', schema=None) as batch_op:
        batch_op.drop_index(batch_op.f('ix_erasure_records_brokerage_id'))
    op.drop_table('erasure_records')
    with op.batch_alter_table('lender_packages', schema=None) as batch_op:
        batch_op.drop_index(batch_op.f('ix_lender_packages_workspace_id'))
        batch_op.drop_index(batch_op.f('ix_lender_packages_brokerage_id'))
    op.drop_table('lender_packages')
    with op.batch_alter_table('credit_reservations', schema=None) as batch_op:
        batch_op.create_foreign_key(batch_op.f('fk_credit_reservations_job_id_extraction_jobs'),
                                    'extraction_jobs', ['job_id'], ['id'])
    with op.batch_alter_table('workspaces', schema=None) as batch_op:
        batch_op.drop_index(batch_op.f('ix_workspaces_closed_at'))
        batch_op.drop_column('closed_at')
