"""episode markers (issue 35): intro start and end, credits start, and the intro the season's detection suggests

Revision ID: a35c7e2d9f41
Revises: e6b1d4a9c3f2
Create Date: 2026-11-27 19:40:00.000000

"""
from alembic import op
import sqlalchemy as sa


# revision identifiers, used by Alembic.
revision = 'a35c7e2d9f41'
down_revision = 'e6b1d4a9c3f2'
branch_labels = None
depends_on = None

COLUMNS = ('intro_start', 'intro_end', 'credits_start', 'intro_suggested_start', 'intro_suggested_end')


def upgrade():
    with op.batch_alter_table('episodes', schema=None) as batch_op:
        for name in COLUMNS:
            batch_op.add_column(sa.Column(name, sa.Float(), nullable=True))


def downgrade():
    with op.batch_alter_table('episodes', schema=None) as batch_op:
        for name in reversed(COLUMNS):
            batch_op.drop_column(name)
