"""The spectators' connections of each process, counted in the database so that the caps on
spectators hold however many processes share it (issue 19 §2, §3).

Revision ID: 0008
Revises: 0007
"""

import sqlalchemy as sa
from alembic import op

revision = "0008"
down_revision = "0007"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "rn_watchers",
        sa.Column("node", sa.String(32), primary_key=True),
        sa.Column("game_id", sa.String(32), primary_key=True),
        sa.Column("client", sa.String(96), primary_key=True),
        sa.Column("count", sa.Integer, nullable=False),
        sa.Column("expires", sa.Float, nullable=False),
    )


def downgrade() -> None:
    op.drop_table("rn_watchers")
