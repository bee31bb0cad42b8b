"""Runecodex: the rules corpus, its loader and the executable rules of the Terrinoth games.

Layers, each importing only the ones before it: :mod:`engine.errors` and :mod:`engine.files` (owning and
writing files) -> :mod:`engine.corpus` (reading and checking the rules) -> the rules engine
(:mod:`engine.core`, :mod:`engine.model`, the game packages) -> :mod:`engine.views` (text, graph, quick
reference) -> :mod:`engine.search` and :mod:`engine.site` (search index, Sphinx site, publishing) ->
:mod:`engine.cli` and the web app.
"""

from __future__ import annotations

from pathlib import Path

__version__ = "0.1.0"

PROJECT_ROOT = Path(__file__).resolve().parent.parent
"""The checkout: ``rules/``, ``build/`` and the engine package sit in it."""
