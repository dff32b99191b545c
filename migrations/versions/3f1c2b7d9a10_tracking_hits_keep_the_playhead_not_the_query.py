"""tracking hits keep the playhead, not the whole query

A hit stored its whole query string (about 4 kB, the cache-busters and whatever else a caller put there); what the
reports and tests read of it is the ad's time when the pixel went out. That is copied into its own column, and the
query dropped.

Revision ID: 3f1c2b7d9a10
Revises: 673585b63cfb
Create Date: 2026-11-24 05:00:00

"""
import re
from urllib.parse import parse_qs

import sqlalchemy as sa
from alembic import op

revision = '3f1c2b7d9a10'
down_revision = '673585b63cfb'
branch_labels = None
depends_on = None

PLAYHEAD = re.compile(r"\d{2}:[0-5]\d:[0-5]\d(?:\.\d{3})?")
hits = sa.table("ad_tracking_hits", sa.column("id", sa.Integer), sa.column("query", sa.Text),
                sa.column("playhead", sa.String))


def upgrade():
    with op.batch_alter_table("ad_tracking_hits") as batch:
        batch.add_column(sa.Column("playhead", sa.String(length=12), nullable=False, server_default=""))
    connection = op.get_bind()
    rows = connection.execute(sa.select(hits.c.id, hits.c.query).where(hits.c.query.like("%playhead=%")))
    for hit_id, query in rows.fetchall():
        value = parse_qs(query or "").get("playhead", [""])[0]
        if PLAYHEAD.fullmatch(value):
            connection.execute(hits.update().where(hits.c.id == hit_id).values(playhead=value))
    with op.batch_alter_table("ad_tracking_hits") as batch:
        batch.alter_column("playhead", server_default=None)
        batch.drop_column("query")


def downgrade():
    with op.batch_alter_table("ad_tracking_hits") as batch:
        batch.add_column(sa.Column("query", sa.Text(), nullable=False, server_default=""))
    connection = op.get_bind()
    connection.execute(hits.update().where(hits.c.playhead != "").values(query="playhead=" + hits.c.playhead))
    with op.batch_alter_table("ad_tracking_hits") as batch:
        batch.alter_column("query", server_default=None)
        batch.drop_column("playhead")
