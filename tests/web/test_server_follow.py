"""Several processes (web/hub/follower.py): a process that loads a game from the database while
another moves it on must not keep the older copy. A notice of the other process that comes
between reading the record and holding the game in memory is kept for the game being loaded,
and the loaded copy is caught up (before, it was dropped: the copy stayed behind until the next
move, and a spectator there saw an old table; the PostgreSQL takeover test caught it now and
then). Two hubs on one SQLite file stand for the two processes; the notice is handed over by
hand, as the PostgreSQL listener would."""

from __future__ import annotations

import asyncio
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

from rednovember.rules import load_data
from rednovember.web.hub import Hub
from rednovember.web.store import GameRecord, Store


async def _caught_up(db: Path) -> tuple[int, int]:
    data = load_data()
    here, there = Hub(Store(f"sqlite:///{db}"), data), Hub(Store(f"sqlite:///{db}"), data)
    lg, _ = await there.create_game(3, None, (), 5)
    await there.take_seat(lg, 0, None, "Ada")
    old: GameRecord | None = here.store.load_game(lg.id)
    assert old is not None
    await there.take_seat(lg, 1, None, "Bea")  # the other process moves on...
    real = here.store.load_game
    stale = [old]

    def load_game(game_id: str) -> GameRecord | None:  # ...after this one read the record
        return stale.pop() if stale else real(game_id)

    here.store.load_game = load_game  # type: ignore[method-assign]
    loading = asyncio.ensure_future(here.find(lg.id))
    await asyncio.sleep(0)  # the load has begun
    here.follower.hear({"g": lg.id, "v": lg.version})  # its notice comes meanwhile
    copy = await loading
    assert copy is not None and copy.version == old.version  # loaded behind...
    for _ in range(200):  # ...and caught up
        if copy.version == lg.version:
            break
        await asyncio.sleep(0.01)
    return copy.version, lg.version


def test_a_game_loaded_while_another_process_moves_it_is_caught_up(tmp_path: Path) -> None:
    # in a thread of its own: the browser tests' sync Playwright leaves an event loop running in
    # this one, where asyncio.run refuses to start
    with ThreadPoolExecutor(1) as pool:
        mine, theirs = pool.submit(asyncio.run, _caught_up(tmp_path / "two.db")).result()
    assert mine == theirs
