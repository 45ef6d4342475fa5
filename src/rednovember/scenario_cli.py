"""File handling for ``rednovember scenario run`` and ``rednovember replay``."""

from __future__ import annotations

import argparse
import json
import sys
from typing import Any

from .files import LOAD_FAILED, Unreadable, read_text
from .i18n import UnknownLanguage, catalog
from .i18n.describe import describe_result
from .rules import load_data
from .rules.scenario import ScenarioError, run
from .rules.serialize import SaveError, from_json, to_dict
from .terminal.newgame import save_shape_problem


def _read_json(path: str) -> Any:
    try:
        text = read_text(path)
    except Unreadable as exc:
        raise ScenarioError(f"cannot read {path}: {exc}") from None
    try:
        return json.loads(text)
    except json.JSONDecodeError as exc:
        raise ScenarioError(f"{path} is not valid JSON: {exc}") from None


def run_scenario(args: argparse.Namespace) -> int:
    try:
        game = run(_read_json(args.file), load_data(args.data))
    except ScenarioError as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 1
    print(json.dumps(to_dict(game), indent=1))
    return 0


def run_replay(args: argparse.Namespace) -> int:
    try:
        cat = catalog(args.lang)
    except UnknownLanguage as exc:
        print(f"error: {exc}", file=sys.stderr)
        return LOAD_FAILED
    try:
        text = read_text(args.file)
    except Unreadable as exc:
        print(f"error: cannot read {args.file}: {exc}", file=sys.stderr)
        return LOAD_FAILED
    shape = save_shape_problem(text, cat)
    if shape is not None:  # not a save at all: as play --load says it (exit 2)
        print(f"error: cannot load {args.file}: {shape}", file=sys.stderr)
        return LOAD_FAILED
    try:
        game = from_json(text, load_data(args.data))
    except SaveError as exc:  # the check failed (exit 1): another data set, a corrupt history
        print(f"error: {exc}", file=sys.stderr)
        return 1
    print(cat.get("ui", "replay_ok", count=len(game.history)))
    print(cat.raw("ui", "replay_going_on") if game.result is None
          else describe_result(game, args.lang)[0])
    return 0
