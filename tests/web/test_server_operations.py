"""Issue 19 §4, operations: migrations under a lock (three processes on an empty database), a
database of a newer version refused in one line, ``rednovember db``, ``/api/ready`` through a
PostgreSQL outage, backup and restore of every table, one-line errors for bad flags and
variables, and ``scripts/serve.sh`` on PostgreSQL."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest
from pgcluster import BACKEND, Cluster, cluster
from pgcluster import database_url as db_for
from sqlalchemy import MetaData, create_engine, select, text
from webtools import ROOT, Server, WsClient, auth, free_port, seated_game

from rednovember import __version__
from rednovember.cli import main
from rednovember.web import schema


def rn(*args: str, env: dict[str, str] | None = None,
       timeout: float = 120) -> subprocess.CompletedProcess[str]:
    """The ``rednovember`` command, as a user runs it."""
    return subprocess.run([sys.executable, "-m", "rednovember", *args], capture_output=True,
                          text=True, timeout=timeout, check=False, cwd=ROOT,
                          env={**os.environ, **(env or {})})


def one_error_line(stderr: str) -> str:
    """The only line of ``stderr`` (no traceback, nothing else)."""
    lines = stderr.strip().splitlines()
    assert len(lines) == 1 and "Traceback" not in stderr, stderr
    return lines[0]


def healthy(url: str) -> bool:
    try:
        return httpx.get(url + "/api/health", timeout=1).status_code == 200
    except httpx.HTTPError:
        return False


# --- migrations ------------------------------------------------------------------------------------
@pytest.mark.skipif(BACKEND != "postgresql", reason="several processes share PostgreSQL only")
def test_three_server_processes_starting_together_on_an_empty_database_all_serve(
        tmp_path: Path) -> None:
    """1 in 3 trials failed (UniqueViolation on alembic_version): now the migrations run under an
    advisory lock, one process migrates, the others find the schema current."""
    for trial in range(3):
        url = cluster().database(f"together_{os.getpid()}_{trial}")
        ports = [free_port() for _ in range(3)]
        logs = [tmp_path / f"t{trial}-{i}.log" for i in range(3)]
        procs = []
        for port, log in zip(ports, logs, strict=True):
            with log.open("wb") as out:
                procs.append(subprocess.Popen(
                    [sys.executable, "-m", "rednovember", "serve", "--port", str(port), "--db",
                     url, "--no-limits"], stdout=out, stderr=subprocess.STDOUT, cwd=ROOT))
        try:
            waiting = set(range(3))
            deadline = time.monotonic() + 60
            while waiting and time.monotonic() < deadline:
                for i in list(waiting):
                    assert procs[i].poll() is None, logs[i].read_text()
                    if healthy(f"http://127.0.0.1:{ports[i]}"):
                        waiting.discard(i)
                time.sleep(0.05)
            assert not waiting, [logs[i].read_text() for i in waiting]
            for log in logs:
                assert "Traceback" not in log.read_text() and "Error" not in log.read_text()
            assert schema.current(create_engine(url)) == schema.head()
        finally:
            for p in procs:
                p.terminate()
            for p in procs:
                p.wait(15)


def test_three_upgrades_at_once_on_an_empty_database_all_succeed(tmp_path: Path) -> None:
    url = db_for(tmp_path / "empty.db")
    procs = [subprocess.Popen([sys.executable, "-m", "rednovember", "db", "upgrade", "--db", url],
                              stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, cwd=ROOT)
             for _ in range(3)]
    outs = [p.communicate(timeout=120) for p in procs]
    assert [p.returncode for p in procs] == [0, 0, 0], outs
    assert sorted(o[0].strip() for o in outs)[-1] == f"schema revision none -> {schema.head()}"
    assert rn("db", "current", "--db", url).stdout.strip() == (
        f"database {schema.head()}, program {schema.head()} (current)")


def _set_revision(url: str, revision: str) -> None:
    engine = create_engine(url)
    with engine.begin() as c:
        c.execute(text("UPDATE alembic_version SET version_num = :r"), {"r": revision})
    engine.dispose()


def test_a_database_of_a_newer_version_is_refused_in_one_line(tmp_path: Path) -> None:
    url = db_for(tmp_path / "newer.db")
    assert rn("db", "upgrade", "--db", url).returncode == 0
    _set_revision(url, "0999")
    done = rn("serve", "--db", url, "--port", str(free_port()))
    line = one_error_line(done.stderr)
    assert done.returncode == 1 and "0999" in line and schema.head() in line, line
    for command in (("db", "current"), ("db", "upgrade"), ("backup", str(tmp_path / "b.json"))):
        done = rn(*command, "--db", url)
        assert done.returncode == 1 and "0999" in one_error_line(done.stderr), command
    assert not (tmp_path / "b.json").exists()
    assert schema.current(create_engine(url)) == "0999"  # untouched


def test_db_current_upgrade_and_stamp(tmp_path: Path) -> None:
    url = db_for(tmp_path / "cmd.db")
    head = schema.head()
    assert rn("db", "current", "--db", url).stdout.strip() == (
        f"database none, program {head} (to upgrade)")
    assert rn("db", "upgrade", "--db", url).stdout.strip() == f"schema revision none -> {head}"
    assert rn("db", "upgrade", "--db", url).stdout.strip() == (
        f"schema revision {head}: already the newest")
    assert rn("db", "stamp", "0003", "--db", url).stdout.strip() == (
        "schema revision recorded: 0003")
    assert rn("db", "current", "--db", url).stdout.strip() == (
        f"database 0003, program {head} (to upgrade)")
    assert rn("db", "stamp", "head", "--db", url).returncode == 0
    bad = rn("db", "stamp", "0999", "--db", url)
    assert bad.returncode == 1 and "0999" in one_error_line(bad.stderr)
    assert schema.current(create_engine(url)) == head


# --- readiness -------------------------------------------------------------------------------------
def _until(url: str, status: int, timeout: float = 30) -> httpx.Response:
    deadline = time.monotonic() + timeout
    while True:
        r = httpx.get(url, timeout=10)
        if r.status_code == status or time.monotonic() > deadline:
            return r
        time.sleep(0.1)


def test_ready_is_503_while_postgresql_is_stopped_and_health_stays_200(tmp_path: Path) -> None:
    own = Cluster().start()  # a cluster of its own: this test stops it
    server = Server(tmp_path / "ready.db", db_url=own.database("ready"))
    try:
        server.start()
        assert httpx.get(server.url + "/api/ready").json() == {"ok": True}
        own.pause()
        r = _until(server.url + "/api/ready", 503)
        assert r.status_code == 503 and r.json()["error"]["code"] == "unavailable", r.text
        assert httpx.get(server.url + "/api/health").status_code == 200  # liveness
        own.resume()
        r = _until(server.url + "/api/ready", 200)
        assert r.status_code == 200, r.text
        assert server.alive()
    finally:
        server.stop()
        own.stop()


# --- backup and restore ----------------------------------------------------------------------------
def _play(server: Server) -> dict[str, Any]:
    """Two games with seats, actions, a chat line and a bot seat; what a player sees of each."""
    seen: dict[str, Any] = {}
    with httpx.Client(base_url=server.url, timeout=10) as api:
        gid, tokens, _ = seated_game(api, 3, turn_timer=60)
        for _ in range(4):
            mover = api.get(f"/api/games/{gid}").json()["to_move"]
            legal = api.get(f"/api/games/{gid}/legal", headers=auth(tokens[mover])).json()
            r = api.post(f"/api/games/{gid}/act", json={"action": legal["actions"][0]["text"]},
                         headers=auth(tokens[mover]))
            assert r.status_code == 200, r.text
        ws = WsClient(server.url, gid, [tokens[1]])
        try:
            assert ws.request({"type": "chat", "seat": 1, "text": "Ein Prosit! ✓"})["type"] == "ack"
        finally:
            ws.close()
        other, _, other_creator = seated_game(api, 4)
        r = api.post(f"/api/games/{other}/seats/2/bot", json={"bot": "random"},
                     headers={"X-Creator-Token": other_creator})
        assert r.status_code == 200, r.text
        for g in (gid, other):
            seen[g] = api.get(f"/api/games/{g}").json()
        seen["state"] = api.get(f"/api/games/{gid}/state", headers=auth(tokens[0])).json()
        seen["token"] = tokens[0]
        seen["game"] = gid
    return seen


def _rows(url: str) -> dict[str, list[tuple[Any, ...]]]:
    engine = create_engine(url)
    md = MetaData()
    out = {}
    with engine.connect() as c:
        md.reflect(c)
        for t in md.sorted_tables:
            order = list(t.primary_key.columns) or list(t.columns)
            out[t.name] = sorted(tuple(r) for r in c.execute(select(t).order_by(*order)))
    engine.dispose()
    return out


def _stable(seen: dict[str, Any]) -> dict[str, Any]:
    """What a player sees, less what moves with the clock (presence, the turn clock)."""
    def clean(x: Any) -> Any:
        if isinstance(x, dict):
            return {k: clean(v) for k, v in x.items()
                    if k not in ("connected", "clock", "deadline", "remaining")}
        if isinstance(x, list):
            return [clean(v) for v in x]
        return x
    return {k: clean(v) for k, v in seen.items()}


@pytest.fixture
def played(tmp_path: Path) -> Iterator[tuple[str, dict[str, Any]]]:
    server = Server(tmp_path / "source.db").start()
    try:
        seen = _play(server)
    finally:
        server.stop()
    yield server.db_url, seen


@pytest.mark.parametrize("name", ["games.rnbackup", "games.rnbackup.gz"])
def test_backup_and_restore_keep_every_row_of_every_table(
        tmp_path: Path, played: tuple[str, dict[str, Any]], name: str) -> None:
    source, seen = played
    backup = tmp_path / name
    done = rn("backup", str(backup), "--db", source)
    assert done.returncode == 0, done.stderr
    assert "7 rn_seats" in done.stdout and "2 rn_games" in done.stdout, done.stdout
    target = db_for(tmp_path / "restored.db")
    done = rn("restore", str(backup), "--db", target)
    assert done.returncode == 0, done.stderr
    before, after = _rows(source), _rows(target)
    assert before == after
    assert {"rn_games", "rn_seats", "rn_actions", "rn_chat", "rn_table_settings"} <= set(after)
    assert len(after["rn_games"]) == 2 and len(after["rn_actions"]) >= 4
    assert any("Ein Prosit! ✓" in row for row in after["rn_chat"])
    # a server on the restored database shows the players what they saw
    server = Server(tmp_path / "restored.db", db_url=target).start()
    try:
        with httpx.Client(base_url=server.url, timeout=10) as api:
            # (the other game's bot plays on as soon as the server starts: its rows are compared)
            gid = seen["game"]
            assert _stable(api.get(f"/api/games/{gid}").json()) == _stable(seen[gid])
            state = api.get(f"/api/games/{seen['game']}/state", headers=auth(seen["token"]))
            assert _stable(state.json()) == _stable(seen["state"])
    finally:
        server.stop()


def test_a_backup_restores_into_the_other_kind_of_database(
        tmp_path: Path, played: tuple[str, dict[str, Any]]) -> None:
    """The file is portable: PostgreSQL's backup into SQLite (or SQLite's into PostgreSQL)."""
    source, _ = played
    backup = tmp_path / "games.rnbackup"
    assert rn("backup", str(backup), "--db", source).returncode == 0
    other = (cluster().database(f"cross_{os.getpid()}") if BACKEND == "sqlite"
             else f"sqlite:///{tmp_path / 'cross.db'}")
    done = rn("restore", str(backup), "--db", other)
    assert done.returncode == 0, done.stderr
    assert _rows(source) == _rows(other)


def test_restore_refuses_a_database_with_games_and_a_damaged_backup_loses_nothing(
        tmp_path: Path, played: tuple[str, dict[str, Any]]) -> None:
    source, _ = played
    backup = tmp_path / "games.rnbackup"
    assert rn("backup", str(backup), "--db", source).returncode == 0
    before = _rows(source)
    done = rn("restore", str(backup), "--db", source)
    assert done.returncode == 1 and "already holds games" in one_error_line(done.stderr)
    lines = backup.read_text(encoding="utf-8").splitlines(keepends=True)
    damaged = tmp_path / "damaged.rnbackup"
    damaged.write_text("".join(lines[:5] + ['{"t": "rn_seats", "r": {"game_id": "x"\n']
                               + lines[5:]), encoding="utf-8")
    done = rn("restore", str(damaged), "--db", source, "--replace")
    assert done.returncode == 1 and "line 6" in one_error_line(done.stderr)
    assert _rows(source) == before  # found before anything was deleted
    done = rn("restore", str(backup), "--db", source, "--replace")
    assert done.returncode == 0, done.stderr
    assert _rows(source) == before
    newer = tmp_path / "newer.rnbackup"
    newer.write_text(lines[0].replace(f'"schema": "{schema.head()}"', '"schema": "0999"')
                     + "".join(lines[1:]), encoding="utf-8")
    done = rn("restore", str(newer), "--db", db_for(tmp_path / "empty.db"))
    line = one_error_line(done.stderr)
    assert done.returncode == 1 and "0999" in line and schema.head() in line


# --- flags and variables -----------------------------------------------------------------------
BAD_VARIABLES = [
    ("REDNOVEMBER_PORT", "abc"), ("REDNOVEMBER_LOG_LEVEL", "verbose"),
    ("REDNOVEMBER_LOG_FORMAT", "xml"), ("REDNOVEMBER_BOT_DELAY", "soon"),
    ("REDNOVEMBER_TAKEOVER_GRACE", "nan"), ("REDNOVEMBER_WAITING_EXPIRY", "-5"),
    ("REDNOVEMBER_TURN_TIMER_MIN", "1e99"), ("REDNOVEMBER_ROOT_PATH", "/api"),
    ("REDNOVEMBER_LIMIT_GAMES_PER_MINUTE", "ten"), ("REDNOVEMBER_HOST", " "),
    ("REDNOVEMBER_FORWARDED_ALLOW_IPS", ""), ("REDNOVEMBER_ACCESS_LOG", "maybe"),
    ("REDNOVEMBER_NO_LIMITS", "sometimes"), ("REDNOVEMBER_DB", "no database"),
]


# serve configures logging on the captured stderr before it fails: put the handlers back
@pytest.mark.usefixtures("logging_restored")
@pytest.mark.parametrize(("name", "value"), BAD_VARIABLES)
def test_a_bad_variable_is_one_line_naming_it_and_version_still_works(
        name: str, value: str, monkeypatch: pytest.MonkeyPatch,
        capsys: pytest.CaptureFixture[str]) -> None:
    monkeypatch.setenv(name, value)
    with pytest.raises(SystemExit) as version:
        main(["--version"])
    assert version.value.code == 0 and capsys.readouterr().out.strip().endswith(__version__)
    try:
        status = main(["serve", "--port", str(free_port())] if name != "REDNOVEMBER_PORT"
                      else ["serve"])
    except SystemExit as exc:
        status = exc.code
    assert status in (1, 2)
    line = one_error_line(capsys.readouterr().err)
    assert "error" in line and (name in line or name == "REDNOVEMBER_DB"), line


@pytest.mark.parametrize("argv", [["--port", "70000"], ["--port", "x"], ["--bot-delay", "-1"],
                                  ["--log-level", "loud"], ["--limit-seats-per-minute", "1.5"],
                                  ["--root-path", "a b"], ["--db", "nonsense"]])
@pytest.mark.usefixtures("logging_restored")
def test_a_bad_flag_is_one_line(argv: list[str], capsys: pytest.CaptureFixture[str]) -> None:
    try:
        status = main(["serve", *argv])
    except SystemExit as exc:
        status = exc.code
    assert status in (1, 2)
    line = one_error_line(capsys.readouterr().err)
    assert "error" in line and (argv[0] in line or argv[0] == "--db"), line


def test_the_real_command_with_a_bad_port_variable() -> None:
    env = {"REDNOVEMBER_PORT": "abc", "REDNOVEMBER_LOG_LEVEL": "info"}
    assert rn("--version", env=env).stdout.strip() == f"rednovember {__version__}"
    done = rn("serve", env=env)
    assert done.returncode == 2 and "REDNOVEMBER_PORT" in one_error_line(done.stderr)


# --- scripts/serve.sh on PostgreSQL --------------------------------------------------------------
def test_serve_sh_starts_on_a_postgresql_url() -> None:
    """It gave a ModuleNotFoundError traceback: the driver (the postgres extra) was not
    installed. A plain postgresql:// URL, no driver named."""
    url = cluster().database(f"serve_sh_{os.getpid()}").replace("postgresql+psycopg://",
                                                                  "postgresql://")
    port = free_port()
    proc = subprocess.Popen(["bash", "scripts/serve.sh", "--port", str(port), "--db", url],
                            stdout=subprocess.PIPE, stderr=subprocess.STDOUT, cwd=ROOT)
    try:
        deadline = time.monotonic() + 120
        while not healthy(f"http://127.0.0.1:{port}"):
            assert proc.poll() is None, proc.stdout.read() if proc.stdout else ""
            assert time.monotonic() < deadline
            time.sleep(0.1)
        assert httpx.get(f"http://127.0.0.1:{port}/api/ready").status_code == 200
    finally:
        proc.terminate()
        proc.wait(15)


def test_load_web_runs_against_a_running_server_with_port(tmp_path: Path) -> None:
    """bench/load_web.py --port: the load of a server already running (none started)."""
    server = Server(tmp_path / "bench.db").start()
    try:
        done = subprocess.run([sys.executable, "bench/load_web.py", "--port", str(server.port),
                               "--games", "2", "--players", "3", "--seconds", "3", "--json"],
                              capture_output=True, text=True, timeout=120, check=False, cwd=ROOT)
        assert done.returncode == 0, done.stderr
        out = json.loads(done.stdout)
        assert out["db"] == "running" and out["processes"] == 1 and out["client_actions"] > 0
        assert out["errors"] == 0  # no refusal: the server has no limits here (--no-limits)
        assert server.alive()
    finally:
        server.stop()
    gone = subprocess.run([sys.executable, "bench/load_web.py", "--port", str(free_port()),
                           "--seconds", "1"], capture_output=True, text=True, timeout=60,
                          check=False, cwd=ROOT)
    assert gone.returncode != 0 and "no Red November server answers" in gone.stderr
