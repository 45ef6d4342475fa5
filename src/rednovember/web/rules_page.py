"""The rules reference (``/rules/{lang}`` and ``/api/rules/{lang}``), built from a catalog.

Catalog keys used (any language; English, then the defaults below, fill what is missing):

- section ``rules_ref``: ``title``, ``intro`` and the section titles ``items``, ``actions``,
  ``events``, ``variants``, ``losses``, ``back``;
- ``items`` + ``item_help`` (per item id; ``crowbar_mad`` for the Mad Gnomes Crowbar);
- ``action_kinds`` + optional ``action_help`` (per action kind);
- ``events`` + optional ``event_help`` (per event kind); the card counts come from the data set;
- ``variants`` (one text per variant); ``loss_causes``.
"""

from __future__ import annotations

import html
from typing import Any

from ..i18n import Catalog
from ..rules import GameData

DEFAULTS = {
    "title": "Red November — rules reference",
    "intro": "What every item, action, event card and variant does. The full rules are in the "
             "rulebook.",
    "items": "Items", "actions": "Actions", "events": "Event cards", "variants": "Variants",
    "losses": "How the game is lost", "back": "Back to the game", "cards": "{count} cards",
}


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
    losses = [{"key": k, "name": k, "text": v} for k, v in cat.section("loss_causes").items()]
    return {
        "lang": cat.code, "title": ref("title"), "intro": ref("intro"), "back": ref("back"),
        "sections": [
            {"id": "items", "title": ref("items"), "entries": items},
            {"id": "actions", "title": ref("actions"), "entries": actions},
            {"id": "events", "title": ref("events"), "entries": events},
            {"id": "variants", "title": ref("variants"), "entries": variants},
            {"id": "losses", "title": ref("losses"), "entries": losses},
        ],
    }


def rules_html(ref: dict[str, Any]) -> str:
    """A self-contained HTML page of the reference (everything escaped)."""
    e = html.escape
    parts = [f"<!doctype html><html lang='{e(ref['lang'])}'><head><meta charset='utf-8'>",
             "<meta name='viewport' content='width=device-width, initial-scale=1'>",
             f"<title>{e(ref['title'])}</title>",
             "<style>body{font-family:system-ui,sans-serif;max-width:48rem;margin:2rem auto;"
             "padding:0 1rem;line-height:1.45}dt{font-weight:600;margin-top:.6rem}"
             "dd{margin-left:1rem}</style></head><body>",
             f"<h1>{e(ref['title'])}</h1><p>{e(ref['intro'])}</p>",
             f"<p><a href='/'>{e(ref['back'])}</a></p>"]
    for sec in ref["sections"]:
        parts.append(f"<section id='{e(sec['id'])}'><h2>{e(sec['title'])}</h2><dl>")
        for ent in sec["entries"]:
            count = ent.get("count")
            extra = f" <small>×{count}</small>" if isinstance(count, int) else ""
            parts.append(f"<dt id='{e(sec['id'])}-{e(ent['key'])}'>{e(ent['name'])}{extra}</dt>"
                         f"<dd>{e(ent['text'])}</dd>")
        parts.append("</dl></section>")
    parts.append("</body></html>")
    return "".join(parts)


__all__ = ["DEFAULTS", "rules_html", "rules_reference"]
