"""Issue 9: the schema has a version and migrations (Alembic, web/migrations). A new database is
made by the migrations; a database made before they existed is recognised, stamped and upgraded
with every game intact; the migrated schema is exactly what the code's tables describe."""

from __future__ import annotations

from pathlib import Path

from alembic.autogenerate import compare_metadata
from alembic.runtime.migration import MigrationContext
from pgcluster import database_url
from sqlalchemy import (
    Column,
    Float,
    ForeignKey,
    Integer,
    MetaData,
    String,
    Table,
    Text,
    create_engine,
    insert,
)

from rednovember.web import schema
from rednovember.web.store import Store, metadata


def _old_schema() -> MetaData:
    """The tables as the server made them with create_all before migrations (commit 59d9197)."""
    md = MetaData()
    Table("rn_games", md, Column("id", String(32), primary_key=True),
          Column("config", Text, nullable=False), Column("status", String(16), nullable=False),
          Column("version", Integer, nullable=False),
          Column("creator_hash", String(64), nullable=False), Column("result", Text),
          Column("created", Float, nullable=False), Column("updated", Float, nullable=False))
    Table("rn_seats", md,
          Column("game_id", String(32), ForeignKey("rn_games.id", ondelete="CASCADE"),
                 primary_key=True),
          Column("seat", Integer, primary_key=True), Column("kind", String(8), nullable=False),
          Column("name", String(80)), Column("bot", String(32)), Column("token_hash", String(64)))
    Table("rn_actions", md,
          Column("game_id", String(32), ForeignKey("rn_games.id", ondelete="CASCADE"),
                 primary_key=True),
          Column("idx", Integer, primary_key=True), Column("action", String(64), nullable=False),
          Column("seat", Integer, nullable=False), Column("at", Float, nullable=False))
    Table("rn_chat", md,
          Column("game_id", String(32), ForeignKey("rn_games.id", ondelete="CASCADE"),
                 primary_key=True),
          Column("idx", Integer, primary_key=True), Column("seat", Integer, nullable=False),
          Column("name", String(80)), Column("text", Text, nullable=False),
          Column("at", Float, nullable=False))
    return md


def test_a_new_database_gets_the_newest_schema(tmp_path: Path) -> None:
    store = Store(database_url(tmp_path / "new.db"))
    try:
        assert store.schema == schema.head() == schema.current(store.engine)
        with store.engine.connect() as conn:
            assert compare_metadata(MigrationContext.configure(conn), metadata) == []
    finally:
        store.close()


def test_a_database_made_before_migrations_is_upgraded_with_its_games(tmp_path: Path) -> None:
    url = database_url(tmp_path / "old.db")
    old = _old_schema()
    engine = create_engine(url)
    old.create_all(engine)
    t = old.tables
    with engine.begin() as c:
        c.execute(insert(t["rn_games"]).values(
            id="g1", config='{"players": 3, "seed": 7}', status="playing", version=4,
            creator_hash="c" * 64, result=None, created=1.0, updated=2.0))
        c.execute(insert(t["rn_seats"]), [{"game_id": "g1", "seat": s, "kind": "bot",
                                            "name": "random", "bot": "random"} for s in range(3)])
        c.execute(insert(t["rn_actions"]).values(game_id="g1", idx=0, action="stay", seat=0,
                                                 at=3.0))
        c.execute(insert(t["rn_chat"]).values(game_id="g1", idx=0, seat=0, name="Ada",
                                              text="hello", at=3.5))
    engine.dispose()
    assert schema.current(create_engine(url)) is None
    store = Store(url)
    try:
        assert store.schema == schema.head()
        rec = store.load_game("g1")
        assert rec is not None and rec.version == 4 and rec.actions == ["stay"]
        assert [s.kind for s in rec.seats] == ["bot"] * 3
        assert [m["text"] for m in store.load_chat("g1", 10)] == ["hello"]
        with store.engine.connect() as conn:
            assert compare_metadata(MigrationContext.configure(conn), metadata) == []
    finally:
        store.close()
    again = Store(url)  # opening a current database changes nothing
    assert again.schema == schema.head()
    again.close()


def test_migration_0011_keeps_confirmed_seats_and_the_links_already_sent(tmp_path: Path) -> None:
    """A seat's yes became a yes per game (web/mail.py): a seat whose address was confirmed
    keeps its emails; one whose address was asked keeps the link already in the mailbox (the
    address's own), which confirms the seats it was sent for; one whose address was never
    asked gets a link when it next waits."""
    from sqlalchemy import select

    from rednovember.web.mail import answer, unconfirmed
    from rednovember.web.store import address_table, mail_table

    url = database_url(tmp_path / "consent.db")
    engine = create_engine(url)
    schema.upgrade(engine, "0010")
    addresses = [("yes@example.org", "yes", "link-yes"), ("asked@example.org", "asked", "link-asked")]
    seats = [("Yes@example.org", "g0"), ("asked@example.org", "g1"), ("new@example.org", "g2"),
             (None, "g3")]
    with engine.begin() as c:
        for gid in ("g0", "g1", "g2", "g3"):
            c.execute(insert(Table("rn_games", MetaData(), autoload_with=c)).values(
                id=gid, config="{}", status="playing", version=1, creator_hash="x",
                created=1.0, updated=1.0))
        c.execute(insert(Table("rn_address", MetaData(), autoload_with=c)),
                  [{"email": e, "state": st, "secret": sec, "lang": "en", "asked": 1.0,
                    "day": 1.0, "sent": 1} for e, st, sec in addresses])
        c.execute(insert(Table("rn_mail", MetaData(), autoload_with=c)),
                  [{"game_id": gid, "seat": 0, "email": e, "lang": "en", "unsub": f"u-{gid}",
                    "sent": False} for e, gid in seats])
    engine.dispose()
    store = Store(url)
    try:
        with store.engine.connect() as c:
            rows = c.execute(select(mail_table.c.game_id, mail_table.c.confirm,
                                    mail_table.c.confirmed).order_by(mail_table.c.game_id)).all()
        assert [tuple(r) for r in rows] == [("g0", "link-yes", True), ("g1", "link-asked", False),
                                            ("g2", None, False), ("g3", None, False)]
        link = answer(store.engine, "link-asked", True)
        assert link is not None and link.games == ["g1"]
        asking = unconfirmed(store.engine, "g2", 0)
        assert asking is not None and asking[0] == "new@example.org" and len(asking[2]) >= 16
        assert unconfirmed(store.engine, "g1", 0) is None  # confirmed now
        with store.engine.connect() as c:
            assert c.execute(select(address_table.c.state).where(
                address_table.c.email == "asked@example.org")).scalar_one() == "yes"
            # migration 0012: the confirmations of the day counted apart, from 0
            assert c.execute(select(address_table.c.asks)).scalars().all() == [0, 0]
    finally:
        store.close()
