"""The PettingZoo environment: PettingZoo's API test, masks = legal actions, hidden information,
rewards, seeding, shaping and rendering."""

from __future__ import annotations

import random
import warnings
from typing import Any

import numpy as np
import pytest

pytest.importorskip("pettingzoo")

from pettingzoo.test import api_test  # noqa: E402

from rednovember.analysis.env import (  # noqa: E402
    Encoder,
    RedNovemberEnv,
    action_table,
    env,
    observation_layout,
)
from rednovember.rules import Action, Config, determinize, load_data, new_game  # noqa: E402


@pytest.mark.parametrize("kwargs", [
    {"players": 4},
    {"players": 2, "variants": ["mad-gnomes"]},
    {"players": 1, "gnomes_per_player": 5, "variants": ["less-deadly-death"]},
])
def test_pettingzoo_api_test(kwargs: dict[str, Any]) -> None:
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # style hints for dict observations, as for chess & co
        api_test(env(**kwargs), num_cycles=150)


def test_action_table_is_complete_and_unique() -> None:
    data = load_data()
    table = action_table(data)
    assert len(table) == len(set(table)) == 292
    kinds = {a.kind for a in table}
    assert kinds >= {"open", "enter", "stay", "play", "extinguish_fire", "unblock_hatch", "draw",
                     "trade", "attack", "no_action", "abandon", "end", "exit", "spread", "block",
                     "discard", "keep", "give", "done", "defend", "yield", "kill_kraken"}
    assert Action("unblock_hatch", 4, 10) in table and Action("open", 0) in table
    assert sum(w for _, w in observation_layout(data)) == Encoder(data).size


CONFIGS = [
    {"players": 4},
    {"players": 3, "variants": ["mad-gnomes"]},
    {"players": 8, "variants": ["hardest"]},
    {"players": 5, "variants": ["harder", "less-deadly-death"]},
    {"players": 2, "gnomes_per_player": 2},
    {"players": 1, "gnomes_per_player": 8, "variants": ["mad-gnomes"]},
]


@pytest.mark.parametrize("kwargs", CONFIGS)
def test_masks_equal_the_legal_actions_and_random_games_finish(kwargs: dict[str, Any]) -> None:
    e = RedNovemberEnv(**kwargs)
    rng = random.Random(5)
    space = e.observation_space(e.possible_agents[0])
    for seed in range(4):
        e.reset(seed=seed)
        g = e.game
        assert g is not None
        steps = 0
        for agent in e.agent_iter():
            obs, _, terminated, truncated, _ = e.last()
            if terminated or truncated:
                e.step(None)
                continue
            mask = obs["action_mask"]
            legal = g.legal_actions()
            assert agent == f"seat_{g.player_to_move}"
            assert mask.dtype == np.int8 and int(mask.sum()) == len(legal)
            assert {e.actions[i] for i in np.flatnonzero(mask)} == set(legal)
            if steps % 7 == 0:
                assert space.contains(obs)
                other = [a for a in e.agents if a != agent]
                if other:
                    assert not e.observe(other[0])["action_mask"].any()
            e.step(int(rng.choice(np.flatnonzero(mask))))
            steps += 1
        assert g.is_over and not e.agents
        assert steps == len(g.history)


def test_observation_hides_what_the_seat_cannot_see() -> None:
    """Re-sampling everything seat 0 cannot see (other hands, decks, dice) leaves its
    observation unchanged; its own hand does show."""
    data = load_data()
    enc = Encoder(data)
    rng = random.Random(2)
    g = new_game(Config(4, variants=frozenset({"mad-gnomes"}), seed=3), data)
    checked = 0
    while not g.is_over and checked < 60:
        for seat in range(4):
            mine = enc.encode(g.view(seat), seat)
            for s in range(2):
                twin = determinize(g, seat, s)
                assert np.array_equal(enc.encode(twin.view(seat), seat), mine)
        checked += 1
        g.apply(rng.choice(g.legal_actions()))
    other = new_game(Config(4, variants=frozenset({"mad-gnomes"}), seed=3), data)
    other.gnomes[1].hand = [data.item_index["harpoon"]] * len(other.gnomes[1].hand)
    assert np.array_equal(enc.encode(other.view(0), 0), enc.encode(new_game(
        Config(4, variants=frozenset({"mad-gnomes"}), seed=3), data).view(0), 0))
    assert not np.array_equal(enc.encode(other.view(1), 1), enc.encode(new_game(
        Config(4, variants=frozenset({"mad-gnomes"}), seed=3), data).view(1), 1))


def _play(e: RedNovemberEnv, seed: int, pick: int) -> tuple[list[int], dict[str, float]]:
    """Play one game always taking the ``pick``-th legal index; returns actions and returns."""
    e.reset(seed=seed)
    taken: list[int] = []
    totals: dict[str, float] = dict.fromkeys(e.possible_agents, 0.0)
    for agent in e.agent_iter():
        obs, reward, terminated, truncated, _ = e.last()
        totals[agent] += reward
        if terminated or truncated:
            e.step(None)
            continue
        legal = np.flatnonzero(obs["action_mask"])
        a = int(legal[(pick + len(taken)) % len(legal)])
        taken.append(a)
        e.step(a)
    return taken, totals


def test_rewards_seeding_and_outcome() -> None:
    e = RedNovemberEnv(players=4)
    first, returns = _play(e, 11, 3)
    again, returns_again = _play(e, 11, 3)
    assert first == again and returns == returns_again
    g = e.game
    assert g is not None and g.result is not None
    for p, agent in enumerate(e.possible_agents):
        won = g.result.won != g.gnomes[p].abandoned
        assert returns[agent] == (1.0 if won else -1.0)
    e.reset()
    a = e.observe(e.agent_selection)["observation"]
    e.reset()
    b = e.observe(e.agent_selection)["observation"]
    assert a.shape == b.shape  # unseeded resets draw fresh seeds from the env's generator


def test_shaping_telescopes() -> None:
    from rednovember.analysis.env import _potential

    e = RedNovemberEnv(players=3, shaping=0.5)
    e.reset(seed=4)
    assert e.game is not None
    start = _potential(e.game)
    _, returns = _play(e, 4, 1)
    g = e.game
    assert g is not None and g.result is not None
    end = _potential(g)
    for p, agent in enumerate(e.possible_agents):
        sign = -1.0 if g.gnomes[p].abandoned else 1.0
        final = 1.0 if g.result.won != g.gnomes[p].abandoned else -1.0
        assert returns[agent] == pytest.approx(final + sign * 0.5 * (end - start), abs=1e-9)


def test_illegal_action_truncation_and_render() -> None:
    e = RedNovemberEnv(players=3, max_steps=5, render_mode="ansi")
    e.reset(seed=1)
    mask = e.observe(e.agent_selection)["action_mask"]
    with pytest.raises(ValueError, match="not legal"):
        e.step(int(np.flatnonzero(mask == 0)[0]))
    with pytest.raises(ValueError, match="outside"):
        e.step(10_000)
    text = e.render()
    assert isinstance(text, str) and "tracks:" in text and "decides" in text
    for _agent in e.agent_iter():
        obs, _, terminated, truncated, _ = e.last()
        e.step(None if terminated or truncated else int(np.flatnonzero(obs["action_mask"])[0]))
    assert e.steps == 5 and not e.agents
    e.close()
