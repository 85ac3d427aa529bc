"""search finds documents by file name and by their client's name, misspelt too; indexes for the
dashboard's status-and-type filter and its case and client pickers at ten million documents

Revision ID: d7a41c9e0b53
Revises: c4a9e2d7f310
Create Date: 2026-12-06 18:45:00

"""
from alembic import op


# revision identifiers, used by Alembic.
revision = 'd7a41c9e0b53'
down_revision = 'c4a9e2d7f310'
branch_labels = None
depends_on = None


def upgrade():
    op.create_index("ix_documents_brokerage_status_type_created", "documents",
                    ["brokerage_id", "status", "document_type", "created_at", "id"])
    op.create_index("ix_users_brokerage_role_id", "users", ["brokerage_id", "role", "id"])
    op.create_index("ix_workspaces_brokerage_id_id", "workspaces", ["brokerage_id", "id"])
    if op.get_bind().dialect.name == "postgresql":
        # Any part of a file name ("%rechnung_makler%"), and a client's name by any part of it or
        # by a word that resembles it (pg_trgm's <%): trigram indexes, as for titles.
        op.execute("CREATE EXTENSION IF NOT EXISTS pg_trgm")
        op.execute("CREATE INDEX ix_documents_filename_trgm ON documents USING gin (filename gin_trgm_ops)")
        op.execute("CREATE INDEX ix_users_name_trgm ON users USING gin (name gin_trgm_ops)")


def downgrade():
    if op.get_bind().dialect.name == "postgresql":
        op.execute("DROP INDEX IF EXISTS ix_users_name_trgm")
        op.execute("DROP INDEX IF EXISTS ix_documents_filename_trgm")
    op.drop_index("ix_workspaces_brokerage_id_id", "workspaces")
    op.drop_index("ix_users_brokerage_role_id", "users")
    op.drop_index("ix_documents_brokerage_status_type_created", "documents")
