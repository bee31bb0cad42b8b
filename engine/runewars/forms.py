"""Typed parts shared by the Runewars situations added in 0.2: the Fate card and its sections.

The boards build a form from each situation's published JSON Schema, so every field here carries a ``title`` (the
label), a ``description`` (the help text, in our own words) and, where the rules give one, a ``default``.
"""

from __future__ import annotations

from pydantic import ConfigDict

from engine.model import Field, Model, maybe

CLASSES = ("triangle", "circle", "rectangle", "hexagon")
EFFECTS = ("special", "rout", "damage")


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
