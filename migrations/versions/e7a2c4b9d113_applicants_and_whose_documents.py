"""a case's applicants (the client and an optional co-applicant), and whose a document is

Revision ID: e7a2c4b9d113
Revises: b8e0c4f1a2d3
Create Date: 2026-12-06 18:20:00

"""
from alembic import op
import sqlalchemy as sa


# revision identifiers, used by Alembic.
revision = 'e7a2c4b9d113'
down_revision = 'b8e0c4f1a2d3'
branch_labels = None
depends_on = None


def upgrade():
    op.create_table(
        'applicants',
        sa.Column('id', sa.Integer(), nullable=False),
        sa.Column('brokerage_id', sa.Integer(), nullable=False),
        sa.Column('workspace_id', sa.Integer(), nullable=False),
        sa.Column('role', sa.String(length=12), nullable=False),
        sa.Column('user_id', sa.Integer(), nullable=True),
        sa.Column('name', sa.String(length=200), nullable=False),
        sa.Column('date_of_birth', sa.Date(), nullable=True),
        sa.Column('citizenship', sa.String(length=3), nullable=True),
        sa.Column('created_at', sa.DateTime(), nullable=False),
        sa.CheckConstraint("role in ('client', 'co_applicant')", name=op.f('ck_applicants_role')),
        sa.ForeignKeyConstraint(['brokerage_id'], ['brokerages.id'], name=op.f('fk_applicants_brokerage_id_brokerages')),
        sa.ForeignKeyConstraint(['workspace_id'], ['workspaces.id'], name=op.f('fk_applicants_workspace_id_workspaces')),
        sa.ForeignKeyConstraint(['user_id'], ['users.id'], name=op.f('fk_applicants_user_id_users')),
        sa.PrimaryKeyConstraint('id', name=op.f('pk_applicants')),
        sa.UniqueConstraint('workspace_id', 'role', name=op.f('uq_applicants_workspace_role')),
    )
    op.create_index(op.f('ix_applicants_brokerage_id'), 'applicants', ['brokerage_id'], unique=False)
    with op.batch_alter_table('documents', schema=None) as batch_op:
        batch_op.add_column(sa.Column('applicant_id', sa.Integer(), nullable=True))
        batch_op.add_column(sa.Column('joint', sa.Boolean(), nullable=False, server_default=sa.false()))
        batch_op.create_foreign_key(batch_op.f('fk_documents_applicant_id_applicants'), 'applicants', ['applicant_id'], ['id'],
                                    ondelete='SET NULL')
    # Every existing case gets its client as applicant, named as the client user is (its first
    # client member; a case without one gets none until a client joins).
    op.execute("""
        INSERT INTO applicants (brokerage_id, workspace_id, role, user_id, name, created_at)
        SELECT w.brokerage_id, w.id, 'client', u.id, u.name, CURRENT_TIMESTAMP
        FROM workspaces w
        JOIN users u ON u.id = (SELECT min(m.user_id) FROM workspace_members m JOIN users c ON c.id = m.user_id
                                WHERE m.workspace_id = w.id AND c.role = 'client')
    """)


def downgrade():
    with op.batch_alter_table('documents', schema=None) as batch_op:
        batch_op.drop_constraint(batch_op.f('fk_documents_applicant_id_applicants'), type_='foreignkey')
        batch_op.drop_column('joint')
        batch_op.drop_column('applicant_id')
    op.drop_index(op.f('ix_applicants_brokerage_id'), table_name='applicants')
    op.drop_table('applicants')
