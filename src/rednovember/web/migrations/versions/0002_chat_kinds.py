"""Chat lines that no player typed (a ping on the board, an undo line): their kind and fields.

Revision ID: 0002
Revises: 0001
"""

import sqlalchemy as sa
from alembic import op

revision = "0002"
down_revision = "0001"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "rn_chat_kinds",
        sa.Column("game_id", sa.String(32), sa.ForeignKey("rn_games.id", ondelete="CASCADE"),
                  primary_key=True),
        sa.Column("idx", sa.Integer, primary_key=True),
        sa.Column("kind", sa.String(16), nullable=False),
        sa.Column("detail", sa.Text, nullable=False),
    )


def downgrade() -> None:
    op.drop_table("rn_chat_kinds")
