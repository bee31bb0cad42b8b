"""Runecodex: the rules corpus, its loader and the executable rules of the Terrinoth games."""

from __future__ import annotations

__version__ = "0.1.0"
