"""contents.reach (issue 33): where the API plays each content, derived from its episodes' master paths and its
availability rules (app/services/catalogue/reach.py), for the lists' "available here" filter; written here for every
content

Revision ID: a4c2e8f61d3b
Revises: d3a7c5e9b1f2
Create Date: 2026-12-02 10:00:00.000000

"""
from alembic import op
import sqlalchemy as sa


# revision identifiers, used by Alembic.
revision = 'a4c2e8f61d3b'
down_revision = 'd3a7c5e9b1f2'
branch_labels = None
depends_on = None


def _reach(contents):
    """app/services/catalogue/reach.py ``reach`` as it is at this revision."""
    episodes = sa.table('episodes', sa.column('content_id', sa.Integer), sa.column('master_file_path', sa.String))
    rules = sa.table('availability_rules', sa.column('content_id', sa.Integer), sa.column('kind', sa.String))

    def rule(*kinds):
        # the enum's values compared as text: PostgreSQL's availability_rule_kind, SQLite's VARCHAR alike
        return sa.exists().where(rules.c.content_id == contents.c.id, sa.cast(rules.c.kind, sa.String).in_(kinds))

    media = sa.exists().where(episodes.c.content_id == contents.c.id, episodes.c.master_file_path.is_not(None),
                              episodes.c.master_file_path != '')
    return sa.case((sa.not_(media), 'nowhere'), (rule('allow_domain'), 'nowhere'),
                   (rule('allow_country', 'block_country'), 'by_country'), else_='everywhere')


def upgrade():
    with op.batch_alter_table('contents', schema=None) as batch_op:
        batch_op.add_column(sa.Column('reach', sa.String(length=16), server_default='nowhere', nullable=False))
    contents = sa.table('contents', sa.column('id', sa.Integer), sa.column('reach', sa.String))
    op.execute(contents.update().values(reach=_reach(contents)))


def downgrade():
    with op.batch_alter_table('contents', schema=None) as batch_op:
        batch_op.drop_column('reach')
