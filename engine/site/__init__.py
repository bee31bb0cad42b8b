"""The Sphinx site of the rules corpus: its page layout (:mod:`engine.site.layout`) and its extension.

The Sphinx extension itself is :mod:`engine.site.ext` (listed in ``conf.py``); importing this package
does not import Sphinx, so the graph, search and web app can use the layout cheaply.
"""

from __future__ import annotations
