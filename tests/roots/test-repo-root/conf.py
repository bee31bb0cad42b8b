"""A checkout in miniature: the repository's own conf.py and site/, a tiny corpus, and files that are not site.

Sphinx is run on this folder itself (source folder = configuration folder), as ``sphinx-build -M html . _build``
is run on the repository root.
"""

from pathlib import Path

import engine

_REAL = Path(engine.__file__).resolve().parent.parent / "conf.py"
exec(compile(_REAL.read_text(encoding="utf-8"), str(_REAL), "exec"))  # the real configuration, as is

runecodex_rules = str(Path(__file__).resolve().parent / "rules")
runecodex_pages = str(_REAL.parent / "site")
html_static_path = [str(_REAL.parent / "site" / "_static")]
if globals().get("html_favicon"):
    html_favicon = str(_REAL.parent / str(globals()["html_favicon"]))
