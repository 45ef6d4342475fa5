"""Turn-based tables (issue 20): the deadline of each one's decision in play, and the deadlines
each seat missed in a row, so that they survive a restart. (The pace and the seconds per
decision are table settings, in rn_table_settings' JSON.)

Revision ID: 0006
Revises: 0005
"""

import sqlalchemy as sa
from alembic import op

revision = "0006"
down_revision = "0005"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "rn_deadlines",
        sa.Column("game_id", sa.String(32), sa.ForeignKey("rn_games.id", ondelete="CASCADE"),
                  primary_key=True),
        sa.Column("version", sa.Integer, nullable=False),
        sa.Column("actions", sa.Integer, nullable=False),
        sa.Column("due", sa.Float, nullable=False),
        sa.Column("misses", sa.Text, nullable=False),
    )
    op.create_index("ix_rn_deadlines_due", "rn_deadlines", ["due"])


def downgrade() -> None:
    op.drop_index("ix_rn_deadlines_due", "rn_deadlines")
    op.drop_table("rn_deadlines")
