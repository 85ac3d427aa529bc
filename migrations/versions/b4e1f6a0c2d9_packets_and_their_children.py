"""packets: one upload holding several documents, and the documents found in it (issue 40)

Revision ID: b4e1f6a0c2d9
Revises: e5c2b7d94a18
Create Date: 2026-12-06 21:40:00

"""
from alembic import op
import sqlalchemy as sa


# revision identifiers, used by Alembic.
revision = 'b4e1f6a0c2d9'
down_revision = "e5c2b7d94a18"
branch_labels = None
depends_on = None

PAGES = ("(first_page is null) = (last_page is null) and (first_page is null or "
         "(first_page >= 1 and last_page >= first_page))")


def upgrade():
    with op.batch_alter_table('documents', schema=None) as batch_op:
        batch_op.add_column(sa.Column('packet_id', sa.String(length=32), nullable=True))
        batch_op.add_column(sa.Column('part_number', sa.Integer(), nullable=True))
        batch_op.add_column(sa.Column('first_page', sa.Integer(), nullable=True))
        batch_op.add_column(sa.Column('last_page', sa.Integer(), nullable=True))
        batch_op.create_foreign_key(batch_op.f('fk_documents_packet_id_documents'), 'documents', ['packet_id'],
                                    ['id'], ondelete='SET NULL')
        batch_op.create_unique_constraint('uq_documents_packet_part', ['packet_id', 'part_number'])
        batch_op.create_check_constraint('pages', PAGES)
    op.create_table(
        'packets',
        sa.Column('document_id', sa.String(length=32), nullable=False),
        sa.Column('brokerage_id', sa.Integer(), nullable=False),
        sa.Column('state', sa.String(length=10), nullable=False),
        sa.Column('parts', sa.JSON(), nullable=False),
        sa.Column('revision', sa.Integer(), nullable=False),
        sa.Column('split_job_id', sa.String(length=32), nullable=True),
        sa.Column('decided_by_id', sa.Integer(), nullable=True),
        sa.Column('created_at', sa.DateTime(), nullable=False),
        sa.Column('updated_at', sa.DateTime(), nullable=False),
        sa.CheckConstraint("state in ('reading', 'unsure', 'split', 'single')", name=op.f('ck_packets_state')),
        sa.ForeignKeyConstraint(['brokerage_id'], ['brokerages.id'], name=op.f('fk_packets_brokerage_id_brokerages')),
        sa.ForeignKeyConstraint(['decided_by_id'], ['users.id'], name=op.f('fk_packets_decided_by_id_users')),
        sa.ForeignKeyConstraint(['document_id'], ['documents.id'], name=op.f('fk_packets_document_id_documents'),
                                ondelete='CASCADE'),
        sa.PrimaryKeyConstraint('document_id', name=op.f('pk_packets')),
    )
    with op.batch_alter_table('packets', schema=None) as batch_op:
        batch_op.create_index(batch_op.f('ix_packets_brokerage_id'), ['brokerage_id'], unique=False)
    with op.batch_alter_table('extraction_jobs', schema=None) as batch_op:
        batch_op.drop_constraint(batch_op.f('ck_extraction_jobs_mode'), type_='check')
        batch_op.create_check_constraint('mode', "mode in ('first', 'reprocess', 'customise', 'split')")
    with op.batch_alter_table('document_versions', schema=None) as batch_op:
        batch_op.drop_constraint(batch_op.f('ck_document_versions_cause'), type_='check')
        batch_op.create_check_constraint(
            'cause', "cause in ('generated', 'reprocessed', 'customised', 'corrected', 'reverted', 'resplit')")


def downgrade():
    with op.batch_alter_table('document_versions', schema=None) as batch_op:
        batch_op.drop_constraint(batch_op.f('ck_document_versions_cause'), type_='check')
        batch_op.create_check_constraint(
            'cause', "cause in ('generated', 'reprocessed', 'customised', 'corrected', 'reverted')")
    with op.batch_alter_table('extraction_jobs', schema=None) as batch_op:
        batch_op.drop_constraint(batch_op.f('ck_extraction_jobs_mode'), type_='check')
        batch_op.create_check_constraint('mode', "mode in ('first', 'reprocess', 'customise')")
    with op.batch_alter_table('packets', schema=None) as batch_op:
        batch_op.drop_index(batch_op.f('ix_packets_brokerage_id'))
    op.drop_table('packets')
    with op.batch_alter_table('documents', schema=None) as batch_op:
        batch_op.drop_constraint(batch_op.f('ck_documents_pages'), type_='check')
        batch_op.drop_constraint('uq_documents_packet_part', type_='unique')
        batch_op.drop_constraint(batch_op.f('fk_documents_packet_id_documents'), type_='foreignkey')
        batch_op.drop_column('last_page')
        batch_op.drop_column('first_page')
        batch_op.drop_column('part_number')
        batch_op.drop_column('packet_id')
