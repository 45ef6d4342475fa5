"""The English text layer: every engine message has a template; sentences for real games."""

from __future__ import annotations

import random
import re
from pathlib import Path

import pytest

from rednovember.i18n import Catalog, UnknownLanguage, available, catalog
from rednovember.i18n.describe import (
    ENTRY_ARGS,
    action_cost,
    describe_action,
    describe_decision,
    describe_entry,
    describe_log,
    describe_result,
    repair_chance,
    template_keys,
)
from rednovember.rules import COLOURS, Action, Config, Game, load_data, new_game
from rednovember.rules.data import REPAIRS
from rednovember.rules.state import LOW
from rednovember.terminal.menu import build_menu, minutes_menu
from rednovember.web.protocol import action_info

RULES = Path(__file__).resolve().parents[1] / "src" / "rednovember" / "rules"


def _source() -> str:
    return "\n".join(p.read_text("utf-8") for p in sorted(RULES.glob("*.py")))


def engine_message_ids() -> set[str]:
    """Every message id the engine can log: literal ``say("id", ...)`` calls plus the ids passed
    to ``set_fire`` (which logs its ``why`` argument)."""
    src = _source()
    ids = set(re.findall(r"\bsay\(\s*\"(\w+)\"", src))
    ids |= set(re.findall(r"set_fire\([^()]*?,\s*\"(\w+)\"\s*\)", src))
    return ids


def test_every_say_call_is_understood() -> None:
    """A say() whose message id is not a literal would escape the template check below."""
    calls = re.findall(r"\bsay\(\s*([^,)\s]+)", _source())
    dynamic = {c for c in calls if not c.startswith('"') and c != "self"}
    assert dynamic <= {"why", "*entry"}, f"say() with a computed message id: {dynamic}"


def test_every_engine_message_has_an_english_template() -> None:
    ids = engine_message_ids()
    assert {"turn", "open", "repair", "event", "faint_check", "death", "token", "track",
            "fire", "fire_spreads"} <= ids
    en = catalog("en")
    missing = [k for mid in sorted(ids) for k in template_keys(mid) if not en.has("log", k)]
    assert not missing, f"no English template for {missing}"
    assert not ids - set(ENTRY_ARGS), f"message ids without an argument spec: {ids - set(ENTRY_ARGS)}"


def test_names_cover_the_data() -> None:
    en = catalog("en")
    data = load_data()
    for item in data.items:
        assert en.has("items", item.id) and en.has("item_help", item.id)
    for kind in data.event_kinds:
        assert en.has("events", kind)
    for token in data.tokens:
        assert en.has("tokens", token) and en.has("tokens_short", token)
        assert en.has("loss_causes", token)
    for track in data.tracks:
        assert en.has("tracks", track) and en.has("loss_causes", track)
    for colour in COLOURS:
        assert en.has("colours", colour) and en.has("colours_short", colour)
    for kind in REPAIRS:
        assert en.has("action_kinds", kind)
    assert en.has("loss_causes", "all_dead")
    src = _source()
    causes = set(re.findall(r"kill\([^()]*?\"(\w+)\"\)", src))
    causes |= set(re.findall(r"cause = \"(\w+)\"", src)) | {"fire", "flood"}
    causes.discard("")
    assert causes and all(en.has("death_causes", c) for c in causes), causes


def test_every_template_formats_with_its_fields() -> None:
    """Templates name only fields the describer provides (a typo would leave '{' behind)."""
    en = catalog("en")
    for mid, spec in ENTRY_ARGS.items():
        fields = {s.split(":")[0] for s in spec} | {"length", "count", "token"}
        for key in template_keys(mid):
            used = set(re.findall(r"{(\w+)", en.raw("log", key)))
            assert used <= fields, f"{key}: unknown fields {used - fields}"


def _random_game(config: Config, seed: int, check_actions: bool = True) -> Game:
    g = new_game(config)
    rng = random.Random(seed)
    steps = 0
    while not g.is_over:
        legal = g.legal_actions()
        assert legal
        if check_actions:
            for a in legal:
                text = describe_action(a, g)
                assert text and "{" not in text and "}" not in text, (a, text)
            decision = describe_decision(g)
            assert "{" not in decision, decision
        g.apply(rng.choice(legal))
        steps += 1
        assert steps < 20000
    return g


CASES = [
    (Config(players=3, seed=1), 1),
    (Config(players=4, seed=2), 2),
    (Config(players=5, seed=3, variants=frozenset({"harder"})), 3),
    (Config(players=6, seed=4, variants=frozenset({"hardest"})), 4),
    (Config(players=7, seed=5, variants=frozenset({"less-deadly-death"})), 5),
    (Config(players=8, seed=6, variants=frozenset({"mad-gnomes"})), 6),
    (Config(players=1, seed=7), 7),
    (Config(players=2, gnomes_per_player=2, seed=8,
            variants=frozenset({"mad-gnomes", "less-deadly-death"})), 8),
]


@pytest.mark.parametrize(("config", "seed"), CASES)
def test_describe_every_entry_of_random_games(config: Config, seed: int) -> None:
    g = _random_game(config, seed)
    assert g.log
    for entry in g.log:
        spec = ENTRY_ARGS[entry[0]]
        assert len(spec) == len(entry) - 1, entry
        for viewer in (None, 0, 1):
            text = describe_entry(entry, g, viewer=viewer)
            assert text and "{" not in text and "}" not in text, (entry, text)
            assert not text.startswith(entry[0] + ":"), (entry, text)
    result = describe_result(g)
    assert len(result) == 1 + len(g.gnomes) and "{" not in "".join(result)


def test_many_games_quickly() -> None:
    """More seeds without the per-step action check, to meet rare messages."""
    seen: set[str] = set()
    for seed in range(60):
        players = 1 + seed % 8
        variants = frozenset([["harder"], ["mad-gnomes"], ["less-deadly-death"], []][seed % 4])
        g = _random_game(Config(players=players, seed=100 + seed, variants=variants), seed,
                         check_actions=False)
        for line in describe_log(g):
            assert "{" not in line
        seen |= {e[0] for e in g.log}
    assert {"turn", "event", "repair", "death", "lost", "token", "track"} <= seen


def _game_in(room: int, **water: int) -> Game:
    g = new_game(Config(players=3, seed=11))
    gn = g.gnomes[g.active]
    gn.room = room
    for r, level in water.items():
        g.water[int(r[1:])] = level
    g._legal = None
    return g


def test_repair_text_with_low_water_and_chance() -> None:
    g = _game_in(1, r1=LOW)
    g.tracks[2] = 3  # pressure: Fix Engine has something to fix
    g._legal = None
    action = Action("fix_engine", 0, 4)
    assert action in g.legal_actions()
    assert action_cost(action, g) == 6
    assert describe_action(action, g) == "Fix Engine with 4 min (6 min incl. low water) — 40% chance"
    assert repair_chance(Action("fix_engine", 0, 10), g) == 100


def test_R7_doomed_repair_is_flagged() -> None:
    g = _game_in(1)
    gn = g.gnomes[g.active]
    crushed = g.data.tokens.index("crushed")
    g.tokens[crushed] = gn.keeper - 3
    g._legal = None
    safe, doomed = Action("fix_engine", 0, 3), Action("fix_engine", 0, 4)
    assert {safe, doomed} <= set(g.legal_actions())
    assert "DOOMED" not in describe_action(safe, g)
    text = describe_action(doomed, g)
    assert "DOOMED" in text and "Crushed!" in text and repair_chance(doomed, g) == 0
    g.tracks[2] = 6  # R7 amended: Pressure on 6 does not save it, the track is not reset either
    text = describe_action(doomed, g)
    assert "DOOMED" in text and "Crushed!" in text and repair_chance(doomed, g) == 0
    assert "DOOMED" not in describe_action(safe, g) and repair_chance(safe, g) == 30


def test_simple_action_texts() -> None:
    g = _game_in(5)
    assert describe_action(Action("open", 4), g).startswith("Open the hatch to room 4 Reactor Room")
    grog = g.data.item_index["grog"]
    assert describe_action(Action("play", grog), g).startswith("Play Grog")
    assert describe_action(Action("no_action"), g) == "No action (1 min)"
    g.water[4] = 2  # high water beyond an open hatch flows into the dry room: both low
    assert describe_action(Action("open", 4), g) == \
        "Open the hatch to room 4 Reactor Room (1 min; the water will flow: low water beyond)"
    g.water[5] = 1  # low here: nothing flows, and the room stays closed to the gnome
    assert describe_action(Action("open", 4), g) == \
        "Open the hatch to room 4 Reactor Room (1 min; high water: cannot enter)"


def test_mad_gnomes_hides_private_entries() -> None:
    g = new_game(Config(players=3, seed=2, variants=frozenset({"mad-gnomes"})))
    grog = g.data.item_index["grog"]
    entry = ("draw", 1, (grog, grog))
    assert describe_entry(entry, g, viewer=1) == "Blue draws Grog ×2."
    assert describe_entry(entry, g, viewer=0) == "Blue draws 2 items."
    assert describe_entry(entry, g) == "Blue draws Grog ×2."


def test_entry_examples() -> None:
    g = new_game(Config(players=3, seed=2))
    fire = next(i for i, c in enumerate(g.data.events) if c.kind == "fire" and c.faint == 2)
    assert describe_entry(("event", fire, 39), g) == "Event card Fire (faint 2), drawn on space 39."
    assert describe_entry(("fire", 4), g) == "Fire in room 4 Reactor Room!"
    assert "Red" in describe_entry(("death", 0, "fire", 4), g)
    assert describe_entry(("unknown_message", 1, 2), g) == "unknown_message: 1, 2"


@pytest.mark.parametrize(("lang", "words"), [("en", "Unblock the hatch to room 5"),
                                              ("de", "Luke zu Raum 5"), ("ru", "люк в комнату 5")])
def test_unblock_hatch_log_names_the_hatch(lang: str, words: str) -> None:
    """Issue 8: "tries Unblock Hatch" did not say which hatch; the entry carries the far room."""
    g = new_game(Config(players=3, seed=2))
    entry = ("repair", 0, "unblock_hatch", 3, 3, 2, True, False, 5)
    assert words in describe_entry(entry, g, lang)
    plain = ("repair", 0, "pump_water", 3, 3, 2, True, False, -1)
    assert "5" not in describe_entry(plain, g, lang).replace("3", "")


def test_catalog_fallback_and_languages() -> None:
    assert "en" in available()
    with pytest.raises(UnknownLanguage):
        catalog("xx")
    partial = Catalog("xx", {"colours": {"red": "Rot"}}, catalog("en"))
    assert partial.raw("colours", "red") == "Rot"
    assert partial.raw("colours", "blue") == "Blue"
    assert partial.raw("nothing", "at_all") == "at_all"
    assert partial.get("log", "turn", gnome="Rot", space=60).startswith("— Rot")
    assert "gnome=Rot" in partial.get("log", "turn", gnome="Rot")  # a missing field never raises


SAMPLE = {"gnome": 1, "room": 4, "rooms": (4, 5), "item": 0, "items": (0, 1, 1), "card": 0,
          "token": 1, "track": 0, "kind": "fix_engine", "cause": "fire", "loss": "heat",
          "int": 3, "str": "x"}


@pytest.mark.parametrize("message_id", sorted(ENTRY_ARGS))
def test_every_message_with_sample_arguments(message_id: str) -> None:
    """Also the messages random games rarely reach (fights, abandoning, reshuffles…)."""
    g = new_game(Config(players=3, seed=5, variants=frozenset({"mad-gnomes"})))
    spec = [s.split(":")[1] for s in ENTRY_ARGS[message_id]]
    for flag in (True, False):
        args = [flag if kind == "bool" else SAMPLE[kind] for kind in spec]
        for viewer in (None, 0, 1):
            text = describe_entry((message_id, *args), g, viewer=viewer)
            assert text and "{" not in text and "=" not in text, text


def test_sentences_hide_exactly_what_the_engine_redacts_for_a_seat() -> None:
    """One rule (rules.view) says what a Mad Gnomes seat may read; the sentences follow it."""
    from rednovember.rules.view import log_for

    g = new_game(Config(players=4, seed=12, variants=frozenset({"mad-gnomes"})))
    pick = random.Random(12)
    while not g.is_over and len(g.history) < 300:
        g.apply(pick.choice(g.legal_actions()))
    assert {"draw", "item_icon"} & {e[0] for e in g.log}
    g.log.append(("loot", 0, 1, (g.data.item_index["grog"],)))  # a fight's spoils
    for seat in range(4):
        for shown, entry in zip(log_for(g, seat), g.log, strict=True):
            same = describe_entry(entry, g, viewer=seat) == describe_entry(entry, g)
            assert same == (shown == entry), (seat, entry)
    assert "Grog" not in describe_entry(g.log[-1], g, viewer=1)  # not even the loser's seat


def test_R7_amended_every_interface_warns_before_fix_engine_with_pressure_6_past_crushed() -> None:
    g = _game_in(1)
    gn = g.gnomes[g.active]
    g.tracks[g.data.tracks.index("pressure")] = 6
    g.tokens[g.data.tokens.index("crushed")] = gn.keeper - 3
    g._legal = None
    (group,) = [e for e in build_menu(g) if e.actions and e.actions[0].kind == "fix_engine"]
    assert "doomed from 4 min" in group.label and "Crushed!" in group.label
    warned = [e.actions[0].minutes for e in minutes_menu(group, g) if e.warn]
    assert warned == list(range(4, 11))  # the ghost passes Crushed! from 4 minutes on
    info = action_info(Action("fix_engine", 0, 5), g)
    assert info["doomed"] is True and info["token_lost"] == "crushed" and info["chance"] == 0
    assert action_info(Action("fix_engine", 0, 3), g)["doomed"] is False
