"""A seat's email notices (issue 20 §3): who to tell that the seat must decide, and whether the
current wait was told.

Revision ID: 0007
Revises: 0006
"""

import sqlalchemy as sa
from alembic import op

revision = "0007"
down_revision = "0006"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "rn_mail",
        sa.Column("game_id", sa.String(32), sa.ForeignKey("rn_games.id", ondelete="CASCADE"),
                  primary_key=True),
        sa.Column("seat", sa.Integer, primary_key=True),
        sa.Column("email", sa.String(254), nullable=True),
        sa.Column("lang", sa.String(8), nullable=False),
        sa.Column("unsub", sa.String(64), nullable=False, unique=True),
        sa.Column("sent", sa.Boolean, nullable=False, server_default=sa.false()),
    )


def downgrade() -> None:
    op.drop_table("rn_mail")
