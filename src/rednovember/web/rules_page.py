"""The rules page (``/rules/{lang}``) and the rules reference (``/api/rules/{lang}``).

Two parts, one page:

- the **rules text** (chapters: aim, set-up, turn, actions, Grog, events, fire and water, death,
  end, variants), one file per language in ``rednovember/i18n/rules/{lang}.json``. It is kept out
  of the main catalogs on purpose: the game page downloads its whole catalog, and the rules text
  is several times the size of everything else the game page needs. The file has a ``page``
  section (the page's own labels) and a ``chapters`` section: per chapter a ``title`` and its
  blocks in order, a block's key telling its kind: ``p…`` paragraph, ``li…`` bullet, ``ol…``
  numbered step, ``h…`` sub-heading, ``table_odds`` / ``table_faint`` a table built from the data
  (the text is its caption). Texts are catalog templates; **every number in them is a field**
  filled from the game data (:func:`rule_numbers`), so the page can never disagree with the
  engine (tests/web/test_rules_page.py checks that no template holds a digit).
- the **card reference**, built from the catalog: ``rules_ref`` (titles), ``items`` +
  ``item_help`` (per item id; ``crowbar_mad`` for the Mad Gnomes Crowbar), ``action_kinds`` +
  ``action_help``, ``events`` + ``event_help`` (the card counts come from the data set),
  ``variants`` and ``loss_causes``.

``?back=/g/{id}`` (or ``/g/{id}/replay``) adds a "Back to the game" link; anything else is
ignored (:func:`safe_back`), so the parameter can be neither an open redirect nor HTML.
"""

from __future__ import annotations

import html
import json
import re
from functools import cache
from importlib import resources
from typing import Any
from urllib.parse import quote

from ..i18n import DEFAULT, Catalog
from ..rules import GameData

DEFAULTS = {
    "title": "Red November — rules reference",
    "intro": "What every item, action, event card and variant does. The full rules are in the "
             "rulebook.",
    "items": "Items", "actions": "Actions", "events": "Event cards", "variants": "Variants",
    "losses": "How the game is lost", "back": "Back to the game", "cards": "{count} cards",
}

# Rule constants the engine applies in code rather than reading from the data files (each one is
# checked against the engine by tests/web/test_rules_page.py).
ENGINE_NUMBERS = {
    "dealt": 2,          # items dealt to each gnome at set-up (rules.setup)
    "max_intox": 4,      # intoxication cap (rules.apply, rules.events)
    "faint_minutes": 10,  # a faint moves the ghost this far (rules.turn)
    "low_water": 2,      # low-water penalty of an action (rules.apply.low_water_penalty)
    "open_cost": 1, "low_enter": 1, "sea_cost": 1,  # movement (rules.legal)
    "draw_cost": 1, "trade_cost": 1, "noop_cost": 1, "attack_cost": 1,  # fixed-cost actions
}

BACK_RE = re.compile(r"/g/[A-Za-z0-9_-]{1,32}(/replay)?")


def safe_back(back: str | None) -> str | None:
    """``back`` when it is a game page of this site (``/g/{id}`` or ``/g/{id}/replay``)."""
    return back if isinstance(back, str) and BACK_RE.fullmatch(back) else None


@cache
def _rules_file(code: str) -> dict[str, dict[str, Any]]:
    path = resources.files("rednovember.i18n").joinpath("rules", f"{code}.json")
    if not path.is_file():
        return _rules_file(DEFAULT) if code != DEFAULT else {"page": {}, "chapters": {}}
    data = json.loads(path.read_text("utf-8"))
    return {"page": dict(data.get("page", {})), "chapters": dict(data.get("chapters", {}))}


def rules_text(code: str) -> dict[str, dict[str, Any]]:
    """The rules text of a language (English where the language has no file)."""
    return _rules_file(code)


def _listing(values: list[int]) -> str:
    return ", ".join(str(v) for v in values)


def rule_numbers(data: GameData) -> dict[str, int | str]:
    """Every number the rules text states, from the data set (and :data:`ENGINE_NUMBERS`)."""
    events = data.events
    kraken = events[data.set_aside].kind
    track_steps: dict[str, int] = {}
    distances: dict[str, int] = {}
    hand_limit = 0
    for card in events:
        for eff in card.effects:
            if eff.get("type") == "track":
                track_steps[card.kind] = int(eff.get("steps", 1))
            elif eff.get("type") == "token":
                distances[card.kind] = int(eff.get("distance", 0))
            elif eff.get("type") == "hand_limit":
                hand_limit = int(eff.get("limit", 0))
    others = [d for k, d in distances.items() if k != kraken]
    grog = data.items[data.stock_item]
    lucky = max((it.ignore_event_icons for it in data.items), default=0)
    coffee = min((it.intoxication for it in data.items), default=0)
    faints = [c.faint for c in events if c.faint is not None]
    both = sorted(data.event_icons & data.item_icons, reverse=True)
    repair = data.room_repairs
    draw = {src: (room, n) for room, (src, n) in data.draw_rooms.items()}
    starts = data.start_spaces
    small = max(n for n, s in starts.items() if s == data.start_spaces[1])
    die = len(data.rooms)
    numbers: dict[str, int | str] = {
        "end": 0, "first": data.reset_stars[0], "rooms": len(data.rooms), "die": die,
        "step_pct": 100 // die,
        "room_engine": repair["fix_engine"].room, "room_oxygen": repair["fix_oxygen_pumps"].room,
        "room_reactor": repair["fix_reactor"].room,
        "room_missile": repair["stop_missile_launch"].room,
        "room_deck": draw["item_deck"][0], "draw_deck": draw["item_deck"][1],
        "room_stock": draw["captains_stock"][0], "draw_stock": draw["captains_stock"][1],
        "hatches": data.interior_count,
        "sea_rooms": _listing(sorted(a for a, b in data.hatches[data.interior_count:])),
        "blocked": data.blocked_tokens,
        "start": max(starts.values()), "small_max": small,
        "start6": starts[6], "start7": starts[7], "start8": starts[8],
        "event_icon_count": len(data.event_icons),
        "event_icon_list": _listing(sorted(data.event_icons, reverse=True)),
        "item_icon_list": _listing(sorted(data.item_icons, reverse=True)),
        "both_icons": _listing(both),
        "track_len": data.track_length, "star": data.reset_stars[-1],
        "star_above": data.reset_stars[-1] + 1,
        "events_total": len(events), "items_total": sum(it.count for it in data.items),
        "deck_items": sum(it.count for it in data.items) - data.stock_count,
        "grog_total": grog.count, "stock": data.stock_count,
        "grog_bonus": grog.bonus.get("*", 0), "grog_intox": grog.intoxication,
        "coffee": -coffee, "lucky": lucky, "lucky_two": 2 * lucky,
        "max_faint": max(faints, default=0),
        "short_dist": min(others, default=0), "long_dist": distances.get(kraken, 0),
        "hand_limit": hand_limit, "abandon": data.abandon_below,
    }
    for kind in ("dive", "crash_dive", "reactor_heating", "reactor_malfunction"):
        numbers[kind] = track_steps.get(kind, 0)
    numbers.update(ENGINE_NUMBERS)
    return numbers


def _odds_table(page: dict[str, str], data: GameData) -> dict[str, Any]:
    die = len(data.rooms)
    return {"head": [page.get("odds_total", ""), page.get("odds_chance", "")],
            "rows": [[str(n) if n < die else f"{n}+", f"{100 * n // die} %"]
                     for n in range(1, die + 1)]}


def _faint_table(page: dict[str, str], data: GameData) -> dict[str, Any]:
    deck = [c.faint for i, c in enumerate(data.events) if i != data.set_aside]
    rows = []
    for level in range(1, ENGINE_NUMBERS["max_intox"] + 1):
        hits = sum(1 for f in deck if f is not None and f <= level)
        rows.append([str(level), f"{hits} / {len(deck)}", f"{round(100 * hits / len(deck))} %"])
    rows.insert(0, ["0", page.get("no_faint", "0"), "0 %"])
    return {"head": [page.get("faint_level", ""), page.get("faint_cards", ""),
                     page.get("faint_chance", "")], "rows": rows}


def rules_chapters(cat: Catalog, data: GameData) -> list[dict[str, Any]]:
    """The rules text of ``cat``'s language as chapters of blocks, numbers filled in."""
    text = rules_text(cat.code)
    page: dict[str, str] = text["page"]
    numbers = rule_numbers(data)
    chapters = []
    for cid, blocks in text["chapters"].items():
        out: list[dict[str, Any]] = []
        for key, template in blocks.items():
            if key == "title":
                continue
            body = cat.format(template, numbers)
            if key.startswith("table_"):
                table = (_odds_table if key == "table_odds" else _faint_table)(page, data)
                out.append({"type": "table", "id": key[6:], "caption": body, **table})
                continue
            kind = re.sub(r"\d+$", "", key)
            if kind in ("li", "ol"):
                group = "ul" if kind == "li" else "ol"
                if out and out[-1]["type"] == group:
                    out[-1]["items"].append(body)
                else:
                    out.append({"type": group, "items": [body]})
            else:
                out.append({"type": "h" if kind == "h" else "p", "text": body})
        chapters.append({"id": cid, "title": cat.format(blocks.get("title", cid), numbers),
                         "blocks": out})
    return chapters


def _text(cat: Catalog, section: str, key: str, default: str = "") -> str:
    got = cat.raw(section, key)
    return default if got == key and not cat.has(section, key) else got


def rules_reference(cat: Catalog, data: GameData) -> dict[str, Any]:
    def ref(key: str) -> str:
        return _text(cat, "rules_ref", key, DEFAULTS.get(key, key))

    counts: dict[str, int] = {}
    for e in data.events:
        counts[e.kind] = counts.get(e.kind, 0) + 1
    items = [{"key": it.id, "name": _text(cat, "items", it.id, it.id),
              "text": _text(cat, "item_help", it.id),
              "count": it.count} for it in data.items]
    mad = _text(cat, "item_help", "crowbar_mad")
    if mad:
        items.append({"key": "crowbar_mad",
                      "name": _text(cat, "items", "crowbar", "crowbar") + " (" +
                      _text(cat, "variants", "mad-gnomes", "Mad Gnomes").split(" (")[0] + ")",
                      "text": mad, "count": None})
    actions = [{"key": k, "name": v, "text": _text(cat, "action_help", k)}
               for k, v in cat.section("action_kinds").items()]
    events = [{"key": k, "name": _text(cat, "events", k, k), "text": _text(cat, "event_help", k),
               "count": n} for k, n in counts.items()]
    variants = [{"key": k, "name": k, "text": v} for k, v in cat.section("variants").items()]
    losses = [{"key": k, "name": k, "text": v} for k, v in cat.section("loss_causes").items()
              if k != "rescued"]  # the catalog's text for a won game is no way to lose
    page = dict(rules_text(DEFAULT)["page"])
    page.update(rules_text(cat.code)["page"])
    return {
        "lang": cat.code, "title": ref("title"), "intro": ref("intro"), "back": ref("back"),
        "brand": _text(cat, "ui", "title", "Red November"), "page": page,
        "chapters": rules_chapters(cat, data),
        "sections": [
            {"id": "items", "title": ref("items"), "entries": items},
            {"id": "actions", "title": ref("actions"), "entries": actions},
            {"id": "events", "title": ref("events"), "entries": events},
            {"id": "variants", "title": ref("variants"), "entries": variants},
            {"id": "losses", "title": ref("losses"), "entries": losses},
        ],
    }


def _block_html(block: dict[str, Any]) -> str:
    e = html.escape
    if block["type"] in ("ul", "ol"):
        tag = block["type"]
        return f"<{tag}>" + "".join(f"<li>{e(t)}</li>" for t in block["items"]) + f"</{tag}>"
    if block["type"] == "h":
        return f"<h3>{e(block['text'])}</h3>"
    if block["type"] == "table":
        head = "".join(f"<th scope='col'>{e(h)}</th>" for h in block["head"])
        rows = "".join("<tr>" + "".join(f"<td>{e(c)}</td>" for c in row) + "</tr>"
                       for row in block["rows"])
        return (f"<div class='rules-table-wrap'><table class='rules-table' id='table-{e(block['id'])}' "
                f"data-testid='rules-table-{e(block['id'])}'><caption>{e(block['caption'])}"
                f"</caption><thead><tr>{head}</tr></thead><tbody>{rows}</tbody></table></div>")
    return f"<p>{e(block['text'])}</p>"


def rules_html(ref: dict[str, Any], back: str | None = None,
               languages: list[tuple[str, str]] | None = None, root: str = "") -> str:
    """The whole rules page (everything escaped; ``back`` must already be :func:`safe_back`).
    ``root``: the sub-path the server is under (web/rootpath.py); ``back`` stays the game's path
    without it (the ``?back=`` of the language links), its links get it."""
    e = html.escape
    home = e(root + "/")
    back_href = e(root + back) if back else ""
    page: dict[str, str] = ref.get("page", {})
    lang = ref["lang"]
    title = page.get("title") or ref["title"]
    query = f"?back={quote(back, safe='/')}" if back else ""
    parts = [f"<!doctype html><html lang='{e(lang)}'><head><meta charset='utf-8'>",
             "<meta name='viewport' content='width=device-width, initial-scale=1'>",
             f"<title>{e(title)}</title>",
             f"<link rel='icon' href='{e(root)}/static/img/favicon.svg' type='image/svg+xml'>",
             f"<link rel='manifest' href='{e(root)}/manifest.webmanifest'>",
             f"<link rel='stylesheet' href='{e(root)}/static/css/app.css'>",
             f"<link rel='stylesheet' href='{e(root)}/static/css/rules.css'></head>",
             "<body class='rules-page'><header class='topbar' role='banner'>",
             f"<a class='brand' href='{home}' data-testid='home-link'>"
             f"<span class='brand-mark' aria-hidden='true'></span><span>{e(ref.get('brand', ''))}</span>"
             "</a>",
             "<div class='top-game'>"]
    if back:
        parts.append(f"<a class='btn primary small rules-back' href='{back_href}' "
                     f"data-testid='rules-back'>← {e(page.get('back') or ref['back'])}</a>")
    elif page.get("home"):
        parts.append(f"<a class='btn ghost small rules-home' href='{home}' data-testid='rules-home'>"
                     f"← {e(page['home'])}</a>")
    parts.append("</div><nav class='top-tools rules-langs' data-testid='rules-languages' "
                 f"aria-label='{e(page.get('language', 'Language'))}'>")
    for code, name in languages or []:
        current = " aria-current='true'" if code == lang else ""
        parts.append(f"<a href='{e(root)}/rules/{e(code)}{e(query)}' hreflang='{e(code)}' "
                     f"lang='{e(code)}' "
                     f"title='{e(name)}' data-testid='rules-lang-{e(code)}'{current}>"
                     f"{e(code.upper())}</a>")
    parts.append("</nav></header><main class='rules-main' id='top'>")
    parts.append(f"<div class='rules-head'><h1>{e(title)}</h1><p class='rules-intro'>"
                 f"{e(page.get('intro') or ref['intro'])}</p></div>")
    # table of contents
    parts.append(f"<nav class='rules-contents card' data-testid='rules-toc' aria-labelledby='toc-title'>"
                 f"<h2 id='toc-title'>{e(page.get('contents', 'Contents'))}</h2><ol>")
    for ch in ref.get("chapters", []):
        parts.append(f"<li><a href='#{e(ch['id'])}'>{e(ch['title'])}</a></li>")
    parts.append(f"<li><a href='#reference'>{e(page.get('reference', ''))}</a><ol>")
    for sec in ref["sections"]:
        parts.append(f"<li><a href='#ref-{e(sec['id'])}'>{e(sec['title'])}</a></li>")
    parts.append("</ol></li></ol></nav><div class='rules-content'>")
    for ch in ref.get("chapters", []):
        parts.append(f"<section class='rules-chapter' id='{e(ch['id'])}' "
                     f"data-testid='rules-chapter-{e(ch['id'])}'><h2>{e(ch['title'])}</h2>")
        parts.extend(_block_html(b) for b in ch["blocks"])
        parts.append("</section>")
    parts.append(f"<div class='rules-reference' id='reference'><h2 class='ref-title'>"
                 f"{e(page.get('reference', ''))}</h2>")
    for sec in ref["sections"]:
        parts.append(f"<section class='rules-chapter' id='ref-{e(sec['id'])}' "  # unlike a chapter
                     f"data-testid='rules-section-{e(sec['id'])}'><h2>{e(sec['title'])}</h2>")
        in_list = False  # named entries make a definition list, an entry without a name a paragraph
        for ent in sec["entries"]:
            count = ent.get("count")
            extra = f" <small>×{count}</small>" if isinstance(count, int) else ""
            plain = ent["name"] == ent["key"] and sec["id"] in ("variants", "losses")
            if plain == in_list:
                parts.append("</dl>" if in_list else "<dl>")
                in_list = not in_list
            if plain:
                parts.append(f"<p id='{e(sec['id'])}-{e(ent['key'])}' class='plain'>"
                             f"{e(ent['text'])}</p>")
            else:
                parts.append(f"<dt id='{e(sec['id'])}-{e(ent['key'])}'>{e(ent['name'])}{extra}"
                             f"</dt><dd>{e(ent['text'])}</dd>")
        parts.append("</dl></section>" if in_list else "</section>")
    parts.append("</div>")
    if back:
        parts.append(f"<p class='rules-foot'><a class='btn primary' href='{back_href}' "
                     f"data-testid='rules-back-bottom'>← {e(page.get('back') or ref['back'])}"
                     "</a></p>")
    parts.append("</div></main></body></html>")
    return "".join(parts)


__all__ = ["DEFAULTS", "ENGINE_NUMBERS", "rule_numbers", "rules_chapters", "rules_html",
           "rules_reference", "rules_text", "safe_back"]
