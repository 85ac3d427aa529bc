"""a search reads only the viewer's brokerage's names and file names: trigram indexes that start
with the brokerage (btree_gin)

`(brokerage_id, name gin_trgm_ops)` on users and `(brokerage_id, filename gin_trgm_ops)` on
documents: the trigram indexes on the column alone found a surname's or a file name's matches in
every brokerage and fetched each row before its brokerage was checked (27,000 clients named
Sato for the 5,400 of the largest brokerage; 36,000 documents for a common file name, 7,000 of
them its). PostgreSQL only; built concurrently (documents: about a minute at ten million rows,
writes go on meanwhile). The indexes on the column alone stay: titles have no other, and a
platform admin's search spans every brokerage.

Revision ID: a9d3f6c1e847
Revises: b4e1f6a0c2d9
Create Date: 2026-12-06 23:10:00

"""
from alembic import op


# revision identifiers, used by Alembic.
revision = 'a9d3f6c1e847'
down_revision = 'b4e1f6a0c2d9'
branch_labels = None
depends_on = None

INDEXES = (("ix_users_brokerage_name_trgm", "users", "name"),
           ("ix_documents_brokerage_filename_trgm", "documents", "filename"))


def upgrade():
    if op.get_bind().dialect.name != "postgresql":
        return
    op.execute("CREATE EXTENSION IF NOT EXISTS btree_gin")  # the brokerage's integer as a GIN key
    with op.get_context().autocommit_block():
        for name, table, column in INDEXES:
            # A concurrent build cut short leaves an invalid index behind: a second run builds it anew.
            op.execute(f"DROP INDEX CONCURRENTLY IF EXISTS {name}")
            op.execute(f"CREATE INDEX CONCURRENTLY {name} ON {table} USING gin (brokerage_id, {column} gin_trgm_ops)")


def downgrade():
    if op.get_bind().dialect.name != "postgresql":
        return
    for name, _, _ in INDEXES:
        op.execute(f"DROP INDEX IF EXISTS {name}")
