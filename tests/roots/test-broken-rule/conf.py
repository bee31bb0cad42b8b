"""A tiny Sphinx project linking a rule id that nothing declares."""

extensions = ["myst_parser", "engine.site.ext"]
runecodex_generate = False
root_doc = "index"
