"""Web Push notices (issue 20 §3): a seat's push subscriptions, and the server's VAPID keys.

Revision ID: 0009
Revises: 0008
"""

import sqlalchemy as sa
from alembic import op

revision = "0009"
down_revision = "0008"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "rn_push",
        sa.Column("game_id", sa.String(32), sa.ForeignKey("rn_games.id", ondelete="CASCADE"),
                  primary_key=True),
        sa.Column("seat", sa.Integer, primary_key=True),
        sa.Column("endpoint", sa.String(1024), primary_key=True),
        sa.Column("p256dh", sa.String(100), nullable=False),
        sa.Column("auth", sa.String(32), nullable=False),
        sa.Column("lang", sa.String(8), nullable=False),
        sa.Column("created", sa.Float, nullable=False),
    )
    op.create_table(
        "rn_vapid",
        sa.Column("id", sa.Integer, primary_key=True, autoincrement=False),
        sa.Column("private", sa.String(64), nullable=False),
        sa.Column("public", sa.String(100), nullable=False),
        sa.Column("created", sa.Float, nullable=False),
    )


def downgrade() -> None:
    op.drop_table("rn_vapid")
    op.drop_table("rn_push")
