"""Find paragraphs by the locator the book prints, and the ids nearest to a mistyped one.

A player who has the book open types where the rule is rather than what it says:

- ``RR 41.1``, ``rules reference 41.1``, ``41.1``: the RuneWars Miniatures Rules Reference numbers
  its entries; a dotted number, or any number after ``RR``/``rules reference``, is one of them (the
  entry itself first, then its bullets and its sub-entries, in book order);
- ``p. 12``, ``page 12 Conduct a Siege``, ``pg 7 setup``: a page of a book (of the game searched, when
  there is one), narrowed to the sections or titles holding the words after the number when any do.

:func:`locate` answers those (``engine.search`` returns its paragraphs before ranking anything);
:func:`did_you_mean` lists the paragraph ids nearest to one that does not exist (the 404 of
``/rules/<id>`` and of ``/api/rules/<id>``).
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass

from rapidfuzz import fuzz, process

RR_DOC = "runewars-miniatures"
_NUMBERED = re.compile(
    r"^\s*(?:(?P<book>rr|rules?\s+reference|rule|rwm)\s*[:#-]?\s*)?(?P<num>\d{1,3}(?:\.\d{1,3})*)\s*$", re.I)
_PAGE = re.compile(r"^\s*(?:p|pp|pg|page)\.?\s*(?P<page>\d{1,3})\b[\s,:;.-]*(?P<rest>.*)$", re.I)
MAX_LOCATED = 50


@dataclass(frozen=True)
class Place:
    """Where one paragraph is printed: its game, book, page, section, numbered paragraph and title."""

    game: str
    doc: str
    page: int | None
    section: str
    paragraph: str | None
    title: str


def _numbered(num: str, places: Sequence[Place], game: str | None) -> list[int]:
    if game not in (None, RR_DOC):
        return []
    exact = [i for i, p in enumerate(places) if p.doc == RR_DOC and p.paragraph == num]
    below = [i for i, p in enumerate(places)
             if p.doc == RR_DOC and p.paragraph is not None and p.paragraph.startswith(num + ".")]
    return exact + below


def _paged(page: int, rest: str, places: Sequence[Place], game: str | None) -> list[int]:
    on_page = [i for i, p in enumerate(places) if p.page == page and (game is None or p.game == game)]
    words = re.findall(r"\w+", rest.lower())
    if not words:
        return on_page
    narrowed = [i for i in on_page
                if all(w in f"{places[i].section} {places[i].title}".lower() for w in words)]
    return narrowed or on_page


def locate(text: str, places: Sequence[Place], game: str | None) -> list[int]:
    """Return the positions in *places* of the paragraphs *text* points to by locator (empty if none)."""
    text = " ".join(text.split())[:200]
    numbered = _NUMBERED.match(text)
    if numbered and ("." in numbered.group("num") or numbered.group("book")):
        return _numbered(numbered.group("num"), places, game)[:MAX_LOCATED]
    paged = _PAGE.match(text)
    if paged:
        return _paged(int(paged.group("page")), paged.group("rest"), places, game)[:MAX_LOCATED]
    return []


def places_of(stored: Iterable[Mapping[str, object]]) -> tuple[Place, ...]:
    """Return the :class:`Place` of every paragraph from its stored fields (``source`` is JSON)."""
    out = []
    for fields in stored:
        src = json.loads(str(fields.get("source", "{}")))
        page = src.get("page")
        out.append(Place(game=str(fields.get("game", "")), doc=str(src.get("doc", "")),
                         page=page if isinstance(page, int) else None, section=str(src.get("section") or ""),
                         paragraph=str(src["paragraph"]) if src.get("paragraph") is not None else None,
                         title=str(fields.get("stored_title", ""))))
    return tuple(out)


def did_you_mean(wrong: str, ids: Sequence[str], places: Sequence[Place] = (), limit: int = 5) -> list[str]:
    """Return up to *limit* paragraph ids nearest to the unknown id *wrong*, nearest first.

    An id that is a printed locator ("rr-41.1", "41.1") leads to the paragraphs it names first
    (*places* holds where each of *ids* is printed); then come the ids most alike by spelling.
    """
    wrong = wrong.strip().lower()[:200]
    if not wrong:
        return []
    out = [ids[i] for i in locate(wrong.replace("-", " "), places, None)] if places else []
    found = process.extract(wrong, list(ids), scorer=fuzz.WRatio, limit=limit * 2, score_cutoff=60)
    out += [choice for choice, _, _ in found]
    return list(dict.fromkeys(out))[:limit]
