"""The rules page ``/rules/{lang}``: the complete rules in six languages around the card reference,
every number from the game data (or checked against the engine here), the validated "Back to the
game" link, and a browser round trip game → rules → game."""

from __future__ import annotations

import html
import json
import re
import string
from pathlib import Path
from typing import Any
from urllib.parse import quote

import httpx
import pytest
from browsertools import SKIP, _page, create_game, expect, shot, take_seat

from rednovember.i18n import available, catalog, plural_forms
from rednovember.i18n.describe import action_cost
from rednovember.rules import Config, load_data, new_game
from rednovember.rules.apply import low_water_penalty
from rednovember.rules.state import LOW
from rednovember.rules.turn import finish_turn
from rednovember.web.rules_page import ENGINE_NUMBERS, rule_numbers, rules_text, safe_back

ROOT = Path(__file__).resolve().parents[2]
RULES = ROOT / "src" / "rednovember" / "i18n" / "rules"
LANGS = ["en", "de", "fr", "pl", "ru", "es"]
REFERENCE = ["items", "actions", "events", "variants", "losses"]
FORMATTER = string.Formatter()
PHONE = {"width": 390, "height": 844}


def rules_file(lang: str) -> dict[str, Any]:
    data: dict[str, Any] = json.loads((RULES / f"{lang}.json").read_text("utf-8"))
    return data


def chapter_ids() -> list[str]:
    return list(rules_file("en")["chapters"])


def parts(template: str) -> list[tuple[str, str]]:
    return [(name, spec or "") for _, name, spec, _ in FORMATTER.parse(template) if name is not None]


def templates(lang: str) -> dict[str, str]:
    f = rules_file(lang)
    out = {f"page.{k}": v for k, v in f["page"].items()}
    for cid, blocks in f["chapters"].items():
        out.update({f"{cid}.{k}": v for k, v in blocks.items()})
    return out


def visible_text(page: str) -> str:
    return html.unescape(re.sub(r"<[^>]+>", " ", page))


# --- the texts ------------------------------------------------------------------------------
def test_six_languages_have_a_rules_file() -> None:
    assert sorted(p.stem for p in RULES.glob("*.json")) == sorted(LANGS)
    assert set(LANGS) <= set(available())


@pytest.mark.parametrize("lang", LANGS[1:])
def test_every_language_has_the_english_blocks_and_fields(lang: str) -> None:
    en, tr = rules_file("en"), rules_file(lang)
    assert list(tr["chapters"]) == list(en["chapters"])  # same chapters, same order
    for cid, blocks in en["chapters"].items():
        assert list(tr["chapters"][cid]) == list(blocks), f"{lang} {cid}: blocks differ"
    assert set(tr["page"]) == set(en["page"])
    en_t, tr_t = templates("en"), templates(lang)
    for key, template in en_t.items():
        assert {n for n, _ in parts(template)} == {n for n, _ in parts(tr_t[key])}, (lang, key)
    # translated, not copied: every chapter title and nearly every block differs from English
    same = [k for k, v in tr_t.items() if v == en_t[k]]
    assert not [k for k in same if k.endswith(".title")], same
    assert len(same) <= 2, f"{lang}: English copies {same}"


@pytest.mark.parametrize("lang", LANGS)
def test_no_number_is_written_into_the_text(lang: str) -> None:
    """Every number on the page is a field filled from the data: no template holds a digit."""
    numbers = rule_numbers(load_data())
    forms = len(plural_forms(lang))
    for key, template in templates(lang).items():
        bare = re.sub(r"\{[^{}]*\}", "", template)
        assert not re.search(r"\d", bare), f"{lang} {key}: a number written into the text: {bare!r}"
        for name, spec in parts(template):
            assert name in numbers, f"{lang} {key}: unknown field {name!r}"
            if "|" in spec:
                assert spec.count("|") + 1 == forms and "#" in spec, f"{lang} {key}: {spec!r}"
        text = catalog(lang).format(template, numbers)
        assert "{" not in text and "}" not in text, (lang, key, text)


def test_numbers_agree_with_the_data() -> None:
    data = load_data()
    n = rule_numbers(data)
    assert n["track_len"] == data.track_length and n["star"] == max(data.reset_stars)
    assert n["first"] == min(data.reset_stars) == 1 and n["star_above"] == n["star"] + 1
    assert n["start"] == max(data.start_spaces.values())
    assert (n["start6"], n["start7"], n["start8"]) == tuple(data.start_spaces[k] for k in (6, 7, 8))
    assert all(data.start_spaces[k] == n["start"] for k in range(1, int(n["small_max"]) + 1))
    assert n["events_total"] == len(data.events) and n["items_total"] == sum(
        it.count for it in data.items)
    assert n["event_icon_count"] == len(data.event_icons)
    assert [int(x) for x in str(n["event_icon_list"]).split(", ")] == sorted(data.event_icons,
                                                                              reverse=True)
    assert [int(x) for x in str(n["item_icon_list"]).split(", ")] == sorted(data.item_icons,
                                                                             reverse=True)
    assert n["stock"] == data.stock_count and n["blocked"] == data.blocked_tokens
    assert n["hatches"] == data.interior_count and n["abandon"] == data.abandon_below
    assert n["die"] == len(data.rooms) == n["rooms"]
    for action, key in (("fix_engine", "room_engine"), ("fix_oxygen_pumps", "room_oxygen"),
                        ("fix_reactor", "room_reactor"), ("stop_missile_launch", "room_missile")):
        assert n[key] == data.room_repairs[action].room
    assert {n["room_deck"]: n["draw_deck"], n["room_stock"]: n["draw_stock"]} == {
        room: m for room, (_, m) in data.draw_rooms.items()}
    by_kind = {c.kind: c for c in data.events}
    steps = {k: by_kind[k].effects[0]["steps"] for k in
             ("dive", "crash_dive", "reactor_heating", "reactor_malfunction")}
    assert steps == {k: n[k] for k in steps}
    assert n["long_dist"] == by_kind["kraken"].effects[0]["distance"]
    assert n["short_dist"] == by_kind["air_failure"].effects[0]["distance"] == \
        by_kind["missile_launch"].effects[0]["distance"] == \
        by_kind["engine_failure"].effects[0]["distance"]
    assert n["hand_limit"] == by_kind["turbulence"].effects[0]["limit"]
    grog = data.items[data.item_index["grog"]]
    assert n["grog_bonus"] == grog.bonus["*"] and n["grog_intox"] == grog.intoxication
    assert n["coffee"] == -data.items[data.item_index["coffee"]].intoxication
    assert n["lucky"] == data.items[data.item_index["lucky_charm"]].ignore_event_icons


def test_engine_numbers_agree_with_the_engine() -> None:
    """The few numbers the engine keeps in code: checked by playing them."""
    g = new_game(Config(players=3, seed=3))
    assert all(len(gn.hand) == ENGINE_NUMBERS["dealt"] for gn in g.gnomes)
    opening = next(a for a in g.legal_actions() if a.kind == "open")
    assert action_cost(opening, g) == ENGINE_NUMBERS["open_cost"]
    ghost = g.ghost
    g.apply(opening)
    assert ghost - g.ghost == ENGINE_NUMBERS["open_cost"]
    g = new_game(Config(players=3, seed=3))
    noop = next(a for a in g.legal_actions() if a.kind == "no_action")
    assert action_cost(noop, g) == ENGINE_NUMBERS["noop_cost"]
    gn = g.gnomes[g.active]
    if gn.room == 0:
        gn.room = 5
    g.fire[gn.room] = False
    g.water[gn.room] = LOW
    assert low_water_penalty(g, "fix_reactor") == ENGINE_NUMBERS["low_water"]
    assert low_water_penalty(g, "pump_water") == 0
    # a faint moves the ghost ENGINE_NUMBERS["faint_minutes"] further (event icons ignored)
    g = new_game(Config(players=3, seed=3))
    gn = g.gnomes[g.active]
    if gn.room == 0:
        gn.room = 5
    g.fire[gn.room], g.water[gn.room] = False, 0
    faint_card = next(i for i, c in enumerate(g.data.events) if c.faint == 1)
    g.event_deck.append(faint_card)
    gn.intoxication, g.grog_used, g.ghost, g.charms = ENGINE_NUMBERS["max_intox"], True, 40, 99
    finish_turn(g)
    assert gn.fainted and gn.keeper == 40 - ENGINE_NUMBERS["faint_minutes"]
    # intoxication stops at max_intox: a gnome there drinks and stays there
    g = new_game(Config(players=3, seed=3))
    gn = g.gnomes[g.active]
    gn.hand.append(g.data.item_index["grog"])
    gn.intoxication = ENGINE_NUMBERS["max_intox"]
    g._legal = None
    play = next(a for a in g.legal_actions() if a.kind == "play"
                and a.arg == g.data.item_index["grog"])
    g.apply(play)
    assert gn.intoxication == ENGINE_NUMBERS["max_intox"]


@pytest.mark.parametrize("lang", LANGS)
def test_item_help_bonuses_agree_with_the_data(lang: str) -> None:
    """The card reference's item texts name the bonuses of the data (+3, +4)."""
    data, cat = load_data(), catalog(lang)
    for item in data.items:
        text = cat.raw("item_help", item.id)
        plus = set(item.bonus.values()) | ({item.intoxication} if item.intoxication > 0 else set())
        minus = {-item.intoxication} if item.intoxication < 0 else set()
        assert {int(x) for x in re.findall(r"\+\s?(\d+)", text)} == plus, (lang, item.id, text)
        assert {int(x) for x in re.findall(r"[-−]\s?(\d+)", text)} == minus, (lang, item.id, text)


@pytest.mark.parametrize("lang", LANGS)
def test_event_help_numbers_agree_with_the_data(lang: str) -> None:
    """The card reference's event texts name the distances, steps and hand limits of the data."""
    data, cat = load_data(), catalog(lang)
    for card in {c.kind: c for c in data.events}.values():
        text = cat.raw("event_help", card.kind)
        said = {int(x) for x in re.findall(r"\d+", text)}
        wanted = {int(eff[k]) for eff in card.effects for k in ("distance", "steps", "limit")
                  if k in eff}
        assert said <= wanted | {1}, (lang, card.kind, text)  # +1: a track or Grog
        if lang == "en":  # (other languages may write a number in words)
            assert wanted <= said, (card.kind, text)


# --- checked line by line against the German rulebook (issue 18 §8) ---------------------------
def chapters(lang: str) -> dict[str, dict[str, str]]:
    return rules_file(lang)["chapters"]  # type: ignore[no-any-return]


# (high water, low water) as each language's rules text writes them
WATER = {"en": ("high water", "low water"), "de": ("hohem Wasser", "niedriges Wasser"),
         "fr": ("entièrement inondé", "partiellement inondé"), "es": ("agua alta", "agua baja"),
         "pl": ("Wysokiej Wodzie", "Niska Woda"),
         "ru": ("полном затоплении", "частичное затопление")}


@pytest.mark.parametrize("lang", LANGS)
def test_fainting_in_low_water_is_safe(lang: str) -> None:
    """German rulebook: a fainted gnome dies in fire or high water, but is safe in low water (the
    page said lying in any flooded room was deadly)."""
    text = chapters(lang)["grog"]["p3"]
    high, low = WATER[lang]
    assert high in text and low in text, (lang, text)
    assert "flooded room is deadly" not in text and "überfluteten Raum" not in text


# the card reference's Draw Items: no second draw *in that room* (R10, amended: per room)
DRAW_PER_ROOM = {"en": "in that room", "de": "In diesem Raum", "fr": "dans ce compartiment",
                 "es": "en esa habitación", "pl": "w tym pomieszczeniu", "ru": "в этой комнате"}
# the card reference's Attack Gnome: the Crowbar played in the attack room (R17), the winner's loot
ATTACK = {"en": ("while you stand in that room", "takes the loser's items"),
          "de": ("während du in diesem Raum standest", "nimmt die Objektkarten des Verlierers"),
          "fr": ("pendant que vous êtes dans ce compartiment", "prend les objets du vaincu"),
          "es": ("mientras estás en esa habitación", "se queda con los objetos del perdedor"),
          "pl": ("stojąc w tym pomieszczeniu", "zabiera przedmioty pokonanego"),
          "ru": ("стоя в этой комнате", "забирает предметы проигравшего")}


@pytest.mark.parametrize("lang", LANGS)
def test_reference_draw_items_is_per_room_R10(lang: str) -> None:
    text = catalog(lang).raw("action_help", "draw")
    assert DRAW_PER_ROOM[lang] in text, text


@pytest.mark.parametrize("lang", LANGS)
def test_reference_attack_needs_the_crowbar_in_the_attack_room_R17(lang: str) -> None:
    cat = catalog(lang)
    text = cat.raw("action_help", "attack")
    room, loot = ATTACK[lang]
    assert room in text and loot in text, text
    low = ENGINE_NUMBERS["low_water"]
    assert f"{ENGINE_NUMBERS['attack_cost']} " in text and f"+{low}" in text, text  # the cost
    assert "this turn" not in text


@pytest.mark.parametrize("lang", LANGS)
def test_lucky_charm_skips_the_first_event_icons(lang: str) -> None:
    first = {"en": "first", "de": "ersten", "fr": "premières", "es": "primeros",
             "pl": "pierwsze", "ru": "первые"}[lang]
    assert first in catalog(lang).raw("item_help", "lucky_charm")


def test_english_rules_say_what_the_german_rulebook_says() -> None:
    """Each sentence the issue found missing or wrong, in the English text (the other languages
    have the same blocks and fields: test_every_language_has_the_english_blocks_and_fields)."""
    ch = chapters("en")
    cat = catalog("en")
    played = ch["turn"]["p2"]
    assert "before the roll" in played  # items are played before the roll they affect
    assert "discarded at once" in played and "then discarded" not in played
    assert "abandoned its comrades" in ch["end"]["p1"]  # P10: nobody left aboard
    assert "abandoned its comrades" in ch["aim"]["li3"]
    assert "single action" in ch["movement"]["li4"]  # the Aqualung's air
    assert "one action" in cat.raw("item_help", "aqualung")
    assert "no minutes left" in ch["action"]["li2"] and "no minutes left" in ch["death"]["li3"]
    assert "dry room" in ch["hazards"]["li7"]  # opening a hatch saves a gnome in high water
    assert "neither fire nor water" not in ch["hazards"]["li9"]
    assert "reflowing water" in ch["hazards"]["li9"]
    assert "keepers reach space {end}" in ch["aim"]["p1"]  # the keepers reach 0, not the track
    assert "time track reaches" not in ch["aim"]["p1"]
    assert "turned up for a faint check is discarded" in ch["variants"]["li1"]  # R18


@pytest.mark.parametrize("lang", LANGS)
def test_every_language_states_the_item_deck_after_the_captains_stock(lang: str) -> None:
    """54 item cards, 6 Grog set aside: the deck starts with 48 (checked by a real set-up)."""
    n = rule_numbers(load_data())
    assert "{deck_items" in chapters(lang)["components"]["p5"]
    g = new_game(Config(players=3, seed=3))
    assert len(g.item_deck) + sum(len(gn.hand) for gn in g.gnomes) == n["deck_items"] == \
        int(n["items_total"]) - int(n["stock"])


@pytest.mark.parametrize("lang", LANGS)
def test_values_no_rulebook_gives_are_marked_as_this_editions_choice(lang: str) -> None:
    """The 6/7/8-gnome start spaces, the icon spaces and the per-card counts (DATA.md: source or
    inferred, in no rulebook) say so on the page."""
    mark = rules_file(lang)["page"]["edition_choice"]
    ch = chapters(lang)
    ol3 = ch["setup"]["ol3"]
    assert mark in ol3[ol3.index("{start8}"):], ol3  # after the values it qualifies
    for block in (ch["components"]["p3"], ch["events"]["p2"], ch["action"]["p5"]):
        assert mark in block, block


@pytest.mark.parametrize("lang", LANGS)
def test_no_two_numbers_meet_in_a_sentence(lang: str) -> None:
    """'in Raum 8 1 bis 4 Karten' reads as one number: no field directly follows another."""
    for key, template in templates(lang).items():
        assert not re.search(r"\}\s*\{", template), (lang, key, template)


def test_german_rules_use_the_rulebooks_terms() -> None:
    text = "\n".join(templates("de").values())
    assert chapters("de")["movement"]["p1"] == "Jede Bewegung besteht aus drei Schritten:"
    assert "Katastrophenanzeiger" not in text and "Katastrophenstein" in text
    assert not re.search(r"\b(die|eine|bei der) Krake\b(?![-!])", text)  # der Krake, masculine
    assert "den Kraken" in text


def test_russian_and_polish_rules_use_the_rulebooks_terms() -> None:
    ru = chapters("ru")
    assert ru["movement"]["p1"] == "Каждое перемещение состоит из трёх шагов:"
    assert ru["action"]["p3"].startswith("Важный ремонт")
    pl = "\n".join(templates("pl").values())
    assert "Magazyny wyposażenia" in pl and "stopień trudności Testu Omdlenia" in pl
    assert "obszarze „Żetony zostały dobrane”" in pl
    assert "próg omdlenia" not in pl


@pytest.mark.parametrize("lang", LANGS)
def test_the_page_shows_the_choice_beside_the_start_spaces(api: httpx.Client, lang: str) -> None:
    page = api.get(f"/rules/{lang}").text
    n = rule_numbers(load_data())
    mark = html.escape(rules_file(lang)["page"]["edition_choice"])
    item = next(li for li in re.findall(r"<li>(.*?)</li>", page)
                if all(str(n[k]) in li for k in ("start6", "start7", "start8")))
    assert mark in item, item
    assert str(n["deck_items"]) in visible_text(page)


# --- the page -------------------------------------------------------------------------------
@pytest.mark.parametrize("lang", LANGS)
def test_every_language_has_every_section_and_name(api: httpx.Client, lang: str) -> None:
    r = api.get(f"/rules/{lang}")
    assert r.status_code == 200 and "text/html" in r.headers["content-type"]
    page = r.text
    assert f"<html lang='{lang}'>" in page and "<script" not in page
    assert "/static/css/rules.css" in page and "/static/css/app.css" in page
    for sid in chapter_ids() + [f"ref-{sid}" for sid in REFERENCE]:
        assert f"id='{sid}'" in page, f"{lang}: no section {sid}"
        assert f"href='#{sid}'" in page, f"{lang}: {sid} missing from the contents"
    ids = re.findall(r"\bid='([^']+)'", page)  # the chapter and the reference both had "events"
    assert len(ids) == len(set(ids)), sorted({i for i in ids if ids.count(i) > 1})
    text = visible_text(page)
    cat = catalog(lang)
    for section in ("items", "events", "action_kinds", "tracks", "tokens"):
        for key, name in cat.section(section).items():
            assert name in text, f"{lang}: {section}.{key} {name!r} not on the page"
    assert rules_text(lang)["chapters"]["aim"]["title"] in text
    assert "rules-back" not in page  # no back link without ?back=, the start page instead
    home = html.escape(rules_text(lang)["page"]["home"])
    assert f"href='/' data-testid='rules-home'>← {home}</a>" in page
    # both data tables are there, with the die's faces and the intoxication levels
    assert page.count("<tr>") >= len(load_data().rooms) + ENGINE_NUMBERS["max_intox"] + 3


def test_the_tables_come_from_the_data(api: httpx.Client) -> None:
    data = load_data()
    ref = api.get("/api/rules/en").json()
    blocks = [b for ch in ref["chapters"] for b in ch["blocks"] if b["type"] == "table"]
    odds = next(b for b in blocks if b["id"] == "odds")
    assert [r[1] for r in odds["rows"]] == [f"{10 * k} %" for k in range(1, 11)]
    faint = next(b for b in blocks if b["id"] == "faint")
    deck = [c.faint for i, c in enumerate(data.events) if i != data.set_aside]
    for level in range(1, ENGINE_NUMBERS["max_intox"] + 1):
        hits = sum(1 for f in deck if f is not None and f <= level)
        assert faint["rows"][level][1] == f"{hits} / {len(deck)}"
    assert [s["id"] for s in ref["sections"]] == REFERENCE  # the reference the dialog shows
    assert ref["page"]["back"] == "Back to the game"


@pytest.mark.parametrize("back", ["/g/abc123", "/g/Ab_-9/replay"])
def test_a_valid_back_link_is_shown_and_kept_by_the_languages(api: httpx.Client,
                                                               back: str) -> None:
    page = api.get("/rules/de", params={"back": back}).text
    assert f"href='{back}' data-testid='rules-back'" in page
    assert "Zurück zum Spiel" in page
    for lang in LANGS:
        assert f"href='/rules/{lang}?back={back}'" in page
    assert safe_back(back) == back


@pytest.mark.parametrize("back", [
    "https://evil.example/g/abc", "//evil.example/g/abc", "/g/abc/../../x", "/g/", "/g/abc/",
    "/g/abc?x=1", "javascript:alert(1)", "/g/<script>alert(1)</script>", "/g/a'onmouseover='x",
    "/g/" + "a" * 40, "/lobby", " /g/abc", "/g/abc\n",
])
def test_an_invalid_back_link_is_dropped(api: httpx.Client, back: str) -> None:
    r = api.get("/rules/en", params={"back": back})
    assert r.status_code == 200
    assert "rules-back" not in r.text and "?back=" not in r.text
    assert "<script" not in r.text and "evil.example" not in r.text
    assert "onmouseover" not in r.text
    assert safe_back(back) is None


def test_unknown_languages_are_not_found(api: httpx.Client) -> None:
    for path in ("/rules/xx", "/rules/" + quote("../etc", safe=""), "/rules/EN1",
                 "/api/rules/xx"):
        r = api.get(path)
        assert r.status_code == 404, path
    assert api.get("/rules").status_code == 200
    assert "href='/g/abc'" in api.get("/rules?back=/g/abc").text


# --- in the browser -------------------------------------------------------------------------
@SKIP
def test_from_the_game_to_the_rules_and_back(new_context: Any) -> None:
    page = _page(new_context(), "/")
    link = create_game(page, players=3, seed=8)
    take_seat(page, 0, "Ada")
    game_path = re.sub(r"^https?://[^/]+", "", link)
    page.click("[data-testid=rules-button]")
    full = page.locator("[data-testid=rules-full-page]")
    expect(full).to_have_attribute("href", f"/rules/en?back={quote(game_path, safe='')}")
    page.wait_for_selector("[data-testid=rules-section-items]")
    shot(page, "rules-dialog-desktop")
    page.set_viewport_size(PHONE)  # the rest of the way on a phone
    expect(full).to_be_visible()
    shot(page, "rules-dialog-phone")
    full.click()
    page.wait_for_url(re.compile(r"/rules/en\?back="))
    expect(page.locator("[data-testid=rules-chapter-aim]")).to_be_visible()
    expect(page.locator("[data-testid=rules-back]")).to_have_attribute("href", game_path)
    # the contents jump to a chapter
    page.click("[data-testid=rules-toc] a[href='#hazards']")
    page.wait_for_url(re.compile(r"#hazards$"))
    # switching the language keeps the way back
    page.click("[data-testid=rules-lang-ru]")
    page.wait_for_url(re.compile(r"/rules/ru\?back="))
    expect(page.locator("html")).to_have_attribute("lang", "ru")
    expect(page.locator("[data-testid=rules-back]")).to_have_text("← Вернуться к игре")
    page.click("[data-testid=rules-back]")
    page.wait_for_url(re.compile(re.escape(game_path) + "$"))
    page.wait_for_selector("[data-testid=game-page]")
    page.wait_for_selector("[data-testid=conn-status][data-state=open]")
    assert page.input_value("[data-testid=share-link]") == link
    expect(page.locator("[data-testid=seat-tab-0]")).to_be_visible()  # still seated
    assert not page.js_errors, page.js_errors


@SKIP
@pytest.mark.parametrize("lang", ["en", "ru"])
def test_rules_page_screenshots(new_context: Any, lang: str) -> None:
    ctx = new_context()
    page = _page(ctx, f"/rules/{lang}?back=/g/abc123")
    expect(page.locator("[data-testid=rules-back]")).to_be_visible()
    shot(page, f"rules-{lang}-desktop")
    page.goto(f"/rules/{lang}?back=/g/abc123#action")
    expect(page.locator("[data-testid=rules-table-odds]")).to_be_visible()
    page.locator("[data-testid=rules-table-odds]").scroll_into_view_if_needed()
    shot(page, f"rules-{lang}-desktop-odds")
    page.goto(f"/rules/{lang}?back=/g/abc123#variants")
    expect(page.locator("#variants-harder")).to_be_visible()
    page.locator("#variants-harder").scroll_into_view_if_needed()
    shot(page, f"rules-{lang}-desktop-reference")
    page.set_viewport_size(PHONE)
    page.goto(f"/rules/{lang}?back=/g/abc123")
    expect(page.locator("[data-testid=rules-back]")).to_be_visible()
    width = page.evaluate("() => document.documentElement.scrollWidth")
    assert width <= PHONE["width"], f"the page scrolls sideways on a phone ({width}px)"
    shot(page, f"rules-{lang}-phone")
    page.locator("[data-testid=rules-table-faint]").scroll_into_view_if_needed()
    shot(page, f"rules-{lang}-phone-faint")
    assert not page.js_errors, page.js_errors
