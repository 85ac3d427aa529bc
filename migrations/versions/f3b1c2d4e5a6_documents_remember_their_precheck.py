"""documents remember the pre-check taken where their bytes were (upload, /complete)

Revision ID: f3b1c2d4e5a6
Revises: d20f1a7e5b02
Create Date: 2026-11-30 13:55:00

"""
from alembic import op
import sqlalchemy as sa


# revision identifiers, used by Alembic.
revision = 'f3b1c2d4e5a6'
down_revision = 'd20f1a7e5b02'
branch_labels = None
depends_on = None


def upgrade():
    with op.batch_alter_table('documents', schema=None) as batch_op:
        batch_op.add_column(sa.Column('precheck', sa.String(length=40), nullable=True))


def downgrade():
    with op.batch_alter_table('documents', schema=None) as batch_op:
        batch_op.drop_column('precheck')
