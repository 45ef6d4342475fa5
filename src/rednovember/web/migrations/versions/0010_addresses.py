"""Email addresses confirmed by their owners, and the emails each got in a day (web/mail.py).

Revision ID: 0010
Revises: 0009
"""

import sqlalchemy as sa
from alembic import op

revision = "0010"
down_revision = "0009"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "rn_address",
        sa.Column("email", sa.String(254), primary_key=True),
        sa.Column("state", sa.String(8), nullable=False),
        sa.Column("secret", sa.String(64), nullable=False, unique=True),
        sa.Column("lang", sa.String(8), nullable=False),
        sa.Column("asked", sa.Float, nullable=True),
        sa.Column("day", sa.Float, nullable=False),
        sa.Column("sent", sa.Integer, nullable=False),
    )


def downgrade() -> None:
    op.drop_table("rn_address")
