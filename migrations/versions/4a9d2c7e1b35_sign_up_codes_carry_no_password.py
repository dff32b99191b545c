"""sign-up codes carry no password: the password comes with the code when it is used (issue 30, 4)

A sign-up used to keep the password typed with it on its code, and the newest code's became the account's: a stranger
who signed up for someone's email after them chose the password its owner then confirmed. Codes still pending keep
working; whoever uses one now sends the password along.

Revision ID: 4a9d2c7e1b35
Revises: 2108e79b029e
Create Date: 2026-11-27 07:20:00.000000

"""
from alembic import op
import sqlalchemy as sa


# revision identifiers, used by Alembic.
revision = '4a9d2c7e1b35'
down_revision = '2108e79b029e'
branch_labels = None
depends_on = None


def upgrade():
    with op.batch_alter_table('account_codes', schema=None) as batch_op:
        batch_op.drop_column('password_hash')


def downgrade():
    with op.batch_alter_table('account_codes', schema=None) as batch_op:
        batch_op.add_column(sa.Column('password_hash', sa.String(length=255), nullable=True))
