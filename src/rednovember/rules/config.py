"""Game configuration: player count, gnomes, variants, seed."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

VARIANTS = ("harder", "hardest", "less-deadly-death", "mad-gnomes")
COLOURS = ("red", "blue", "green", "yellow", "purple", "orange", "black", "brown")


class ConfigError(ValueError):
    """A configuration that the rules do not allow."""


@dataclass(frozen=True)
class Config:
    """How a game is set up.

    ``players`` 3..8 run one gnome each. With one player, ``gnomes_per_player`` is 3..8 (default 3);
    two players run exactly two gnomes each (R16) — the one- and two-player rules (RULES §12).
    """

    players: int = 4
    gnomes_per_player: int | None = None
    variants: frozenset[str] = field(default_factory=frozenset)
    seed: int = 0

    def __post_init__(self) -> None:
        if not isinstance(self.players, int) or not 1 <= self.players <= 8:
            raise ConfigError("players must be 1..8")
        unknown = set(self.variants) - set(VARIANTS)
        if unknown:
            raise ConfigError(f"unknown variant(s) {sorted(unknown)}; known: {', '.join(VARIANTS)}")
        object.__setattr__(self, "variants", frozenset(self.variants))
        per = self.gnomes_per_player
        if self.players >= 3:
            if per not in (None, 1):
                raise ConfigError("with 3 or more players each player runs exactly one gnome")
            per = 1
        elif self.players == 2:
            per = 2 if per is None else per
            if per != 2:
                raise ConfigError(f"with 2 players each runs exactly 2 gnomes (R16), not {per}")
        else:
            per = 3 if per is None else per
            if not 3 <= per <= 8:
                raise ConfigError("a solo player runs 3..8 gnomes")
        object.__setattr__(self, "gnomes_per_player", per)
        if not isinstance(self.seed, int):
            raise ConfigError("seed must be an integer")

    @property
    def gnomes(self) -> int:
        assert self.gnomes_per_player is not None
        return self.players * self.gnomes_per_player

    @property
    def few_players(self) -> bool:
        """The one- and two-player rules apply (no Abandon Comrades)."""
        return self.players <= 2

    def has(self, variant: str) -> bool:
        return variant in self.variants

    def to_dict(self) -> dict[str, Any]:
        return {"players": self.players, "gnomes_per_player": self.gnomes_per_player,
                "variants": sorted(self.variants), "seed": self.seed}

    @staticmethod
    def from_dict(d: Any) -> Config:
        if not isinstance(d, dict):
            raise ConfigError("config must be an object")
        extra = set(d) - {"players", "gnomes_per_player", "variants", "seed"}
        if extra:
            raise ConfigError(f"unknown config field(s) {sorted(extra)}")
        variants = d.get("variants", [])
        if not isinstance(variants, list) or not all(isinstance(v, str) for v in variants):
            raise ConfigError("variants must be a list of names")
        players = d.get("players", 4)
        per = d.get("gnomes_per_player")
        seed = d.get("seed", 0)
        if not isinstance(players, int) or isinstance(players, bool):
            raise ConfigError("players must be an integer")
        if per is not None and (not isinstance(per, int) or isinstance(per, bool)):
            raise ConfigError("gnomes_per_player must be an integer")
        if not isinstance(seed, int) or isinstance(seed, bool):
            raise ConfigError("seed must be an integer")
        return Config(players, per, frozenset(variants), seed)
