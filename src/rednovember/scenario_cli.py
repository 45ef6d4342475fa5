"""File handling for ``rednovember scenario run`` and ``rednovember replay``."""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path
from typing import Any

from .rules import load_data
from .rules.scenario import ScenarioError, run
from .rules.serialize import SaveError, from_json, to_dict


def _read_json(path: str) -> Any:
    try:
        text = Path(path).read_text("utf-8")
    except OSError as exc:
        raise ScenarioError(f"cannot read {path}: {exc.strerror or exc}") from None
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
        text = Path(args.file).read_text("utf-8")
        game = from_json(text, load_data(args.data))
    except (OSError, SaveError) as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 1
    result = "in progress" if game.result is None else (
        "won" if game.result.won else f"lost ({game.result.cause})")
    print(f"ok: {len(game.history)} actions replayed from the seed reach the saved state; "
          f"game {result}")
    return 0
