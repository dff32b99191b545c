"""contents.title_sort: each title's key for the alphabetical order (issue 33), filled here for every content, with
the index of the order; the key compares by code points on both databases (PostgreSQL: the column's "C" collation)

Revision ID: 748324f3daf4
Revises: a4c2e8f61d3b
Create Date: 2026-12-01 10:00:00.000000

"""
import unicodedata

from alembic import op
import sqlalchemy as sa


# revision identifiers, used by Alembic.
revision = '748324f3daf4'
down_revision = 'a4c2e8f61d3b'
branch_labels = None
depends_on = None

BATCH = 1000


def _title_key(title):
    """app/models/sort_keys.py ``title_key`` as it is at this revision."""
    def number(digits):
        digits = (digits.lstrip('0') or '0')[:40]
        return chr(ord('0') + len(digits)) + digits

    def letter(char):
        if '\u0400' <= char <= '\u04ff':
            return 'е' if char == 'ё' else char
        base = ''.join(c for c in unicodedata.normalize('NFKD', char) if not unicodedata.combining(c)) or char
        return ''.join('\ue000' + c for c in base)

    parts, digits, apart = [], '', False
    for char in unicodedata.normalize('NFKC', title).casefold():
        is_digit = '0' <= char <= '9'
        if is_digit or char.isalpha():
            if digits and not is_digit:
                parts.append(number(digits))
                digits = ''
            if apart and parts:
                parts.append(' ')
            apart = False
            if is_digit:
                digits += char
            else:
                parts.append(letter(char))
        elif char not in "'’ʼ`":
            if digits:
                parts.append(number(digits))
                digits = ''
            apart = True
    if digits:
        parts.append(number(digits))
    return ''.join(parts)[:255]


def upgrade():
    postgresql = op.get_bind().dialect.name == 'postgresql'
    key_type = sa.String(255, collation='C') if postgresql else sa.String(255)
    # NOT NULL with a default, which SQLite adds in place (no copy of the table)
    op.add_column('contents', sa.Column('title_sort', key_type, server_default='', nullable=False))
    contents = sa.table('contents', sa.column('id', sa.Integer), sa.column('title', sa.String),
                        sa.column('title_sort', sa.String))
    connection = op.get_bind()
    last = 0
    while True:
        rows = connection.execute(sa.select(contents.c.id, contents.c.title).where(contents.c.id > last)
                                  .order_by(contents.c.id).limit(BATCH)).all()
        if not rows:
            break
        connection.execute(contents.update().where(contents.c.id == sa.bindparam('row_id'))
                           .values(title_sort=sa.bindparam('key')),
                           [{'row_id': row.id, 'key': _title_key(row.title)} for row in rows])
        last = rows[-1].id
    op.create_index('ix_contents_title_order', 'contents', ['published', 'title_sort', 'id'])


def downgrade():
    op.drop_index('ix_contents_title_order', table_name='contents')
    with op.batch_alter_table('contents', schema=None) as batch_op:
        batch_op.drop_column('title_sort')
