"""A PettingZoo AEC environment of Red November, for reinforcement learning and other studies.

>>> from rednovember.analysis.env import env
>>> e = env(players=4)
>>> e.reset(seed=7)
>>> for agent in e.agent_iter():
...     obs, reward, terminated, truncated, info = e.last()
...     action = None if terminated or truncated else e.action_space(agent).sample(obs["action_mask"])
...     e.step(action)

Agents
    ``seat_0`` .. ``seat_{players-1}``: one per player (a seat may run several gnomes with one or two
    players). The agent to act is the seat of the gnome that must decide now (the active gnome, or
    the one a pending decision waits for), so a seat often acts several times in a row.
Observations
    ``{"observation": float32[OBS], "action_mask": int8[ACTIONS]}``. The vector encodes only what
    ``Game.view(seat)`` shows that seat (other seats' hands stay hidden in Mad Gnomes; deck order
    and dice never appear); every value lies in 0..1 (layout: :func:`observation_layout`). The mask
    is 1 exactly at the indices of the legal actions of the seat to act, all zeros for the others.
Actions
    one fixed global list (:func:`action_table`; 292 entries with the built-in data):
    ``open R`` (R = 0 the Sea .. 10), ``enter``, ``stay``, ``play ITEM``, each repair with 1..10
    minutes, ``unblock_hatch R M`` (R 1..10, M 1..10), ``draw 1..4``, ``trade G`` and ``attack G``
    (G 0..7), ``no_action``, ``abandon``, ``end``, ``exit R`` (R 0..10), ``spread R``, ``block R``
    (R 1..10), ``discard``/``keep``/``give ITEM``, ``done``, ``defend``, ``yield``. An action that is
    not legal raises ``ValueError``.
Rewards
    at the end only: +1 to every seat that won, -1 to every seat that lost, as
    :func:`rednovember.rules.outcome` says (a gnome that abandoned its comrades wins when the crew
    loses). ``shaping=c`` (off by default) adds potential-based shaping: after every step each seat
    gets ``c * (phi(after) - phi(before))`` with ``phi = -(sum of the disaster-track levels above
    1, as fractions of their length, plus the destruction tokens in play) / 7``, sign inverted for
    seats that abandoned; it sums to ``c * (phi(end) - phi(start))`` and does not change which
    policies are best.
Episodes
    ``reset(seed=S)`` starts the game with seed ``S`` (the same seed, the same game and chance);
    without a seed the next seed comes from the environment's own generator. ``max_steps``
    truncates a game (default: none; every game ends by the rules).
"""

from __future__ import annotations

import random
from collections.abc import Iterable
from typing import Any

import gymnasium
import numpy as np
from pettingzoo import AECEnv  # type: ignore[import-untyped]
from pettingzoo.utils import wrappers  # type: ignore[import-untyped]

from ..rules import SEA, Action, Config, Game, GameData, load_data, new_game, outcome
from ..rules.data import REPAIRS

MAX_GNOMES = 8
MAX_MINUTES = 10
PHASES = ("move", "opened", "after_action", "extra_move", "decide", "over")
DECISIONS = ("discard", "keep", "spread", "block", "give", "defend")


def action_table(data: GameData) -> list[Action]:
    """Every action any seat could ever take, in the fixed order of the action space."""
    rooms = range(len(data.room_keys))  # 0 = the Sea
    interior = list(data.rooms)
    items = range(len(data.items))
    most_drawn = max((n for _, n in data.draw_rooms.values()), default=0)
    out: list[Action] = [Action("open", r) for r in rooms]
    out += [Action("enter"), Action("stay")]
    out += [Action("play", k) for k in items]
    out += [Action(kind, 0, m) for kind in REPAIRS if kind != "unblock_hatch"
            for m in range(1, MAX_MINUTES + 1)]
    out += [Action("unblock_hatch", r, m) for r in interior for m in range(1, MAX_MINUTES + 1)]
    out += [Action("draw", n) for n in range(1, most_drawn + 1)]
    out += [Action("trade", gn) for gn in range(MAX_GNOMES)]
    out += [Action("attack", gn) for gn in range(MAX_GNOMES)]
    out += [Action("no_action"), Action("abandon"), Action("end")]
    out += [Action("exit", r) for r in rooms]
    out += [Action("spread", r) for r in interior]
    out += [Action("block", r) for r in interior]
    out += [Action(kind, k) for kind in ("discard", "keep", "give") for k in items]
    out += [Action("done"), Action("defend"), Action("yield")]
    return out


def observation_layout(data: GameData) -> list[tuple[str, int]]:
    """(name, width) of each block of the observation vector, in order."""
    rooms = len(data.room_keys)
    n_rooms = rooms - 1
    items = len(data.items)
    kinds = len(data.event_kinds)
    gnome = 13 + rooms + items
    return [
        ("seat (one-hot)", MAX_GNOMES), ("phase (one-hot)", len(PHASES)),
        ("fire per room 1..", n_rooms), ("low water per room", n_rooms),
        ("high water per room", n_rooms), ("blocked interior hatches", data.interior_count),
        ("disaster track levels / length", len(data.tracks)),
        ("destruction token in play", len(data.tokens)),
        ("destruction token space / start", len(data.tokens)),
        ("minutes left this turn / start", 1), ("opened hatch's room (one-hot)", rooms),
        ("began turn in the Sea, Grog used, item icon pending", 3),
        ("Lucky Charm icons left / 3, turn / 100, event space / start", 3),
        ("items played this turn / 2", items), ("pending decision kind (one-hot)", len(DECISIONS)),
        ("I decide, pending decisions / 8", 2),
        ("event deck / cards, item deck / cards, captain's stock / size, Kraken set aside", 4),
        ("event discards per kind / copies", kinds), ("item discards per kind / copies", items),
        ("top event discard's kind (one-hot)", kinds),
        (f"gnomes 0..{MAX_GNOMES - 1}: present, mine, active, deciding, alive, aboard, abandoned,"
         " fainted, intoxication/4, room (one-hot), keeper/start, hand known, hand per item / "
         "copies, hand size / 10, drew items", MAX_GNOMES * gnome),
    ]


class Encoder:
    """Turns ``Game.view(seat)`` into the fixed-size observation vector."""

    def __init__(self, data: GameData) -> None:
        self.data = data
        self.size = sum(w for _, w in observation_layout(data))
        self.rooms = len(data.room_keys)
        self.items = {it.id: k for k, it in enumerate(data.items)}
        self.copies = [max(1, it.count) for it in data.items]
        kind_of = {k: i for i, k in enumerate(data.event_kinds)}
        self.card_kind = [kind_of[c.kind] for c in data.events]
        self.kind_copies = [0] * len(data.event_kinds)
        for k in self.card_kind:
            self.kind_copies[k] += 1
        self.hatch = {data.hatches[h]: h for h in range(data.interior_count)}
        self.start = max(data.start_spaces.values())

    def encode(self, view: dict[str, Any], seat: int) -> np.ndarray:
        d = self.data
        v: list[float] = []
        start = self.start

        def onehot(i: int, n: int) -> None:
            block = [0.0] * n
            if 0 <= i < n:
                block[i] = 1.0
            v.extend(block)

        onehot(seat, MAX_GNOMES)
        onehot(PHASES.index(view["phase"]) if view["phase"] in PHASES else -1, len(PHASES))
        fire = set(view["fire"])
        v.extend(1.0 if r in fire else 0.0 for r in d.rooms)
        water = {int(r): lvl for r, lvl in view["water"].items()}
        v.extend(1.0 if water.get(r) == 1 else 0.0 for r in d.rooms)
        v.extend(1.0 if water.get(r) == 2 else 0.0 for r in d.rooms)
        blocked = [0.0] * d.interior_count
        for a, b in view["blocked"]:
            h = self.hatch.get((a, b), self.hatch.get((b, a), -1))
            if h >= 0:
                blocked[h] = 1.0
        v.extend(blocked)
        v.extend((view["tracks"][t] - 1) / max(1, d.track_length - 1) for t in d.tracks)
        v.extend(1.0 if t in view["tokens"] else 0.0 for t in d.tokens)
        v.extend(view["tokens"].get(t, 0) / start for t in d.tokens)
        v.append(max(0, view["ghost"]) / start)
        onehot(view["opened"] if view["phase"] == "opened" else -1, self.rooms)
        v += [float(view["began_in_sea"]), float(view["grog_used"]), float(view["item_here"])]
        v += [view["charms"] / 3, view["turn"] / 100, max(0, view["event_space"]) / start]
        played = [0.0] * len(self.copies)
        for name, n in view["played"].items():
            played[self.items[name]] = n / 2
        v.extend(played)
        pending = view["pending"]
        onehot(DECISIONS.index(pending[0][0]) if pending else -1, len(DECISIONS))
        v += [1.0 if view["player_to_move"] == seat else 0.0, len(pending) / 8]
        total_cards = len(d.events)
        total_items = sum(self.copies)
        v += [view["event_deck_size"] / total_cards, view["item_deck_size"] / total_items,
              view["stock"] / max(1, d.stock_count), float(view["kraken_aside"])]
        discards = [0.0] * len(self.kind_copies)
        for card in view["event_discard"]:
            discards[self.card_kind[card]] += 1
        v.extend(n / c for n, c in zip(discards, self.kind_copies, strict=True))
        item_discards = [0.0] * len(self.copies)
        for name in view["item_discard"]:
            item_discards[self.items[name]] += 1
        v.extend(n / c for n, c in zip(item_discards, self.copies, strict=True))
        top = view["event_discard_top"]
        onehot(self.card_kind[top] if top is not None else -1, len(self.kind_copies))
        gnomes = view["gnomes"]
        decider = view["decider"]
        for slot in range(MAX_GNOMES):
            if slot >= len(gnomes):
                v.extend([0.0] * (13 + self.rooms + len(self.copies)))
                continue
            gn = gnomes[slot]
            aboard = gn["alive"] and not gn["abandoned"]
            v += [1.0, float(gn["player"] == seat), float(view["active"] == slot),
                  float(decider == slot), float(gn["alive"]), float(aboard),
                  float(gn["abandoned"]), float(gn["fainted"]), gn["intoxication"] / 4]
            onehot(gn["room"] if aboard else -1, self.rooms)
            v.append(max(0, gn["keeper"]) / start)
            hand = gn["hand"]
            v.append(0.0 if hand is None else 1.0)
            counts = [0.0] * len(self.copies)
            for name in hand or ():
                counts[self.items[name]] += 1
            v.extend(n / c for n, c in zip(counts, self.copies, strict=True))
            v += [gn["hand_size"] / 10, 1.0 if gn["drew_room"] >= 0 else 0.0]
        out = np.clip(np.asarray(v, dtype=np.float32), 0.0, 1.0)
        assert out.shape == (self.size,), (out.shape, self.size)
        return out


def _seat_won(g: Game, seat: int) -> bool:
    return any(bool(outcome(g, n)) for n in g.gnomes_of(seat))


def _potential(g: Game) -> float:
    d = g.data
    tracks = sum((lvl - 1) / max(1, d.track_length - 1) for lvl in g.tracks)
    tokens = sum(1 for s in g.tokens if s >= 0)
    return -(tracks + tokens) / (len(g.tracks) + len(g.tokens))


class RedNovemberEnv(AECEnv):  # type: ignore[misc]
    """The raw AEC environment (see the module docstring); :func:`env` wraps it."""

    metadata: dict[str, Any] = {"name": "rednovember_v0", "render_modes": ["human", "ansi"],
                "is_parallelizable": False}

    def __init__(self, players: int = 4, gnomes_per_player: int | None = None,
                 variants: Iterable[str] = (), shaping: float = 0.0,
                 max_steps: int | None = None, render_mode: str | None = None,
                 data_dir: str | None = None) -> None:
        super().__init__()
        self.data = load_data(data_dir)
        self.config = Config(players, gnomes_per_player, frozenset(variants), 0)
        if render_mode is not None and render_mode not in self.metadata["render_modes"]:
            raise ValueError(f"render_mode must be one of {self.metadata['render_modes']}")
        self.render_mode = render_mode
        self.shaping = float(shaping)
        self.max_steps = max_steps
        self.actions = action_table(self.data)
        self.index = {a: i for i, a in enumerate(self.actions)}
        self.encoder = Encoder(self.data)
        self.possible_agents = [f"seat_{p}" for p in range(players)]
        self.agent_seat = {a: p for p, a in enumerate(self.possible_agents)}
        obs_space = gymnasium.spaces.Dict({
            "observation": gymnasium.spaces.Box(0.0, 1.0, (self.encoder.size,), np.float32),
            "action_mask": gymnasium.spaces.Box(0, 1, (len(self.actions),), np.int8),
        })
        act_space = gymnasium.spaces.Discrete(len(self.actions))
        self.observation_spaces = {a: obs_space for a in self.possible_agents}
        self.action_spaces = {a: act_space for a in self.possible_agents}
        self._seeds = random.Random()
        self.game: Game | None = None
        self.steps = 0

    def observation_space(self, agent: str) -> gymnasium.spaces.Space[Any]:
        return self.observation_spaces[agent]

    def action_space(self, agent: str) -> gymnasium.spaces.Space[Any]:
        return self.action_spaces[agent]

    # --- the episode ---------------------------------------------------------------------------
    def reset(self, seed: int | None = None, options: dict[str, Any] | None = None) -> None:
        if seed is not None:
            self._seeds = random.Random(seed)
            game_seed = int(seed)
        else:
            game_seed = self._seeds.getrandbits(63)
        self.game = new_game(Config(self.config.players, self.config.gnomes_per_player,
                                    self.config.variants, game_seed), self.data)
        self.steps = 0
        self.agents = self.possible_agents[:]
        self.rewards = {a: 0.0 for a in self.agents}
        self._cumulative_rewards = {a: 0.0 for a in self.agents}
        self.terminations = {a: False for a in self.agents}
        self.truncations = {a: False for a in self.agents}
        self.infos: dict[str, dict[str, Any]] = {a: {} for a in self.agents}
        self._skip_agent_selection = None
        self.agent_selection = self._seat_agent()
        if self.game.is_over:  # only a broken data set could end a game during setup
            self._finish()

    def _seat_agent(self) -> str:
        assert self.game is not None
        seat = self.game.player_to_move
        return self.possible_agents[seat if seat >= 0 else 0]

    def legal_mask(self) -> np.ndarray:
        """The action mask of the seat to act."""
        assert self.game is not None
        mask = np.zeros(len(self.actions), dtype=np.int8)
        for a in self.game.legal_actions():
            mask[self.index[a]] = 1
        return mask

    def observe(self, agent: str) -> dict[str, np.ndarray]:
        assert self.game is not None
        seat = self.agent_seat[agent]
        g = self.game
        obs = self.encoder.encode(g.view(seat), seat)
        if g.result is None and g.player_to_move == seat:
            mask = self.legal_mask()
        else:
            mask = np.zeros(len(self.actions), dtype=np.int8)
        return {"observation": obs, "action_mask": mask}

    def step(self, action: Any) -> None:
        agent = self.agent_selection
        if self.terminations[agent] or self.truncations[agent]:
            self._was_dead_step(action)
            return
        g = self.game
        assert g is not None
        idx = int(action)
        if not 0 <= idx < len(self.actions):
            raise ValueError(f"action {idx} is outside the action space 0..{len(self.actions) - 1}")
        chosen = self.actions[idx]
        if chosen not in g.legal_actions():
            raise ValueError(f"action {idx} ({chosen.text(self.data)}) is not legal now")
        self._cumulative_rewards[agent] = 0.0
        self._clear_rewards()
        before = _potential(g) if self.shaping else 0.0
        g.apply(chosen)
        self.steps += 1
        if self.shaping:
            delta = self.shaping * (_potential(g) - before)
            for a in self.agents:
                seat = self.agent_seat[a]
                abandoned = all(g.gnomes[n].abandoned for n in g.gnomes_of(seat))
                self.rewards[a] += -delta if abandoned else delta
        if g.is_over:
            self._finish()
        elif self.max_steps is not None and self.steps >= self.max_steps:
            for a in self.agents:
                self.truncations[a] = True
        else:
            self.agent_selection = self._seat_agent()
        self._accumulate_rewards()

    def _finish(self) -> None:
        g = self.game
        assert g is not None and g.result is not None
        for a in self.agents:
            won = _seat_won(g, self.agent_seat[a])
            self.rewards[a] += 1.0 if won else -1.0
            self.terminations[a] = True
            self.infos[a] = {"won": won, "cause": g.result.cause}

    # --- showing it ----------------------------------------------------------------------------
    def render(self) -> str | None:
        text = self.text()
        if self.render_mode == "human":
            print(text)
            return None
        return text

    def text(self) -> str:
        """The position as a spectator may see it, in plain text."""
        g = self.game
        if g is None:
            return "(no game: call reset())"
        d = self.data
        v = g.view(None)
        names = ["sea" if r == SEA else str(r) for r in range(len(d.room_keys))]
        lines = [f"turn {v['turn']}, phase {v['phase']}"]
        lines.append("tracks: " + ", ".join(f"{t} {lvl}/{d.track_length}"
                                            for t, lvl in v["tracks"].items())
                     + ("; tokens: " + ", ".join(f"{t} at {s}" for t, s in v["tokens"].items())
                        if v["tokens"] else ""))
        water = ", ".join(f"{r} {'high' if lvl == 2 else 'low'}" for r, lvl in v["water"].items())
        lines.append(f"fire: {', '.join(map(str, v['fire'])) or '-'}; water: {water or '-'}; "
                     f"blocked: {', '.join(f'{a}-{b}' for a, b in v['blocked']) or '-'}")
        for gn in v["gnomes"]:
            state = ("dead" if not gn["alive"] else "abandoned" if gn["abandoned"]
                     else f"room {names[gn['room']]}, keeper {gn['keeper']}"
                          + (", fainted" if gn["fainted"] else ""))
            hand = "hidden" if gn["hand"] is None else ", ".join(gn["hand"]) or "-"
            mark = "*" if gn["number"] == v["decider"] else " "
            lines.append(f"{mark} gnome {gn['number']} ({gn['colour']}, seat {gn['player']}): "
                         f"{state}; drunk {gn['intoxication']}; hand {hand}")
        if g.result is not None:
            lines.append(f"game over: {'won' if g.result.won else 'lost'} ({g.result.cause})")
        elif g.config.has("mad-gnomes"):  # the choices would show the decider's hidden hand
            lines.append(f"seat {g.player_to_move} decides ({g.ghost} minutes left): "
                         f"{len(g.legal_actions())} choices")
        else:
            legal = ", ".join(a.text(d) for a in g.legal_actions())
            lines.append(f"seat {g.player_to_move} decides ({g.ghost} minutes left): {legal}")
        return "\n".join(lines)

    def close(self) -> None:
        self.game = None


def env(**kwargs: Any) -> AECEnv:
    """The environment wrapped as PettingZoo recommends (order enforcing)."""
    return wrappers.OrderEnforcingWrapper(RedNovemberEnv(**kwargs))


raw_env = RedNovemberEnv

__all__ = ["Encoder", "RedNovemberEnv", "action_table", "env", "observation_layout", "raw_env"]
