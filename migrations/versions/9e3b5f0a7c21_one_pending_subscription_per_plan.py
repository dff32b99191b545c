"""one pending subscription per account and plan: a repeated POST /subscription answers the pending one (issue 30, 13)

Every request used to add a row, forever. Of the pending rows an account already has for one plan, the newest stays
pending and the others are cancelled (not deleted: a payment the provider is still taking for one of them still
activates it), then a partial unique index holds the rule.

Revision ID: 9e3b5f0a7c21
Revises: 4a9d2c7e1b35
Create Date: 2026-11-27 08:00:00.000000

"""
from alembic import op
import sqlalchemy as sa


# revision identifiers, used by Alembic.
revision = '9e3b5f0a7c21'
down_revision = '4a9d2c7e1b35'
branch_labels = None
depends_on = None

PENDING_ONLY = sa.text("status = 'pending'")


def upgrade():
    op.execute(
        "UPDATE subscriptions SET status = 'cancelled', cancelled_at = CURRENT_TIMESTAMP "
        "WHERE status = 'pending' AND id < (SELECT MAX(newer.id) FROM subscriptions AS newer "
        "WHERE newer.account_id = subscriptions.account_id AND newer.plan = subscriptions.plan "
        "AND newer.status = 'pending')"
    )
    with op.batch_alter_table('subscriptions', schema=None) as batch_op:
        batch_op.create_index('ux_subscriptions_pending_plan', ['account_id', 'plan'], unique=True,
                              sqlite_where=PENDING_ONLY, postgresql_where=PENDING_ONLY)


def downgrade():
    with op.batch_alter_table('subscriptions', schema=None) as batch_op:
        batch_op.drop_index('ux_subscriptions_pending_plan')
