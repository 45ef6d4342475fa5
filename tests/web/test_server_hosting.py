"""Hosting the server (issue 9): settings from flags, environment or a file; no password printed;
logs with time and level; HEAD; security headers and CSP; gzip."""

from __future__ import annotations

import argparse
import gc
import logging
import re
import time
from collections.abc import Callable, Iterator
from pathlib import Path

import httpx
import pytest
from fastapi.testclient import TestClient
from pgcluster import BACKEND
from pgcluster import database_url as db_for
from webtools import Server

from rednovember.analysis import analyse_cli
from rednovember.web import logs
from rednovember.web.app import create_app
from rednovember.web.headers import CSP
from rednovember.web.options import DEFAULT_DB, add_arguments, database_url
from rednovember.web.serve import GC_THRESHOLDS, safe_url, tune_gc
from rednovember.web.winchance import SEED, WEB_ROLLOUTS


def _parse(argv: list[str]) -> argparse.Namespace:
    p = argparse.ArgumentParser()
    add_arguments(p)
    return p.parse_args(argv)


def test_settings_come_from_the_environment_and_flags_win(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("REDNOVEMBER_HOST", "0.0.0.0")
    monkeypatch.setenv("REDNOVEMBER_PORT", "9001")
    monkeypatch.setenv("REDNOVEMBER_LOG_LEVEL", "warning")
    monkeypatch.setenv("REDNOVEMBER_ACCESS_LOG", "1")
    monkeypatch.setenv("REDNOVEMBER_DB", "sqlite:///from-env.db")
    args = _parse([])
    assert (args.host, args.port, args.log_level, args.access_log) == ("0.0.0.0", 9001, "warning",
                                                                       True)
    assert database_url(args) == "sqlite:///from-env.db"
    args = _parse(["--port", "9002", "--db", "sqlite:///flag.db"])
    assert args.port == 9002 and database_url(args) == "sqlite:///flag.db"


def test_the_servers_win_chance_is_the_analyse_commands_by_default(
        monkeypatch: pytest.MonkeyPatch) -> None:
    # the replay viewer's curve of a game is the one `rednovember analyse SAVE` prints
    monkeypatch.delenv("REDNOVEMBER_WINCHANCE_ROLLOUTS", raising=False)
    sub = argparse.ArgumentParser().add_subparsers(dest="cmd")
    analyse_cli.add_parser(sub)
    analysed = sub.choices["analyse"].parse_args(["game.json"])
    assert _parse([]).winchance_rollouts == analysed.rollouts == WEB_ROLLOUTS
    assert analysed.seed == SEED and analysed.seat is None  # a spectator's view, as the server's
    monkeypatch.setenv("REDNOVEMBER_WINCHANCE_ROLLOUTS", "20")
    assert _parse([]).winchance_rollouts == 20


def test_the_database_url_may_come_from_a_file(tmp_path: Path,
                                               monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("REDNOVEMBER_DB", raising=False)
    secret = tmp_path / "db-url"
    secret.write_text("postgresql+psycopg://rn:s3cret@db/rn\n")
    assert database_url(_parse(["--db-file", str(secret)])) == "postgresql+psycopg://rn:s3cret@db/rn"
    monkeypatch.setenv("REDNOVEMBER_DB_FILE", str(secret))
    assert database_url(_parse([])).endswith("@db/rn")
    monkeypatch.delenv("REDNOVEMBER_DB_FILE")
    assert database_url(_parse([])) == DEFAULT_DB


def test_a_password_is_never_shown() -> None:
    shown = safe_url("postgresql+psycopg://rn:s3cret@db:5432/rn")
    assert "s3cret" not in shown and "rn@db:5432/rn" in shown.replace(":***", "")
    assert safe_url("sqlite:///games.db") == "sqlite:///games.db"
    assert "s3cret" not in safe_url("not a url s3cret://")


@pytest.fixture
def restore_logging() -> Iterator[None]:
    root = logging.getLogger()
    handlers, level = root.handlers[:], root.level
    yield
    root.handlers[:] = handlers
    root.setLevel(level)
    logging.getLogger("uvicorn.access").disabled = False


@pytest.mark.usefixtures("restore_logging")
def test_the_server_freezes_its_own_objects_out_of_the_collector() -> None:
    """Full collections are whole-server pauses (bench/load_web.py: 0.1-0.3 s at 500 games):
    the program's own objects are frozen and the young generation is large."""
    before = gc.get_threshold()
    try:
        tune_gc()
        assert gc.get_threshold() == GC_THRESHOLDS
        assert gc.get_freeze_count() > 10_000  # the modules, classes and functions loaded
        assert GC_THRESHOLDS[0] >= 10 * before[0]
    finally:
        gc.unfreeze()
        gc.set_threshold(*before)


@pytest.mark.usefixtures("logging_restored")
def test_log_lines_carry_time_and_level(capsys: pytest.CaptureFixture[str]) -> None:
    logs.configure("info", "text")
    logging.getLogger("rednovember.web").warning("hello %s", "there")
    line = capsys.readouterr().err.strip().splitlines()[-1]
    assert re.match(r"^\d{4}-\d\d-\d\d \d\d:\d\d:\d\d,\d{3} WARNING rednovember\.web: hello there$",
                    line), line
    logs.configure("info", "json")
    logging.getLogger("rednovember.web").info("x")
    assert '"level": "info"' in capsys.readouterr().err
    logs.configure("info", "text", access_log=False)
    assert logging.getLogger("uvicorn.access").disabled


@pytest.fixture
def server(tmp_path: Path) -> Iterator[Server]:
    url_file = tmp_path / "db-url"
    url_file.write_text(db_for(tmp_path / "games.db"))
    s = Server(tmp_path / "server.db", extra=["--db-file", str(url_file), "--access-log"],
               db_flag=False)
    s.start()
    try:
        yield s
    finally:
        s.stop()


def _log(server: Server, wanted: Callable[[str], bool]) -> str:
    text = server.log_path.read_text(errors="replace")
    assert wanted(text), text
    return text


def test_a_real_server_logs_with_time_and_level_and_serves_head(server: Server) -> None:
    assert httpx.head(server.url + "/").status_code == 200
    assert httpx.head(server.url + "/api/health").status_code == 200
    assert httpx.get(server.url + "/api/health").json() == {"ok": True}
    text = _log(server, lambda t: "GET /api/health" in t)  # the access log was asked for
    banner = next(line for line in text.splitlines() if "Red November: http" in line)
    assert re.match(r"^\d{4}-\d\d-\d\d \d\d:\d\d:\d\d,\d{3} INFO ", banner), banner
    assert BACKEND != "sqlite" or (server.db_path.parent / "games.db").exists()  # from --db-file


def test_security_headers_and_csp(server: Server) -> None:
    for path in ("/", "/api/meta", "/static/js/app.js", "/rules/en", "/api/games/nope"):
        r = httpx.get(server.url + path)
        csp = r.headers["content-security-policy"]
        if path == "/":  # the page's one inline script, its import map, allowed by its hash
            # (web/assets.py; tests/web/test_server_assets.py)
            csp = re.sub(r" 'sha256-[A-Za-z0-9+/=]{44}'", "", csp, count=1)
        assert csp == CSP, path
        assert r.headers["x-content-type-options"] == "nosniff"
        assert r.headers["x-frame-options"] == "DENY"
        assert r.headers["referrer-policy"] == "same-origin"
    assert "content-security-policy" not in httpx.get(server.url + "/docs").headers


def test_gzip_for_clients_that_accept_it(server: Server) -> None:
    r = httpx.get(server.url + "/static/js/game.js", headers={"Accept-Encoding": "gzip"})
    assert r.headers.get("content-encoding") == "gzip" and "export class GamePage" in r.text
    plain = httpx.get(server.url + "/static/js/game.js", headers={"Accept-Encoding": "identity"})
    assert "content-encoding" not in plain.headers and plain.text == r.text


def test_a_second_process_on_one_sqlite_file_refuses_to_start(tmp_path: Path) -> None:
    """Issue 9: two processes on one SQLite file each held their own copy of a game."""
    sqlite = f"sqlite:///{tmp_path / 'games.db'}"
    first = Server(tmp_path / "games.db", db_url=sqlite).start()
    try:
        second = Server(tmp_path / "games.db", db_url=sqlite)
        with pytest.raises(RuntimeError, match="did not start"):
            second.start(timeout=120)  # it exits once it sees the lock: a ceiling only
        said = second.log_path.read_text()
        assert "is already served by process" in said and "PostgreSQL" in said
        assert first.alive() and httpx.get(first.url + "/api/health").status_code == 200
    finally:
        first.kill()  # SIGKILL: the kernel releases the lock with the process
    Server(tmp_path / "games.db", db_url=sqlite).start().stop()


def test_games_are_rebuilt_when_first_asked_for_and_their_bots_resume(tmp_path: Path) -> None:
    """Issue 9: every unfinished game was rebuilt at start; now none is until it is asked for."""
    url = db_for(tmp_path / "games.db")
    with TestClient(create_app(url, bot_delay=30.0)) as client:
        made = client.post("/api/games", json={"players": 3, "seed": 4}).json()
        gid, creator = made["game"]["id"], made["creator_token"]
        for seat in range(3):
            r = client.post(f"/api/games/{gid}/seats/{seat}/bot", json={"bot": "random"},
                            headers={"X-Creator-Token": creator})
            assert r.status_code == 200, r.text
        version = client.get(f"/api/games/{gid}").json()["version"]
    with TestClient(create_app(url, bot_delay=0.0)) as client:
        hub = client.app.state.hub  # type: ignore[attr-defined]
        assert hub.games == {}
        assert client.get(f"/api/games/{gid}").json()["version"] == version
        assert gid in hub.games
        deadline = time.monotonic() + 30
        while client.get(f"/api/games/{gid}").json()["version"] <= version:
            assert time.monotonic() < deadline, "the bots did not resume"
            time.sleep(0.02)
