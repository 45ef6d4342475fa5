"""The learned leaf (bots/value.py, ``search:valued``) and bench/fit_value.py, which fits it."""

from __future__ import annotations

import math
from dataclasses import replace
from functools import partial

import numpy as np
import pytest
from helpers import bench_script, heuristic_position, leaf_rollouts
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from rednovember.bots import BOTS, make_bot
from rednovember.bots.leaf import LEAF_TERMS, leaf_factors, leaf_features
from rednovember.bots.levels import LEVELS
from rednovember.bots.rollout import rollout
from rednovember.bots.search import SearchBot
from rednovember.bots.value import KEY_ROOMS, VALUE_FEATURES, value_features, valued
from rednovember.rules import Config, Game, new_game
from rednovember.rules.state import MOVE

fit_value = bench_script("fit_value")


@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.integers(0, 10_000), st.booleans())
def test_the_features_are_named_finite_and_begin_with_the_plain_leafs_terms(
        seed: int, mad: bool) -> None:
    g = heuristic_position(seed, 0, 120, frozenset({"mad-gnomes"}) if mad else frozenset())
    if g.result is not None:
        return
    player = g.player_to_move
    x = value_features(g, player)
    assert len(x) == len(VALUE_FEATURES) == len(LEVELS["valued"].value) - 1
    assert all(math.isfinite(v) for v in x)
    assert x[:len(LEAF_TERMS)] == leaf_features(leaf_factors(g, player))
    named = dict(zip(VALUE_FEATURES, x, strict=True))
    assert named["fires"] == sum(g.fire[r] for r in g.data.rooms)
    assert named["dead"] == sum(not gn.alive for gn in g.gnomes)
    for r in KEY_ROOMS:
        assert named[f"room {r} fire"] == float(g.fire[r])


def test_another_seats_hidden_hand_changes_nothing_in_mad_gnomes() -> None:
    # Mad Gnomes hides which items the other seats hold (not how many): the leaf may count only
    # what the seat sees
    g = heuristic_position(4, 30, 31, frozenset({"mad-gnomes"}))
    assert g.result is None
    player = g.player_to_move
    other = next(gn for gn in g.gnomes if gn.player != player and gn.alive and gn.hand)
    twin = g.copy(keep_log=False)
    swapped = [k + 1 if k + 1 < len(g.data.items) else 0 for k in other.hand]
    twin.gnomes[other.number].hand = swapped
    assert swapped != other.hand
    assert value_features(twin, player) == value_features(g, player)
    # in the standard rules every hand is public, and counted
    s = heuristic_position(4, 30, 31)
    assert s.result is None
    me = s.player_to_move
    gn = next(gn for gn in s.gnomes if gn.alive)
    more = s.copy(keep_log=False)
    more.gnomes[gn.number].hand = [*gn.hand, 0]
    kinds = VALUE_FEATURES.index("items of kind 0")
    assert value_features(more, me)[kinds] == value_features(s, me)[kinds] + 1


def test_the_learned_leaf_is_the_logistic_of_its_weighted_features() -> None:
    g = heuristic_position(7, 20, 40)
    assert g.result is None
    player = g.player_to_move
    flat = (0.5,) + (0.0,) * len(VALUE_FEATURES)
    assert valued(g, player, SearchBot(0).weights, flat) == pytest.approx(1 / (1 + math.exp(-0.5)))
    coef = LEVELS["valued"].value
    z = coef[0] + sum(c * v for c, v in zip(coef[1:], value_features(g, player), strict=True))
    assert valued(g, player, SearchBot(0).weights, coef) == pytest.approx(1 / (1 + math.exp(-z)))


@pytest.mark.parametrize("seed", range(3))
def test_a_game_over_is_judged_by_its_result(seed: int) -> None:
    g = heuristic_position(seed, 400, 401)
    assert g.result is not None
    coef = LEVELS["valued"].value
    assert valued(g, 0, SearchBot(0).weights, coef) == (1.0 if g.result.won else 0.0)


@pytest.mark.parametrize("name", ["valued", "valued5", "valued6", "valued7", "valued8"])
def test_search_valued_scores_its_rollouts_with_the_learned_leaf(name: str) -> None:
    """search:valued (fitted at 4 players) and search:valued5 to search:valued8 (fitted at 5 to
    8): a coefficient per feature, and the leaf is all they change."""
    level = LEVELS[name]
    assert len(level.value) == len(VALUE_FEATURES) + 1
    assert replace(level, value=()) == LEVELS["deep"]
    bot = make_bot(f"search:{name}", 3)
    assert isinstance(bot, SearchBot) and f"search:{name}" not in BOTS
    triples = leaf_rollouts(bot, value=level.value)
    assert all(got == own for got, own, _plain in triples)
    assert any(got != plain for got, _own, plain in triples)


def test_the_fit_recovers_a_known_model_on_features_of_any_scale() -> None:
    rng = np.random.default_rng(3)
    x = np.column_stack([rng.normal(50, 10, 6000), rng.normal(0, 0.01, 6000),
                         rng.integers(0, 3, 6000)])
    z = -1.0 + 0.05 * (x[:, 0] - 50) + 80.0 * x[:, 1] - 0.7 * x[:, 2]
    y = (rng.random(len(z)) < 1 / (1 + np.exp(-z))).astype(float)
    coef = fit_value.fit_value(x, y)
    assert coef == pytest.approx([-3.5, 0.05, 80.0, -0.7], rel=0.25, abs=0.1)


def test_a_recorded_game_gives_a_row_per_third_turn_start() -> None:
    row = fit_value.record(12, 3)
    assert row["deal"] == 12 and isinstance(row["won"], bool)
    assert len(row["features"]) == len(row["plain"]) > 3
    assert all(len(f) == len(VALUE_FEATURES) for f in row["features"])
    assert all(0.0 <= p <= 1.0 for p in row["plain"])
    assert fit_value.record(12, 3) == row  # the crew and the deal are fixed: the same game


def crew_position(players: int, seed: int, moves: int) -> Game:
    """A standard game of ``players`` gnomes after at least ``moves`` heuristic moves, at a
    turn's start with a choice (where the search searches)."""
    g = new_game(Config(players=players, seed=seed))
    bot = make_bot("heuristic", seed)
    done = 0
    while done < moves or g.phase != MOVE or len(g.legal_actions()) < 2:
        g.apply(bot.choose(g))
        done += 1
    return g


@pytest.mark.parametrize("players", [5, 8])
def test_the_default_judges_five_and_eight_gnomes_rollouts_by_their_own_leaf(players: int) -> None:
    """Issue 21: with eight gnomes (stop 57) and with five (stop 58) ``search`` and
    ``search:strong`` roll out with the leaf learned from games of that crew size and choose what
    search:valued8 or search:valued5 chooses; other crew sizes keep the plain product, and
    search:deep is unchanged."""
    learned = f"valued{players}"
    for name in ("default", "strong"):
        level = LEVELS[name]
        assert level.value_for(players) == LEVELS[learned].value != ()
        assert all(level.value_for(n) == () for n in (1, 2, 3, 4, 6, 7))
    assert LEVELS["deep"].crew_value == () and LEVELS["deep"].value_for(players) == ()
    g = crew_position(players, 5, 40)
    assert g.result is None and len(g.legal_actions()) > 1
    default, valued = make_bot("search", 3), make_bot(f"search:{learned}", 3)
    assert isinstance(default, SearchBot)
    assert default.choose(g.copy()) == valued.choose(g.copy())
    assert default.searches == 1  # the choice was searched, with rollouts
    assert default._rollout_for(g) is not default.rollout
    assert default._rollout_for(crew_position(4, 2, 20)) is default.rollout
    # a rollout put in its place (the tests' fakes) rolls out at every crew size
    fake = partial(rollout, value=LEVELS["valued"].value)
    default.rollout = fake
    assert default._rollout_for(g) is fake and default.rollout is fake


def test_search_valstrong_is_search_strong_with_the_four_player_leaf() -> None:
    """search:valstrong (stop 60, bench only): search:strong61's budget, guard and crew leaves,
    with the learned leaf judging the crew sizes without a leaf of their own."""
    level = LEVELS["valstrong"]
    assert level.value == LEVELS["valued"].value
    assert replace(level, value=()) == LEVELS["strong61"]
    assert level.value_for(4) == LEVELS["valued"].value
    assert level.value_for(5) == LEVELS["valued5"].value
    bot = make_bot("search:valstrong", 3)
    assert isinstance(bot, SearchBot) and "search:valstrong" not in BOTS


def test_search_short4_and_short5_roll_out_shorter_with_the_learned_leaves() -> None:
    """search:short4 and search:short5 (stop 62, bench only): rollouts of 7 and 6 minutes a gnome
    at four and five players (the default's 10), judged by the learned leaf of that crew size,
    with more determinisations; otherwise the default."""
    short4, short5, default = LEVELS["short4"], LEVELS["short5"], LEVELS["default"]
    assert (short4.horizon_for(4), short5.horizon_for(5), default.horizon_for(5)) == (7, 6, 10)
    assert short4.value_for(4) == LEVELS["valued"].value
    assert short5.value_for(5) == LEVELS["valued5"].value == default.value_for(5)
    assert short5.rollouts(12) > default.rollouts(12) and short4.rollouts(12) > default.rollouts(12)
    assert replace(short5, crew_minutes=50, rounds=default.rounds) == default
    assert not {"search:short4", "search:short5"} & set(BOTS)
