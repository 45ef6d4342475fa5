"""Table settings: listed in the lobby, the turn timer.

Revision ID: 0003
Revises: 0002
"""

import sqlalchemy as sa
from alembic import op

revision = "0003"
down_revision = "0002"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "rn_table_settings",
        sa.Column("game_id", sa.String(32), sa.ForeignKey("rn_games.id", ondelete="CASCADE"),
                  primary_key=True),
        sa.Column("listed", sa.Boolean, nullable=False),
        sa.Column("settings", sa.Text, nullable=False),
    )


def downgrade() -> None:
    op.drop_table("rn_table_settings")
