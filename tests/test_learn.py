"""Learn to play (learn/): every lesson's position is legal and its scripted solution reaches the
goal with every play checked right; wrong plays get the lesson's reason; try again and take back;
puzzles and the search bot's solution; the texts in six languages; ``rednovember learn`` driven
through standard input."""

from __future__ import annotations

import argparse
import io
import re
import string
import subprocess
import sys
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from rednovember.cli import main
from rednovember.i18n import catalog
from rednovember.learn import ALL, LESSONS, PUZZLES, LessonError, Session
from rednovember.learn.lessons import TRAPPED
from rednovember.learn.solution import SCRIPT, TRIES, Solution, attempt, solution
from rednovember.learn.terminal import run_learn as run_learn_cli
from rednovember.rules.invariants import check
from rednovember.rules.scenario import build
from rednovember.web.learn_api import solution_info

LANGS = ["en", "de", "fr", "pl", "ru", "es"]
COMMON = ["title", "intro", "open", "lessons", "puzzles", "goal", "step_of", "try_again", "take_back",
          "next", "all", "right", "wrong", "solved", "lost", "show_solution", "solution_title",
          "solution_thinking", "solution_reached", "solution_missed", "solution_after",
          "puzzle_note", "off_path", "failed", "failed_cause", "why_odds", "why_doomed",
          "why_odds_more", "why_play_first", "why_walk", "why_other_hatch",
          "term_pick", "term_help", "term_prompt",
          "term_unknown", "term_next", "term_after_next", "term_after_menu", "term_after_retry",
          "term_after_solution", "term_after_quit", "term_after_unknown", "term_course_done",
          "term_pick_unknown", "term_status", "term_aboard", "term_tokens", "term_board", "term_none",
          "label"]


@pytest.mark.parametrize("lid", list(LESSONS))
def test_each_lesson_is_legal_and_its_solution_reaches_the_goal(lid: str) -> None:
    s = Session.start(lid)
    check(s.game)  # the arranged position keeps every invariant
    assert not s.reached and s.guidance() == (f"{lid}_{s.lesson.steps[0].key}", {})
    verdicts = []
    for text in s.lesson.solution:
        assert text in [a.text(s.game.data) for a in s.game.legal_actions()]
        verdicts.append(s.play(text).verdict)
        check(s.game)
    assert s.reached and not s.failed
    assert verdicts[:-1] == ["right"] * (len(verdicts) - 1) and verdicts[-1] == "goal"
    assert s.guidance() == (f"{lid}_done", {})
    assert s.done == set(range(len(s.lesson.steps)))


@pytest.mark.parametrize(("lid", "plays", "wrong", "verdict", "key", "args"), [
    ("moving", [], "open 8", "wrong", "moving_why_open5", {}),
    ("moving", ["open 5"], "stay", "wrong", "moving_why_enter5", {}),
    ("water", ["open 5", "enter", "play water_pump"], "pump_water 1", "wrong", "why_odds_more",
     {"minutes": 1, "bonus": 3, "total": 4, "chance": 40, "roll": 5, "need": 2}),
    ("water", ["open 5", "enter"], "pump_water 2", "wrong", "why_odds",  # the pump still in hand
     {"minutes": 2, "bonus": 0, "total": 2, "roll": 5}),
    ("fire", [], "open 2", "wrong", "fire_why_grog", {}),
    ("repairs", [], "fix_reactor 3", "wrong", "why_play_first", {"item": "reactor_manual"}),
    ("repairs", ["play reactor_manual", "play toolbox"], "fix_reactor 1", "wrong", "why_odds_more",
     {"minutes": 1, "bonus": 7, "total": 8, "chance": 80, "roll": 9, "need": 2}),
    ("tokens", ["play engine_manual"], "fix_engine 2", "wrong", "why_odds_more",
     {"minutes": 2, "bonus": 4, "total": 6, "roll": 7, "need": 3}),
    ("events", [], "draw 4", "wrong", "why_walk", {"events": 2}),
    ("tokens", ["play engine_manual"], "fix_engine 5", "failed", "why_doomed",
     {"minutes": 5, "ghost": 25, "token": 27}),
    ("ending", ["play deactivation_code"], "stop_missile_launch 3", "wrong", "why_doomed",
     {"minutes": 3, "ghost": 0, "token": 1}),
])
def test_a_wrong_play_gets_the_lessons_reason(lid: str, plays: list[str], wrong: str, verdict: str,
                                              key: str, args: dict[str, Any]) -> None:
    s = Session.replay(lid, plays)
    got = s.play(wrong)
    assert (got.verdict, got.key) == (verdict, key)
    assert {k: got.args[k] for k in args} == args
    assert s.off == len(plays)
    assert s.guidance()[0] == ("failed" if verdict == "failed" else "off_path")
    text = catalog("en").get("learn", got.key, **got.args)
    assert "{" not in text


def test_the_events_lesson_is_lost_without_the_charm() -> None:
    s = Session.replay("events", ["draw 4"])
    got = s.play("end")  # two Reactor Malfunctions: Heat 7 -> 11
    assert (got.verdict, got.key, got.args) == ("failed", "failed_cause", {"cause": "heat"})
    assert s.failed and s.guidance() == ("failed", {})
    with pytest.raises(LessonError, match="try again"):
        s.play("end")


def test_the_repair_lesson_shows_the_real_roll() -> None:
    s = Session.replay("repairs", ["play reactor_manual", "play toolbox"])
    s.play("fix_reactor 1")  # 1 + 7 < 9: the fixed die fails the repair
    heat = s.game.data.tracks.index("heat")
    assert s.game.tracks[heat] == 8 and not s.reached


def test_take_back_and_try_again_rebuild_the_position() -> None:
    fresh = Session.start("moving")
    s = Session.replay("moving", ["open 5", "stay"])
    assert s.off == 1
    back = Session.replay("moving", s.plays[:-1])
    assert back.off is None and back.guidance() == ("moving_enter5", {})
    assert Session.replay("moving", []).game.view(0) == fresh.game.view(0)


def test_off_the_path_plays_go_on_without_verdicts() -> None:
    s = Session.replay("moving", ["open 8"])
    got = s.play("enter")
    assert (got.verdict, got.key) == ("free", "")


def test_bad_plays_are_refused_and_change_nothing() -> None:
    s = Session.start("moving")
    before = s.game.view(0)
    for bad in ("open 4", "fly away", "enter", ""):
        with pytest.raises(LessonError):
            s.play(bad)
    assert s.game.view(0) == before and s.plays == []
    with pytest.raises(LessonError, match="no lesson"):
        Session.start("chess")
    with pytest.raises(LessonError, match=r"plays\[1\]"):
        Session.replay("moving", ["open 5", "open 5"])


@pytest.mark.parametrize("lid", list(PUZZLES))
def test_the_bots_solution_of_each_puzzle_is_legal_and_reaches_the_goal(lid: str) -> None:
    sol = solution(lid)
    assert sol.bot == "search" and sol.reached and sol.plays
    s = Session.replay(lid, list(sol.plays))  # every play legal, checked again
    assert s.reached and not s.failed
    assert all(c.verdict == "free" for c in s.checks[:-1]) and s.checks[-1].verdict == "goal"


@pytest.mark.parametrize("lid", list(LESSONS))
def test_a_lessons_solution_is_its_script_not_a_search(lid: str,
                                                        monkeypatch: pytest.MonkeyPatch) -> None:
    """Asking a lesson's solution costs a replay, never a bot's search (anyone may ask it of a
    fresh server process: the search took about 16 s of CPU on two lessons)."""
    def no_bot(*_: object) -> None:
        raise AssertionError("a lesson's solution must not run the bot")

    monkeypatch.setattr("rednovember.learn.solution.attempt", no_bot)
    sol = solution.__wrapped__(lid)
    assert sol == Solution(lid, SCRIPT, LESSONS[lid].solution, True)


def test_the_solution_is_the_first_seed_that_reaches_the_goal() -> None:
    tries = [attempt("missile", seed) for seed in range(TRIES)]
    assert solution("missile") == next(t for t in tries if t.reached)


@pytest.mark.parametrize("lang", ["en", "de", "ru"])
def test_the_solution_is_shown_as_sentences(lang: str) -> None:
    info = solution_info("missile", lang)
    assert info["reached"] and len(info["plays"]) == len(solution("missile").plays)
    first = info["plays"][0]
    assert first["text"] == "open 5" and first["ghost"] == 40
    if lang == "en":
        assert "room 5" in first["sentence"]
    else:
        assert first["sentence"] != solution_info("missile", "en")["plays"][0]["sentence"]


def lesson_keys() -> set[str]:
    keys = set(COMMON)
    for lid, lesson in ALL.items():
        keys |= {f"{lid}_title", f"{lid}_intro", f"{lid}_goal", f"{lid}_done"}
        for step in lesson.steps:
            keys |= {f"{lid}_{step.key}", f"{lid}_right_{step.key}", f"{lid}_why_{step.key}"}
    return keys


@pytest.mark.parametrize("lang", LANGS)
def test_every_text_of_the_lessons_exists_in_each_language(lang: str) -> None:
    cat = catalog(lang)
    missing = sorted(k for k in lesson_keys() if k not in cat.texts.get("learn", {}))
    assert not missing
    unused = sorted(set(cat.texts["learn"]) - lesson_keys())
    assert not unused  # every text of the section is one the lessons or their pages say
    en = catalog("en").texts["learn"]
    for key, text in cat.texts["learn"].items():
        want = {f for _, f, _, _ in string.Formatter().parse(en[key]) if f}
        have = {f for _, f, _, _ in string.Formatter().parse(text) if f}
        assert have == want, f"{lang}.learn.{key}"
    if lang != "en":
        same = [k for k in lesson_keys() if cat.texts["learn"][k] == en[k] and len(en[k]) > 12]
        assert not same, f"{lang}: not translated: {same}"


def run_learn(argv: list[str], stdin: str, monkeypatch: pytest.MonkeyPatch,
              capsys: pytest.CaptureFixture[str], status: int = 0) -> str:
    monkeypatch.setattr(sys, "stdin", io.StringIO(stdin))
    assert main(["learn", *argv]) == status
    return capsys.readouterr().out


def test_terminal_lessons_exit_1_when_the_input_ends_before_quit(
        monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> None:
    """As `play --plain`: quit leaves with 0, input that ends first with 1 (it exited 0)."""
    out = run_learn(["moving"], "open 8\n", monkeypatch, capsys, status=1)
    assert "== Moving and the time track ==" in out
    run_learn(["moving"], "quit\n", monkeypatch, capsys, status=0)


def test_terminal_lesson_right_wrong_back_and_goal(monkeypatch: pytest.MonkeyPatch,
                                                   capsys: pytest.CaptureFixture[str]) -> None:
    out = run_learn(["moving"], "open 8\nback\n1\nenter\nopen 4\nenter\nno_action\nquit\n",
                    monkeypatch, capsys)
    assert "== Moving and the time track ==" in out
    assert "Not quite: Room 5 is the way from Missile Control" in out  # the wrong play, explained
    assert "Right: The ghost keeper moved one space." in out  # '1' is 'open 5' after 'back'
    assert "Goal reached: Done! Three minutes" in out
    assert "Next: Water and reflow (rednovember learn water)" in out


def test_terminal_lists_lessons_and_speaks_german(monkeypatch: pytest.MonkeyPatch,
                                                  capsys: pytest.CaptureFixture[str]) -> None:
    out = run_learn(["--lang", "de"], "12\nquatsch\nquit\n", monkeypatch, capsys)
    assert "Lektionen:" in out and "Rätsel:" in out
    assert "6. Katastrophenmarker und der Geister-Zeitstein (tokens)" in out
    assert "== Das Ende der Partie ==" in out and "Hier kein Zug: quatsch" in out


def test_terminal_puzzle_shows_the_bots_solution(monkeypatch: pytest.MonkeyPatch,
                                                 capsys: pytest.CaptureFixture[str]) -> None:
    plays = "\n".join(solution("missile").plays)
    out = run_learn(["missile"], f"{plays}\nsolution\nquit\n", monkeypatch, capsys)
    assert "Goal reached: Solved! The missile is stopped." in out
    assert "How the bot plays it:" in out and "The bot reached the goal." in out
    assert "[40] Red: Open the hatch to room 5" in out


def test_terminal_puzzle_shows_the_whole_crew_and_the_board(
        monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> None:
    """"Three gnomes: your call" is planned with all three: every position lists the others with
    their keepers and hands, ``board`` draws the table as ``play --plain`` does (hatches, decks,
    the time track with its icons), and ``solution`` before the end says when it is shown."""
    out = run_learn(["heat"], "solution\nboard\nquit\n", monkeypatch, capsys)
    assert "Also aboard: Blue in 2 Oxygen Pumps · keeper on 39\n  Toolbox" in out
    assert "Also aboard: Green in 8 Equipment Stores · keeper on 38\n  Grog" in out
    assert "The bot's solution is shown once you have finished the puzzle." in out
    assert "Not a play here" not in out
    assert "Hatches to" in out and "Blocked-hatch tokens 15 left" in out
    assert "E event · I item" in out and "Turn order: Red 40 → Blue 39 → Green 38" in out
    alone = run_learn(["moving"], "quit\n", monkeypatch, capsys)
    assert "Also aboard" not in alone  # one gnome: nothing to add


def test_terminal_retry_starts_again(monkeypatch: pytest.MonkeyPatch,
                                     capsys: pytest.CaptureFixture[str]) -> None:
    out = run_learn(["tokens"], "play engine_manual\nfix_engine 5\nretry\nplay engine_manual\n"
                    "fix_engine 3\nq\n", monkeypatch, capsys)
    assert "Lost: With 5 minutes the ghost keeper ends on 25" in out
    assert "Goal reached: Done! The Crushed! token is gone." in out


def test_learn_reads_piped_standard_input() -> None:
    done = subprocess.run([sys.executable, "-m", "rednovember", "learn", "ending"],
                          input="play deactivation_code\nstop_missile_launch 2\nno_action\n"
                                "no_action\nno_action\nquit\n",
                          capture_output=True, text=True, timeout=120, check=False)
    assert done.returncode == 0, done.stderr
    assert "Goal reached: Done! Every keeper is on 0" in done.stdout
    assert "Next: Keep the Heat down (rednovember learn heat)" in done.stdout


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(lid=st.sampled_from(list(ALL)), picks=st.lists(st.integers(0, 10_000), max_size=40))
def test_any_legal_plays_get_a_check_that_can_be_said(lid: str, picks: list[int]) -> None:
    """Whatever legal plays a learner makes, each gets a verdict whose text exists, the guidance
    can be said, the position stays legal, and replaying the plays rebuilds the same lesson."""
    en = catalog("en").texts["learn"]
    s = Session.start(lid)
    for pick in picks:
        if s.finished:
            break
        actions = s.game.legal_actions()
        got = s.play(actions[pick % len(actions)].text(s.game.data))
        assert got.verdict in {"right", "wrong", "free", "goal", "failed"}
        assert (got.key in en) if got.verdict != "free" else got.key == ""
        assert "{" not in catalog("en").get("learn", got.key, **got.args)
        key, _ = s.guidance()
        assert key in en
        check(s.game)
        assert s.reached or not s.game.is_over or s.failed
    again = Session.replay(lid, s.plays)
    assert again.game.view(0) == s.game.view(0) and again.done == s.done and again.off == s.off


# --- the audit of ``rednovember learn`` ---------------------------------------------------------
def lost_plays(lid: str) -> list[str]:
    """A learner who always takes the last legal play: both puzzles are lost that way."""
    s = Session.start(lid)
    while not s.finished:
        actions = s.game.legal_actions()
        s.play(actions[-1].text(s.game.data))
    assert s.failed
    return s.plays


def test_after_a_lost_lesson_enter_goes_on_to_the_next(monkeypatch: pytest.MonkeyPatch,
                                                       capsys: pytest.CaptureFixture[str]) -> None:
    out = run_learn(["tokens"], "play engine_manual\nfix_engine 5\n\nquit\n", monkeypatch, capsys)
    assert "Lost: With 5 minutes the ghost keeper ends on 25" in out
    assert "Next: The Sea and its air (rednovember learn sea)" in out
    assert "Enter: the next lesson · retry: try again · quit: leave" in out  # no solution: a lesson
    assert "== The Sea and its air ==" in out


def test_the_last_puzzle_offers_the_menu_not_a_next_lesson(monkeypatch: pytest.MonkeyPatch,
                                                           capsys: pytest.CaptureFixture[str]) -> None:
    plays = "\n".join(lost_plays("missile"))
    out = run_learn(["missile"], f"{plays}\n\nquit\n", monkeypatch, capsys)
    assert "That was the last puzzle" in out and "Next:" not in out
    assert ("Enter: back to the menu · retry: try again · solution: the bot's solution · "
            "quit: leave") in out
    assert "the next lesson" not in out
    assert out.count("Choose a lesson or puzzle") == 1 and "Puzzles:" in out  # Enter: the menu


def test_other_answers_after_a_lesson_are_answered(monkeypatch: pytest.MonkeyPatch,
                                                   capsys: pytest.CaptureFixture[str]) -> None:
    out = run_learn(["tokens"], "play engine_manual\nfix_engine 3\n2\nback\nxyz\nsolution\nquit\n",
                    monkeypatch, capsys)
    for bad in ("2", "back", "xyz", "solution"):  # a lesson has no bot's solution to show
        assert f"Not an answer here: {bad}. You can type:" in out
    assert out.count("Enter: the next lesson · retry: try again · quit: leave") == 5
    assert "How the bot plays it" not in out


def test_the_ending_lesson_says_where_the_keepers_really_are() -> None:
    s = Session.replay("ending", ["play deactivation_code", "stop_missile_launch 1"])
    assert s.game.gnomes[0].keeper == 2  # one minute: Red needs two No Actions
    said = [s.play("no_action") for _ in range(4)]
    assert [(c.verdict, c.key, c.args) for c in said[:3]] == [
        ("right", "ending_right_rest", {"keeper": 1, "left": 3}),
        ("right", "ending_right_rest", {"keeper": 0, "left": 2}),
        ("right", "ending_right_rest", {"keeper": 0, "left": 1})]
    assert said[3].verdict == "goal" and s.reached
    text = catalog("en").get("learn", said[0].key, **said[0].args)
    assert text == "This keeper is now on 1; keepers not yet on 0: 3."


def test_the_tokens_hint_names_the_only_minutes_that_work() -> None:
    works = [m for m in range(1, 6)
             if Session.replay("tokens", ["play engine_manual", f"fix_engine {m}"]).reached]
    assert works == [3]
    hint = catalog("en").get("learn", Session.replay("tokens", ["play engine_manual"]).guidance()[0])
    assert "exactly 3 minutes" in hint and "at most" not in hint
    got = Session.replay("tokens", ["play engine_manual"]).play("fix_engine 1")
    text = catalog("en").get("learn", got.key, **got.args)
    assert text.endswith("choose at least 3 minutes.") and "play your items" not in text


@pytest.mark.parametrize("lid", list(PUZZLES))
def test_a_lost_puzzle_says_lost_once(lid: str, monkeypatch: pytest.MonkeyPatch,
                                      capsys: pytest.CaptureFixture[str]) -> None:
    plays = "\n".join(lost_plays(lid))
    out = run_learn([lid], f"{plays}\nquit\n", monkeypatch, capsys)
    assert ">> Lost: the " in out and "Lost: Lost" not in out
    for lang in LANGS:
        cat = catalog(lang)
        assert not cat.raw("learn", "failed_cause").startswith(cat.raw("learn", "lost"))


@pytest.mark.parametrize("lang", LANGS)
def test_the_water_lesson_names_both_actions_free_of_the_low_water_penalty(lang: str) -> None:
    cat = catalog(lang)
    done = cat.raw("learn", "water_done")
    assert cat.raw("action_kinds", "pump_water") in done
    assert cat.raw("action_kinds", "no_action") in done


@pytest.mark.parametrize(("argv", "stdin"), [([], ""), (["moving"], "open 5\n"),
                                             (["tokens"], "play engine_manual\nfix_engine 3\n")])
def test_the_end_of_the_input_is_said(argv: list[str], stdin: str, monkeypatch: pytest.MonkeyPatch,
                                      capsys: pytest.CaptureFixture[str]) -> None:
    out = run_learn(argv, stdin, monkeypatch, capsys, status=1)  # (quit: 0)
    assert out.rstrip().endswith(catalog("en").raw("term_plain", "input_ended"))


def test_the_menu_names_the_valid_choices(monkeypatch: pytest.MonkeyPatch,
                                          capsys: pytest.CaptureFixture[str]) -> None:
    out = run_learn([], f"{len(ALL) + 1}\nquit\n", monkeypatch, capsys)
    assert (f"There is no lesson {len(ALL) + 1}: type a number from 1 to {len(ALL)} or a name"
            in out)
    assert "Not a play here" not in out


def test_an_empty_line_in_a_lesson_says_what_may_be_typed(monkeypatch: pytest.MonkeyPatch,
                                                           capsys: pytest.CaptureFixture[str]) -> None:
    out = run_learn(["moving"], "\nquit\n", monkeypatch, capsys)
    assert "Not a play here" not in out
    assert out.count(catalog("en").raw("learn", "term_help")) == 2  # the lesson's start, and now


class _Terminal(io.StringIO):
    """Standard output as a terminal (``isatty``), its width from $COLUMNS."""

    def isatty(self) -> bool:
        return True


def test_on_an_80_column_terminal_the_lines_wrap_between_words(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """On a terminal the lessons' long lines (the intro, a step, a check, the menu's prompt in
    French) are wrapped to its width between words, a list item's lines under its text; a
    terminal would cut them mid-word at column 80. A pipe keeps one line per text."""
    monkeypatch.setenv("COLUMNS", "80")
    for lang in ("en", "fr"):
        out = _Terminal()
        args = argparse.Namespace(lesson=None, lang=lang)
        assert run_learn_cli(args, io.StringIO("moving\nopen 8\nquit\n"), out) == 0
        cat = catalog(lang)
        shown = out.getvalue()
        for prompt in ("term_pick", "term_prompt"):  # a terminal echoes the answer and its Enter
            shown = shown.replace(cat.raw("learn", prompt), cat.raw("learn", prompt) + "\n")
        lines = shown.splitlines()
        assert max(len(line) for line in lines) <= 80, [x for x in lines if len(x) > 80]
        text = " ".join(" ".join(lines).split())
        for key in ("intro", "moving_intro", "moving_open5", "moving_why_open5", "term_help"):
            assert " ".join(cat.raw("learn", key).split()) in text, (lang, key)
    out = _Terminal()
    assert run_learn_cli(argparse.Namespace(lesson="moving", lang="en"),
                         io.StringIO("open 8\nquit\n"), out) == 0
    assert ">> Not quite: Room 5 is the way from Missile Control to the Reactor Room: open\n" \
           "   the hatch to room 5.\n" in out.getvalue()  # a check's next line under its text
    piped = io.StringIO()
    assert run_learn_cli(argparse.Namespace(lesson="moving", lang="en"),
                         io.StringIO("quit\n"), piped) == 0
    assert catalog("en").raw("learn", "moving_intro") in piped.getvalue().splitlines()


@pytest.mark.parametrize("key", ["why_odds", "why_odds_more"])
def test_the_english_odds_read_well_at_every_chance(key: str) -> None:
    """A repair's chance is 10–100%: "a 80% chance" (an 80) was wrong English."""
    for chance in range(10, 101, 10):
        said = catalog("en").get("learn", key, minutes=1, bonus=7, total=chance // 10,
                                 chance=chance, roll=9, need=2)
        assert not re.search(r"\ba (8|11|18)\d*%", said), said
        assert f"{chance}%" in said


def test_french_labels_take_a_space_before_the_colon(monkeypatch: pytest.MonkeyPatch,
                                                     capsys: pytest.CaptureFixture[str]) -> None:
    """French puts a space before a colon, as the rest of its catalog does ("Feu : rien"): the
    lessons' own labels said "Objectif:", "Leçons:", "Énigmes:", "Incorrect:"."""
    out = run_learn(["--lang", "fr"], "1\nopen 8\nquit\n", monkeypatch, capsys)
    cat = catalog("fr")
    for key in ("lessons", "puzzles", "goal", "wrong"):
        word = cat.raw("learn", key)
        assert f"{word} :" in out and f"{word}:" not in out, key
    en = run_learn(["1"], "open 8\nquit\n", monkeypatch, capsys)
    assert "Goal: Take the gnome" in en and "Not quite: Room 5" in en


def test_the_sea_lesson_says_what_the_engine_does() -> None:
    """The Sea lesson (R6, §10): without an Aqualung the Sea stays shut; each pass through an
    exterior hatch costs a minute; and what its text warns of: a gnome that begins its turn in
    the Sea and is still there when it ends runs out of air."""
    wrong = Session.replay("sea", ["open sea"])
    assert (wrong.checks[-1].verdict, wrong.checks[-1].key) == ("wrong", "sea_why_aqualung")
    assert "enter" not in [a.text(wrong.game.data) for a in wrong.game.legal_actions()]
    done = Session.replay("sea", list(solution("sea").plays))
    assert done.reached and done.game.gnomes[0].keeper == 35  # 5 minutes: 2 hatches, 2 passes
    stays = Session.replay("sea", ["play aqualung", "open sea", "enter", "no_action"])
    g = stays.game
    assert g.gnomes[0].alive and g.gnomes[0].room == 0 and g.decider == 0  # out there, next again
    g.apply(next(a for a in g.legal_actions() if a.kind == "no_action"))
    assert not g.gnomes[0].alive and ("death", 0, "air") in [e[:3] for e in g.log]


def test_the_hatches_lesson_says_what_the_engine_does() -> None:
    """Blocked hatches (§6 Unblock Hatch; the Crowbar, §7): a blocked hatch cannot be opened;
    Unblock Hatch is the turn's action, one token of the player's choice goes on a success, and
    the other stays; the lesson tells a wrong hatch and too few minutes apart."""
    start = Session.start("hatches")
    g, d = start.game, start.game.data
    assert "open 5" not in [a.text(d) for a in g.legal_actions()]  # blocked: no way through
    wrong = Session.replay("hatches", ["play crowbar", "unblock_hatch 3 4"])
    assert (wrong.checks[-1].key, wrong.checks[-1].args) == ("why_other_hatch", {"room": 5})
    short = Session.replay("hatches", ["play crowbar", "unblock_hatch 5 3"])
    assert (short.checks[-1].key, short.checks[-1].args["need"]) == ("why_odds_more", 4)
    early = Session.replay("hatches", ["unblock_hatch 5 9"])
    assert early.checks[-1].key == "why_play_first"
    freed = Session.replay("hatches", ["play crowbar", "unblock_hatch 5 4"])
    g = freed.game
    assert not g.blocked[d.hatch_between[(4, 5)]] and g.blocked[d.hatch_between[(3, 4)]]
    assert g.decider == 0 and g.gnomes[0].keeper == 36  # the action ended the turn: 4 minutes
    assert "open 5" in [a.text(d) for a in g.legal_actions()]
    done = Session.replay("hatches", list(solution("hatches").plays))
    assert done.reached and done.game.gnomes[0].room == 5


def test_the_trading_lesson_says_what_the_engine_does() -> None:
    """Trade Items (§6, R11): one minute, the turn's action; each side's player chooses that
    side's gift (here Blue's, a decision of Blue's seat); an item played after the trade is
    wasted, and the lesson says so."""
    d = Session.start("trading").game.data
    gift = Session.replay("trading", ["trade 1", "done"])
    assert gift.game.decider == 1  # Blue's gift: Blue's decision
    assert sorted(a.text(d) for a in gift.game.legal_actions()) == [
        "done", "give crowbar", "give fire_extinguisher"]
    kept = Session.replay("trading", ["trade 1", "give water_pump"])
    assert kept.checks[-1].key == "trading_why_yours"
    wasted = Session.replay("trading", ["trade 1", "done", "give fire_extinguisher", "done",
                                        "play fire_extinguisher"])
    assert wasted.checks[-1].key == "trading_why_end"
    done = Session.replay("trading", list(solution("trading").plays))
    g = done.game
    assert done.reached and g.gnomes[0].keeper == 39  # one minute
    assert [d.items[i].id for i in g.gnomes[1].hand] == ["crowbar"]


def test_the_drawing_lesson_says_what_the_engine_does() -> None:
    """Draw Items and R10 (amended, per room): one minute a card; after drawing in room 8 the
    next turn offers no drawing there, while drawing in room 10 (Grog from the captain's stock)
    is allowed, and then room 8 is open again."""
    d = Session.start("drawing").game.data
    drew = Session.replay("drawing", ["draw 2", "end"])
    g = drew.game
    assert g.gnomes[0].keeper == 38 and len(g.gnomes[0].hand) == 2
    assert not [a for a in g.legal_actions() if a.kind == "draw"]  # R10: not in room 8 again
    done = Session.replay("drawing", list(solution("drawing").plays))
    g = done.game
    assert done.reached and g.gnomes[0].keeper == 38  # the turn's minutes still to walk
    g.apply(next(a for a in g.legal_actions() if a.text(d) == "end"))
    for play in ("open 8", "enter"):
        g.apply(next(a for a in g.legal_actions() if a.text(d) == play))
    assert [a for a in g.legal_actions() if a.kind == "draw"]  # room 8 is open to it again
    wasted = Session.replay("drawing", ["draw 2", "play aqualung"])
    assert wasted.checks[-1].key == "drawing_why_end"


def test_the_trapped_lesson_says_what_the_engine_does() -> None:
    """Extinguish Fire (§6): a failure forces one move out at once, never into a burning room
    without Grog or an Extinguisher; with no such room the gnome dies (trapped); and, as the
    lesson warns, a gnome still in a burning room when its turn ends dies."""
    failed = Session.replay("trapped", ["extinguish_fire 3"])
    g, d = failed.game, failed.game.data
    assert sorted(a.text(d) for a in g.legal_actions()) == ["exit 2", "exit 4", "exit 8"]
    done = Session.replay("trapped", list(solution("trapped").plays))
    assert done.reached and done.game.gnomes[0].room == 4 and done.game.gnomes[0].alive
    # every neighbour burning: the same failure kills
    spec = {**TRAPPED.spec, "position": {**TRAPPED.spec["position"], "fire": [2, 4, 5, 6, 7, 8]}}
    g = build(spec)
    g.apply(next(a for a in g.legal_actions() if a.text(g.data) == "extinguish_fire 3"))
    assert not g.gnomes[0].alive and ("death", 0, "trapped") in [e[:3] for e in g.log]
    # with Grog played the move out may lead into a burning room, where the turn's end kills
    gnomes = [{**TRAPPED.spec["position"]["gnomes"][0], "hand": ["grog"]},
              *TRAPPED.spec["position"]["gnomes"][1:]]
    g = build({**TRAPPED.spec, "position": {**TRAPPED.spec["position"], "gnomes": gnomes}})
    for play in ("play grog", "extinguish_fire 3", "exit 6"):
        g.apply(next(a for a in g.legal_actions() if a.text(g.data) == play))
    assert not g.gnomes[0].alive and ("death", 0, "fire") in [e[:3] for e in g.log]
