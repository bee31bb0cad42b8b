"""Sphinx configuration of the Runecodex site (built by ``runecodex build``; see engine/build.py).

The source folder is generated in the build tree by the ``engine.site.ext`` extension: one page per
document section and per glossary entry, from the corpus in rules/, plus copies of the hand-written
pages in site/. Build it with ``runecodex build`` (or ``sphinx-build -c . build/.site-cache/src OUT``).
"""

from __future__ import annotations

import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

project = "Runecodex"
author = "the Runecodex project"
copyright = "the Runecodex project (rules text restated in the project's own words)"  # noqa: A001
language = "en"

extensions = ["myst_parser", "engine.site.ext"]
source_suffix = {".md": "markdown"}
root_doc = "index"
exclude_patterns: list[str] = []
nitpicky = True
suppress_warnings: list[str] = []
myst_enable_extensions = ["colon_fence", "deflist"]
myst_heading_anchors = 2

runecodex_pages = "site"          # hand-written pages, copied into the source folder
runecodex_rules = ""              # the corpus folder ("" = rules/ or $RUNECODEX_RULES)
runecodex_graph_pictures = True   # a glossary graph picture on every glossary page

html_theme = "furo"
html_title = "Runecodex"
html_short_title = "Runecodex"
html_static_path = ["site/_static"]
html_css_files = ["runecodex.css"]
html_js_files = [("runecodex.js", {"defer": "defer"})]
html_copy_source = False
html_show_sourcelink = False
html_last_updated_fmt = None
html_permalinks_icon = "¶"
html_theme_options = {
    "navigation_with_keys": True,
    "light_css_variables": {
        "color-brand-primary": "#7a4b12",
        "color-brand-content": "#1d4f91",
        "font-stack": "system-ui, -apple-system, 'Segoe UI', Roboto, 'DejaVu Sans', sans-serif",
    },
    "dark_css_variables": {
        "color-brand-primary": "#e0b36a",
        "color-brand-content": "#8cb4ff",
    },
}
