"""The one renderer of corpus text: Markdown (CommonMark, via markdown-it-py) to blocks, HTML and plain text.

Corpus paragraphs are written as plain Markdown: paragraphs separated by blank lines, ``- `` bullet lists and
``1.`` numbered lists; YAML's hard line breaks inside a paragraph are soft breaks. Every consumer goes
through this module so the site, the web app's rule pages and previews, the quick reference and the CLI
show the same paragraphs and lists:

- :func:`blocks` parses a text into :class:`Block` values (for consumers that build their own nodes: the
  Sphinx site adds glossary links to the inline text, the quick reference lays blocks out on a sheet);
- :func:`to_html` renders a text as HTML (raw HTML in the corpus is escaped, never passed through);
- :func:`to_text` renders a text as plain text for terminals (lists keep their markers).

Results are cached by text, so a corpus version renders each paragraph once per process.
"""

from __future__ import annotations

import functools
import html
import textwrap
from collections.abc import Callable
from dataclasses import dataclass
from typing import Literal

from markdown_it import MarkdownIt

BlockKind = Literal["p", "bullets", "enum"]

_MD = MarkdownIt("commonmark", {"html": False, "linkify": False, "typographer": False}).disable(
    ["code", "fence", "html_block", "html_inline", "image", "heading", "lheading", "blockquote", "hr",
     "reference", "backticks", "link", "autolink", "entity"])


@dataclass(frozen=True)
class Block:
    """One block of a rules text: a paragraph (one item) or a list (one item per entry).

    ``items`` hold the inline text of each entry with its line breaks folded into single spaces;
    ``start`` is the first number of a numbered list.
    """

    kind: BlockKind
    items: tuple[str, ...]
    start: int = 1

    @property
    def is_list(self) -> bool:
        """Return whether the block is a bullet or numbered list."""
        return self.kind != "p"


def _inline(content: str) -> str:
    return " ".join(content.split())


@functools.lru_cache(maxsize=8192)
def blocks(text: str) -> tuple[Block, ...]:
    """Return the blocks of a corpus text, in reading order (nested lists are folded into their entry)."""
    out: list[Block] = []
    stack: list[tuple[BlockKind, list[str], int]] = []
    depth = 0  # list nesting: entries of nested lists join their parent entry's text
    for tok in _MD.parse(text.strip()):
        if tok.type in ("bullet_list_open", "ordered_list_open"):
            depth += 1
            if depth == 1:
                kind: BlockKind = "bullets" if tok.type == "bullet_list_open" else "enum"
                start = int(tok.attrs.get("start", 1) or 1) if kind == "enum" else 1
                stack.append((kind, [], start))
        elif tok.type in ("bullet_list_close", "ordered_list_close"):
            depth -= 1
            if depth == 0:
                kind, items, start = stack.pop()
                out.append(Block(kind, tuple(items), start))
        elif tok.type == "list_item_open" and depth == 1:
            stack[-1][1].append("")
        elif tok.type == "inline":
            content = _inline(tok.content)
            if depth:
                items = stack[-1][1]
                items[-1] = f"{items[-1]} {content}".strip()
            else:
                out.append(Block("p", (content,)))
    return tuple(out)


def blocks_html(parts: tuple[Block, ...], inline: Callable[[str], str] | None = None) -> str:
    """Return HTML for *parts*; *inline* turns an entry's text into inline HTML (default: escaped text)."""
    esc = inline or html.escape
    chunks: list[str] = []
    for b in parts:
        if b.kind == "p":
            chunks.append(f"<p>{esc(b.items[0])}</p>")
        else:
            tag = "ul" if b.kind == "bullets" else "ol"
            start = f' start="{b.start}"' if b.kind == "enum" and b.start != 1 else ""
            chunks.append(f"<{tag}{start}>" + "".join(f"<li>{esc(i)}</li>" for i in b.items) + f"</{tag}>")
    return "\n".join(chunks)


@functools.lru_cache(maxsize=8192)
def to_html(text: str) -> str:
    """Return a corpus text as HTML: ``<p>``, ``<ul>`` and ``<ol>`` with escaped inline text."""
    return blocks_html(blocks(text))


@functools.lru_cache(maxsize=8192)
def to_text(text: str, width: int | None = None, indent: str = "") -> str:
    """Return a corpus text as plain text: paragraphs on one line each (or wrapped at *width*), lists marked,
    every line starting with *indent*."""
    def wrap(s: str, first: str = "", rest: str = "") -> str:
        if not width:
            return indent + first + s
        return textwrap.fill(s, width=width, initial_indent=indent + first, subsequent_indent=indent + rest)

    chunks: list[str] = []
    for b in blocks(text):
        if b.kind == "p":
            chunks.append(wrap(b.items[0]))
        else:
            lines = []
            for n, item in enumerate(b.items, start=b.start):
                mark = "- " if b.kind == "bullets" else f"{n}. "
                lines.append(wrap(item, mark, " " * len(mark)))
            chunks.append("\n".join(lines))
    return "\n\n".join(chunks)
