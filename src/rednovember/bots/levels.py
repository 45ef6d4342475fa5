"""The search bot's strength levels (:class:`SearchLevel`, :data:`LEVELS`): the offered ones
(``search:fast``, ``search``, ``search:strong``: the table in :mod:`rednovember.bots.search`) and
the ones kept for the benchmark only.

``search:ready`` is ``search`` counting 0.7 (not 0.3) of the crew's failure at a coming token as a
lost game in the leaf; ``search:guard`` adds the best plans ending in and next to Missile Control to
the candidates while its card likely comes (:func:`rednovember.bots.search.guarded`);
``search:long`` rolls out 14 minutes a gnome at 4 players (11 at 5, 9 at 6; ``crew_minutes`` 56).
All three were measured at stop 29 of issue 21 and won what ``search`` won (bots.md);
``search:ready`` at 5 and 8 players too (stop 39: 155 of 350 deals against 141 at 5, 83 of 200 fresh
ones against 86; 52 of 150 against 52 at 8). ``search:strata`` (stop 30) spreads the first dice and
the event deck's order evenly over its determinisations (:mod:`rednovember.bots.strata`): 134 of 216
fresh 4-player deals against the default's 149. ``search:lean`` (stop 31) weighs the heuristic's
value gap less (``prior`` 0.1, not 0.3): 69 of 100 fresh 4-player deals against the default's 68.
``search:spend`` (stop 32) values the items in hand at 0.6 of the default's (``item_scale``, as the
heuristic bot's tuned weights do), since where the search parts from the heuristic's ranking it
mostly plays items the heuristic keeps and draws fewer cards (``bench/distill.py``): 66 of the same
100 deals against the default's 68. ``search:shades`` (stop 34) also tries the two best repair plans
with 2 and 4 minutes less (:func:`rednovember.bots.search.shaded`; the heuristic offers a repair's
edge minutes only): 65 of the same 100 against 68. ``search:brace`` is ``search:shades`` with
``search:ready``'s leaf: 141 of 200 (600–799) against 139.

``search:fitted`` (stop 36) is the default with a leaf fitted to how the search's own games end
(``SearchLevel.leaf``, ``bench/fit_leaf.py``): the logistic of
:func:`rednovember.bots.leaf.evaluate`'s factors, the log of each kind weighed by its own
coefficient. On held-out deals it predicts the outcome better than the plain product (Brier 0.167
against 0.174), yet plays no better: 74 of 115 fresh 4-player deals against the default's 80, with
more losses to tokens already on the track (bench/results/bots.md). ``search:floored`` (stop 37) is
fitted with the tracks' short-term danger and the tokens on the track held at a coefficient of 1 or
more: 83 of 139 against 99, no better, since the logistic flattens where the fitted leaves sit
(about 0.75, where the product sits at 0.33), so every term counts for a quarter or less of what it
counts in the product against a game lost within the rollout. ``search:sharp`` and ``search:soft``
raise the product to 1.5 and to 0.67 (``SearchLevel.leaf_power``), to weigh the position more or
less against such a loss: 124 and 127 of 200 fresh 4-player deals against the default's 139, so the
plain product's balance is the best of the three (bots.md). ``search:jitter`` and ``search:shake``
(stop 38) let the rollouts' heuristic draw each turn's plan among its three best, a plan ``d`` below
the best weighed ``exp(-d / T)`` (``SearchLevel.rollout_temperature`` T of 1.5 and 4; the draw is
fixed by the position, :func:`rednovember.bots.rollout.position_unit`), so that a candidate is
judged over a spread of reasonable continuations rather than the heuristic's one: 127 of 200 fresh
4-player deals against the default's 139 and 133 of 200 (both lost more to Crushed!), so the
heuristic's one continuation judges the candidates as well as a spread of them (bots.md).
``search:varied`` (stop 41) takes at most two plans per task
(:func:`rednovember.bots.search.varied`), so that its candidates reach more different jobs: 51 of 75
fresh 4-player deals against the default's 51. ``search:reach`` (stop 41) rolls out 10 minutes a
gnome at every crew size (6 at 8 players in the default) on half the determinisations: at 8 players
121 of 355 deals against the default's 107 (p 0.28), fewer Missile Launch! losses and more of the
others (bots.md).
``search:valued`` (stop 56) judges a rollout's end with a leaf learned from 65 public features
(:mod:`rednovember.bots.value`), fitted to 40,000 games of the rollouts' own crew
(``bench/fit_value.py``): it predicts that crew's outcomes much better than the product (held out,
Brier 0.194 against 0.222) and won 286 of 400 four-player deals the default had played against its
278 (p 0.57: not shown stronger; bots.md). ``search:valued5`` and ``search:valued8`` (stop 57) are
the same leaf fitted to five- and eight-player games of that crew, for those crew sizes: at 5
players 163 of 350 deals against the default's 141 (sign p 0.09; +2.0 points without the first 94
deals, where the default had lost more than its share); at 8 players 144 of 315 against 99 (sign p
0.0003), so the default has judged eight gnomes' rollouts with it since (``crew_value``); at 5
players, on 200 fresh deals (stop 58), 106 against 73 (sign p 0.001), and the default has
judged five gnomes' rollouts with it since too. ``search:valued6`` and ``search:valued7``
(stop 58) led by 7-8 points on the 100 deals of the 6- and 7-player cells, not shown (p 0.28 and
0.32); on 100 fresh 6-player deals ``search:valued6`` and the default won 27 each, and on 100
fresh 7-player deals (stop 59) ``search:valued7`` 29 against 26 (p 0.76). ``search:valstrong``
(stop 60) is ``search:strong`` with the learned leaf at four players too: 63 of 100 fresh
4-player deals against ``search:deep``'s 67 (p 0.65), and ``search:strong`` itself at 5 players
won 46 of 100 deals against the default's 48 (p 0.89): a larger budget buys nothing with either leaf.
``search:short4`` and ``search:short5`` (stop 62) roll out 7 and 6 minutes a gnome at 4 and 5
players (not 10) with the learned leaf of that crew size and more determinisations, at about the
default's time, to leave more to the leaf and less to the rollouts' noise: 69 of 100 fresh
4-player deals against ``search:deep``'s 67, and 88 of 200 5-player deals against the default's 91
(bots.md).

The default guards Missile Control in Hardest only (``SearchLevel.guard``, stop 52): on
all 600 Hardest deals the default had played, ``search:guard`` won 304 against its 296 (not shown
stronger: sign p 0.31), and it plays as before elsewhere; ``search:deep`` and ``search:deeper`` keep
the default and ``search:strong`` of stops 28–51 (the same outside Hardest).

``search:tokens`` is ``search:v4`` weighing the tokens likely next in every variant (``search:v4``
weighs them in Hardest only). ``search:tuned`` is ``search:v4`` with the heuristic bot's own tuned
weights (:data:`rednovember.bots.planning.HEURISTIC_WEIGHTS`; the others keep
``DEFAULT_WEIGHTS``). ``search:wide`` is ``search:v4`` with the heuristic's 12 best plans as
candidates instead of 8. ``search:double`` is ``search:v4`` with twice the determinisations:
``search:strong`` until stop 27 of issue 21 (it won what ``search:v4`` won). ``search:deep`` and
``search:deeper`` are the names ``search`` and ``search:strong`` were measured under.

``search:v1`` to ``search:v4``, ``search:tokens``, ``search:tuned``, ``search:wide``,
``search:double``, ``search:deep``, ``search:deeper``, ``search:ready``, ``search:guard``,
``search:long``, ``search:strata``, ``search:lean``, ``search:spend``, ``search:shades``,
``search:brace``, ``search:fitted``, ``search:floored``, ``search:sharp``, ``search:soft``,
``search:jitter``, ``search:shake``, ``search:varied``, ``search:reach``, ``search:valued``,
``search:valued5``, ``search:valued6``, ``search:valued7``, ``search:valued8``,
``search:valstrong``, ``search:short4``, ``search:short5`` and ``search:strong61`` are kept for
the benchmark only (not in :data:`rednovember.bots.base.BOTS`), so the comparisons in
bench/results/bots.md stay reproducible.
"""

from __future__ import annotations

from dataclasses import dataclass, replace

from .planning import DEFAULT_WEIGHTS, HEURISTIC_WEIGHTS, Weights


@dataclass(frozen=True)
class SearchLevel:
    """How hard the search looks: candidates, determinisations, rollout horizon (minutes)."""

    k: int
    n: int
    horizon: int
    gap: float = 12.0  # skip the search when the heuristic's best leads the next by this much
    prior: float = 0.0  # weight of the heuristic's own value gap (per lost game) in the score
    # sequential halving: determinisations added per round to every candidate still in; after
    # each round but the last the worse half is dropped (never below two). Empty: ``n`` each.
    rounds: tuple[int, ...] = ()
    weights: Weights | None = None  # the level's own weights (None: the bot's)
    # the variants in which the search prepares for the destruction tokens still in the event
    # deck (the weights' token_soon and token_prepare); elsewhere they are 0. None: everywhere.
    token_variants: frozenset[str] | None = None
    # scale the horizon down with the crew: the rollout covers about this many gnome-minutes
    # (never under 6 minutes a gnome). 0: ``horizon`` at every crew size.
    crew_minutes: int = 0
    # the variants in which, while a Missile Launch! card may come (or its token is on the
    # track), the search also puts the best plans ending in Missile Control and next to it among
    # the candidates (even below the k best). Empty: nowhere; None: everywhere.
    guard: frozenset[str] | None = frozenset()
    # spread the first dice and the event deck's order evenly over the determinisations
    # (:mod:`rednovember.bots.strata`: systematic sampling, each twin alone drawn as before)
    strata: bool = False
    # the heuristic's plans end a repair at the edges only (the minutes that make it certain, or
    # all it has, or 1: its value is linear in the minutes); the search also tries the first
    # ``shade_plans`` repair plans with each of ``fewer`` minutes less (at least WASTE_CHANCE)
    fewer: tuple[int, ...] = ()
    shade_plans: int = 2
    # the leaf's coefficients (an intercept, then one per term of LEAF_TERMS): the logistic of
    # the weighted log-factors of evaluate, fitted to outcomes (bench/fit_leaf.py). Empty: the
    # plain product.
    leaf: tuple[float, ...] = ()
    # the plain product raised to this power: above 1 a worse position counts for more against
    # a lost game within the rollout (a loss costs the leaf's value, a position's difference
    # costs power times its relative size), below 1 for less
    leaf_power: float = 1.0
    # the rollouts' heuristic draws each turn's plan among its best few, the worse ones the
    # less likely the further below the best (Follower): 0, always the best
    rollout_temperature: float = 0.0
    # at most this many candidates share one task (the action's room, kind and object): the
    # heuristic's best plans often reach one task by several routes or with other items, and the
    # search then meets fewer different tasks than ``k``. 0: no cap
    per_task: int = 0
    # a learned leaf (value.valued): an intercept, then a coefficient per feature of
    # value.VALUE_FEATURES, fitted to the rollouts' crew's games (bench/fit_value.py). Empty: the
    # plain leaf (or ``leaf``'s)
    value: tuple[float, ...] = ()
    # a learned leaf for a crew of so many gnomes, in ``value``'s place there: (gnomes,
    # coefficients) pairs (value_for)
    crew_value: tuple[tuple[int, tuple[float, ...]], ...] = ()
    # from a crew of so many gnomes on, this many candidates and these rounds instead: (gnomes,
    # k, rounds). A gnome more makes every rollout dearer, so a wide level searches there as
    # the default does, to keep every decision under 2 s (for_crew). None: ``k`` and ``rounds``
    # at every crew size.
    crew_budget: tuple[int, int, tuple[int, ...]] | None = None

    def for_crew(self, gnomes: int) -> SearchLevel:
        """The level as it searches with ``gnomes`` gnomes in the game (``crew_budget``)."""
        if self.crew_budget is None or gnomes < self.crew_budget[0]:
            return self
        _, k, rounds = self.crew_budget
        return replace(self, k=k, rounds=rounds, crew_budget=None)

    def value_for(self, gnomes: int) -> tuple[float, ...]:
        """The learned leaf's coefficients with ``gnomes`` gnomes (empty: the plain leaf)."""
        for n, coef in self.crew_value:
            if n == gnomes:
                return coef
        return self.value

    def horizon_for(self, gnomes: int) -> int:
        """The rollout horizon (minutes each gnome moves) with ``gnomes`` gnomes in the game."""
        if not self.crew_minutes:
            return self.horizon
        return min(self.horizon, max(6, self.crew_minutes // max(1, gnomes)))

    def rollouts(self, candidates: int) -> int:
        """How many rollouts one searched decision with ``candidates`` candidates costs."""
        if not self.rounds:
            return self.n * candidates
        total = 0
        for r, add in enumerate(self.rounds):
            total += add * candidates
            if r < len(self.rounds) - 1:
                candidates = max(2, (candidates + 1) // 2) if candidates > 2 else candidates
        return total


# search:v4, the default of issue 21 until stop 28: 8 candidates, sequential halving (8 x 6
# determinisations, the best 4 get 13 more, the best 2 another 26: at most 152 rollouts).
# The horizon is 10 minutes up to 5 gnomes, 8 at 6, 7 at 7 and 6 at 8 (50 gnome-minutes): with 8
# gnomes a 10-minute rollout is twice as long as with 4, and a decision took up to 3.7 s. At 8
# players it won 11 of 31 paired deals against 8 (not significant; bench/results/bots.md); a
# shorter horizon at 4 players won less.
# The tokens likely next are weighed in Hardest only: there, on 60 paired deals, it won 33 with
# them against 21 without (p = 0.04).
_V4 = SearchLevel(8, 0, 10, gap=15.0, prior=0.3, rounds=(6, 13, 26), crew_minutes=50,
                  token_variants=frozenset({"hardest"}))

# search:double: v4 with twice the determinisations (304 rollouts at most); search:strong until
# stop 27, no stronger than v4 (bots.md), kept for the bench
_DOUBLE = replace(_V4, rounds=tuple(2 * r for r in _V4.rounds))

# The default since stop 28 of issue 21 (search:strong at stop 27, measured as search:deep): the
# tokens likely next weighed in every variant, the heuristic's 12 best plans and twice the
# determinisations (12, 26, 52: at most 456 rollouts). Each change alone won 2-15 more of 400
# fresh 4-player deals than v4 (none significant); together they won 275 against 235 (p = 0.002),
# more at 3, 5 and 8 players, and more in every variant on fresh deals, at about three times the
# time (bots.md).
_DEFAULT = replace(_DOUBLE, k=12, token_variants=None)

# search:strong since stop 28: the default with 16 plans and a quarter more determinisations
# (15, 33, 65: at most 764 rollouts, about 1.7 times the default's time). Measured no stronger:
# 135 of 200 fresh 4-player deals against the default's 139 (p = 0.71, bots.md); kept as the
# offered slower level (a seat saved as search:strong still loads) until a stronger one is found.
_STRONG = replace(_DEFAULT, k=16, rounds=(15, 33, 65))

# The default since stop 52 of issue 21: the default of stops 28-51 (search:deep) guarding
# Missile Control in Hardest (guard), where the Missile Launch! token is the largest
# loss: on Hardest deals 0-599 it won 304 (50.7%) against search:deep's 296 (49.3%), 28 deals
# alone against 20 (sign p 0.31: not shown stronger, no loss cause worse by more than 3), at
# about the default's time (bots.md); search:strong likewise. On the standard rules guarding won
# 67 of 100 deals against 67, so elsewhere it stays off and the default plays as before.
_HARDEST_GUARD = frozenset({"hardest"})
_GUARDED = replace(_DEFAULT, guard=_HARDEST_GUARD)

# search:fitted's leaf: an intercept, then a coefficient per term of LEAF_TERMS (track_soon,
# track_level, token_on, token_coming, events, fires, blocked, water, dead, items)
FITTED_LEAF = (2.581, 0.239, 1.675, 0.111, 2.880, 1.615, 0.000, 0.974, 1.691, 3.046, 2.951)

# search:floored's leaf: fitted to the same games with the tracks against the coming events and
# the tokens on the track held at the product's weight of 1 or more (fit_leaf.py fit --floor
# track_soon=1 --floor token_on=1): the search's crew nearly always removes a placed token, so
# an unconstrained fit learns that a token on the track hardly matters (bench/results/bots.md)
FLOORED_LEAF = (3.550, 1.000, 1.320, 1.000, 3.783, 2.487, 0.000, 1.458, 0.684, 4.026, 2.189)

# search:valued's leaf (stop 56): an intercept, then a coefficient per feature of
# value.VALUE_FEATURES, fitted to 40,000 games of the rollouts' crew (bench/fit_value.py: deals
# 100000-139999, 4 players; held out, Brier 0.194 against the plain leaf's 0.222)
VALUED = (
    4.93534, 0.284437, 0.226952, 0.0995515, 2.04616, 1.78651, -1.03089, -367.055, 0.516035,
    -0.0269672, 10.0369, -0.0284837, -0.0250673, -0.102927, -0.00835442, -0.0768293,
    -0.000709162, -5.73824, 0.273402, -1.0057, -1.21649, 0.0747349, -0.646827, -2.16668,
    0.110617, -1.28002, -1.08265, 0.0651022, -0.38441, -0.0548761, -0.161015, -0.00140396,
    -0.020462, -0.124348, 0.000360132, -0.172262, -0.0991676, -0.00213322, 0.171849, -0.106436,
    -0.00056371, -0.107433, -0.0874476, -0.0435516, -2.34959, -0.0141688, 0.0105782, -0.0303156,
    -0.0221395, -0.0528225, -0.0314265, -0.049809, -0.0469588, -0.0287181, -0.0128962,
    -0.017801, 0.170372, -0.0162834, -0.0053789, -0.0123875, -0.0269015, -0.0490101, -0.0215234,
    0.188714, 0.0, 0.0490101,
)

# search:valued5's leaf: the same features fitted to 40,000 five-player games of the rollouts'
# crew (bench/fit_value.py collect --players 5: deals 100000-139999; held out, Brier 0.131
# against the plain leaf's 0.157)
VALUED_5 = (
    4.90872, 0.349756, 0.506833, 0.0948534, 1.14767, 2.41189, -1.61078, -498.009, -72.5678,
    -0.195916, 4.62211, -0.0104353, 0.000199459, -0.0752463, 0.0163387, -0.0713389, 0.0175917,
    -4.67353, 0.215237, 0.469725, -0.933662, 0.0578111, -0.111315, -1.88889, 0.0990958, -0.594097,
    -0.743457, 0.0469601, -0.0161282, -0.0261104, -0.14225, -0.00194625, -0.0666815, -0.199852,
    0.000791325, -0.172184, -0.144468, -0.00295823, 0.0675761, -0.103451, -0.00110224, -0.120179,
    -0.525451, -1.56493, -3.19871, 0.00876087, 0.00907921, 0.00412491, -0.0113369, -0.0459272,
    -0.0300658, -0.0234067, -0.0164759, -0.000562051, 0.00809225, -0.0122279, 0.219183, -0.0219882,
    -0.0109796, -0.000111584, -0.0361517, -0.05154, -0.0180205, 0.182217, 0.0, 0.05154,
)

# search:valued6's leaf: the same features fitted to 20,000 six-player games of the rollouts'
# crew (bench/fit_value.py collect --players 6 --games 20000: deals 100000-119999; held out,
# Brier 0.0770 against the plain leaf's 0.0972)
VALUED_6 = (
    4.74812, 0.316687, 0.447829, 0.0901535, 1.13381, 2.36017, -1.71102, -361.293, -79.9992,
    -0.0573175, 14.0101, -0.0278993, 0.0020566, -0.0821891, 0.0178445, -0.0647883, 0.0168529,
    -4.97054, 0.228716, 0.257722, -1.17015, 0.0748997, -0.0437472, -1.97624, 0.10428, -0.466701,
    -0.835296, 0.0511743, -0.0838337, -0.100443, -0.284354, -0.00153422, 0.0293871, -0.214365,
    0.000165838, -0.267766, -0.293802, -0.00229013, 0.027747, -0.206454, -0.0013625, -0.0935591,
    -0.502849, -1.65311, -2.3599, -0.000435446, -0.0193862, -0.0350276, -0.0220886, -0.0425338,
    -0.00904753, -0.0662792, -0.0513205, -0.0731767, -0.00078909, -0.0578935, 0.171241, -0.0216968,
    -0.0306541, 0.019902, -0.0356327, -0.00952436, -0.00203753, 0.238758, 0.0, 0.00952436,
)

# search:valued7's leaf: the same features fitted to 20,000 seven-player games of the rollouts'
# crew (bench/fit_value.py collect --players 7 --games 20000: deals 100000-119999; held out,
# Brier 0.0756 against the plain leaf's 0.0955)
VALUED_7 = (
    5.03489, 0.261166, 0.067506, 0.0853664, 1.04749, 2.30572, -1.17837, -309.738, -74.9892,
    0.0686136, -1.60948, -0.0295559, 0.000332912, -0.0814049, 0.0138355, -0.0707002, 0.011497,
    -5.01693, 0.212541, 0.0478056, -1.22434, 0.0812274, 0.00177034, -2.0951, 0.113693, -0.404868,
    -1.03217, 0.0571775, -0.112324, -0.0374582, -0.176315, -0.00236089, -0.112003, -0.229144,
    0.00141382, -0.28567, -0.230547, -0.00418794, 0.0339131, -0.151591, -0.00115784, -0.0514292,
    -0.501521, -1.61337, -2.03317, 0.0367884, 0.0393365, 0.0419449, 0.0299655, -0.000498123,
    -0.00894482, 0.00587356, -0.0031883, -0.00362724, 0.0326913, -0.0274045, 0.258583, 0.034038,
    -0.0359925, 0.0242586, -0.0347799, -0.0303892, -0.0292292, 0.179061, 0.0, 0.0303892,
)

# search:valued8's leaf: the same features fitted to 30,000 eight-player games of the rollouts'
# crew (bench/fit_value.py collect --players 8 --games 30000: deals 100000-129999; held out,
# Brier 0.0979 against the plain leaf's 0.1266)
VALUED_8 = (
    5.61723, 0.192376, 0.424854, 0.0755754, 1.04992, 2.34923, 0.0957736, -246.824, -23.6187,
    0.0677882, 2.07303, -0.0127594, 0.0087194, -0.102863, 0.00618787, -0.0761164, 0.00980647,
    -5.93441, 0.267919, 0.186966, -1.18391, 0.0711559, -0.069631, -2.287, 0.119154, -0.464873,
    -1.0953, 0.0627859, -0.124061, 0.0687719, -0.20682, -0.00188352, 0.0468412, -0.221865,
    0.000271685, -0.225991, -0.165744, -0.00339155, 0.174343, -0.267194, -0.000278955, -0.0716369,
    -0.202124, -0.552416, -1.65282, 0.000258793, 0.0357619, 0.00408692, -0.0100369, -0.0112159,
    -0.0252148, -0.00306267, -0.00138256, -0.0291548, 0.0187942, 0.0165862, 0.207543, 0.0347079,
    -0.0309327, 0.0164289, -0.03552, -0.0359699, -0.0228281, 0.237577, 0.0, 0.0359699,
)

# The default since stop 57 of issue 21 judges a rollout's end with eight gnomes by the leaf
# learned from eight-player games (search:valued8): with eight gnomes a rollout gives each about
# one turn (crew_minutes), so the leaf decides more. On 8-player deals 200-514 it won 144 of 315
# against search:deep's 99 (97 deals alone against 52, sign p 0.0003; bots.md). Since stop 58
# likewise with five gnomes (search:valued5): on fresh 5-player deals 350-549 it won 106 of 200
# against search:deep's 73 (68 deals alone against 35, sign p 0.001), after 163 of 350 against
# 141 on deals 0-349, and on deals 550-749 (stop 59) 100 against 87 (p 0.22): over all 750, 212
# deals alone against 144 (p 0.0004). search:strong likewise (not measured). Other crew sizes
# keep the plain product.
_CREW_VALUES = ((5, VALUED_5), (8, VALUED_8))

# search:strong until stop 61 of issue 21: 16 plans and rounds of 15, 33, 65 at every crew size.
# At 8 players (deals 200-299) it won 41 against the default's 47 (p 0.44) and one decision took
# 2.05 s with both cores busy; at 5 players 46 of 100 against 48, 1.56 s at worst (bots.md).
_STRONG_61 = replace(_STRONG, guard=_HARDEST_GUARD, crew_value=_CREW_VALUES)

LEVELS: dict[str, SearchLevel] = {
    "fast": SearchLevel(3, 6, 6),
    "default": replace(_GUARDED, crew_value=_CREW_VALUES),
    # since stop 62: from six gnomes on it searches (and so plays) as the default does, which was
    # no weaker at 8 players and stays under the default's 1.2 s a decision there
    "strong": replace(_STRONG_61, crew_budget=(6, _DEFAULT.k, _DEFAULT.rounds)),
    # bench only, not offered: the search of before issue 10, and the first default of issue 10
    "v1": SearchLevel(4, 10, 8),
    "v2": SearchLevel(5, 20, 10, gap=15.0, prior=0.3),
    # the default before issue 21, blind to the destruction tokens still in the event deck
    "v3": replace(_V4, crew_minutes=0,
                  weights=replace(DEFAULT_WEIGHTS, token_soon=0.0, token_prepare=0.0)),
    "v4": _V4,  # the default until stop 28 of issue 21
    # bench only: v4 weighing the tokens likely next in every variant (measured in bots.md)
    "tokens": replace(_V4, token_variants=None),
    # bench only: v4 with the heuristic bot's tuned weights (no stronger: bots.md)
    "tuned": replace(_V4, weights=HEURISTIC_WEIGHTS),
    # bench only: v4 with the heuristic's 12 best plans as candidates, not 8 (no stronger: bots.md)
    "wide": replace(_V4, k=12),
    "double": _DOUBLE,  # bench only
    # bench only (stop 29): the default counting more of a coming token the crew could not stop
    # (the leaf's token_prepare 0.7, not 0.3): fewer Missile Launch! losses, more to the others,
    # 279 of 400 fresh 4-player deals against 275; at 5 and 8 players (stop 39) 155 of 350
    # against 141 and 52 of 150 against 52 (bots.md)
    "ready": replace(_DEFAULT, weights=replace(DEFAULT_WEIGHTS, token_prepare=0.7)),
    # bench only (stop 29): search:deep guarding Missile Control everywhere (see guarded); it
    # seldom changes a choice (the search rarely picks the added plans): 6 of 100 standard deals
    # ended otherwise. In Hardest (stops 50-52) it won 304 of 600 deals against 296: the
    # default's guard
    "guard": replace(_DEFAULT, guard=None),
    # bench only (stop 29): the default with longer rollouts (14 minutes a gnome at 4 players):
    # 70 of 113 fresh 4-player deals against the default's 74, at 1.4 times the time
    "long": replace(_DEFAULT, horizon=14, crew_minutes=56),
    # bench only (stop 30): the default with its determinisations spread evenly (strata.py):
    # 134 of 216 fresh 4-player deals against the default's 149 (bots.md)
    "strata": replace(_DEFAULT, strata=True),
    # bench only (stop 31): the default leaning less on the heuristic's own ranking (prior 0.1,
    # not 0.3): with 90 determinisations for the last two, the prior decides a quarter of its
    # searched turns, where the rollout means differ by less than the prior's spread: 69 of 100
    # fresh 4-player deals against the default's 68 (bots.md)
    "lean": replace(_DEFAULT, prior=0.1),
    # bench only (stop 32): the default valuing the items in hand less (item_scale 0.6, as the
    # heuristic bot's tuned weights do): the search's own choices play the items the heuristic
    # keeps and draw fewer cards than its four (bench/distill.py): 66 of 100 fresh 4-player
    # deals against the default's 68 (bots.md)
    "spend": replace(_DEFAULT, weights=replace(DEFAULT_WEIGHTS, item_scale=0.6)),
    # bench only (stop 34): the default also trying its two best repair plans with 2 and 4
    # minutes less (shaded): the heuristic only ever offers a repair's edge minutes
    "shades": replace(_DEFAULT, fewer=(2, 4)),
    # bench only (stop 34): shades with ready's leaf (each moved losses between Missile Launch!
    # and Heat, in opposite directions: do they add up?)
    "brace": replace(
        _DEFAULT, fewer=(2, 4), weights=replace(DEFAULT_WEIGHTS, token_prepare=0.7)
    ),
    # bench only (stop 36): the default with a leaf fitted to how the search's own games end
    # (bench/fit_leaf.py: 300 four-player games, deals 5000-5299)
    "fitted": replace(_DEFAULT, leaf=FITTED_LEAF),
    # bench only (stop 37): fitted with the short-term and placed-token terms held at 1 or more:
    # 83 of 139 fresh 4-player deals against the default's 99 (bots.md)
    "floored": replace(_DEFAULT, leaf=FLOORED_LEAF),
    # bench only (stop 37): the default's product leaf raised to 1.5 and to 0.67 (leaf_power):
    # 124 and 127 of 200 fresh 4-player deals against the default's 139 (bots.md)
    "sharp": replace(_DEFAULT, leaf_power=1.5),
    "soft": replace(_DEFAULT, leaf_power=0.67),
    # bench only (stop 38): the default with rollouts whose heuristic sometimes plays its second
    # or third best plan (temperature 1.5: a plan 1.5 below the best is drawn e^-1 as often;
    # shake: at a gap of 4): 127 and 133 of 200 fresh 4-player deals against 139 (bots.md)
    "jitter": replace(_DEFAULT, rollout_temperature=1.5),
    "shake": replace(_DEFAULT, rollout_temperature=4.0),
    # bench only (stop 41): rollouts of 10 minutes a gnome up to 8 gnomes (the default's 6 at
    # 8), on half the determinisations, so a decision costs about what the default's does: at 8
    # players 121 of 355 deals against the default's 107 (p 0.28, bots.md)
    "reach": replace(_DEFAULT, crew_minutes=80, rounds=(6, 13, 26)),
    # bench only (stop 41): the default with at most two candidates per task (varied): 51 of 75
    # fresh 4-player deals against the default's 51 (bots.md)
    "varied": replace(_DEFAULT, per_task=2),
    # bench only (stop 56): the default judging a rollout's end with the learned leaf
    # (value.valued) instead of the plain product (bots.md)
    "valued": replace(_DEFAULT, value=VALUED),
    # the learned leaf fitted to five-player games, for five players: what the default does with
    # five gnomes since stop 58 (its games, bots_valued58 and bots_valued5b, were measured under
    # this name)
    "valued5": replace(_DEFAULT, value=VALUED_5),
    # the learned leaf fitted to eight-player games, for eight players: what the default does
    # with eight gnomes since stop 57 (its games, bots_valued58, were measured under this name)
    "valued8": replace(_DEFAULT, value=VALUED_8),
    # bench only (stop 58): the learned leaf fitted to six-player games, for six players: 31 of
    # the 100 deals of the 6-player cell against the default's 23 (p 0.28), then 27 of 100 fresh
    # deals against 27 (bots.md)
    "valued6": replace(_DEFAULT, value=VALUED_6),
    # bench only (stop 58): the learned leaf fitted to seven-player games, for seven players: 29
    # of the 100 deals of the 7-player cell against the default's 22 (p 0.32), then 29 of 100
    # fresh deals against 26 (stop 59, p 0.76; bots.md)
    "valued7": replace(_DEFAULT, value=VALUED_7),
    # bench only (stop 60): search:strong judging four gnomes' rollouts with the learned leaf
    # (value.valued): 63 of 100 fresh 4-player deals against search:deep's 67 (bots.md)
    "valstrong": replace(_STRONG, guard=_HARDEST_GUARD, value=VALUED, crew_value=_CREW_VALUES),
    # the names the default and search:strong of stops 28-51 were measured under (bots_strong,
    # bots_deeper): outside Hardest they play as the default and search:strong do
    "deep": _DEFAULT,
    "deeper": _STRONG,
    # bench only (stop 62): five gnomes' rollouts of 6 minutes a gnome (crew_minutes 30, not 50)
    # judged by their learned leaf, with half again the determinisations (about the default's
    # time): with a leaf fitted to how the rollouts' crew fares, a shorter rollout leaves less to
    # the rollouts' noise and more to the leaf: 88 of the 5-player deals 750-949 against the
    # default's 91 (bots.md)
    "short5": replace(_GUARDED, crew_value=_CREW_VALUES, crew_minutes=30, rounds=(18, 39, 78)),
    # bench only (stop 62): short5's idea at four players: the learned 4-player leaf
    # (search:valued) judging rollouts of 7 minutes a gnome (crew_minutes 28), with 40% more
    # determinisations: 69 of 100 fresh 4-player deals against search:deep's 67 and
    # search:valued's 74 (bots.md)
    "short4": replace(_DEFAULT, value=VALUED, crew_minutes=28, rounds=(17, 37, 74)),
    # bench only: search:strong as it was until stop 61, wide at every crew size (the 8-player
    # games of bots_strong8 were played by it under the name search:strong)
    "strong61": _STRONG_61,
}
