"""The analysis of a finished game (issue 21 §2): adaptive rollouts per point, turning points told
with the very figures of the per-turn table, named by news of their own kind, and the progress
bar of ``analyse`` and ``replay --show``."""

from __future__ import annotations

import io
import json
import os
import pty
import re
import subprocess
import sys
import threading
from functools import cache
from pathlib import Path

import pytest

from rednovember.analysis.analyse_cli import text_lines
from rednovember.analysis.turning import GameAnalysis, analyse, clause, good_news, headline
from rednovember.analysis.winchance import BATCH, MIN_ROLLOUTS, precise_enough, win_chance
from rednovember.bots import make_bot, play_out
from rednovember.rules import Config, Game, new_game
from rednovember.rules.scenario import build
from rednovember.rules.serialize import to_dict

# the minute and, beside it, its space on the time track (60 at the start with 3 and 4 players)
ROW = re.compile(r"^  Turn (\d+), minute (\d+) \(space (\d+)\): (\d+)% \(")
SWING = re.compile(r"^  \d+\. Minute (\d+) \(space (\d+)\): .+: (\d+)% → (\d+)%$")


@cache
def played(players: int, seed: int) -> Game:
    g = new_game(Config(players=players, seed=seed))
    return play_out(g, [make_bot("heuristic", 10 * seed + p) for p in range(players)])


@cache
def analysed(players: int, seed: int) -> GameAnalysis:
    return analyse(played(players, seed), None, rollouts=16, seed=0)


# --- adaptive rollouts ---------------------------------------------------------------------------

def test_precision_is_that_of_the_full_count_at_an_even_chance() -> None:
    assert not precise_enough(28, 56, 64) and precise_enough(32, 64, 64)  # 50%: all of them
    assert not precise_enough(0, 8, 64)  # 8 lost rollouts are not yet a certainty
    assert precise_enough(0, 16, 64) and precise_enough(16, 16, 64)  # all lost / all won
    assert not precise_enough(5, 24, 64) and precise_enough(5, 48, 64)  # about 20%


def test_a_decided_position_stops_early_and_keeps_the_first_rollouts() -> None:
    near = build({"config": {"players": 3, "seed": 4},
                  "position": {"gnomes": [{"keeper": 2}, {"keeper": 2}, {"keeper": 2}]}})
    est = win_chance(near, 0, rollouts=64, seed=3, adaptive=True)
    assert MIN_ROLLOUTS <= est.rollouts < 64 and est.rollouts % BATCH == 0
    assert est.chance > 0.9
    fixed = win_chance(near, 0, rollouts=est.rollouts, seed=3)  # the same rollouts, no more
    assert (fixed.wins, fixed.rollouts) == (est.wins, est.rollouts)
    assert win_chance(near, 0, rollouts=64, seed=3, adaptive=True) == est  # reproducible


def test_an_open_game_takes_more_rollouts_than_a_decided_one() -> None:
    a = analysed(4, 1)
    open_ = [p.estimate.rollouts for p in a.points if 0.3 <= p.estimate.raw <= 0.7]
    sure = [p.estimate.rollouts for p in a.points
            if p.estimate.rollouts and p.estimate.raw in (0.0, 1.0)]
    assert open_ and sure and min(open_) == 16 and max(sure) < 16
    assert all(p.estimate.rollouts <= 16 for p in a.points)


# --- turning points: the table's figures, named by news of their kind ----------------------------

@pytest.mark.parametrize(("players", "seed"), [(4, 1), (3, 1)])
def test_every_turning_point_is_two_consecutive_rows_of_the_table(players: int, seed: int) -> None:
    a = analysed(players, seed)
    lines = text_lines(a, "en")
    matched = [m for m in map(ROW.match, lines) if m]
    told = [m for m in map(SWING.match, lines) if m]
    assert all(int(m[2]) + int(m[3]) == 60 for m in matched)
    assert all(int(m[1]) + int(m[2]) == 60 for m in told)
    rows = [(int(m[2]), int(m[4])) for m in matched]
    swings = [(int(m[1]), int(m[3]), int(m[4])) for m in told]
    assert len(rows) == len(a.points) and swings and len(swings) == len(a.turning)
    pairs = {(after_min, before, after)
             for (_, before), (after_min, after) in zip(rows, rows[1:], strict=False)}
    for s in swings:
        assert s in pairs, (s, rows)
    steps = [p.step for p in a.points]
    for t in a.turning:  # the JSON too: from one row to the next
        assert steps.index(t.step) == steps.index(t.from_step) + 1


@pytest.mark.parametrize(("players", "seed"), [(4, 1), (3, 1)])
def test_a_rise_is_told_by_good_news_and_a_fall_by_bad_news(players: int, seed: int) -> None:
    a = analysed(players, seed)
    for t in a.turning:
        assert all(good_news(e) == (t.delta > 0) for _, e in t.entries), a.sentence(t)


def test_the_victory_and_an_item_icon_are_good_news() -> None:
    assert headline([(40, ("won",))], up=True) == [(40, ("won",))]
    assert headline([(40, ("won",))], up=False) == []
    icon = (12, ("item_icon", 1, 48, 7))
    assert headline([icon], up=True) == [icon] and headline([icon], up=False) == []


def test_a_missile_launch_token_never_explains_a_rise() -> None:
    segment = [(20, ("token", 5, 30)), (20, ("draw", 1, (3,)))]
    assert [e[0] for _, e in headline(segment, up=True)] == ["draw"]
    assert [e[0] for _, e in headline(segment, up=False)] == ["token"]


# --- the progress bar ----------------------------------------------------------------------------

@pytest.fixture(scope="module")
def save(tmp_path_factory: pytest.TempPathFactory) -> Path:
    path = tmp_path_factory.mktemp("saves") / "game.json"
    path.write_text(json.dumps(to_dict(played(3, 1))), "utf-8")
    return path


def _on_a_terminal(*args: str) -> tuple[str, str]:
    """Runs ``rednovember ARGS`` with standard error on a pseudo-terminal and standard output
    on a pipe, as ``rednovember analyse SAVE --json > out.json`` in a terminal; both outputs."""
    master, slave = pty.openpty()
    seen: list[bytes] = []

    def read() -> None:
        while True:
            try:
                chunk = os.read(master, 4096)
            except OSError:  # the child closed the terminal
                return
            if not chunk:
                return
            seen.append(chunk)

    reader = threading.Thread(target=read)
    reader.start()
    env = {**os.environ, "TERM": "xterm-256color", "COLUMNS": "100"}
    env.pop("NO_COLOR", None)
    try:
        proc = subprocess.run([sys.executable, "-m", "rednovember", *args], stdout=subprocess.PIPE,
                              stderr=slave, stdin=subprocess.DEVNULL, env=env, check=True)
    finally:
        os.close(slave)
        reader.join()
        os.close(master)
    return proc.stdout.decode("utf-8"), b"".join(seen).decode("utf-8", "replace")


def test_analyse_shows_a_progress_bar_on_a_terminal_and_keeps_the_json_clean(save: Path) -> None:
    out, terminal = _on_a_terminal("analyse", str(save), "--json", "--rollouts", "2")
    doc = json.loads(out)  # nothing but the JSON on standard output
    total = len(doc["points"])
    assert "\x1b" not in out and "━" not in out
    assert "Estimating the win chance" in terminal and "━" in terminal
    assert f"position {total} of {total}" in terminal


def test_replay_show_draws_its_bar_in_the_players_language(save: Path) -> None:
    out, terminal = _on_a_terminal("replay", str(save), "--show", "--rollouts", "2",
                                   "--lang", "de")
    assert "Siegchance wird geschätzt" in terminal and "Stellung" in terminal and "━" in terminal
    assert out.startswith("OK: Das Nachspielen von ") and "Siegchance wird geschätzt" not in out


def test_no_bar_when_standard_error_is_not_a_terminal(save: Path,
                                                      capsys: pytest.CaptureFixture[str]) -> None:
    from rednovember.cli import main
    assert main(["analyse", str(save), "--json", "--rollouts", "2"]) == 0
    captured = capsys.readouterr()
    assert captured.err == "" and json.loads(captured.out)["rollouts"] == 2


class _Terminal(io.StringIO):
    """Standard output as a terminal (``isatty``), its width from $COLUMNS."""

    def isatty(self) -> bool:
        return True


def test_analyse_wraps_its_lines_between_words_on_a_terminal(
        save: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """On an 80-column terminal the heading and the turning points (a line each, often 150
    characters) are wrapped between words, a turning point's further lines under its text; a
    terminal would cut them mid-word (terminal/lines.py, as ``learn``). In a file or a pipe, one
    line each as before."""
    from rednovember.cli import main
    from rednovember.i18n import catalog
    monkeypatch.setenv("COLUMNS", "80")
    monkeypatch.setattr(sys, "stdout", _Terminal())
    assert main(["analyse", str(save), "--rollouts", "2", "--lang", "ru"]) == 0
    shown = sys.stdout.getvalue()  # type: ignore[attr-defined]
    lines = shown.splitlines()
    assert max(len(line) for line in lines) <= 80, shown
    heading = catalog("ru").get("analyse", "curve_heading",
                                viewer=catalog("ru").raw("analyse", "viewer_public"), rollouts=2)
    assert len(heading) > 80 and heading in " ".join(" ".join(lines).split())
    monkeypatch.setattr(sys, "stdout", io.StringIO())
    assert main(["analyse", str(save), "--rollouts", "2", "--lang", "ru"]) == 0
    assert heading in sys.stdout.getvalue().splitlines()  # type: ignore[attr-defined]


def test_without_turning_points_the_text_and_the_chart_say_the_swings_were_noise() -> None:
    """Rows of the table may differ by 20 points at a few rollouts a point and still be no
    turning point (within the rollouts' noise): the text must not claim the chance never swung,
    and the chart explains no numbers that are not on it."""
    from dataclasses import replace

    from rednovember.analysis.analyse_cli import chart
    from rednovember.i18n import catalog
    quiet = replace(analysed(3, 1), turning=[])
    for lang in ("en", "de"):
        none = catalog(lang).raw("analyse", "none")
        assert "--rollouts" in none and "never" not in none
        assert text_lines(quiet, lang).count("  " + none) == 1
        drawn = chart(quiet, lang).plain
        assert none in drawn and catalog(lang).raw("analyse", "marker") not in drawn
    told = chart(analysed(3, 1), "en").plain
    assert (catalog("en").raw("analyse", "marker") in told) == bool(analysed(3, 1).turning)


def test_a_swing_no_news_explains_is_credited_to_the_crews_moves() -> None:
    """An 18-point rise at minute 1 read "nothing in particular": no card or die of its kind
    came, so what moved the chance was the crew's own moves."""
    from rednovember.analysis.turning import TurningPoint
    result = analysed(3, 1)
    tp = TurningPoint(from_step=0, step=1, minute=1, before=0.48, after=0.66, entries=())
    assert result.sentence(tp, "en") == \
        "Minute 1 (space 59): the crew's own moves (no card or die explains it): 48% → 66%"
    assert "nichts Besonderes" not in result.sentence(tp, "de")


def test_a_turning_point_lists_its_news_as_clauses_without_their_exclamation_marks() -> None:
    """Audit, stop 64: "… room 4 Reactor Room!; Asphyxiation …" and "… space 20!: 56% → 2%". A
    clause loses its closing stop or "!" (and the Spanish "¡" that opened it), not a name's "!"."""
    assert clause("The fire spreads to room 4!") == "The fire spreads to room 4"
    assert clause("The Missile Launch! token is placed on space 20!") == (
        "The Missile Launch! token is placed on space 20")
    assert clause("¡Fuego en la sala 4!") == "Fuego en la sala 4"
    assert clause("Saca un 3 — ¡éxito!") == "Saca un 3 — éxito"
    assert clause("Rolled 3.  ") == "Rolled 3" and clause("Rolled 3") == "Rolled 3"
