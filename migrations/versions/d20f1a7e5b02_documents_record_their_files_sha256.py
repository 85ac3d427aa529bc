"""documents record the SHA-256 of their file, taken when the upload completes

Revision ID: d20f1a7e5b02
Revises: c10b2e55a001
Create Date: 2026-11-30 11:10:00

"""
from alembic import op
import sqlalchemy as sa


# revision identifiers, used by Alembic.
revision = 'd20f1a7e5b02'
down_revision = 'c10b2e55a001'
branch_labels = None
depends_on = None


def upgrade():
    with op.batch_alter_table('documents', schema=None) as batch_op:
        batch_op.add_column(sa.Column('sha256', sa.String(length=64), nullable=True))


def downgrade():
    with op.batch_alter_table('documents', schema=None) as batch_op:
        batch_op.drop_column('sha256')
