"""workspaces get a planned payout date (identity papers must be valid past it)

Revision ID: c13a5d0e7f21
Revises: b13e4a1c9d20
Create Date: 2026-11-30 14:00:00

"""
from alembic import op
import sqlalchemy as sa


# revision identifiers, used by Alembic.
revision = 'c13a5d0e7f21'
down_revision = 'b13e4a1c9d20'
branch_labels = None
depends_on = None


def upgrade():
    with op.batch_alter_table('workspaces', schema=None) as batch_op:
        batch_op.add_column(sa.Column('planned_payout_date', sa.Date(), nullable=True))


def downgrade():
    with op.batch_alter_table('workspaces', schema=None) as batch_op:
        batch_op.drop_column('planned_payout_date')
