"""Shared fixtures: the real corpus, tiny corpora written on the fly, and the seed folder."""

from __future__ import annotations

import textwrap
from collections.abc import Callable
from pathlib import Path

import pytest

from engine.corpus import Corpus, get_corpus
from engine.sources import default_sources

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


# ------------------------------------------------------------------ scenario files read like rulings

class ScenarioFile(pytest.File):
    """A JSON example file: a position, the expected ruling and the paragraphs it must cite."""

    def collect(self):  # type: ignore[no-untyped-def]
        yield ScenarioItem.from_parent(self, name=self.path.stem)


class ScenarioItem(pytest.Item):
    """Resolve the file's position in-process and compare with its expectation."""

    def runtest(self) -> None:
        import json

        from engine.core import resolve
        from engine.examples import problems

        example = json.loads(self.path.read_text(encoding="utf-8"))
        found = problems(example, resolve(example["position"]).to_json())
        if found:
            raise ScenarioMismatch(example.get("title", self.name), found)

    def repr_failure(self, excinfo, style=None):  # type: ignore[no-untyped-def]
        if isinstance(excinfo.value, ScenarioMismatch):
            title, found = excinfo.value.args
            return f"{title}\n  " + "\n  ".join(found)
        return super().repr_failure(excinfo, style)

    def reportinfo(self):  # type: ignore[no-untyped-def]
        return self.path, 0, f"scenario: {self.name}"


class ScenarioMismatch(AssertionError):
    """The ruling differs from the scenario's expectation."""


def pytest_collect_file(parent: pytest.Collector, file_path: Path) -> pytest.File | None:
    """Collect tests/scenarios/<game>/*.json as ruling tests."""
    if file_path.suffix == ".json" and "scenarios" in file_path.parts:
        return ScenarioFile.from_parent(parent, path=file_path)
    return None
