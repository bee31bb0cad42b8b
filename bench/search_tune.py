"""Try search ranking settings on the DEVELOPMENT questions only (never the test set).

Each setting is a ``name=value`` override of one constant of the search package
(``engine/search/rank.py``: ``K1``, ``B``, ``fieldb.<field>`` (that field's own ``B``), ``COORD``,
``LINE``, ``QUANTITY``, ``kind.<kind>``, ``weight.<field>`` (BM25F's field weight), ``GAME_MIN``,
``GAME_ALPHA``; ``engine/search/query.py``: ``EXPANSION_BOOST``, ``SITUATION_WEIGHT``,
``NUMBER_WEIGHT``; ``engine/search/index.py``: ``boost.<field>``, which needs its own index, built
once per set of boosts; ``boost.section`` tries the section heading as a ranked field). Every
candidate is measured against the current settings in the same run, on the same development
questions that ``bench/search_bench.py`` calls DEV, and, to see whether a gain holds beyond the
questions it was found on, on each half of them (questions at even and at odd positions) separately::

    .venv/bin/python bench/search_tune.py "COORD=0.3" "LINE=0.8 kind.glossary=0.9" "boost.title=2.5"

``bench/search-blind-2.json`` is never read here: it measures the search, it does not tune it.
"""

from __future__ import annotations

import sys
import tempfile
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "bench"))

import search_bench as sb  # noqa: E402

import engine.search as s_package  # noqa: E402
from engine.search import SearchIndex, build_index  # noqa: E402
from engine.search import index as s_index  # noqa: E402
from engine.search import query as s_query  # noqa: E402
from engine.search import rank as s_rank  # noqa: E402
from engine.search import spell as s_spell  # noqa: E402

Setting = dict[str, Any]


def parse(spec: str) -> Setting:
    """Return the overrides of one candidate (``"COORD=0.3 kind.glossary=0.9"``)."""
    out: Setting = {}
    for part in spec.split():
        name, _, value = part.partition("=")
        try:
            out[name] = float(value)
        except ValueError:  # a setting named by a word (``LINE_MODE=f1``)
            out[name] = value
    return out


@contextmanager
def applied(setting: Setting) -> Iterator[None]:
    """Apply the rank and query overrides of *setting* for the ``with`` block."""
    saved: list[tuple[Any, str, Any]] = []
    kinds = dict(s_rank.KIND_PRIOR)
    field_b = dict(s_rank.FIELD_B)
    field_w = dict(s_rank.FIELD_WEIGHTS)
    for name, value in setting.items():
        if name.startswith("boost."):
            continue
        if name.startswith("weight."):
            field_w[name[7:]] = value
            continue
        if name.startswith("fieldb."):
            field_b[name[7:]] = value
            continue
        if name.startswith("kind."):
            kinds[name[5:]] = value
            continue
        module = s_query if hasattr(s_query, name) and not hasattr(s_rank, name) else s_rank
        if name in ("LONG_WORD",):
            module = s_spell
        if not hasattr(module, name):
            raise SystemExit(f"unknown setting {name!r}")
        saved.append((module, name, getattr(module, name)))
        setattr(module, name, value)
    saved.append((s_rank, "KIND_PRIOR", s_rank.KIND_PRIOR))
    saved.append((s_rank, "FIELD_B", s_rank.FIELD_B))
    saved.append((s_rank, "FIELD_WEIGHTS", s_rank.FIELD_WEIGHTS))
    s_rank.KIND_PRIOR = kinds
    s_rank.FIELD_B = field_b
    s_rank.FIELD_WEIGHTS = field_w
    try:
        yield
    finally:
        for module, name, value in reversed(saved):
            setattr(module, name, value)


def boosts_of(setting: Setting) -> tuple[tuple[str, Any], ...]:
    """Return the field boosts *setting* asks for (the current ones where it says nothing)."""
    merged = dict(s_index.FIELD_BOOSTS)
    merged.update({k[6:]: v for k, v in setting.items() if k.startswith("boost.")})
    return tuple(sorted(merged.items()))


def measure(index: SearchIndex, questions: Sequence[sb.Question]) -> list[int | None]:
    """Return the rank of the answer of each question (``None`` beyond the top 10)."""
    fresh = SearchIndex(index.index_dir)  # a new searcher: settings read at open time apply
    return list(sb.relevance(sb.search_engine(fresh), questions, True).ranks)


def styles(questions: Sequence[sb.Question], ranks: Sequence[int | None]) -> str:
    """Return recall@3 of the long questions and of the slang ones."""
    out = []
    for label, keep in (("long", lambda q: len(q.query.split()) >= sb.LONG_WORDS),
                        ("slang", lambda q: q.style == "slang")):
        chosen = [r for q, r in zip(questions, ranks, strict=True) if keep(q)]
        out.append(f"{label} {sum(r is not None and r <= 3 for r in chosen) / (len(chosen) or 1):.3f}")
    return " ".join(out)


def figures(ranks: Sequence[int | None]) -> str:
    """Return recall@1, recall@3 and MRR of *ranks* as one short line."""
    n = len(ranks) or 1
    r1 = sum(r == 1 for r in ranks) / n
    r3 = sum(r is not None and r <= 3 for r in ranks) / n
    mrr = sum(1 / r for r in ranks if r) / n
    return f"{r1:.3f} {r3:.3f} {mrr:.3f}"


def main(argv: Sequence[str]) -> int:
    """Measure the current settings and each candidate of *argv* on the development questions."""
    corpus = sb.load(False)
    dev = sb.dev_questions()
    candidates = [("current", {}), *((spec, parse(spec)) for spec in argv)]
    indexes: dict[tuple[tuple[str, Any], ...], SearchIndex] = {}
    bare = sb.unfiltered(dev)
    print(f"{len(dev)} development questions; recall@1 recall@3 MRR: all | even half | odd half | "
          f"the {len(bare)} with their game filter taken off | recall@3 of long and slang")
    with tempfile.TemporaryDirectory(prefix="runecodex-tune-") as tmp:
        for name, setting in candidates:
            key = boosts_of(setting)
            if key not in indexes:
                saved = s_index.FIELD_BOOSTS
                s_index.FIELD_BOOSTS = dict(key)
                try:
                    folder = build_index(Path(tmp) / f"ix{len(indexes)}", corpus=corpus)
                finally:
                    s_index.FIELD_BOOSTS = saved
                indexes[key] = SearchIndex(folder)
            ranked = s_package.RANKED_FIELDS
            s_package.RANKED_FIELDS = tuple(dict(key))  # a field new to the index is searched too
            try:
                with applied(setting):
                    ranks = measure(indexes[key], dev)
                    loose = measure(indexes[key], bare)
            finally:
                s_package.RANKED_FIELDS = ranked
            print(f"{figures(ranks)} | {figures(ranks[0::2])} | {figures(ranks[1::2])} | {figures(loose)} | "
                  f"{styles(dev, ranks)}  {name}")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
