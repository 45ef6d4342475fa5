"""Limits that hold across processes (issue 19): per-client counts in the database, the client
that created each game (for its waiting tables), and each finished game's win-chance curve,
computed once.

Revision ID: 0005
Revises: 0004
"""

import sqlalchemy as sa
from alembic import op

revision = "0005"
down_revision = "0004"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "rn_rates",
        sa.Column("key", sa.String(96), primary_key=True),
        sa.Column("bucket", sa.Integer, primary_key=True),
        sa.Column("count", sa.Integer, nullable=False),
        sa.Column("expires", sa.Float, nullable=False),
    )
    op.add_column("rn_games", sa.Column("client", sa.String(64), nullable=True))
    op.create_index("ix_rn_games_status_client", "rn_games", ["status", "client"])
    op.create_table(
        "rn_winchance",
        sa.Column("game_id", sa.String(32), sa.ForeignKey("rn_games.id", ondelete="CASCADE"),
                  primary_key=True),
        sa.Column("actions", sa.Integer, nullable=False),
        sa.Column("curve", sa.Text, nullable=False),
    )


def downgrade() -> None:
    op.drop_table("rn_winchance")
    op.drop_index("ix_rn_games_status_client", "rn_games")
    with op.batch_alter_table("rn_games") as batch:
        batch.drop_column("client")
    op.drop_table("rn_rates")
