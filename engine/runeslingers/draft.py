"""Runeslingers draft: whether a draft can be held, which way packs pass, and the cards at each pick.

From ``rs.modes-of-play.draft``: at least 4 players (6 is best); each player has 4 booster packs of 9 cards and
opens 2 of them into one 18-card draft pack per round; at each pick every player keeps 2 cards and passes the rest,
to the left in the first round and to the right in the second, until the pack is empty (9 picks a round). The 36
cards drafted form the pool; 6 are taken out, leaving a 30-card draft deck. A player's own Runeslinger and equips
are used without being drafted.
"""

from __future__ import annotations

from typing import Literal

from engine.core import Label, Trace, rule, situation, summarized
from engine.corpus import Corpus
from engine.model import Field, OpenPosition, Outcome, labelled
from engine.runeslingers.common import GAME


class DraftPosition(OpenPosition):
    """The table of a draft and the pick reached."""

    game: Literal["runeslingers"]
    situation: Literal["draft"]
    players: int = Field(ge=1, le=12, title="Players", description="How many players draft together.")
    round: Literal[1, 2] = Field(1, title="Round", description="First round (the first 2 packs) or second "
                                 "(the other 2).", json_schema_extra=labelled({"1": "First round",
                                                                               "2": "Second round"}))
    pick: int = Field(1, ge=1, le=9, title="Pick", description="Which pick of the round (1 for the first).")

    def reading(self) -> list[str]:
        """The table and the pick."""
        which = "first" if self.round == 1 else "second"
        return [f"{self.players} {'player' if self.players == 1 else 'players'} draft together.",
                f"The {which} round, pick {self.pick}."]


class DraftOutcome(Outcome):
    """Whether the draft can be held, the pass direction, the cards at this pick, and the final pool and deck."""

    can_hold: bool
    pass_direction: str
    cards_in_pack: int
    kept_before_pick: int
    kept_after_pick: int
    pool_size: int
    deck_size: int
    cards_removed: int
    runeslinger_drafted: bool


def _fact(corpus: Corpus, key: str) -> int:
    return int(corpus.fact("rs.modes-of-play.draft", key))


@rule("rs.modes-of-play.draft")
def can_hold(players: int, corpus: Corpus) -> bool:
    """Return whether a draft can be held: at least 4 players."""
    return players >= _fact(corpus, "min_players")


@rule("rs.modes-of-play.draft")
def pass_direction(round_: int, corpus: Corpus) -> str:
    """Return which way the packs pass: left in the first round, right in the second."""
    return str(corpus.fact("rs.modes-of-play.draft", "first_round_pass" if round_ == 1 else "second_round_pass"))


@rule("rs.modes-of-play.draft")
def cards_at_pick(pick: int, corpus: Corpus) -> int:
    """Return the cards in the draft pack a player holds at this pick (18, then 2 fewer each pick)."""
    return _fact(corpus, "draft_pack_size") - _fact(corpus, "picks_per_pass") * (pick - 1)


@rule("rs.modes-of-play.draft")
def kept_before(round_: int, pick: int, corpus: Corpus) -> int:
    """Return the cards a player has kept before this pick (a full round is one draft pack)."""
    return (round_ - 1) * _fact(corpus, "draft_pack_size") + _fact(corpus, "picks_per_pass") * (pick - 1)


@rule("rs.modes-of-play.draft")
def _table(pos: DraftPosition, trace: Trace, corpus: Corpus) -> bool:
    """At least 4 players; 6 is best."""
    least, best = _fact(corpus, "min_players"), _fact(corpus, "best_players")
    ok = can_hold(pos.players, corpus)
    if not ok:
        trace.violate(f"a draft needs at least {least} players, and only {pos.players} "
                      f"{'is' if pos.players == 1 else 'are'} here", can_hold)
    else:
        trace.step(f"{pos.players} players can draft (at least {least} are needed; {best} is best).", can_hold)
    return ok


@rule("rs.modes-of-play.draft")
def _pick(pos: DraftPosition, trace: Trace, corpus: Corpus) -> tuple[str, int, int]:
    """The packs, the pass direction and the cards at this pick."""
    packs, size = _fact(corpus, "packs_per_player"), _fact(corpus, "cards_per_pack")
    opened, pack = _fact(corpus, "packs_per_round"), _fact(corpus, "draft_pack_size")
    keep = _fact(corpus, "picks_per_pass")
    way = pass_direction(pos.round, corpus)
    trace.step(f"Each player has {packs} packs of {size} cards and opens {opened} of them into one {pack}-card "
               f"draft pack this round; at each pick everyone keeps {keep} cards and passes the rest to the {way}"
               + (" (the first round passes left)." if pos.round == 1 else " (the second round passes right)."),
               pass_direction)
    cards = cards_at_pick(pos.pick, corpus)
    kept = kept_before(pos.round, pos.pick, corpus)
    trace.step(f"At pick {pos.pick} the pack in hand holds {cards} cards; {kept} kept so far, {kept + keep} once "
               "this pick is made.", cards_at_pick, kept_before)
    return way, cards, kept


@rule("rs.modes-of-play.draft", "rs.setup-steps.3")
def _deck(trace: Trace, corpus: Corpus) -> tuple[int, int, int]:
    """The pool, the cards taken out and the draft deck."""
    pool, cut, deck = _fact(corpus, "pool_size"), _fact(corpus, "cards_removed"), _fact(corpus, "deck_size")
    trace.step(f"After both rounds each player has a {pool}-card pool, takes {cut} out and keeps {deck} as the "
               "draft deck; the player's own Runeslinger and equips are used without being drafted.",
               "rs.modes-of-play.draft", "rs.setup-steps.3")
    return pool, cut, deck


def _summary(pos: DraftPosition, out: DraftOutcome, trace: Trace) -> str:
    if not out.can_hold:
        return f"No draft with {pos.players}: at least 4 players are needed."
    return (f"Pass to the {out.pass_direction}; the pack holds {out.cards_in_pack} cards at this pick, with "
            f"{out.kept_before_pick} kept so far; the {out.pool_size}-card pool becomes a {out.deck_size}-card deck.")


LABELS: dict[str, Label] = {"can_hold": "Draft can be held", "pass_direction": "Pass to the",
                            "cards_in_pack": "Cards in the pack at this pick", "kept_before_pick": "Kept before "
                            "this pick", "kept_after_pick": "Kept after this pick", "pool_size": "Pool",
                            "deck_size": "Draft deck", "cards_removed": "Cards taken out of the pool",
                            "runeslinger_drafted": "Runeslinger drafted"}


@situation(GAME, "draft", DraftPosition, labels=LABELS)
@summarized(_summary)
def resolve_draft(pos: DraftPosition, trace: Trace, corpus: Corpus) -> DraftOutcome:
    """Resolve a draft pick: the table, the pass direction, the cards at this pick, and the final deck."""
    ok = _table(pos, trace, corpus)
    way, cards, kept = _pick(pos, trace, corpus)
    pool, cut, deck = _deck(trace, corpus)
    return DraftOutcome(can_hold=ok, pass_direction=way, cards_in_pack=cards, kept_before_pick=kept,
                        kept_after_pick=kept + _fact(corpus, "picks_per_pass"), pool_size=pool, deck_size=deck,
                        cards_removed=cut, runeslinger_drafted=False)
