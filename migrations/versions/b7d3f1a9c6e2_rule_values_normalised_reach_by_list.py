"""availability rules' values stored trimmed and in lower case, with an index on (kind, value, content_id); contents.reach
tells an allow list of countries (only_countries) from a block list (except_countries), in place of by_country: the
lists' "available here" filter then reads the rules naming the viewer's country alone, an index range
(app/services/catalogue/reach.py; issue 33)

Revision ID: b7d3f1a9c6e2
Revises: 98d40bce031b
Create Date: 2026-12-02 14:00:00.000000

"""
from alembic import op
import sqlalchemy as sa


# revision identifiers, used by Alembic.
revision = 'b7d3f1a9c6e2'
down_revision = '98d40bce031b'
branch_labels = None
depends_on = None

RULES = sa.table('availability_rules', sa.column('id', sa.Integer), sa.column('content_id', sa.Integer),
                 sa.column('kind', sa.String), sa.column('value', sa.String))


def _reach(contents, lists):
    """app/services/catalogue/reach.py ``reach`` at this revision (``lists``), or at the one before."""
    episodes = sa.table('episodes', sa.column('content_id', sa.Integer), sa.column('master_file_path', sa.String))

    def rule(*kinds):
        # the enum's values compared as text: PostgreSQL's availability_rule_kind, SQLite's VARCHAR alike
        return sa.exists().where(RULES.c.content_id == contents.c.id, sa.cast(RULES.c.kind, sa.String).in_(kinds))

    media = sa.exists().where(episodes.c.content_id == contents.c.id, episodes.c.master_file_path.is_not(None),
                              episodes.c.master_file_path != '')
    countries = ((rule('allow_country'), 'only_countries'), (rule('block_country'), 'except_countries')) if lists \
        else ((rule('allow_country', 'block_country'), 'by_country'),)
    return sa.case((sa.not_(media), 'nowhere'), (rule('allow_domain'), 'nowhere'), *countries, else_='everywhere')


def upgrade():
    other = RULES.alias('other')
    normal = sa.func.lower(sa.func.trim(RULES.c.value))
    # a value that is another's of the same content and kind once normalised goes (the first one stays)
    op.execute(RULES.delete().where(sa.exists().where(
        other.c.content_id == RULES.c.content_id, other.c.kind == RULES.c.kind, other.c.id < RULES.c.id,
        sa.func.lower(sa.func.trim(other.c.value)) == normal)))
    op.execute(RULES.update().where(RULES.c.value != normal).values(value=normal))
    with op.batch_alter_table('availability_rules', schema=None) as batch_op:
        batch_op.create_index('ix_availability_rules_kind_value', ['kind', 'value', 'content_id'], unique=False)
    contents = sa.table('contents', sa.column('id', sa.Integer), sa.column('reach', sa.String))
    op.execute(contents.update().values(reach=_reach(contents, lists=True)))


def downgrade():
    contents = sa.table('contents', sa.column('id', sa.Integer), sa.column('reach', sa.String))
    op.execute(contents.update().values(reach=_reach(contents, lists=False)))
    with op.batch_alter_table('availability_rules', schema=None) as batch_op:
        batch_op.drop_index('ix_availability_rules_kind_value')
