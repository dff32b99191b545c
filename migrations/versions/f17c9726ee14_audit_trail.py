"""the admin's audit trail: who changed which object when, its fields before and after

Revision ID: f17c9726ee14
Revises: b8e2d4f61c07
Create Date: 2026-11-25 20:16:27.512735

"""
from alembic import op
import sqlalchemy as sa


# revision identifiers, used by Alembic.
revision = 'f17c9726ee14'
down_revision = 'b8e2d4f61c07'
branch_labels = None
depends_on = None


def upgrade():
    op.create_table('audit_entries',
    sa.Column('id', sa.Integer(), nullable=False),
    sa.Column('at', sa.DateTime(timezone=True), nullable=False),
    sa.Column('account_id', sa.Integer(), nullable=True),
    sa.Column('account_label', sa.String(length=400), nullable=False),
    sa.Column('action', sa.Enum('create', 'update', 'delete', name='audit_action', native_enum=False, create_constraint=True, length=16), nullable=False),
    sa.Column('object_type', sa.String(length=64), nullable=False),
    sa.Column('object_id', sa.String(length=64), nullable=False),
    sa.Column('object_label', sa.String(length=400), nullable=False),
    sa.Column('changes', sa.JSON(), nullable=False),
    sa.ForeignKeyConstraint(['account_id'], ['accounts.id'], name=op.f('fk_audit_entries_account_id_accounts'), ondelete='SET NULL'),
    sa.PrimaryKeyConstraint('id', name=op.f('pk_audit_entries'))
    )
    with op.batch_alter_table('audit_entries', schema=None) as batch_op:
        batch_op.create_index(batch_op.f('ix_audit_entries_account_id'), ['account_id'], unique=False)
        batch_op.create_index(batch_op.f('ix_audit_entries_at'), ['at'], unique=False)
        batch_op.create_index('ix_audit_entries_object', ['object_type', 'object_id', 'at'], unique=False)



def downgrade():
    with op.batch_alter_table('audit_entries', schema=None) as batch_op:
        batch_op.drop_index('ix_audit_entries_object')
        batch_op.drop_index(batch_op.f('ix_audit_entries_at'))
        batch_op.drop_index(batch_op.f('ix_audit_entries_account_id'))

    op.drop_table('audit_entries')
