"""The search bot's budget: sequential halving over the candidates (``SearchLevel.rounds``)."""

from __future__ import annotations

import math
import random
from dataclasses import replace

import pytest
from helpers import heuristic_position, leaf_rollouts
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from rednovember.bots import BOTS, make_bot
from rednovember.bots.heuristic import best_plans, decide
from rednovember.bots.leaf import LEAF_TERMS, evaluate, leaf_factors, leaf_features
from rednovember.bots.levels import LEVELS, SearchLevel
from rednovember.bots.planning import DEFAULT_WEIGHTS, Analysis, Weights
from rednovember.bots.plans import WASTE_CHANCE, plan_turn, repair_chance, sound
from rednovember.bots.rollout import JITTER_PLANS, Follower, position_unit, rollout
from rednovember.bots.search import GUARD_SOON, SearchBot, guarded, played, shaded, varied
from rednovember.rules import Action, Config, Game, new_game
from rednovember.rules.state import MOVE

HALVING = SearchLevel(8, 0, 10, rounds=(6, 13, 26))


def _fake_rollouts(bot: SearchBot, means: dict[tuple[Action, ...], float],
                   noise: float, seed: int) -> list[tuple[Action, ...]]:
    """Replace the bot's rollouts by ``means[steps]`` plus Gaussian noise; return the calls'
    steps (the compiled bot calls the module's ``rollout`` directly: no monkeypatching)."""
    calls: list[tuple[Action, ...]] = []
    rnd = random.Random(seed)

    def fake(sim: Game, steps: tuple[Action, ...], player: int, stop: int,
             w: Weights) -> float:
        calls.append(steps)
        return means[steps] + rnd.gauss(0, noise)

    bot.rollout = fake
    return calls


def _candidates(count: int) -> list[tuple[Action, ...]]:
    return [(Action("move", c),) for c in range(count)]


def test_rollouts_counts_the_halving_schedule() -> None:
    # 8 in: 8 x 6, then 4 x 13, then 2 x 26; fewer candidates never drop below two
    assert HALVING.rollouts(8) == 8 * 6 + 4 * 13 + 2 * 26
    assert HALVING.rollouts(5) == 5 * 6 + 3 * 13 + 2 * 26
    assert HALVING.rollouts(2) == 2 * (6 + 13 + 26)
    assert SearchLevel(5, 20, 10).rollouts(5) == 100  # no rounds: n each


@pytest.mark.parametrize("seed", range(6))
def test_halving_keeps_the_clearly_better_candidate(seed: int) -> None:
    count = 8
    cands = _candidates(count)
    best = seed % count
    means = {c: (0.8 if i == best else 0.45 + 0.02 * i) for i, c in enumerate(cands)}
    bot = SearchBot(seed)
    calls = _fake_rollouts(bot, means, 0.15, seed)
    bot.level = HALVING
    g = new_game(Config(players=4, seed=seed))
    scores = bot._search(g, 0, cands, seed)
    assert max(range(count), key=lambda i: scores[i]) == best
    assert len(calls) == HALVING.rollouts(count)
    # the budget went to the survivors: the best was played in every round
    assert calls.count(cands[best]) == sum(HALVING.rounds)
    assert min(calls.count(c) for c in cands) == HALVING.rounds[0]
    # a dropped candidate scores below every one still in at the end
    kept = sorted(range(count), key=lambda i: -scores[i])[:2]
    assert all(scores[i] < min(scores[j] for j in kept) for i in range(count) if i not in kept)


def test_the_horizon_shrinks_with_the_crew() -> None:
    assert [LEVELS["default"].horizon_for(g) for g in range(3, 9)] == [10, 10, 10, 8, 7, 6]
    assert LEVELS["strong"].horizon_for(8) == 6
    assert LEVELS["v1"].horizon_for(8) == 8 and LEVELS["v2"].horizon_for(8) == 10  # the bench's
    assert LEVELS["v3"].horizon_for(8) == 10
    # search:reach (stop 41, bench only): 10 minutes a gnome at every size, on half the
    # determinisations of the default
    assert [LEVELS["reach"].horizon_for(g) for g in range(3, 9)] == [10] * 6
    assert LEVELS["reach"].rounds == tuple(r // 2 for r in LEVELS["deep"].rounds)


def test_varied_candidates_keep_at_most_two_plans_per_task() -> None:
    """search:varied (stop 41, bench only): of the heuristic's plans, best first, at most
    ``per_task`` reach one task (room, kind, object); the best of the rest fill up to ``k``."""
    g = next(p for p in map(_move_position, range(80)) if _plan_count(p) >= 16)
    plans = best_plans(g, g.player_to_move, DEFAULT_WEIGHTS)
    picked = varied(plans, 12, 2)
    assert len(picked) == min(12, len(plans)) and picked[0] == plans[0]
    tasks = [(p.target, p.action.kind, p.action.arg) for p in picked]
    kept = [p for p in picked if tasks.count((p.target, p.action.kind, p.action.arg)) <= 2]
    distinct = {(p.target, p.action.kind, p.action.arg) for p in plans}
    if len(distinct) * 2 >= 12:  # enough tasks: none over the cap
        assert len(kept) == len(picked)
    assert [plans.index(p) for p in picked[:len(kept)]] == sorted(
        plans.index(p) for p in picked[:len(kept)])  # best first
    one = varied(plans, 12, 1)
    assert len({(p.target, p.action.kind, p.action.arg) for p in one}) == min(12, len(distinct))


@pytest.mark.parametrize(("players", "horizon"), [(4, 10), (8, 6)])
def test_the_rollouts_stop_at_the_crews_horizon(players: int, horizon: int) -> None:
    g = new_game(Config(players=players, seed=3))
    bot = SearchBot(3)
    stops: list[int] = []

    def fake(sim: Game, steps: tuple[Action, ...], player: int, stop: int, w: Weights) -> float:
        stops.append(stop)
        return 0.5

    bot.rollout = fake
    bot._search(g, 0, _candidates(3), 3)
    keeper = max(gn.keeper for gn in g.on_track())
    assert stops and set(stops) == {keeper - horizon}


def test_halving_adds_the_bias_to_the_score() -> None:
    cands = _candidates(3)
    means = {cands[0]: 0.5, cands[1]: 0.52, cands[2]: 0.2}
    bot = SearchBot(0)
    _fake_rollouts(bot, means, 0.0, 0)
    bot.level = HALVING
    g = new_game(Config(players=4, seed=0))
    scores = bot._search(g, 0, cands, 0, [0.0, -0.05, 0.0])
    assert scores[0] == pytest.approx(0.5) and scores[1] == pytest.approx(0.47)
    assert scores[2] < scores[1]  # dropped after the first round


def _move_position(seed: int) -> Game:
    return heuristic_position(seed, 0, 120)


@settings(max_examples=6, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.integers(0, 1 << 30))
def test_default_search_is_legal_and_deterministic_under_its_seed(seed: int) -> None:
    g = _move_position(seed)
    if g.is_over:
        return
    assert make_bot("search", 1).level == LEVELS["default"]  # type: ignore[attr-defined]
    a = make_bot("search", seed).choose(g)
    assert a in g.legal_actions()
    assert make_bot("search", seed).choose(g.copy()) == a
    if g.phase == MOVE:  # the rest of the chosen turn is legal too
        bot = make_bot("search", seed)
        for _ in range(10):
            if g.is_over or g.phase != MOVE and g.phase != "opened":
                break
            a = bot.choose(g)
            assert a in g.legal_actions()
            g.apply(a)


def test_the_search_levels_count_their_plans_and_determinisations() -> None:
    """Issue 21, stop 28: ``search`` puts the heuristic's 12 best plans through rounds of 12, 26
    and 52 determinisations (search:v4, the default before: 8 plans, 6, 13, 26); search:strong
    16 plans through 15, 33 and 65."""
    g = next(p for p in map(_move_position, range(80)) if _plan_count(p) >= 16)
    counts: dict[str, int] = {}
    for name in ("search:v4", "search", "search:strong"):
        bot = make_bot(name, 5)
        assert isinstance(bot, SearchBot)
        calls: list[tuple[Action, ...]] = []

        def fake(sim: Game, steps: tuple[Action, ...], player: int, stop: int, w: Weights,
                 calls: list[tuple[Action, ...]] = calls) -> float:
            calls.append(steps)
            return 0.5

        bot.rollout = fake
        bot.level = replace(bot.level, gap=1e9)  # always search
        bot.choose(g)
        counts[name] = len(calls)
        assert len(set(calls)) == bot.level.k
    assert counts == {"search:v4": 152, "search": 456, "search:strong": 764}
    assert LEVELS["v4"].rollouts(8) == 152 and LEVELS["default"].rollouts(12) == 456
    assert LEVELS["strong"].rollouts(16) == 16 * 15 + 8 * 33 + 4 * 65
    assert make_bot("search:double", 5).level.rounds == (12, 26, 52)  # type: ignore[attr-defined]
    assert make_bot("search:deep", 5).level == LEVELS["deep"]  # type: ignore[attr-defined]
    assert make_bot("search:deeper", 5).level == LEVELS["deeper"]  # type: ignore[attr-defined]
    assert not {"search:double", "search:deep", "search:deeper", "search:v4"} & set(BOTS)


def _eight_gnomes_at_a_turn(seed: int) -> Game:
    """An 8-player game at the start of a turn with at least 16 plans to search."""
    rnd = random.Random(seed)
    wide = make_bot("search:strong61", 5)
    assert isinstance(wide, SearchBot)
    for _ in range(40):
        g = new_game(Config(players=8, seed=rnd.randrange(1 << 30)))
        bot = make_bot("heuristic", seed)
        for _ in range(rnd.randrange(20, 80)):
            if g.is_over:
                break
            g.apply(bot.choose(g))
        if (not g.is_over and g.phase == MOVE
                and len(wide._candidates(g, g, g.player_to_move, g.legal_actions())) >= 16):
            return g
    raise AssertionError("no 8-player position with 16 plans")


def test_strong_searches_as_the_default_from_six_gnomes_on() -> None:
    """Issue 21, stop 62: search:strong's 16 plans and rounds of 15, 33, 65 took 2.05 s once at
    8 players and won no more there (41 of 100 deals against the default's 47), so from six
    gnomes on it is the default; up to five it keeps its own budget."""
    strong = LEVELS["strong"]
    for gnomes in (6, 7, 8):
        assert strong.for_crew(gnomes) == LEVELS["default"]
    for gnomes in (1, 3, 4, 5):
        assert strong.for_crew(gnomes) is strong and strong.k == 16
    assert LEVELS["strong61"].for_crew(8).k == 16  # the level bots_strong8's games replay with
    g = _eight_gnomes_at_a_turn(3)
    calls: list[tuple[Action, ...]] = []

    def fake(sim: Game, steps: tuple[Action, ...], player: int, stop: int, w: Weights) -> float:
        calls.append(steps)
        return 0.5

    for name, plans, rollouts in (("search:strong", 12, 456), ("search:strong61", 16, 764)):
        bot = make_bot(name, 5)
        assert isinstance(bot, SearchBot)
        bot.rollout = fake
        bot.level = replace(bot.level, gap=1e9)  # always search
        calls.clear()
        bot.choose(g)
        assert (len(set(calls)), len(calls)) == (plans, rollouts)


def _rollout_args(name: str, g: Game) -> set[tuple[int, Weights]]:
    """The (stop, weights) pairs bot ``name`` hands its rollouts while searching at ``g``."""
    bot = make_bot(name, 5)
    assert isinstance(bot, SearchBot)
    seen: set[tuple[int, Weights]] = set()

    def fake(sim: Game, steps: tuple[Action, ...], player: int, stop: int, w: Weights) -> float:
        seen.add((stop, w))
        return 0.5

    bot.rollout = fake
    bot.level = replace(bot.level, gap=1e9)  # always search
    bot.choose(g)
    return seen


def _four_player_choice() -> Game:
    return next(p for p in map(_move_position, range(80))
                if len(p.gnomes) == 4 and _plan_count(p) >= 2)


def test_the_bench_levels_of_stop_29_change_one_thing_each() -> None:
    """search:ready (bench only) scores its rollouts with token_prepare 0.7, the default 0.3;
    search:long (bench only) rolls out 14 minutes a gnome at 4 players, the default 10."""
    g = _four_player_choice()
    back = max(gn.keeper for gn in g.on_track())
    ready = replace(DEFAULT_WEIGHTS, token_prepare=0.7)
    assert not {"search:ready", "search:long"} & set(BOTS)
    assert _rollout_args("search", g) == {(back - 10, DEFAULT_WEIGHTS)}
    assert _rollout_args("search:ready", g) == {(back - 10, ready)}
    assert _rollout_args("search:long", g) == {(back - 14, DEFAULT_WEIGHTS)}


def test_search_spend_values_the_items_in_hand_as_the_heuristic_bot_does() -> None:
    """search:spend (bench only, stop 32) plans and scores its rollouts with the items in hand
    valued at 0.6 of the default's, as HEURISTIC_WEIGHTS values them; nothing else differs."""
    g = _four_player_choice()
    back = max(gn.keeper for gn in g.on_track())
    spend = replace(DEFAULT_WEIGHTS, item_scale=0.6)
    assert _rollout_args("search:spend", g) == {(back - 10, spend)}
    assert LEVELS["spend"] == replace(LEVELS["deep"], weights=spend)
    assert "search:spend" not in BOTS


def _close_plans(g: Game) -> tuple[tuple[Action, ...], tuple[Action, ...], float] | None:
    """The default search's two best candidates at ``g`` (a turn's start) if the first leads the
    second by more than 1 in the heuristic's value."""
    if g.is_over or g.phase != MOVE:
        return None
    bot = make_bot("search", 3)
    assert isinstance(bot, SearchBot)
    plans = bot._candidates(g, g, g.player_to_move, g.legal_actions())
    if len(plans) < 2 or plans[0].value - plans[1].value <= 1.0:
        return None
    return plans[0].steps, plans[1].steps, plans[0].value - plans[1].value


def test_search_lean_trusts_the_rollouts_where_the_default_trusts_the_ranking() -> None:
    """search:lean (bench only, stop 31) adds 0.1, not 0.3, of the heuristic's value gap (per
    lost game) to the rollout means: a runner-up that the rollouts rate a little higher, by
    less than the default's prior and more than lean's, is chosen by lean only."""
    g, first, second, gap = next((p, *c) for p in map(_move_position, range(120))
                                 if (c := _close_plans(p)) is not None)
    edge = 0.2 * gap / DEFAULT_WEIGHTS.loss
    chosen: dict[str, tuple[Action, ...]] = {}
    for name in ("search", "search:lean"):
        bot = make_bot(name, 3)
        assert isinstance(bot, SearchBot)
        bot.rollout = lambda sim, steps, player, stop, w: 0.5 + (edge if steps == second else 0)
        bot.level = replace(bot.level, gap=1e9)  # always search
        chosen[name] = (bot.choose(g), *bot._plan)
    assert LEVELS["lean"] == replace(LEVELS["deep"], prior=0.1)
    assert "search:lean" not in BOTS
    assert chosen == {"search": first, "search:lean": second}


def _guard_case(seed: int) -> tuple[Game, float] | None:
    """A 4-player turn start and the chance its Missile Launch! token comes soon (no token on)."""
    g = _move_position(seed)
    if g.is_over or g.phase != MOVE or len(g.gnomes) != 4:
        return None
    token = g.data.tokens.index("missile_launch")
    if g.tokens[token] >= 0:
        return None
    an = Analysis.of(g, g.player_to_move, g.active, DEFAULT_WEIGHTS)
    return g, an.token_soon[token]


def test_the_guard_adds_the_best_plans_to_and_beside_missile_control() -> None:
    """search:guard (bench only, stop 29): while the Missile Launch! card likely comes soon, the
    best plan ending in Missile Control (room 7) and the best ending next to it join the k best;
    when it is unlikely, the candidates are the k best alone."""
    cases = [c for c in map(_guard_case, range(200)) if c is not None]
    near = {7} | {b for _h, b in cases[0][0].data.exits[7]}
    grown = quiet = 0
    for g, soon in cases:
        player = g.player_to_move
        every = best_plans(g, player, DEFAULT_WEIGHTS)
        top, got = every[:4], guarded(g, player, DEFAULT_WEIGHTS, 4)
        assert got[:4] == top
        if soon < GUARD_SOON:
            assert got == top
            quiet += 1
            continue
        for extra in got[4:]:
            assert extra.target in near and extra not in top
        in_seven = next((p for p in every if p.target == 7), None)
        assert in_seven is None or in_seven in got
        grown += len(got) > 4
    assert grown and quiet  # both cases met
    assert LEVELS["guard"] == replace(LEVELS["deep"], guard=None)
    assert LEVELS["deep"].guard == frozenset() and "search:guard" not in BOTS


def _hardest_guard_case(seed: int) -> Game | None:
    """A Hardest turn start where guarding Missile Control adds candidates to the 12."""
    g = heuristic_position(seed, 0, 120, variants=frozenset({"hardest"}))
    if g.is_over or g.phase != MOVE:
        return None
    grown = guarded(g, g.player_to_move, DEFAULT_WEIGHTS, 12)
    return g if len(grown) > 12 else None


def _first_candidates(level: str, g: Game) -> list[tuple[Action, ...]]:
    bot = SearchBot(1, level)
    bot.weights = bot._weights_for(g)
    return [p.steps for p in bot._candidates(g, g, g.player_to_move, g.legal_actions())]


def test_the_default_guards_missile_control_in_hardest_only() -> None:
    """Stop 52 of issue 21: the default (and search:strong) guard Missile Control in Hardest, where
    its token is the largest loss, and nowhere else; search:deep is the default of before."""
    hardest = next(g for g in map(_hardest_guard_case, range(100)) if g is not None)
    player, legal = hardest.player_to_move, hardest.legal_actions()
    grown = [p.steps for p in guarded(hardest, player, DEFAULT_WEIGHTS, 12) if p.steps[0] in legal]
    plain = [p.steps for p in best_plans(hardest, player, DEFAULT_WEIGHTS, limit=12)
             if p.steps[0] in legal]
    assert len(grown) > len(plain)
    assert _first_candidates("default", hardest) == grown
    assert _first_candidates("deep", hardest) == plain
    standard = next(g for g, soon in filter(None, map(_guard_case, range(200)))
                    if soon >= GUARD_SOON and len(g.gnomes) == 4
                    and len(guarded(g, g.player_to_move, DEFAULT_WEIGHTS, 12)) > 12)
    top = [p.steps for p in best_plans(standard, standard.player_to_move, DEFAULT_WEIGHTS, limit=12)
           if p.steps[0] in standard.legal_actions()]
    assert _first_candidates("default", standard) == top
    # (and, since stops 57-58, the five- and eight-player learned leaves: test_bots_value.py)
    assert LEVELS["default"] == replace(LEVELS["deep"], guard=frozenset({"hardest"}),
                                        crew_value=LEVELS["default"].crew_value)
    assert LEVELS["strong61"] == replace(LEVELS["deeper"], guard=frozenset({"hardest"}),
                                         crew_value=LEVELS["default"].crew_value)
    assert LEVELS["strong"] == replace(LEVELS["strong61"], crew_budget=(6, 12, (12, 26, 52)))


def test_search_shades_tries_its_best_repairs_with_fewer_minutes() -> None:
    """search:shades (bench only, stop 34): the heuristic ends a repair at its edge minutes
    only; the search also tries the two best repair plans with 2 and 4 minutes less, the same
    steps before the repair, while the chance stays at least WASTE_CHANCE."""
    met = 0
    for g in map(_move_position, range(60)):
        if g.is_over or g.phase != MOVE:
            continue
        legal = g.legal_actions()
        bot = make_bot("search:shades", 1)
        assert isinstance(bot, SearchBot)
        plans = bot._candidates(g, g, g.player_to_move, legal)
        base = [p for p in best_plans(g, g.player_to_move, bot.weights, limit=12)
                if p.steps[0] in legal]
        extra = plans[len(base):]
        assert plans[: len(base)] == base and extra == shaded(g, base, legal, (2, 4), 2)
        parents = [p for p in base if repair_chance(g, p) is not None][:2]
        for q in extra:
            parent = next(p for p in parents if p.steps[:-1] == q.steps[:-1]
                          and p.action.kind == q.action.kind and p.action.arg == q.action.arg)
            assert parent.action.minutes - q.action.minutes in (2, 4)
            assert (repair_chance(g, q) or 0.0) >= WASTE_CHANCE and q.steps[0] in legal
            assert q.value == parent.value and q.steps not in {p.steps for p in base}
        met += bool(extra)
    assert met >= 5
    assert LEVELS["shades"] == replace(LEVELS["deep"], fewer=(2, 4))
    assert not LEVELS["default"].fewer and "search:shades" not in BOTS
    # search:brace: shades with search:ready's leaf
    ready = LEVELS["ready"].weights
    assert LEVELS["brace"] == replace(LEVELS["shades"], weights=ready)
    assert ready == replace(DEFAULT_WEIGHTS, token_prepare=0.7) and "search:brace" not in BOTS


def _plan_count(g: Game) -> int:
    """How many candidate plans search:strong finds in ``g`` (0 off a turn's start)."""
    if g.is_over or g.phase != MOVE:
        return 0
    bot = make_bot("search:strong", 5)
    assert isinstance(bot, SearchBot)
    return len(bot._candidates(g, g, g.player_to_move, g.legal_actions()))


def test_earlier_defaults_stay_reachable_for_the_benchmark_only() -> None:
    assert "search:v2" not in BOTS and "search:v1" not in BOTS
    v2 = make_bot("search:v2", 1)
    assert isinstance(v2, SearchBot) and v2.level == LEVELS["v2"] and v2.name == "search:v2"
    assert LEVELS["default"].rounds and not LEVELS["v2"].rounds
    # v3: v4's search with the weights of before issue 21 (no coming tokens)
    v3 = make_bot("search:v3", 1)
    assert "search:v3" not in BOTS and isinstance(v3, SearchBot)
    assert v3.level.rounds == LEVELS["v4"].rounds and v3.weights.token_soon == 0.0
    # v4: the default until stop 28 (8 plans, 6, 13, 26 determinisations), never offered
    v4 = make_bot("search:v4", 1)
    assert "search:v4" not in BOTS and isinstance(v4, SearchBot) and v4.name == "search:v4"
    assert (v4.level.k, v4.level.rounds) == (8, (6, 13, 26))
    assert make_bot("search", 1).weights.token_soon > 0.0  # type: ignore[attr-defined]
    # a fixed iteration count (search:it=N) means N determinisations each, no halving
    it = make_bot("search:it=3", 1)
    assert isinstance(it, SearchBot) and it.level.n == 3 and it.level.rounds == ()


@pytest.mark.parametrize(("level", "variants", "weighed"), [
    ("v4", (), False), ("v4", ("hardest",), True), ("v4", ("harder",), False),
    ("tokens", (), True), ("v3", ("hardest",), False), ("default", (), True),
    ("default", ("harder",), True), ("strong", ("mad-gnomes",), True)])
def test_the_coming_tokens_are_weighed_where_the_level_says(level: str, variants: tuple[str, ...],
                                                            weighed: bool) -> None:
    g = new_game(Config(players=4, seed=2, variants=frozenset(variants)))
    bot = SearchBot(2, level)
    bot.choose(g)
    assert (bot.weights.token_soon > 0 and bot.weights.token_prepare > 0) == weighed
    assert bot.weights.minute == Weights().minute  # the rest of the weights unchanged


@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.integers(0, 10_000))
def test_the_leaf_is_its_factors_product_and_a_fitted_leaf_weighs_their_logs(seed: int) -> None:
    g = heuristic_position(seed, 0, 120)
    if g.result is not None:
        return
    player = g.player_to_move
    factors = leaf_factors(g, player)
    product = 1.0
    for _term, f in factors:
        product *= f
    assert evaluate(g, player) == product  # the same factors multiplied in the same order
    features = leaf_features(factors)
    assert len(features) == len(LEAF_TERMS)
    for term, x in enumerate(features):
        assert x == pytest.approx(sum(math.log(max(f, 1e-9)) for t, f in factors if t == term))
    # every coefficient 1 and no intercept: the logistic of log(product) = product / (1 + product)
    ones = (0.0,) + (1.0,) * len(LEAF_TERMS)
    if min(f for _t, f in factors) > 1e-9:
        assert evaluate(g, player, leaf=ones) == pytest.approx(product / (1 + product))
    # an intercept alone ignores the position; a larger one raises the estimate
    flat = (0.5,) + (0.0,) * len(LEAF_TERMS)
    assert evaluate(g, player, leaf=flat) == pytest.approx(1 / (1 + math.exp(-0.5)))


@pytest.mark.parametrize("name", ["fitted", "floored", "sharp", "soft"])
def test_a_leaf_level_scores_its_rollouts_with_its_own_leaf(name: str) -> None:
    level = LEVELS[name]
    assert level.leaf or level.leaf_power != 1.0
    assert not level.leaf or len(level.leaf) == len(LEAF_TERMS) + 1
    # the leaf is all it changes
    assert replace(level, leaf=(), leaf_power=1.0) == LEVELS["deep"]
    bot = make_bot(f"search:{name}", 3)
    assert isinstance(bot, SearchBot) and f"search:{name}" not in BOTS
    triples = leaf_rollouts(bot, leaf=level.leaf, power=level.leaf_power)
    assert all(got == own for got, own, _plain in triples)
    assert any(got != plain for got, _own, plain in triples)


@pytest.mark.parametrize("seed", range(4))
def test_a_leaf_power_raises_the_product_and_leaves_the_outcomes(seed: int) -> None:
    g = heuristic_position(seed, 0, 120)
    if g.result is not None:
        assert evaluate(g, 0, power=1.5) == evaluate(g, 0) in (0.0, 1.0)
        return
    player = g.player_to_move
    product = evaluate(g, player)
    assert evaluate(g, player, power=1.0) == product
    assert evaluate(g, player, power=1.5) == pytest.approx(product**1.5)
    if 0.0 < product < 1.0:  # a higher power rates a position not won lower
        assert evaluate(g, player, power=1.5) < product < evaluate(g, player, power=0.67)


@pytest.mark.parametrize("name", ["jitter", "shake"])
def test_a_jittered_rollout_draws_among_the_best_plans_by_their_gap(name: str) -> None:
    """search:jitter and search:shake (stop 38): the rollouts' heuristic draws each turn's plan
    among its JITTER_PLANS best, a worse one the less often the further below; the draw is fixed
    by the position, so a rollout repeats; at temperature 0 it is always the best."""
    level = LEVELS[name]
    assert level.rollout_temperature > 0.0
    assert replace(level, rollout_temperature=0.0) == LEVELS["deep"]
    picks: dict[int, int] = {}
    for seed in range(8):
        g = heuristic_position(seed, 10, 80)
        while g.result is None and g.phase != MOVE:  # on to the next turn's start
            g.apply(decide(g, g.player_to_move))
        if g.result is not None:
            continue
        plans = sound(g, plan_turn(Analysis.of(g, g.player_to_move, g.active, DEFAULT_WEIGHTS)),
                      JITTER_PLANS)
        if len(plans) < 2:
            continue
        assert 0.0 <= position_unit(g) < 1.0 and position_unit(g) == position_unit(g.copy())
        assert Follower(DEFAULT_WEIGHTS)._pick(g, plans) is plans[0]
        hot = Follower(DEFAULT_WEIGHTS, level.rollout_temperature)
        assert hot._pick(g, plans) is hot._pick(g, plans)
        # a cold draw takes the best, a very hot one spreads over all
        assert Follower(DEFAULT_WEIGHTS, 1e-6)._pick(g, plans) is plans[0] or \
            plans[1].value == plans[0].value
        rank = plans.index(Follower(DEFAULT_WEIGHTS, 1e9)._pick(g, plans))
        picks[rank] = picks.get(rank, 0) + 1
    assert sum(picks.values()) >= 4 and set(picks) != {0}


@pytest.mark.parametrize("seed", range(3))
def test_a_jittered_rollout_repeats_exactly(seed: int) -> None:
    g = heuristic_position(seed, 20, 60)
    if g.result is not None:
        return
    player = g.player_to_move
    stop = max(gn.keeper for gn in g.on_track()) - 6
    bot = make_bot("search:jitter", 3)
    assert isinstance(bot, SearchBot) and "search:jitter" not in BOTS
    runs = [bot.rollout(g.copy(keep_log=False), (), player, stop, bot.weights) for _ in range(2)]
    assert runs[0] == runs[1] == rollout(g.copy(keep_log=False), (), player, stop, bot.weights,
                                         temperature=1.5)


def test_a_level_setting_applies_in_its_variants_only() -> None:
    """``played``: the variant sets of SearchLevel (token weights, guard): None is every game,
    an empty set none, otherwise the games playing one of them."""
    hardest = new_game(Config(players=4, seed=0, variants=frozenset({"hardest"})))
    standard = new_game(Config(players=4, seed=0))
    assert played(standard, None) and played(hardest, None)
    assert not played(standard, frozenset()) and not played(hardest, frozenset())
    assert played(hardest, frozenset({"hardest"})) and not played(standard, frozenset({"hardest"}))
    assert played(hardest, frozenset({"harder", "hardest"}))
