"""A tiny Sphinx project: two pages, a paragraph declared on one and linked from the other."""

extensions = ["myst_parser", "engine.site.ext"]
runecodex_generate = False
nitpicky = True
root_doc = "index"
exclude_patterns = ["_build"]
