"""cache counters: the catalogue's generation and the caches' epochs, shared by every worker when there is no Redis

Revision ID: 2108e79b029e
Revises: f17c9726ee14
Create Date: 2026-11-25 20:29:38.724223

"""
from alembic import op
import sqlalchemy as sa


# revision identifiers, used by Alembic.
revision = '2108e79b029e'
down_revision = 'f17c9726ee14'
branch_labels = None
depends_on = None


def upgrade():
    op.create_table('cache_counters',
    sa.Column('name', sa.String(length=128), nullable=False),
    sa.Column('value', sa.BigInteger(), nullable=False),
    sa.PrimaryKeyConstraint('name', name=op.f('pk_cache_counters'))
    )


def downgrade():
    op.drop_table('cache_counters')
