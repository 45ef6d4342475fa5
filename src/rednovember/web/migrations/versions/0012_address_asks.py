"""The confirmation emails an address got in its day, counted apart from its other emails
(web/mail.py): a player's turn emails of one game no longer use up the confirmations of the
next game they give the address in (audit, stop 64). Existing rows start at 0.

Revision ID: 0012
Revises: 0011
"""

import sqlalchemy as sa
from alembic import op

revision = "0012"
down_revision = "0011"
branch_labels = None
depends_on = None


def upgrade() -> None:
    with op.batch_alter_table("rn_address") as batch:
        batch.add_column(sa.Column("asks", sa.Integer, nullable=False, server_default="0"))


def downgrade() -> None:
    with op.batch_alter_table("rn_address") as batch:
        batch.drop_column("asks")
