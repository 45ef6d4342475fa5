"""Before a repair the web page shows where the ghost ends, what the keeper meets, and defaults to
the minutes (and items) a sensible player picks: the heuristic bot's choice."""

from __future__ import annotations

from helpers import arrange, give, start

from rednovember.bots.heuristic import decide
from rednovember.i18n.describe import keeper_walk
from rednovember.rules import Action
from rednovember.web.protocol import action_info, suggestions


def test_ghost_preview_counts_the_icons_the_keeper_will_meet() -> None:
    g = arrange()  # gnome 0 on 44; event icons every third space, item icons on the tens
    g.gnomes[0].room = 2
    g.tracks[g.data.tracks.index("asphyxiation")] = 4
    start(g)
    info = action_info(Action("fix_oxygen_pumps", 0, 5), g)
    assert info["ghost_after"] == 39
    assert info["meets"] == {"events": 2, "items": 1}  # 42 and 39; the item icon on 40
    assert keeper_walk(g, 44) == (0, 0)
    assert action_info(Action("open", 5), g)["meets"] is None  # a move is not the turn's end


def test_lucky_charms_played_are_counted_in_the_preview() -> None:
    g = arrange()
    g.gnomes[0].room = 2
    g.tracks[g.data.tracks.index("asphyxiation")] = 4
    give(g, 0, "lucky_charm")
    start(g)
    g.apply_text("play lucky_charm")
    assert action_info(Action("fix_oxygen_pumps", 0, 5), g)["meets"] == {"events": 0, "items": 1}


def test_the_suggested_minutes_and_items_are_the_heuristic_bots_choice() -> None:
    found = 0
    for seed in range(1, 30):
        g = arrange(seed=seed)
        g.gnomes[0].room = 2
        g.gnomes[0].keeper = 20
        g.gnomes[1].keeper = g.gnomes[2].keeper = 12
        g.tracks[g.data.tracks.index("asphyxiation")] = 7
        give(g, 0, "pump_manual", "toolbox")
        start(g)
        suggest = suggestions(g).get("fix_oxygen_pumps")
        played = []
        while True:  # the bot's turn until its action
            a = decide(g, 0)
            if a.kind != "play":
                break
            played.append(g.data.items[a.arg].id)
            g.apply(a)
        if a.kind != "fix_oxygen_pumps":
            continue
        found += 1
        assert suggest == {"minutes": a.minutes, "items": played, "best": True}
    assert found > 0


def test_only_the_repair_the_bot_would_make_is_the_main_choice() -> None:
    """Issue 18 §7: "Fix Oxygen Pumps — Try it (10 min)" was styled as the main choice with
    Asphyxiation at 2/10. The page styles a repair's button as the main choice only when the
    heuristic's best plan for the turn is that repair (``best``)."""
    for level, best in ((2, False), (7, True)):
        g = arrange(seed=2)
        g.gnomes[0].room = 2
        g.gnomes[0].keeper = 20
        g.gnomes[1].keeper = g.gnomes[2].keeper = 12
        g.tracks[g.data.tracks.index("asphyxiation")] = level
        start(g)
        suggest = suggestions(g)["fix_oxygen_pumps"]
        assert suggest["best"] is best, level
        assert (decide(g, 0).kind == "fix_oxygen_pumps") is best
