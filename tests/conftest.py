"""Shared fixtures: the real corpus, tiny corpora written on the fly, and the seed folder."""

from __future__ import annotations

import textwrap
from collections.abc import Callable
from pathlib import Path

import pytest

from engine.corpus import Corpus, get_corpus
from engine.corpus.sources import default_sources

DOCUMENTS = textwrap.dedent("""\
    documents:
      - {key: rune-age, game: rune-age, prefix: ra, title: "Rune Age", short: "Rulebook",
         seed: 000_508a43e8aaac7593.txt, locator: page}
      - {key: rune-age-faq, game: rune-age, prefix: rafaq, title: "Rune Age FAQ", short: "FAQ",
         seed: 003_11e701e797c06f5e.txt, locator: section}
    games:
      rune-age: "Rune Age"
    """)


@pytest.fixture(scope="session")
def corpus() -> Corpus:
    """Return the project's real corpus (loaded once)."""
    return get_corpus()


@pytest.fixture(scope="session")
def seeds() -> Path:
    """Return the folder of source rulebooks, skipping when this checkout has none beside it."""
    path = default_sources()
    if path is None:
        pytest.skip("no ../shared/seeds beside this checkout")
    return path


MakeCorpus = Callable[[dict[str, str]], Path]


@pytest.fixture
def make_rules(tmp_path: Path) -> MakeCorpus:
    """Return a function writing a tiny rules folder: {"rune-age/a.yaml": "...yaml..."} -> its root."""
    def make(files: dict[str, str]) -> Path:
        root = tmp_path / "rules"
        root.mkdir(exist_ok=True)
        (root / "documents.yaml").write_text(DOCUMENTS)
        for name, body in files.items():
            path = root / name
            path.parent.mkdir(parents=True, exist_ok=True)
            path.write_text(textwrap.dedent(body))
        return root
    return make
