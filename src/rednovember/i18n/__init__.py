"""Translations: one JSON catalog per language (``en.json``, later ``de.json`` …), loaded once.

A catalog is a two-level mapping ``section -> key -> text``. Texts are ``str.format`` templates
with named fields (``"{gnome} opens the hatch to {to_room}."``). A key missing from a language
falls back to English, then to the key itself, so a partial translation never crashes.
"""

from __future__ import annotations

import json
from functools import cache
from importlib import resources
from typing import Any

DEFAULT = "en"


class UnknownLanguage(ValueError):
    """No catalog exists for the requested language."""


class Catalog:
    """The texts of one language, with English as the fallback."""

    def __init__(self, code: str, texts: dict[str, dict[str, str]],
                 fallback: Catalog | None = None) -> None:
        self.code = code
        self.texts = texts
        self.fallback = fallback

    def has(self, section: str, key: str) -> bool:
        return key in self.texts.get(section, {})

    def raw(self, section: str, key: str) -> str:
        """The template itself (fallback language, then the key when missing)."""
        found = self.texts.get(section, {}).get(key)
        if found is not None:
            return found
        if self.fallback is not None:
            return self.fallback.raw(section, key)
        return key

    def get(self, section: str, key: str, **fields: Any) -> str:
        """The template filled in with ``fields``. A broken template never raises."""
        template = self.raw(section, key)
        if not fields:
            return template
        try:
            return template.format(**fields)
        except (KeyError, IndexError, ValueError):
            return template + " " + " ".join(f"{k}={v}" for k, v in fields.items())

    def section(self, name: str) -> dict[str, str]:
        merged = dict(self.fallback.section(name)) if self.fallback is not None else {}
        merged.update(self.texts.get(name, {}))
        return merged


def available() -> list[str]:
    """Language codes that have a catalog."""
    files = resources.files(__name__).iterdir()
    return sorted(f.name[:-5] for f in files if f.name.endswith(".json"))


def _read(code: str) -> dict[str, dict[str, str]]:
    if code not in available():
        raise UnknownLanguage(f"no texts for language {code!r}; available: {', '.join(available())}")
    text = resources.files(__name__).joinpath(f"{code}.json").read_text("utf-8")
    data = json.loads(text)
    if not isinstance(data, dict) or not all(isinstance(v, dict) for v in data.values()):
        raise UnknownLanguage(f"the catalog {code}.json is malformed")
    return data


@cache
def catalog(code: str = DEFAULT) -> Catalog:
    """The catalog for ``code`` (loaded once and cached)."""
    fallback = None if code == DEFAULT else catalog(DEFAULT)
    return Catalog(code, _read(code), fallback)


__all__ = ["Catalog", "DEFAULT", "UnknownLanguage", "available", "catalog"]
