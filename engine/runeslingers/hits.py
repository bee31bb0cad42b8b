"""Runeslingers hits: whether a damage effect hits, the ailments it then applies, and block triggers.

A damage effect hits when it deals at least 1 damage to its target (``rs.term.hit``); an effect's ailments
"on a hit" are applied to the Runeslinger it hit (``rs.applying-ailments``), joining their type or taking a free
ailment area (4 in all, boons holding theirs), never under a boon, each Burn triggering Burn I on its own
(``rs.ailments-advanced-rules.four-types``, ``rs.ailments-advanced-rules.not-under-boon``, ``rs.ailments.burn``).
Health loss is not damage, so it never hits. Effects that trigger when a block is declared resolve before the
block barrier is worked out (``rs.blocking-advanced-rules.triggers-first``): the position states how each changes
the block value.

These are the optional ``on_hit`` and ``block_triggers`` fields of the ``damage`` situation
(:mod:`engine.runeslingers.damage`); a position without them rules exactly as before.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Annotated

from pydantic import ConfigDict

from engine.core import Trace, rule
from engine.corpus import Corpus
from engine.model import Field, Model
from engine.runeslingers.ailments import area_count, areas_in_use, burn_i_losses, is_only_concealed, joins_existing
from engine.runeslingers.common import AILMENT_TYPES, Ailment, ailment_words, joined, plural

BlockTrigger = Annotated[int, Field(ge=-99, le=99)]


class OnHitAilment(Model):
    """One ailment the damage effect applies if it hits: its type and how many instances."""

    model_config = ConfigDict(title="Ailment on a hit")

    ailment: Ailment = Field(title="Ailment", description="The ailment type the effect applies on a hit.",
                             json_schema_extra={"x-enum-labels": {t: t.capitalize() for t in AILMENT_TYPES}})
    instances: int = Field(ge=1, le=99, title="Instances", description="How many instances of it.")


@dataclass
class HitResult:
    """What a hit applied: instances per type, those with no area, the ailments after and Burn I's losses."""

    applied: dict[str, int] = field(default_factory=dict)
    not_applied: dict[str, int] = field(default_factory=dict)
    after: dict[str, int] = field(default_factory=dict)
    burn_losses: list[int] = field(default_factory=list)


def in_order(counts: Mapping[str, int]) -> str:
    """Return ailments in the order given: ``2 Weaken and 1 Burn`` (``nothing`` when empty)."""
    return joined([f"{n} {k.capitalize()}" for k, n in counts.items() if n])


def hit_clause(hit: bool | None, applied: Mapping[str, int] | None) -> str:
    """Return the summary's clause on the hit: what it applied, or that nothing was."""
    if hit is None:
        return ""
    if not hit:
        return "; no damage got through, so it did not hit and applies no ailment"
    if applied is None:
        return "; it hit a card, which takes no ailment"
    return f"; it hit and applies {in_order(applied)}"


@rule("rs.term.hit", "rs.applying-ailments")
def is_hit(dealt: int) -> bool:
    """Return whether a damage effect hits: it dealt at least 1 damage to its target."""
    return dealt >= 1


@rule("rs.blocking-advanced-rules.triggers-first")
def block_value_after_triggers(value: int, changes: Sequence[int]) -> int:
    """Return the block value once the block triggers have resolved (never below 0)."""
    return max(0, value + sum(changes))


@rule("rs.blocking-advanced-rules.triggers-first", "rs.blocking-damage.barrier-value")
def resolve_block_triggers(value: int, changes: Sequence[int], declared: bool | None, trace: Trace) -> int:
    """Resolve the effects triggered by declaring the block first; return the block value the barrier uses."""
    if not changes:
        return value
    listed = joined([f"{c:+d}" for c in changes])
    if declared is not True:
        trace.step(f"The effects that trigger on a block ({listed}) trigger only if the block is declared"
                   + ("." if declared is False else "; they would resolve before the barrier is set."),
                   "rs.blocking-advanced-rules.triggers-first")
        return value
    after = block_value_after_triggers(value, changes)
    trace.step(f"Declaring the block triggers effects ({listed}); they resolve first, and only then is the "
               f"barrier worked out: block value {value} → {after}.", block_value_after_triggers,
               "rs.blocking-damage.barrier-value")
    return after


@rule("rs.applying-ailments", "rs.ailments-advanced-rules.four-types", "rs.ailments-advanced-rules.not-under-boon",
      "rs.resolving-effects")
def _place(kind: str, n: int, after: dict[str, int], concealed: Mapping[str, int], boons: int,
           corpus: Corpus) -> bool:
    """Put *n* instances of *kind* on the Runeslinger if they fit (its type there, or a free area)."""
    if joins_existing(kind, after):
        after[kind] += n
        return True
    if is_only_concealed(kind, after, concealed):
        return False
    if areas_in_use(after, concealed, boons) >= area_count(corpus):
        return False
    after[kind] = n
    return True


@rule("rs.term.hit", "rs.applying-ailments", "rs.ailments-advanced-rules.order", "rs.ailments.burn",
      "rs.ailments-advanced-rules.instance-effects-in-order", "rs.resolving-effects")
def apply_on_hit(entries: Sequence[OnHitAilment], exposed: Mapping[str, int], concealed: Mapping[str, int],
                 boons: int, trace: Trace, corpus: Corpus) -> HitResult:
    """The damage hit: apply its ailments in the order listed; each Burn applied triggers Burn I."""
    out = HitResult(after={k: n for k, n in exposed.items() if n > 0})
    for e in entries:
        if _place(e.ailment, e.instances, out.after, concealed, boons, corpus):
            out.applied[e.ailment] = out.applied.get(e.ailment, 0) + e.instances
        else:
            out.not_applied[e.ailment] = out.not_applied.get(e.ailment, 0) + e.instances
    words = in_order(out.applied)
    text = f"The damage hit (at least 1 damage dealt), so its ailments are applied in the order printed: {words}"
    if out.not_applied:
        text += (f"; {ailment_words(out.not_applied)} found no free ailment area (4 areas, boons holding theirs, "
                 "nothing put beneath a boon), so nothing of that type is applied")
    trace.step(text + f". Ailments now: {ailment_words(out.after) if out.after else 'none'}.", "rs.term.hit",
               "rs.applying-ailments", _place)
    burned = out.applied.get("burn", 0)
    if burned:
        out.burn_losses = burn_i_losses(burned, corpus)
        trace.step(f"Burn I triggers once for each of {plural(burned, 'Burn instance')}, one after another: "
                   f"{plural(burned, 'separate loss', 'separate losses')} of {out.burn_losses[0]} health, which "
                   "no block can stop.", burn_i_losses, "rs.ailments-advanced-rules.instance-effects-in-order")
    return out


@rule("rs.term.hit", "rs.applying-ailments")
def no_hit(dealt: int, on_a_runeslinger: bool, defeated: bool, entries: Sequence[OnHitAilment],
           trace: Trace) -> bool:
    """Say why the on-hit ailments are not applied; return whether they are to be applied."""
    what = ailment_words({e.ailment: e.instances for e in entries})
    if not is_hit(dealt):
        trace.step(f"No damage reached the target, so the damage did not hit: its {what} on a hit "
                   f"{'is' if len(entries) == 1 else 'are'} not applied.", is_hit)
        return False
    if not on_a_runeslinger:
        trace.step(f"The damage hit a defense card; ailments go only on a Runeslinger, so the {what} "
                   f"{'is' if len(entries) == 1 else 'are'} not applied to it.", is_hit, "rs.applying-ailments")
        return False
    if defeated:
        trace.step("The damage hit, but the Runeslinger is defeated and the encounter is over: no ailment is "
                   "applied.", is_hit)
        return False
    return True
