"""A seat's address gets turn emails only once its owner said yes for that game (web/mail.py):
``rn_mail`` gains the secret of the game's confirmation link and whether it was answered yes.

Seats whose address was confirmed before keep their emails; a seat whose address was asked but
not yet answered keeps the address's old link (``rn_address.secret``), so an email already in a
mailbox still confirms the seats it was sent for, and no seat given later.

Revision ID: 0011
Revises: 0010
"""

import sqlalchemy as sa
from alembic import op

revision = "0011"
down_revision = "0010"
branch_labels = None
depends_on = None


def upgrade() -> None:
    with op.batch_alter_table("rn_mail") as batch:
        batch.add_column(sa.Column("confirm", sa.String(64), nullable=True))
        batch.add_column(sa.Column("confirmed", sa.Boolean, nullable=False,
                                   server_default=sa.false()))
        batch.create_index("ix_rn_mail_confirm", ["confirm"])
    mail = sa.table("rn_mail", sa.column("email", sa.String), sa.column("confirm", sa.String),
                    sa.column("confirmed", sa.Boolean))
    address = sa.table("rn_address", sa.column("email", sa.String), sa.column("state", sa.String),
                       sa.column("secret", sa.String))
    known = sa.func.lower(mail.c.email) == address.c.email
    op.execute(mail.update().values(
        confirmed=sa.exists().where(known, address.c.state == "yes"),
        confirm=sa.select(address.c.secret).where(known).scalar_subquery()))


def downgrade() -> None:
    with op.batch_alter_table("rn_mail") as batch:
        batch.drop_index("ix_rn_mail_confirm")
        batch.drop_column("confirmed")
        batch.drop_column("confirm")
