"""users carry a session version: a sign-out or a new password ends every earlier session

Revision ID: c10b2e55a001
Revises: b6c8190d1259
Create Date: 2026-11-30 10:50:00

"""
from alembic import op
import sqlalchemy as sa


# revision identifiers, used by Alembic.
revision = 'c10b2e55a001'
down_revision = 'b6c8190d1259'
branch_labels = None
depends_on = None


def upgrade():
    with op.batch_alter_table('users', schema=None) as batch_op:
        batch_op.add_column(sa.Column('session_version', sa.Integer(), nullable=False, server_default='0'))


def downgrade():
    with op.batch_alter_table('users', schema=None) as batch_op:
        batch_op.drop_column('session_version')
