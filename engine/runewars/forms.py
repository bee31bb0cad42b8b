"""Schema parts shared by the Runewars situations added in 0.2: documented form fields and Fate card sections.

The boards build a form from each situation's JSON Schema, so every field here carries a ``title`` (the label),
a ``description`` (the help text, in our own words) and, where the rules give one, a ``default``.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from pydantic import ConfigDict

from engine.model import Field, Model, maybe
from engine.schema import Schema, obj

CLASSES = ("triangle", "circle", "rectangle", "hexagon")
EFFECTS = ("special", "rout", "damage")


def record(props: Mapping[str, Schema], required: Sequence[str] = ()) -> Schema:
    """Return a closed object schema of *props* (for property names that are not Python identifiers)."""
    return {**obj(list(required) or None), "properties": dict(props)}


def doc(schema: Schema, title: str, description: str = "", default: Any = ...) -> Schema:
    """Return *schema* with a form label, a help text and (when given) a default value."""
    out: Schema = {**schema, "title": title}
    if description:
        out["description"] = description
    if default is not ...:
        out["default"] = default
    return out


# ------------------------------------------------------------------ typed parts (issue 23)

class Section(Model):
    """The icons printed in this section; leave every number at 0 for a miss."""

    model_config = ConfigDict(title="Fate card section")

    special: int = Field(0, ge=0, le=9, title="Special ability icons")
    rout: int = Field(0, ge=0, le=9, title="Rout number")
    damage: int = Field(0, ge=0, le=9, title="Damage number")


class FateCard(Model):
    """One drawn Fate card: the icons in each of its four sections."""

    number: int | None = maybe("The card's unique number, 1 to 30 (optional).", title="Card number", ge=1, le=30)
    triangle: Section = Field(title="Triangle section")
    circle: Section = Field(title="Circle section")
    rectangle: Section = Field(title="Rectangle section")
    hexagon: Section = Field(title="Hexagon section")

    def section(self, unit_class: str) -> Section:
        """Return the section a base shape reads."""
        return {"triangle": self.triangle, "circle": self.circle, "rectangle": self.rectangle,
                "hexagon": self.hexagon}[unit_class]
