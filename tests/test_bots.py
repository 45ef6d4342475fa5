"""Bots: always legal, reproducible from the seed, blind to hidden information, and the heuristic
plays clearly better than chance."""

from __future__ import annotations

import random
from collections import Counter

import pytest
from helpers import HIGH, LOW, act, arrange, give, start
from hypothesis import given, settings
from hypothesis import strategies as st

from rednovember.bots import BOTS, make_bot, play_out
from rednovember.bots.base import RandomBot, known_bot
from rednovember.bots.facts import public_twin, room_distances
from rednovember.bots.heuristic import HeuristicBot, decide
from rednovember.bots.leaf import evaluate
from rednovember.bots.plans import routes
from rednovember.bots.search import SearchBot
from rednovember.rules import SEA, VARIANTS, Action, Config, Game, determinize, new_game
from rednovember.rules.state import DECIDE, EXTRA_MOVE


def _configs(rnd: random.Random) -> Config:
    players = rnd.randint(1, 8)
    variants = frozenset(v for v in VARIANTS if rnd.random() < 0.35)
    return Config(players=players, variants=variants, seed=rnd.randrange(1 << 30))


def random_positions(count: int, seed: int) -> list[Game]:
    """Positions reached by play over every player count and variant: random choices, mixed in
    half the games with the heuristic's (it hoards items, so hand limits come up). Every pending
    decision and forced move is kept; other positions are sampled."""
    rnd = random.Random(seed)
    out: list[Game] = []
    while len(out) < count:
        g = new_game(_configs(rnd))
        bot = RandomBot(rnd.randrange(1 << 30))
        mix = rnd.random() < 0.5
        while not g.is_over and len(out) < count:
            options = g.legal_actions()
            keep = 1.0 if g.phase in (DECIDE, EXTRA_MOVE) else 0.06
            if len(options) > 1 and rnd.random() < keep:
                out.append(g.copy())
            if mix and rnd.random() < 0.7:
                g.apply(decide(public_twin(g, g.player_to_move, 0), g.player_to_move))
            else:
                g.apply(bot.choose(g))
    return out


def kind_of(g: Game) -> str:
    return g.pending[0].kind if g.phase == DECIDE else g.phase


def defend_positions() -> list[Game]:
    """Mad Gnomes attacks (rare in random play): the defender holds a Crowbar."""
    out = []
    for seed in range(3):
        g = start(arrange(players=3 + seed, seed=seed, variants=["mad-gnomes"]))
        give(g, 0, "crowbar", "grog")
        give(g, 1, "crowbar", "toolbox")
        act(g, "play crowbar", "attack 1")
        assert kind_of(g) == "defend"
        out.append(g)
    return out


POSITIONS = random_positions(2500, 11) + defend_positions()


def test_positions_cover_every_kind_of_decision() -> None:
    kinds = Counter(kind_of(g) for g in POSITIONS)
    for kind in ("move", "opened", "after_action", "extra_move", "discard", "keep", "give",
                 "spread", "block", "defend"):
        assert kinds[kind] > 0, (kind, kinds)
    assert {g.config.players for g in POSITIONS} == set(range(1, 9))
    assert any(g.config.has("mad-gnomes") for g in POSITIONS)


def test_heuristic_always_legal() -> None:
    for i, g in enumerate(POSITIONS):
        bot = HeuristicBot(i, strict=True)  # strict: an internal error fails the test
        assert bot.choose(g) in g.legal_actions(), kind_of(g)


def test_random_bot_always_legal() -> None:
    bot = RandomBot(3)
    for g in POSITIONS[:500]:
        assert bot.choose(g) in g.legal_actions()


def test_random_bot_draws_as_random_choice_does() -> None:
    bot, reference = RandomBot(5), random.Random(5)
    for g in POSITIONS[:500]:
        assert bot.choose(g) == reference.choice(g.legal_actions())


def test_search_always_legal() -> None:
    """A tiny budget (one determinisation) on positions with real choices."""
    chosen = [g for g in POSITIONS if kind_of(g) in ("move", "spread", "block", "keep", "discard")]
    rnd = random.Random(5)
    sample = rnd.sample(chosen, 120) + [g for g in POSITIONS if kind_of(g) in
                                         ("defend", "give", "extra_move")][:60]
    for i, g in enumerate(sample):
        bot = SearchBot(i, "fast", iterations=1)
        a = bot.choose(g)
        assert a in g.legal_actions(), kind_of(g)
        # following its plan for the rest of the turn stays legal too
        twin = g.copy()
        for _ in range(12):
            if twin.is_over or twin.player_to_move != g.player_to_move:
                break
            twin.apply(a)
            if twin.is_over:
                break
            a = bot.choose(twin)
            assert a in twin.legal_actions()


def test_time_budget_search_is_legal_and_bounded() -> None:
    import time

    moves = [g for g in POSITIONS if kind_of(g) == "move"][:5]
    bot = make_bot("search:ms=40", 1)
    for g in moves:  # CPU time: other programs on a loaded machine do not count
        t = time.process_time()
        assert bot.choose(g) in g.legal_actions()
        assert time.process_time() - t < 2.0


def play(config: Config, names: list[str], seed: int = 0, limit: int = 50_000) -> Game:
    g = new_game(config)
    bots = [make_bot(names[p % len(names)], seed * 100 + p) for p in range(config.players)]
    steps = 0
    while not g.is_over:
        g.apply(bots[g.player_to_move].choose(g))
        steps += 1
        assert steps < limit, "the game did not end"
    return g


@pytest.mark.parametrize("players", [1, 2, 3, 5, 8])
def test_heuristic_games_end(players: int) -> None:
    rnd = random.Random(players)
    for _ in range(4):
        variants = frozenset(v for v in VARIANTS if rnd.random() < 0.4)
        g = new_game(Config(players=players, variants=variants, seed=rnd.randrange(1 << 30)))
        bots = [HeuristicBot(p, strict=True) for p in range(players)]
        steps = 0
        while not g.is_over:
            g.apply(bots[g.player_to_move].choose(g))
            steps += 1
            assert steps < 20_000
        assert g.result is not None


def test_play_out_lets_each_seat_s_bot_play_the_game_to_its_end() -> None:
    g = new_game(Config(players=3, seed=21))
    seats: list[int] = []

    class Recording:  # a compiled RandomBot cannot be subclassed here: wrap one
        name = "recording"

        def __init__(self, seat: int) -> None:
            self.seat = seat
            self.bot = RandomBot(seat)

        def choose(self, game: Game) -> Action:
            assert game.player_to_move == self.seat
            seats.append(self.seat)
            return self.bot.choose(game)

    assert play_out(g, [Recording(p) for p in range(3)]) is g
    assert g.result is not None and len(seats) == len(g.history)
    assert set(seats) == {0, 1, 2}


def test_bot_games_are_reproducible() -> None:
    config = Config(players=4, variants=frozenset({"mad-gnomes"}), seed=77)
    first = play(config, ["heuristic"], seed=3)
    again = play(config, ["heuristic"], seed=3)
    assert first.history == again.history
    config = Config(players=3, variants=frozenset({"hardest"}), seed=5)
    names = ["search:it=1", "heuristic", "random"]
    first = play(config, names, seed=4)
    again = play(config, names, seed=4)
    assert first.history == again.history


def test_no_bot_reads_hidden_information() -> None:
    """Two games that differ only in what the deciding seat cannot see (deck order, dice, other
    seats' hands in Mad Gnomes) get the same choice."""
    checked = 0
    for i, g in enumerate(POSITIONS[::6]):
        player = g.player_to_move
        a, b = determinize(g, player, 1000 + i), determinize(g, player, 2000 + i)
        assert a.legal_actions() == b.legal_actions()
        assert HeuristicBot(i, strict=True).choose(a) == HeuristicBot(i, strict=True).choose(b)
        assert decide(public_twin(a, player, 1), player) == decide(public_twin(b, player, 1),
                                                                   player)
        if i % 5 == 0:
            assert SearchBot(i, "fast", iterations=1).choose(a) == \
                SearchBot(i, "fast", iterations=1).choose(b)
        checked += 1
    assert checked >= 400


def test_public_twin_hides_what_it_must() -> None:
    g = new_game(Config(players=4, variants=frozenset({"mad-gnomes"}), seed=8))
    t = public_twin(g, 0, 1)
    assert t.gnomes[0].hand == g.gnomes[0].hand
    assert sorted(t.event_deck) == sorted(g.event_deck)
    pool = sorted(t.item_deck + [k for gn in t.gnomes[1:] for k in gn.hand])
    assert pool == sorted(g.item_deck + [k for gn in g.gnomes[1:] for k in gn.hand])
    assert [len(gn.hand) for gn in t.gnomes] == [len(gn.hand) for gn in g.gnomes]


def test_heuristic_beats_random() -> None:
    wins = {"heuristic": 0, "random": 0}
    minutes = {"heuristic": 0, "random": 0}
    for seed in range(100):
        for name in wins:
            g = play(Config(players=3, seed=900 + seed), [name], seed=seed)
            wins[name] += bool(g.result and g.result.won)
            minutes[name] += 60 - min(gn.keeper for gn in g.gnomes)
    assert wins["heuristic"] >= 25 and wins["heuristic"] >= 5 * max(1, wins["random"])
    assert minutes["heuristic"] > 1.1 * minutes["random"]


def test_registry() -> None:
    assert {"random", "heuristic", "search", "search:fast", "search:strong"} <= set(BOTS)
    for name in BOTS:
        assert make_bot(name, 1).name == name
    assert known_bot("search:it=3") and known_bot("search:ms=200")
    assert not known_bot("search:slow") and not known_bot("nobody")
    with pytest.raises(ValueError):
        make_bot("search:it=0")


def test_parse_bots_accepts_levels() -> None:
    from rednovember.i18n import catalog
    from rednovember.terminal.newgame import parse_bots

    assert parse_bots(["2=search:fast", "3=heuristic"], 3, catalog()) == {1: "search:fast",
                                                                           2: "heuristic"}


def test_evaluate_scores_results_and_threats() -> None:
    g = new_game(Config(players=4, seed=2))
    calm = evaluate(g, 0)
    assert 0 < calm <= 1.05
    worse = g.copy()
    worse.tracks = [8, 8, 8]
    assert evaluate(worse, 0) < calm
    token = g.copy()
    token.tokens[2] = max(gn.keeper for gn in g.gnomes) - 1
    assert evaluate(token, 0) < calm


def test_R15_route_planner_never_opens_from_low_water_into_high_water() -> None:
    g = arrange()
    g.water[6], g.water[5] = LOW, HIGH  # room 6 reaches the rest of the sub only through 5
    give(g, 0, "aqualung")
    start(g)
    best = routes(g, 0, 6, g.ghost, -1, -1, g.gnomes[0].hand)
    firsts = {next(a for a in steps if a.kind == "open") for _, steps, _ in best.values() if steps
              and any(a.kind == "open" for a in steps)}
    assert firsts == {Action("open", 0)}  # out through the Sea, never the hatch to room 5
    for name in ("heuristic", "search:fast"):
        twin = g.copy()
        bot = make_bot(name, 3)
        while twin.active == 0 and twin.result is None:
            action = bot.choose(twin)
            assert action in twin.legal_actions()
            twin.apply(action)


def _board(data: st.DataObject) -> Game:
    g = new_game(Config(players=4, seed=data.draw(st.integers(0, 99))))
    for r in g.data.rooms:
        g.water[r] = data.draw(st.sampled_from([0, LOW, HIGH]))
        g.fire[r] = data.draw(st.booleans())
    for h in range(len(g.blocked)):
        g.blocked[h] = data.draw(st.booleans())
    return g


def _walk_minutes(g: Game, fire_ok: bool) -> list[list[int]]:
    """Walking minutes between rooms by repeated relaxation (slow, plainly right): a step
    through an open hatch costs 1, 2 into low water; high water, the Sea and (unless
    ``fire_ok``) a burning room cannot be entered; 99 is no way."""
    n = len(g.water)
    d = [[0 if a == b and a != SEA else 99 for b in range(n)] for a in range(n)]
    changed = True
    while changed:
        changed = False
        for a in range(n):
            for x in range(n):
                if SEA in (a, x):
                    continue
                for h, b in g.data.exits[x]:
                    if (b == SEA or g.blocked[h] or g.water[b] == HIGH
                            or (g.fire[b] and not fire_ok)):
                        continue
                    step = d[a][x] + (2 if g.water[b] == LOW else 1)
                    if step < d[a][b]:
                        d[a][b], changed = step, True
    return d


@settings(max_examples=200, deadline=None)
@given(st.data())
def test_the_heuristic_s_walking_distances_are_the_shortest_ways(data: st.DataObject) -> None:
    g = _board(data)
    fire_ok = data.draw(st.booleans())
    assert room_distances(g, fire_ok) == _walk_minutes(g, fire_ok)


@settings(max_examples=300, deadline=None)
@given(st.data())
def test_distances_with_a_hatch_valued_open_match_the_board_with_it_unblocked(
        data: st.DataObject) -> None:
    """The heuristic values unblocking a hatch by the distances with it open, worked out from
    the distances without it; they must equal a search of the board with the hatch unblocked
    (R15's water and the fires included)."""
    g = _board(data)
    fire_ok = data.draw(st.booleans())
    for h in [h for h in range(len(g.blocked)) if g.blocked[h]]:
        valued = room_distances(g, fire_ok, opened=h)
        g.blocked[h] = False
        assert valued == room_distances(g, fire_ok), g.data.hatches[h]
        g.blocked[h] = True
