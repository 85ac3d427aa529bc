"""emails: what was sent to whom (reminders once per item per period, digests since the last),
and who opted out of which kind

Revision ID: b13e4a1c9d20
Revises: a13c7e52f0d1
Create Date: 2026-11-30 14:00:00

"""
from alembic import op
import sqlalchemy as sa


# revision identifiers, used by Alembic.
revision = 'b13e4a1c9d20'
down_revision = 'a13c7e52f0d1'
branch_labels = None
depends_on = None


def upgrade():
    op.create_table(
        'sent_notifications',
        sa.Column('id', sa.Integer(), nullable=False),
        sa.Column('user_id', sa.Integer(), nullable=False),
        sa.Column('kind', sa.String(length=32), nullable=False),
        sa.Column('subject', sa.String(length=120), nullable=False),
        sa.Column('workspace_id', sa.Integer(), nullable=True),
        sa.Column('sent_at', sa.DateTime(), nullable=False),
        sa.ForeignKeyConstraint(['user_id'], ['users.id'], name=op.f('fk_sent_notifications_user_id_users')),
        sa.ForeignKeyConstraint(['workspace_id'], ['workspaces.id'],
                                name=op.f('fk_sent_notifications_workspace_id_workspaces')),
        sa.PrimaryKeyConstraint('id', name=op.f('pk_sent_notifications')),
    )
    op.create_index('ix_sent_notifications_user_kind_subject', 'sent_notifications',
                    ['user_id', 'kind', 'subject', 'sent_at'], unique=False)
    op.create_table(
        'notification_opt_outs',
        sa.Column('user_id', sa.Integer(), nullable=False),
        sa.Column('kind', sa.String(length=32), nullable=False),
        sa.Column('created_at', sa.DateTime(), nullable=False),
        sa.ForeignKeyConstraint(['user_id'], ['users.id'], name=op.f('fk_notification_opt_outs_user_id_users')),
        sa.PrimaryKeyConstraint('user_id', 'kind', name=op.f('pk_notification_opt_outs')),
    )


def downgrade():
    op.drop_table('notification_opt_outs')
    op.drop_index('ix_sent_notifications_user_kind_subject', table_name='sent_notifications')
    op.drop_table('sent_notifications')
