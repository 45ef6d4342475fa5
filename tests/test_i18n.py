"""The translations (de, fr, pl, ru, es): complete, same fields as English, grammar helpers,
no English leaking into the texts of real games, the glossary's terms, the terminal."""

from __future__ import annotations

import io
import json
import random
import re
import shutil
import string
import subprocess
from argparse import Namespace
from functools import cache
from pathlib import Path
from typing import Any

import pytest
from rich.console import Console

from rednovember.i18n import Catalog, available, catalog, plural, plural_forms
from rednovember.i18n import names as n
from rednovember.i18n.describe import (
    ENTRY_ARGS,
    describe_action,
    describe_decision,
    describe_entry,
    describe_result,
    template_keys,
)
from rednovember.rules import SEA, Config, Game, new_game
from rednovember.terminal.app import play

ROOT = Path(__file__).resolve().parents[1]
I18N = ROOT / "src" / "rednovember" / "i18n"
GLOSSARY = ROOT / "docs" / "glossary.md"
LANGS = ["de", "fr", "pl", "ru", "es"]
EXTRA_SECTIONS = {"grammar"}  # per-language data, not texts: no English counterpart
FORMATTER = string.Formatter()


def english() -> dict[str, dict[str, str]]:
    """en.json as it is on disk now (other work adds keys while the catalog cache is warm)."""
    return json.loads((I18N / "en.json").read_text("utf-8"))


def translated(lang: str) -> dict[str, dict[str, str]]:
    return json.loads((I18N / f"{lang}.json").read_text("utf-8"))


def parts(template: str) -> list[tuple[str, str]]:
    """(field name, format spec) of every replacement field."""
    return [(name.split(".")[0].split("[")[0], spec or "")
            for _, name, spec, _ in FORMATTER.parse(template) if name is not None]


def fields(template: str) -> set[str]:
    return {name for name, _ in parts(template)}


# --- catalogs --------------------------------------------------------------------------------
def test_the_languages_are_available() -> None:
    assert set(LANGS) | {"en"} <= set(available())
    for lang in LANGS:
        cat = catalog(lang)
        assert cat.code == lang and cat.raw("meta", "code") == lang
        assert cat.fallback is catalog("en")


@pytest.mark.parametrize("lang", LANGS)
def test_every_english_key_is_translated(lang: str) -> None:
    en, texts = english(), translated(lang)
    missing = [f"{s}.{k}" for s, keys in en.items() for k in keys if k not in texts.get(s, {})]
    assert not missing, f"{lang}: {len(missing)} keys missing, e.g. {missing[:10]}"
    extra = [f"{s}.{k}" for s, keys in texts.items() if s not in EXTRA_SECTIONS
             for k in keys if k not in en.get(s, {})]
    assert not extra, f"{lang}: keys English does not have: {extra}"
    assert all(isinstance(v, str) for keys in texts.values() for v in keys.values())


@pytest.mark.parametrize("lang", ["en", *LANGS])
def test_no_text_cites_a_ruling_number(lang: str) -> None:
    """The rulings' numbers (R7, R9 …) are the code's and RULES.md's: a player is told the rule
    in words (a lesson's title said "and R7", a doomed repair "(R7)")."""
    coded = {f"{s}.{k}": v for s, keys in translated(lang).items() for k, v in keys.items()
             if s not in EXTRA_SECTIONS and re.search(r"\bR\d+\b", v)}
    assert not coded, f"{lang}: {coded}"


@pytest.mark.parametrize("lang", LANGS)
def test_every_template_has_the_english_fields(lang: str) -> None:
    en, texts = english(), translated(lang)
    wrong = {f"{s}.{k}": (sorted(fields(v)), sorted(fields(texts[s][k])))
             for s, keys in en.items() for k, v in keys.items()
             if k in texts.get(s, {}) and fields(v) != fields(texts[s][k])}
    assert not wrong, f"{lang}: fields differ from English (en, {lang}): {wrong}"


@pytest.mark.parametrize("lang", LANGS)
def test_every_template_formats_with_sample_arguments(lang: str) -> None:
    cat, texts = catalog(lang), translated(lang)
    cases, forms = cat.cases(), len(plural_forms(lang))
    for section, keys in texts.items():
        if section in EXTRA_SECTIONS:
            continue
        for key, template in keys.items():
            for name, spec in parts(template):
                if "|" in spec:
                    assert spec.count("|") + 1 == forms, f"{section}.{key}: {spec!r} needs {forms} forms"
                    assert "#" in spec, f"{section}.{key}: plural forms without '#': {spec!r}"
                else:
                    assert not spec or spec in cases, f"{section}.{key}: unknown spec {name}:{spec}"
            for number in (1, 2, 5, 22):
                sample = {name: number for name in fields(template)}
                text = cat.format(template, sample)
                assert "{" not in text and "}" not in text, (section, key, text)


@pytest.mark.parametrize("lang", LANGS)
def test_grammar_tables_cover_rooms_and_gnomes(lang: str) -> None:
    """Every room a sentence can name (and, in Polish and Russian, every gnome) has its forms."""
    cat = catalog(lang)
    table = translated(lang).get("grammar", {})
    declared = set(table.get("cases", "").split())
    for phrase, spec in table.items():
        if phrase != "cases":
            used = {part.split("=")[0] for part in spec.split("|")}
            assert used <= declared, f"{lang} grammar {phrase!r}: undeclared case {used - declared}"
    g = new_game(Config(players=8, seed=1))
    rooms = [n.room(cat, g, r) for r in range(1, len(g.data.room_keys))] + [n.room(cat, g, SEA)]
    changing = {"pl": ["gen", "loc"], "ru": ["gen", "ins"], "fr": ["de", "a"], "es": ["de", "a"]}
    for case in changing.get(lang, []):
        for room in rooms:
            assert cat.inflect(room, case) != room, f"{lang}: no {case} form for {room!r}"
    if lang == "de":
        assert cat.inflect(n.room(cat, g, SEA), "dat") == "dem Meer"
    if lang in ("pl", "ru"):
        for case in ("gen", "acc", "dat", "ins"):
            for gnome in range(8):
                name = n.gnome(cat, g, gnome)
                assert cat.inflect(name, case) != name, f"{lang}: no {case} form for {name!r}"


def test_plural_rules() -> None:
    assert [plural("pl", k) for k in (1, 2, 4, 5, 12, 21, 22, 25, 112)] == \
        ["one", "few", "few", "many", "many", "many", "few", "many", "many"]
    assert [plural("ru", k) for k in (1, 2, 5, 11, 21, 22, 111, 101)] == \
        ["one", "few", "many", "many", "one", "few", "many", "one"]
    assert [plural("fr", k) for k in (0, 1, 2)] == ["one", "one", "other"]
    assert [plural("de", k) for k in (0, 1, 2)] == ["other", "one", "other"]
    assert plural("xx", 1) == "one" and plural_forms("xx") == ("one", "other")
    pl = catalog("pl")
    assert [pl.get("log", "draw.hidden", gnome="Czerwony", count=k) for k in (1, 3, 5)] == [
        "Czerwony dobiera 1 przedmiot.", "Czerwony dobiera 3 przedmioty.",
        "Czerwony dobiera 5 przedmiotów."]
    ru = catalog("ru")
    assert ru.get("decisions", "move", gnome="Синий", minutes=21, ghost=21).startswith(
        "Ход Синего: ") and "осталась 21 минута" in ru.get("decisions", "move", gnome="Синий",
                                                           minutes=21, ghost=21)


def test_grammar_helpers_are_backward_compatible() -> None:
    """Plain templates format as before; the helpers need no English data and never raise."""
    cat = Catalog("xx", {"log": {"a": "{n:# card|# cards} for {who:acc}, {x!r} {y:>3}"}}, catalog("en"))
    assert cat.get("log", "a", n=1, who="Bob", x="q", y=7) == "1 card for Bob, 'q'   7"
    assert cat.get("log", "a", n="many", who="Bob", x="q", y=7).startswith("many cards")
    assert cat.get("log", "a", n=1).endswith(" n=1")  # a missing field still never raises
    assert catalog("en").cases() == frozenset()
    ru = catalog("ru")
    assert ru.inflect("комната 3, комната 5 и море", "loc") == "комнате 3, комнате 5 и море"
    assert ru.inflect("Красный", "ins") == "Красным" and ru.inflect("Гном", "ins") == "Гном"
    assert catalog("fr").get("log", "enter", gnome="Rouge", from_room="la mer",
                             to_room="le compartiment 3") == "Rouge passe de la mer au compartiment 3."
    assert catalog("es").get("log", "enter", gnome="Rojo", from_room="la habitación 9",
                             to_room="el mar") == "Rojo pasa de la habitación 9 al mar."


# --- real games --------------------------------------------------------------------------------
def _play(config: Config, seed: int, check: list[str]) -> tuple[Game, dict[str, list[str]]]:
    """A random game; at every step the menu and question in every language of ``check``."""
    g, rng = new_game(config), random.Random(seed)
    issues: dict[str, list[str]] = {lang: [] for lang in check}
    while not g.is_over:
        legal = g.legal_actions()
        en = [describe_action(a, g) for a in legal] + [describe_decision(g)]
        for lang in check:
            texts = [describe_action(a, g, lang) for a in legal] + [describe_decision(g, lang)]
            issues[lang] += [f"{t!r} (en {e!r})" for t, e in zip(texts, en, strict=True)
                             if "{" in t or "}" in t or t == e]
        g.apply(rng.choice(legal))
    return g, issues


GAMES = [
    (Config(players=3, seed=21, variants=frozenset({"mad-gnomes"})), 1),
    (Config(players=5, seed=22, variants=frozenset({"less-deadly-death"})), 2),
    (Config(players=2, gnomes_per_player=2, seed=23, variants=frozenset({"hardest"})), 3),
    (Config(players=8, seed=24, variants=frozenset({"mad-gnomes", "less-deadly-death"})), 4),
    (Config(players=4, seed=25, variants=frozenset({"harder"})), 5),
    (Config(players=1, seed=26), 6),
    (Config(players=6, seed=27, variants=frozenset({"mad-gnomes"})), 7),
    (Config(players=7, seed=28), 8),
]


@cache
def _games() -> list[tuple[Game, dict[str, list[str]]]]:
    return [_play(config, seed, LANGS) for config, seed in GAMES]


@pytest.mark.parametrize("lang", LANGS)
def test_menus_and_questions_of_random_games_are_translated(lang: str) -> None:
    for _, issues in _games():
        assert not issues[lang], f"{lang}: {issues[lang][:5]}"


@pytest.mark.parametrize("lang", LANGS)
def test_logs_of_random_games_are_translated(lang: str) -> None:
    seen: set[str] = set()
    for g, _ in _games():
        for entry in g.log:
            seen.add(entry[0])
            for viewer in (None, 0):
                text = describe_entry(entry, g, lang, viewer)
                en = describe_entry(entry, g, "en", viewer)
                assert text and "{" not in text and "}" not in text, (entry, text)
                assert " gnome=" not in text and " room=" not in text, (entry, text)
                assert text != en, f"{lang}: untranslated {entry}: {text!r}"
        result, en_result = describe_result(g, lang), describe_result(g)
        assert len(result) == len(en_result)
        assert all("{" not in t and t != e for t, e in zip(result, en_result, strict=True)), result
    assert {"turn", "open", "enter", "event", "repair", "token", "track", "fire"} <= seen


SAMPLE = {"gnome": 1, "room": 4, "rooms": (4, 5), "item": 0, "items": (0, 1, 1), "card": 0,
          "token": 1, "track": 0, "kind": "fix_engine", "cause": "fire", "loss": "heat",
          "int": 3, "str": "x"}


@pytest.mark.parametrize("lang", LANGS)
def test_every_log_message_with_sample_arguments(lang: str) -> None:
    """Also the messages random games rarely reach (fights, abandoning, reshuffles…)."""
    g = new_game(Config(players=3, seed=5, variants=frozenset({"mad-gnomes"})))
    cat = catalog(lang)
    for mid, spec in ENTRY_ARGS.items():
        assert all(cat.has("log", k) for k in template_keys(mid)), mid
        kinds = [s.split(":")[1] for s in spec]
        for flag in (True, False):
            args = [flag if kind == "bool" else SAMPLE[kind] for kind in kinds]
            for viewer in (None, 0, 1):
                text = describe_entry((mid, *args), g, lang, viewer)
                assert text and "{" not in text and "=" not in text, (mid, text)
                assert text != describe_entry((mid, *args), g, "en", viewer), (mid, text)


# --- glossary ----------------------------------------------------------------------------------
def _glossary_rows() -> list[dict[str, str]]:
    rows = []
    for line in GLOSSARY.read_text("utf-8").splitlines():
        cells = [c.strip() for c in line.strip().strip("|").split("|")]
        if len(cells) == 8 and cells[0] not in ("English", "---"):
            rows.append(dict(zip(["en", *LANGS, "key", "note"], cells, strict=True)))
    return rows


def _stem_pattern(term: str) -> re.Pattern[str]:
    """The term with each long word's ending left open, so an inflected form matches too."""
    words = []
    for w in term.split():
        cut = 3 if len(w) >= 7 else 2 if len(w) >= 5 else 0
        words.append(re.escape(w[: len(w) - cut]) + r"\w*" if cut else re.escape(w) + r"\w{0,2}")
    return re.compile(r"\s+".join(words), re.IGNORECASE)


def test_glossary_terms_are_the_catalogs_terms() -> None:
    rows = _glossary_rows()
    assert len(rows) > 80
    keyed = [r for r in rows if r["key"].startswith("`")]
    assert {r["key"].strip("`").split(".")[0] for r in keyed} >= {
        "rooms", "items", "events", "tokens", "tracks", "action_kinds", "variants"}
    items = [r for r in keyed if r["key"].startswith("`items.")]
    assert len(items) == len(english()["items"])
    problems = []
    for lang in LANGS:
        cat = catalog(lang)
        everything = "\n".join(v for s, keys in translated(lang).items() if s not in EXTRA_SECTIONS
                               for v in keys.values())
        for row in rows:
            term = row[lang]
            if row["key"] == "—" or not term:
                continue
            if row["key"] == "any":
                if not _stem_pattern(term).search(everything):
                    problems.append(f"{lang}: {term!r} ({row['en']}) appears nowhere")
                continue
            section, key = row["key"].strip("`").split(".", 1)
            value = cat.texts.get(section, {}).get(key, "")
            if term.casefold() not in value.casefold():
                problems.append(f"{lang}: {row['key']} is {value!r}, glossary says {term!r}")
    assert not problems, "\n".join(problems)


def test_french_says_porte_and_compartiment_as_its_buttons_do() -> None:
    """The glossary's French hatch is *porte* and its room *compartiment* ("Ouvrir la porte vers le
    compartiment 5"): the lessons said "Ouvrez l'écoutille vers la salle 5" right beside that
    button, and the legends and the advisor said *écoutille* too. (*Salle des machines* is a
    room's name.)"""
    fr = translated("fr")
    hatch = [f"{s}.{k}" for s, keys in fr.items() for k, v in keys.items()
             if re.search(r"[ée]coutille", v, re.IGNORECASE)]
    assert not hatch, hatch
    room = [f"learn.{k}" for k, v in fr["learn"].items()
            if re.search(r"\bsalles?\b(?! des machines)", v, re.IGNORECASE)]
    assert not room, room


def test_german_items_follow_the_rulebook() -> None:
    de = catalog("de")
    assert [de.raw("items", k) for k in ("crowbar", "toolbox", "aqualung", "lucky_charm", "grog",
                                         "coffee")] == [
        "Brechstange", "Werkzeugkiste", "Tauchgerät", "Glücksbringer", "Grog", "Kaffee"]
    assert [de.raw("tracks", k) for k in ("asphyxiation", "heat", "pressure")] == [
        "Ersticken", "Hitze", "Überdruck"]
    assert de.raw("action_kinds", "unblock_hatch") == "Lukenblockierung aufheben"
    assert "Geister-Zeitstein" in de.raw("ui", "icon_legend")


def _texts(lang: str) -> dict[str, str]:
    """Every text of a language, UI catalog and rules page, by dotted key."""
    out: dict[str, str] = {}

    def walk(node: dict[str, Any], prefix: str) -> None:
        for key, value in node.items():
            if isinstance(value, dict):
                walk(value, prefix + key + ".")
            elif isinstance(value, str):
                out[prefix + key] = value
    walk(translated(lang), "")
    walk(json.loads((I18N / "rules" / f"{lang}.json").read_text("utf-8")), "rules.")
    return out


def test_one_german_word_for_gnome_and_the_minute() -> None:
    """The rulebook's Gnom (not Wichtel), Min. (not min), Startwert (not Seed)."""
    for key, text in _texts("de").items():
        assert "Wichtel" not in text, key
        assert not re.search(r"(\{minutes\}|\d) min\b", text), (key, text)
        assert "Seed" not in text or key == "rules.chapters.setup.p1", (key, text)  # "(Seed)" once
    assert catalog("de").raw("web", "seed") == "Startwert (optional)"


def test_german_calls_a_destruction_token_marker_and_writes_a_decimal_comma() -> None:
    """The log and the rules say Marker; the advisor said "das Plättchen Raketenstart!". Its
    "0.6 s" is "0,6 s" in every language that writes a decimal comma."""
    assert not [k for k, text in _texts("de").items() if "Plättchen" in text]
    assert catalog("de").get("advisor", "threat_token", token="Raketenstart!", space=40) == \
        "der Marker „Raketenstart!“ wartet auf Feld 40"
    assert catalog("en").decimal(0.6) == "0.6" and catalog("de").decimal(0.6) == "0,6"
    assert {lang: catalog(lang).decimal(12.345, 2) for lang in LANGS} == {
        lang: "12.35" if lang == "en" else "12,35" for lang in LANGS}


# every way the ghost time keeper was called besides the rulebook's name (a row label of the
# terminal's time track, ``ui.row_ghost``, stays an abbreviation)
GHOST_OTHER_NAMES = {
    "de": r"\bGeist\b(?!er)|Geist-Zeitmarker|Zeitmarker",
    "fr": r"pion fantôme|(?<!marqueur )fantôme",
    "es": r"marcador fantasma|(?<!cronometrador )fantasma",
    "pl": r"\bduch|znacznik-duch",
    "ru": r"\b[Пп]ризрак|фишка-призрак",
}
GHOST_NAME = {"de": "Geister-Zeitstein", "fr": "marqueur fantôme", "es": "cronometrador fantasma",
              "pl": "Chwilowy znacznik", "ru": "Призрачная Метка"}


@pytest.mark.parametrize("lang", LANGS)
def test_one_name_for_the_ghost_keeper(lang: str) -> None:
    texts = _texts(lang)
    wrong = {k: t for k, t in texts.items()
             if k != "ui.row_ghost" and re.search(GHOST_OTHER_NAMES[lang], t, re.IGNORECASE)}
    assert not wrong, wrong
    assert GHOST_NAME[lang] in texts["term_tui.legend_ghost"]


def test_french_calls_the_icons_stars_as_its_rulebook() -> None:
    """The French rulebook's étoile rouge / blanche; its reset spaces are cases de reset."""
    for key, text in _texts("fr").items():
        assert not re.search(r"icônes? (d'|d’)?(événement|objet)|symboles? (d')?(événement|objet)",
                             text), (key, text)
        assert "étoile de remise" not in text, (key, text)


@pytest.mark.parametrize("lang", ["en", *LANGS])
def test_icon_letters_agree_everywhere(lang: str) -> None:
    """The time track's letters (terminal), its legend and the options' →◆39 2E 1I preview use the
    same two letters, the catalog's ``ui.icon_event_letter`` / ``ui.icon_item_letter``."""
    from rednovember.terminal import board
    from rednovember.terminal.tui import render

    cat = catalog(lang)
    e, i = cat.raw("ui", "icon_event_letter"), cat.raw("ui", "icon_item_letter")
    assert len(e) == len(i) == 1 and e != i and "*" not in (e, i)
    assert cat.raw("ui", "icon_legend").startswith(f"{e} ") and f" · {i} " in cat.raw(
        "ui", "icon_legend")
    assert cat.raw("term_tui", "preview").endswith(f"{{events}}{e} {{items}}{i}")
    assert f"→◆39 2{e} 1{i}" in cat.raw("term_tui", "keys_help")
    assert f"\n  {e} {i} *  " in cat.raw("term_plain", "legend")
    g = new_game(Config(players=3, seed=3))
    console = Console(width=200, record=True, color_system=None)
    for track in (render.time_track(g, cat, 80), board.time_track(g, cat, 160),
                  render.legend(cat)):
        console.print(track)
    shown = console.export_text()
    label = cat.raw("ui", "row_icons")[:7]
    rows = [line for line in shown.splitlines() if line.startswith(label)]
    assert len(rows) == 2  # the narrow ruler (80 columns) and the wide one
    for row in rows:
        assert set(row[len(label):]) - {"·", " "} == {e, i, "*"}, (lang, row)
    assert f"{e}   " in shown and f"{i}   " in shown  # the legend's rows
    assert board.icon_mark(cat, True, False) == e and board.icon_mark(cat, False, True) == i


# --- terminal and web ----------------------------------------------------------------------------
@pytest.mark.parametrize(("lang", "words"), [
    ("de", ["Neues Spiel", "Zeitleiste", "Geister-Zeitstein", "Spielende"]),
    ("ru", ["Новая игра", "Шкала Времени", "Призрачная Метка", "Игра окончена"]),
    ("pl", ["Nowa gra", "Tor Czasu", "Koniec gry"]),
    ("fr", ["Nouvelle partie", "Piste de temps", "Partie terminée"]),
    ("es", ["Nueva partida", "Registro de tiempo", "Fin de la partida"]),
])
def test_terminal_game_in_every_language(lang: str, words: list[str]) -> None:
    buf = io.StringIO()
    con = Console(file=buf, width=140, highlight=False, color_system=None)
    ns = Namespace(players=3, gnomes=None, variant=[], seed=4, load=None, lang=lang,
                   bot=["1=random", "2=random", "3=random"])
    assert play(ns, con, lambda prompt: "") == 0
    out = buf.getvalue()
    for word in words:
        assert word in out, word
    assert "{" not in out.replace("{'", "")


NODE_SCRIPT = r"""
globalThis.localStorage = { getItem() { return null; }, setItem() {} };
globalThis.document = { documentElement: {} };
const fs = await import("fs");
const m = await import(process.argv[2]);
const cases = JSON.parse(fs.readFileSync(0, "utf8"));
const read = (code) => JSON.parse(fs.readFileSync(`${process.argv[3]}/${code}.json`, "utf8"));
m.setCatalogFetcher(async (code) => read(code));
const out = [];
for (const [lang, template, fields] of cases) {
  if (m.lang() !== lang || !m.raw("meta", "code")) await m.setLanguage(lang);
  out.push(m.format(template, fields));
}
console.log(JSON.stringify(out));
"""


@pytest.mark.skipif(shutil.which("node") is None, reason="node is not installed")
def test_web_formatter_agrees_with_python(tmp_path: Path) -> None:
    """static/js/i18n.js fills the same templates (plural and case specs) as the catalogs."""
    i18n_js = ROOT / "src" / "rednovember" / "web" / "static" / "js" / "i18n.js"
    if not i18n_js.exists():
        pytest.skip("no web front-end")
    g = new_game(Config(players=8, seed=1))
    cases: list[tuple[str, str, dict[str, Any]]] = []
    for lang in LANGS:
        cat = catalog(lang)
        rooms = [n.room(cat, g, r) for r in (1, 4, 5, SEA)]
        for section, keys in translated(lang).items():
            if section in EXTRA_SECTIONS:
                continue
            for template in keys.values():
                if not any(spec for _, spec in parts(template)):
                    continue
                for i, count in enumerate((1, 3, 5, 21)):
                    sample: dict[str, Any] = {}
                    for name in fields(template):
                        if "room" in name or name in ("a", "b"):
                            sample[name] = rooms[i]
                        elif name in ("gnome", "other", "loser", "attacker", "defender"):
                            sample[name] = n.gnome(cat, g, i)
                        else:
                            sample[name] = count
                    cases.append((lang, template, sample))
    script = tmp_path / "check.mjs"
    script.write_text(NODE_SCRIPT, "utf-8")
    run = subprocess.run(["node", str(script), i18n_js.as_uri(), str(I18N)], input=json.dumps(cases),
                         capture_output=True, text=True, timeout=60, check=True)
    got = json.loads(run.stdout)
    want = [catalog(lang).format(template, sample) for lang, template, sample in cases]
    diff = [(c[0], c[1], w, j) for c, w, j in zip(cases, want, got, strict=True) if w != j]
    assert not diff, diff[:5]


@pytest.mark.parametrize("lang", ["en", "de", "fr", "pl", "ru", "es"])
def test_the_terminal_legend_shows_keepers_as_the_board_names_them(lang: str) -> None:
    cat = catalog(lang)
    example = f"  {cat.raw('colours_short', 'red')} {cat.raw('colours_short', 'blue')} …   "
    assert example in cat.raw("term_plain", "legend")


def test_a_count_of_minutes_never_breaks_from_its_abbreviation() -> None:
    """"{minutes} мин" is joined by a no-break space: a narrow chip or a wrapped log line must not
    leave "10" at the end of one line and "мин" at the start of the next."""
    text = (Path(__file__).parents[1] / "src/rednovember/i18n/ru.json").read_text("utf-8")
    assert re.findall(r"\} мин\b", text) == []
    assert text.count("}\u00a0мин") >= 10


def test_french_puts_a_narrow_no_break_space_before_a_semicolon() -> None:
    """A list of clauses (a menu line's notes, the advisor's reasons, a turning point's events)
    is joined as each language writes it: French typography wants a narrow no-break space
    before ";"."""
    assert catalog("fr").join(["a", "b"]) == "a\u202f; b"
    assert catalog("en").join(["a", "b"]) == catalog("de").join(["a", "b"]) == "a; b"
    rng = random.Random(4)
    for seed in range(40):  # a menu line with two notes or more, in English and in French
        g = new_game(Config(players=3, seed=seed))
        for _ in range(300):
            if g.result is not None:
                break
            legal = g.legal_actions()
            for a in legal:
                en = describe_action(a, g)
                if en.endswith(")") and "; " in en[en.find(" ("):]:
                    fr = describe_action(a, g, "fr")
                    assert "\u202f; " in fr and "; " not in fr.replace("\u202f; ", ""), fr
                    return
            g.apply(rng.choice(legal))
    raise AssertionError("no menu line with two notes in 40 games")
