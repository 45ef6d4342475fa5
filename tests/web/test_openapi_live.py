"""The published interface tells the truth (issue 19 §5): Schemathesis (pinned in constraints.txt)
sends generated requests, valid and invalid, to a real ``rednovember serve`` on a temporary
SQLite database and checks every answer against docs/openapi.json's promises with all of its
checks: each status is one the operation declares, each body has the declared shape, content
type and headers, no answer is a server error, what the schema allows is accepted and what it
refuses is refused, unsupported methods get 405 with ``Allow``. Its stateful phase follows the
document's links (a created game's id and a taken seat's token into the game's operations), and
half the game ids and seat tokens it sends are those of real games made beforehand (waiting,
playing, over), so the answers of a game's every state are checked, not only "not found"."""

from __future__ import annotations

import json
import re
import subprocess
import sys
import time
from collections.abc import Callable
from pathlib import Path

import httpx
import pytest
from webtools import Server

Start = Callable[..., Server]

# bounded: a fixed number of examples per operation, derandomised (the same cases every run)
MAX_EXAMPLES = "20"
# a puzzle's solution runs the search bot (seconds on a busy two-core machine, then
# cached): the first run leaves its valid requests out, the second sends it only invalid ones
SOLUTION = "/api/learn/{lesson_id}/solution"
BOT_GAME = 120.0  # seconds for the heuristic bot to play a solo game through (it acts at once)
SUMMARY = re.compile(r"^=+ (.* in [0-9.]+s) =+$", re.M)


def schemathesis(url: str, cwd: Path, *extra: str) -> tuple[int, str]:
    """One Schemathesis run against the server's own /openapi.json; (exit status, output)."""
    cli = Path(sys.executable).with_name("schemathesis")
    cmd = [str(cli), "run", f"{url}/openapi.json", "--checks", "all",
           "--max-examples", MAX_EXAMPLES, "--generation-deterministic", "--workers", "1",
           "--no-color", "--exclude-checks", "ensure_resource_availability", *extra]
    done = subprocess.run(cmd, capture_output=True, text=True, cwd=cwd, timeout=900, check=False)
    return done.returncode, done.stdout + done.stderr


def summary(output: str) -> str:
    found = SUMMARY.findall(output)
    return found[-1] if found else "(no summary)"


def games(url: str) -> tuple[list[str], str]:
    """Games for the run to reach besides those it creates: one waiting for players, one a
    player is in (with that seat's token), one over (a bot played it); (their ids, the token)."""
    with httpx.Client(base_url=url, timeout=10.0) as http:
        waiting = http.post("/api/games", json={"players": 3}).json()["game"]["id"]
        playing = http.post("/api/games", json={"players": 1}).json()["game"]["id"]
        token = http.post(f"/api/games/{playing}/seats", json={"seat": 0, "name": "Ada"}).json()[
            "token"]
        made = http.post("/api/games", json={"players": 1, "seed": 5}).json()
        over = made["game"]["id"]
        r = http.post(f"/api/games/{over}/seats/0/bot", json={"bot": "heuristic"},
                      headers={"X-Creator-Token": made["creator_token"]})
        assert r.status_code == 200, r.text
        deadline = time.monotonic() + BOT_GAME
        while http.get(f"/api/games/{over}").json()["status"] != "over":
            assert time.monotonic() < deadline, "the bot did not finish its game"
            time.sleep(0.2)
    return [waiting, playing, over], token


def config(path: Path, ids: list[str], token: str) -> None:
    """schemathesis.toml: half the game ids and seat tokens it sends are real ones."""
    path.write_text(f"""[dictionaries.games]
values = {json.dumps(ids)}

[dictionaries.tokens]
values = [{json.dumps(token)}]

[parameters]
"path.game_id" = {{ dictionary = "games", probability = 0.5 }}
"header.x-seat-token" = {{ dictionary = "tokens", probability = 0.5 }}
""", encoding="utf-8")


def test_schemathesis_finds_the_live_server_true_to_its_openapi(server_factory: Start,
                                                               tmp_path: Path) -> None:
    """All checks, every operation. The server runs with ``--no-limits`` (webtools.Server's
    default): the per-client rates would answer the run's hundreds of requests with 429, which
    every operation that has a limit declares, but which would stop the run from reaching the
    rest of the server.

    One check is left out: ``ensure_resource_availability`` takes any 404 after a create for the
    created game gone missing, but taking a seat in a game just created answers 404
    ``not_found`` (detail ``no_seat``, or a colour no seat plays) when the body names a seat or
    colour that game does not have: declared and documented (docs/protocol.md §3, §6), and
    what the schema cannot know (a game's seats depend on its player count)."""
    server = server_factory()
    config(tmp_path / "schemathesis.toml", *games(server.url))
    status, out = schemathesis(server.url, tmp_path, "--exclude-path", SOLUTION)
    print("Schemathesis:", summary(out))
    assert status == 0, out[-12000:]
    status, out = schemathesis(server.url, tmp_path, "--include-path", SOLUTION,
                               "--mode", "negative", "--phases", "coverage,fuzzing")
    print("Schemathesis (lesson solutions, invalid requests):", summary(out))
    assert status == 0, out[-12000:]


@pytest.mark.parametrize(("path", "expect"), [
    ("/api/learn/nope/solution", "not_found"), ("/api/learn/fire/solution?lang=xx", "unknown_language"),
])
def test_a_lesson_solution_refusal_is_declared(api: httpx.Client, path: str, expect: str) -> None:
    """The solution operation's refusals, which the second run above reaches only in part."""
    r = api.get(path)
    assert r.status_code == 404 and r.json()["error"]["code"] == expect
    doc = api.get("/openapi.json").json()
    answer = doc["paths"][SOLUTION]["get"]["responses"]["404"]
    codes = answer["content"]["application/json"]["schema"]["properties"]["error"][
        "properties"]["code"]["enum"]
    assert expect in codes
