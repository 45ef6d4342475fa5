"""Translations: one JSON catalog per language (``en.json``, later ``de.json`` …), loaded once.

A catalog is a two-level mapping ``section -> key -> text``. Texts are ``str.format`` templates
with named fields (``"{gnome} opens the hatch to {to_room}."``). A key missing from a language
falls back to English, then to the key itself, so a partial translation never crashes.

Two small grammar helpers, both written inside a template's format spec, so every value stays a
plain string and every language keeps English's keys and fields:

* Plural forms: ``{count:# przedmiot|# przedmioty|# przedmiotów}`` picks one of the ``|``-separated
  forms with the language's plural rule (:func:`plural_forms` names their order: ``one|other``,
  or ``one|few|many`` in Polish and Russian); ``#`` stands for the number.
* Grammatical case: ``{other:acc}`` inflects the value with the catalog's ``grammar`` section,
  which lists the case names (``"cases": "gen acc dat ins loc"``) and, per phrase, its forms
  (``"комната": "gen=комнаты|acc=комнату|…"``). Every listed phrase in the value is replaced by
  its form (``комната 4`` → ``комнату 4``); a value without a listed phrase stays as it is.
"""

from __future__ import annotations

import json
import re
import string
from collections.abc import Callable, Iterable, Mapping, Sequence
from functools import cache
from importlib import resources
from typing import Any

DEFAULT = "en"


class UnknownLanguage(ValueError):
    """No catalog exists for the requested language."""


def _one_other(n: int) -> int:
    return 0 if n == 1 else 1


def _french(n: int) -> int:
    return 0 if n in (0, 1) else 1


def _slavic(n: int, one_at_21: bool) -> int:
    if n == 1 or (one_at_21 and n % 10 == 1 and n % 100 != 11):
        return 0
    return 1 if n % 10 in (2, 3, 4) and n % 100 not in (12, 13, 14) else 2


# Plural rules (CLDR, integers only): the index of the form to use, and the forms' names.
PLURAL_RULES: dict[str, tuple[Callable[[int], int], tuple[str, ...]]] = {
    "en": (_one_other, ("one", "other")),
    "de": (_one_other, ("one", "other")),
    "es": (_one_other, ("one", "other")),
    "fr": (_french, ("one", "other")),
    "pl": (lambda n: _slavic(n, False), ("one", "few", "many")),
    "ru": (lambda n: _slavic(n, True), ("one", "few", "many")),
}


def plural_forms(code: str) -> tuple[str, ...]:
    """The names of the plural forms of a language, in the order a template lists them."""
    return PLURAL_RULES.get(code, PLURAL_RULES[DEFAULT])[1]


def plural(code: str, n: int) -> str:
    """The plural category of ``n`` in a language: ``one``, ``few``, ``many`` or ``other``."""
    rule, names = PLURAL_RULES.get(code, PLURAL_RULES[DEFAULT])
    return names[rule(abs(n))]


class _Formatter(string.Formatter):
    """``str.format`` plus the plural (``{n:a|b}``) and case (``{x:acc}``) format specs."""

    def __init__(self, cat: Catalog) -> None:
        self.cat = cat

    def format_field(self, value: Any, format_spec: str) -> str:
        if "|" in format_spec:
            return self.cat.plural_text(value, format_spec.split("|"))
        if format_spec in self.cat.cases():
            return self.cat.inflect(str(value), format_spec)
        if len(format_spec) > 1 and format_spec.isalpha():
            return str(value)  # a case this language does not decline (e.g. an English fallback)
        return str(super().format_field(value, format_spec))


class Catalog:
    """The texts of one language, with English as the fallback."""

    def __init__(self, code: str, texts: dict[str, dict[str, str]],
                 fallback: Catalog | None = None) -> None:
        self.code = code
        self.texts = texts
        self.fallback = fallback
        self._grammar: tuple[frozenset[str], re.Pattern[str] | None,
                             dict[str, dict[str, str]]] | None = None

    # --- grammar -------------------------------------------------------------------------
    def _load_grammar(self) -> tuple[frozenset[str], re.Pattern[str] | None,
                                     dict[str, dict[str, str]]]:
        if self._grammar is None:
            table = dict(self.texts.get("grammar", {}))
            cases = frozenset(table.pop("cases", "").split())
            forms: dict[str, dict[str, str]] = {}
            for phrase, spec in table.items():
                pairs = (part.split("=", 1) for part in spec.split("|") if "=" in part)
                forms[phrase] = {case.strip(): form.strip() for case, form in pairs}
            pattern = None
            if forms:
                alternatives = "|".join(re.escape(p) for p in sorted(forms, key=len, reverse=True))
                pattern = re.compile(rf"(?<!\w)(?:{alternatives})(?!\w)")
            self._grammar = (cases, pattern, forms)
        return self._grammar

    def cases(self) -> frozenset[str]:
        """The grammatical case names this language's templates may use as format specs."""
        return self._load_grammar()[0]

    def inflect(self, text: str, case: str) -> str:
        """``text`` with every phrase of the ``grammar`` section put into ``case``."""
        _, pattern, forms = self._load_grammar()
        if pattern is None:
            return text
        return pattern.sub(lambda m: forms[m.group(0)].get(case, m.group(0)), text)

    def plural_text(self, value: Any, forms: Sequence[str]) -> str:
        """The plural form of ``forms`` (in :func:`plural_forms` order) for the number ``value``,
        with ``#`` replaced by the number."""
        try:
            n = int(value)
        except (TypeError, ValueError):
            return forms[-1].replace("#", str(value))
        rule = PLURAL_RULES.get(self.code, PLURAL_RULES[DEFAULT])[0]
        return forms[min(rule(abs(n)), len(forms) - 1)].replace("#", str(value))

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
            return self.format(template, fields)
        except (KeyError, IndexError, ValueError, AttributeError, TypeError):
            return template + " " + " ".join(f"{k}={v}" for k, v in fields.items())

    def format(self, template: str, fields: Mapping[str, Any]) -> str:
        """``template.format(**fields)`` with this language's plural and case format specs."""
        return _Formatter(self).vformat(template, (), fields)

    def join(self, parts: Iterable[str]) -> str:
        """A list of clauses as this language writes one ("a; b", French "a\u202f; b")."""
        return self.raw("meta", "list_sep").join(parts)

    def decimal(self, value: float, places: int = 1) -> str:
        """``value`` with ``places`` decimals and this language's decimal mark ("0.6", "0,6")."""
        return f"{value:.{places}f}".replace(".", self.raw("meta", "decimal"))

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


__all__ = ["Catalog", "DEFAULT", "PLURAL_RULES", "UnknownLanguage", "available", "catalog",
           "plural", "plural_forms"]
