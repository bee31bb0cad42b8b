"""Runeslingers rulings: registration, citations (contested rules cite both readings) and unreadable input."""

from __future__ import annotations

from typing import Any

import pytest

from engine.core import RULES, load_situations, resolve
from engine.errors import UnreadableInputError

SITUATIONS = {"damage", "ailment_phase", "draw", "ladder", "conflict", "deck", "apply_ailments",
              "discard_from_hand"}


def slinger(**over: Any) -> dict[str, Any]:
    return {"kind": "runeslinger", "health": 10, "max_health": 20, "power": 5, **over}


def test_every_situation_is_registered_with_a_schema() -> None:
    """The contract's six situations (and the two extra ones) are registered for the game."""
    found = {n: s for (g, n), s in load_situations().items() if g == "runeslingers"}
    assert set(found) >= SITUATIONS
    assert all(s.schema["properties"] for s in found.values())


def test_rule_functions_cite_existing_paragraphs(corpus: Any) -> None:
    """Every @rule function of the game cites paragraphs that exist."""
    load_situations()
    mine = {fn: ids for fn, ids in RULES.items() if ".runeslingers." in fn}
    assert len(mine) > 30
    assert not {fn: [i for i in ids if i not in corpus.paragraphs] for fn, ids in mine.items()
                if any(i not in corpus.paragraphs for i in ids)}


@pytest.mark.parametrize("fmt", ["constructed", "draft", "sealed"])
def test_deck_rulings_cite_both_readings_of_the_contested_deck_size(fmt: str, corpus: Any) -> None:
    """Setup step 3 (30 cards) and Constructed (40 cards) are both cited, and both notes name the engine's pick."""
    ruling = resolve({"game": "runeslingers", "situation": "deck", "format": fmt,
                      "cards": [{"name": "Spark", "copies": 3}]})
    assert {"rs.setup-steps.3", "rs.modes-of-play.constructed"} <= set(ruling.cites)
    for pid in ("rs.setup-steps.3", "rs.modes-of-play.constructed"):
        assert "engine follows the Modes of Play" in (corpus.get(pid).contested or "").replace("\n", " ")


def test_the_last_card_drawn_costs_a_power_at_once_citing_both_readings() -> None:
    """The engine follows the empty-deck condition: reaching 0 cards costs a power before anything else."""
    ruling = resolve({"game": "runeslingers", "situation": "draw", "hand": 0, "deck": 1, "discard": 3, "draw": 1,
                      "power": 5})
    assert ruling.outcome["power_lost"] == 1 and ruling.outcome["deck"] == 3
    assert {"rs.power-loss-conditions.empty-deck", "rs.golden-rules.bottomless-deck"} <= set(ruling.cites)


def test_every_step_cites_and_every_cite_has_a_source() -> None:
    """A ruling's steps all cite paragraphs, each listed in ``sources``."""
    ruling = resolve({"game": "runeslingers", "situation": "damage", "target": slinger(health=3),
                      "amount": 30, "damage_type": "pierce", "block": {"declared": True, "value": 4}}).to_json()
    assert ruling["steps"] and all(s["cites"] for s in ruling["steps"])
    assert set(ruling["cites"]) == set(ruling["sources"])


@pytest.mark.parametrize(("position", "path"), [
    ({"situation": "damage", "target": slinger(health=25), "amount": 1, "damage_type": "basic"}, "target.health"),
    ({"situation": "damage", "target": {"kind": "runeslinger", "max_health": 20, "power": 5}, "amount": 1,
      "damage_type": "basic"}, "target.health"),
    ({"situation": "damage", "target": {"kind": "defense_card"}, "amount": 1, "damage_type": "basic"},
     "target.defense"),
    ({"situation": "damage", "target": slinger(), "amount": 1, "damage_type": "basic",
      "block": {"declared": True, "value": "4"}}, "block.value"),
    ({"situation": "damage", "target": slinger(), "amount": -1, "damage_type": "basic"}, "amount"),
    ({"situation": "damage", "target": slinger(), "amount": 1, "damage_type": "fire"}, "damage_type"),
    ({"situation": "ailment_phase", "exposed": {"plague": 3}, "power": 5}, "exposed"),
    ({"situation": "ailment_phase", "exposed": {"burn": "3"}, "power": 5}, "exposed.burn"),
    ({"situation": "draw", "hand": 1, "deck": 1, "discard": 0}, "power"),
    ({"situation": "ladder", "plays": [{"card": "A", "player": "you"}, {"card": "A", "player": "opp"}]},
     "plays[1].id"),
    ({"situation": "ladder", "plays": []}, "plays"),
    ({"situation": "conflict", "active_player": "x", "effects": [{"id": "a", "level": "card", "controller": "x"},
                                                               {"id": "a", "level": "card", "controller": "y"}]},
     "effects[1].id"),
    ({"situation": "conflict", "active_player": "x", "effects": [{"id": "a", "level": "rule", "controller": "x"}]},
     "effects[0].level"),
    ({"situation": "deck", "format": "commander", "cards": []}, "format"),
    ({"situation": "apply_ailments", "target": {}, "apply": [{"ailment": "burn"}]}, "apply[0].instances"),
])
def test_unreadable_positions_name_the_offending_path(position: dict[str, Any], path: str) -> None:
    """A position the engine cannot read raises UnreadableInputError with the JSON path of the bad value."""
    with pytest.raises(UnreadableInputError) as err:
        resolve({"game": "runeslingers", **position})
    assert err.value.path == path


def test_removal_effects_are_read_from_the_effect_choice() -> None:
    """Conceal/destroy/discard/return/void/place-under take the target out of play; the other choices do not."""
    def fizzled(effect: str) -> list[str]:
        plays = [{"card": "Bolt", "player": "you", "effect": "damage", "targets": ["enemy"]},
                 {"card": "Trap", "player": "opp", "effect": effect, "targets": ["Bolt"], "shout": True}]
        out: list[str] = resolve({"game": "runeslingers", "situation": "ladder", "plays": plays}).outcome["fizzled"]
        return out
    for effect in ("conceal", "destroy", "discard", "return_to_hand", "void", "place_under"):
        assert fizzled(effect) == ["Bolt"], effect
    for effect in ("damage", "ailment", "block", "other"):
        assert fizzled(effect) == [], effect


@pytest.mark.parametrize("word", ["counter", "destroy target runespell", "Discard", "banish"])
def test_an_effect_outside_the_choices_is_unreadable_not_ruled_on(word: str) -> None:
    """Issue 24, case 3: "counter" for "discard" was read as "does not remove" and ruled FINAL; now refused."""
    plays = [{"card": "Bolt", "player": "you", "effect": "damage", "targets": ["enemy"]},
             {"card": "Trap", "player": "opp", "effect": word, "targets": ["Bolt"], "shout": True}]
    with pytest.raises(UnreadableInputError) as err:
        resolve({"game": "runeslingers", "situation": "ladder", "plays": plays})
    assert err.value.path == "plays[1].effect"
    assert repr(word) in err.value.message


def test_an_unstated_effect_that_decides_a_lower_rung_is_asked_for() -> None:
    """An effect left unstated is asked for when its target is a lower rung (never guessed)."""
    plays = [{"card": "Bolt", "player": "you", "effect": "damage", "targets": ["enemy"]},
             {"card": "Trap", "player": "opp", "targets": ["Bolt"], "shout": True}]
    ruling = resolve({"game": "runeslingers", "situation": "ladder", "plays": plays})
    assert [(d.field, d.who) for d in ruling.decisions] == [("plays[1].effect", "opp")]
    assert "Bolt" not in ruling.outcome["fizzled"] and "fizzles" not in ruling.summary
    answered = resolve({"game": "runeslingers", "situation": "ladder",
                        "plays": [plays[0], {**plays[1], "effect": "discard"}]})
    assert not answered.decisions and answered.outcome["fizzled"] == ["Bolt"]


def test_every_situation_reads_its_position_in_a_players_words() -> None:
    """Each Runeslingers situation restates its position in its own sentences (not the default field titles),
    naming every card and player of the position (issue 24: the reading)."""
    from engine.examples import example_files, load_example
    from engine.model import restate, validate
    from engine.situations import registry

    seen = set()
    for path in example_files("runeslingers"):
        position = load_example(path)["position"]
        ruling = resolve(position)
        model = validate(registry()[("runeslingers", position["situation"])].model, position)
        assert ruling.reading and list(ruling.reading) != restate(model), path.stem
        for play in position.get("plays", []):
            assert play["card"] in " ".join(ruling.reading), (path.stem, play["card"])
        seen.add(position["situation"])
    assert seen >= SITUATIONS
