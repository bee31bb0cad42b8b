"""The ``runecodex`` command line (see ``../shared/CONTRACT.md`` for the public interface).

Exit statuses: 0 success; 1 a lookup found nothing (unknown id) or a check failed; 2 unreadable input.
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import sys
import textwrap
from collections.abc import Callable, Mapping, Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any, NoReturn

from engine.corpus import KINDS, Corpus, get_corpus, read_corpus
from engine.errors import CorpusError, RunecodexError, UnknownParagraphError
from engine.views import paragraph

if TYPE_CHECKING:
    from engine.core import Resolution

Handler = Callable[[argparse.Namespace], int]
_HANDLERS: dict[str, Handler] = {}


def _command(name: str) -> Callable[[Handler], Handler]:
    def register(fn: Handler) -> Handler:
        _HANDLERS[name] = fn
        return fn
    return register


def _print_json(data: Any) -> None:
    sys.stdout.write(json.dumps(data, ensure_ascii=False, indent=2) + "\n")


def _width() -> int:
    return min(100, shutil.get_terminal_size((100, 24)).columns)


def _wrap(text: str, indent: str = "  ") -> str:
    return "\n".join(textwrap.fill(par, _width(), initial_indent=indent, subsequent_indent=indent)
                     for par in text.split("\n") if par.strip())


# --------------------------------------------------------------------------------------------- rule

@_command("rule")
def cmd_rule(args: argparse.Namespace) -> int:
    """Print one paragraph with its errata, FAQ, links and the engine rules that cite it."""
    from engine.registry import implemented_by

    corpus = get_corpus()
    pid = args.id.strip().lower()
    try:
        data = corpus.to_json(pid, implemented_by(pid))
    except UnknownParagraphError:
        close = [p.id for p in corpus if p.id.startswith(pid) or pid in p.id][:8]
        hint = f" (did you mean: {', '.join(close)})" if close else ""
        if args.json:
            _print_json({"error": f"unknown paragraph id {pid!r}", "path": "id"})
        else:
            print(f"runecodex: unknown paragraph id {pid!r}{hint}", file=sys.stderr)
        return 1
    if args.json:
        _print_json(data)
        return 0
    print(f"{data['id']}  [{data['kind']}]  {data['title']}")
    print(f"  {data['locator']}  ({corpus.games.get(data['game'], data['game'])})")
    if data["amended_by"]:
        print(f"  AMENDED by {', '.join(data['amended_by'])}: corrected text shown")
    print()
    # the page's parts as the app's /rules/<id> and the site show them (engine.views.paragraph)
    view = paragraph.compose(corpus, data["id"], data["implemented_by"])
    print(paragraph.to_text([*view.body, *(b for b in (view.about, view.links) if b is not None)], _width()))
    if data.get("index"):
        print(f"\n  Book index sends you to: {', '.join(data['index'])}")
    return 0


# --------------------------------------------------------------------------------------------- list

@_command("list")
def cmd_list(args: argparse.Namespace) -> int:
    """List paragraphs, optionally of one game and kind."""
    corpus = get_corpus()
    if args.game and args.game not in corpus.games:
        print(f"runecodex: unknown game {args.game!r} (one of {', '.join(corpus.games)})", file=sys.stderr)
        return 2
    chosen = corpus.select(args.game, args.kind)
    if args.json:
        _print_json({"paragraphs": [corpus.summary_json(p.id) for p in chosen]})
        return 0
    for p in chosen:
        print(f"{p.id:<32} {p.kind:<9} {p.title}  — {corpus.locator(p.id)}")
    print(f"{len(chosen)} paragraph(s)", file=sys.stderr)
    return 0


# --------------------------------------------------------------------------------------------- check

def _summary(corpus: Corpus) -> str:
    lines = []
    for game, name in corpus.games.items():
        paras = corpus.select(game)
        kinds = {k: sum(1 for p in paras if p.kind == k) for k in KINDS}
        detail = ", ".join(f"{n} {k}" for k, n in kinds.items() if n)
        lines.append(f"  {name:<28} {len(paras):>4} paragraphs ({detail or 'none yet'})")
    return "\n".join(lines)


def _data_report(corpus: Corpus, problems: list[Any], structure: list[Any]) -> str:
    """Return the structured-data and reach lines of ``runecodex check`` (reach never fails the check)."""
    from engine.corpus import checks as corpus_checks
    from engine.corpus.facts import schema_of

    fact_errors = sum(1 for p in problems if ".facts" in p.message or "corrected_facts" in p.message
                      or p.file == "facts.yaml")
    errata = corpus.select(kind="errata")
    gaps = corpus_checks.errata_gaps(corpus)
    summaries = [p for p in corpus if p.summarizes]
    lines = [
        "Structured data:",
        f"  facts: {sum(1 for p in corpus if p.facts)} paragraphs, {len(schema_of(str(corpus.root)))} keys declared "
        f"in facts.yaml, {fact_errors} parse/schema error(s)",
        f"  errata: {len(errata)}, {len(gaps)} left uncorrected in facts or tables",
        f"  summaries: {len(summaries)} declare what they summarize, "
        f"{len(corpus_checks.contradictions(corpus))} contradiction(s) with their details",
        f"  notes: {sum(1 for p in corpus if p.note)} paragraphs, "
        f"{sum(1 for p in structure if 'belongs in note' in p.message)} remark(s) left in rule text",
        "Reach (reported only; tests/test_corpus_reach.py enforces 100 %):",
    ]
    for r in corpus_checks.reach(corpus):
        lines.append(f"  {r.field:<6} {r.have:>4}/{r.total:<4} ({100 * r.share:.1f}%) of {', '.join(r.kinds)}")
    return "\n".join(lines)


@_command("check")
def cmd_check(args: argparse.Namespace) -> int:
    """Validate the corpus and, with sources, every locator; exit non-zero on any problem."""
    from engine.corpus import checks as corpus_checks
    from engine.corpus.sources import SourceChecker, default_sources

    root = Path(args.rules) if args.rules else None
    corpus, problems = read_corpus(root)
    if (corpus.root / "quickref.yaml").is_file():  # the quick reference's topics name paragraph ids
        from engine.views.quickref import read_catalog

        problems = [*problems, *read_catalog(corpus)[1]]
    if args.doc and args.doc not in corpus.documents:
        print(f"runecodex: unknown document {args.doc!r} (one of {', '.join(corpus.documents)})",
              file=sys.stderr)
        return 2
    shown = [p for p in problems if not args.doc or f"{args.doc}/" in p.file or p.file == "documents.yaml"]
    sources = Path(args.sources) if args.sources else (None if args.no_sources else default_sources())
    coverage: list[Any] = []
    if sources is not None:
        if not sources.is_dir():
            print(f"runecodex: no source folder {str(sources)!r}", file=sys.stderr)
            return 2
        source_problems, coverage = SourceChecker(corpus, sources).check(args.doc)
        shown += source_problems
    structure = corpus_checks.check(corpus) if not args.doc else [
        p for p in corpus_checks.check(corpus) if f"{args.doc}/" in p.file]
    shown += structure
    for problem in shown:
        print(problem)
    print(f"Corpus: {len(corpus)} paragraphs")
    print(_summary(corpus))
    print(_data_report(corpus, problems, structure))
    if coverage:
        print(f"Source check against {sources}:")
        for c in coverage:
            print(f"  {c.doc:<22} {c.cited:>3}/{c.total:<3} rule-bearing sections cited "
                  f"({100 * c.share:.1f}%), {c.ignored} non-rule sections left out")
            if args.verbose and c.missing:
                for m in c.missing:
                    print(f"      not cited: {m}")
    if shown:
        print(f"{len(shown)} problem(s)")
        return 1
    print("no problems")
    return 0


# --------------------------------------------------------------------------------------------- resolve

def _read_position(path: str) -> Any:
    from engine import jsoninput
    from engine.errors import UnreadableInputError

    try:
        raw = sys.stdin.read() if path == "-" else Path(path).read_text(encoding="utf-8")
    except OSError as exc:
        raise UnreadableInputError(f"cannot read {path!r}: {(exc.strerror or str(exc)).lower()}", path="") from None
    except UnicodeDecodeError:
        raise UnreadableInputError(f"{path!r} is not UTF-8 text", path="") from None
    return jsoninput.parse(raw)


def _shown(value: Any, words: Mapping[str, str]) -> str:
    """Return an outcome value as a player reads it: yes/no, words for coded values, lists joined."""
    if isinstance(value, bool):
        return "yes" if value else "no"
    if value is None:
        return "—"
    if isinstance(value, str):
        return words.get(value, value)
    if isinstance(value, list) and all(isinstance(v, str | int) and not isinstance(v, bool) for v in value):
        return ", ".join(words.get(str(v), str(v)) for v in value) or "none"
    return json.dumps(value, ensure_ascii=False)


def _unreadable(exc: RunecodexError, as_json: bool) -> int:
    """Say why the input cannot be read (its JSON body too with ``--json``) and return exit status 2."""
    if as_json:
        _print_json(exc.to_json())
    print(f"runecodex: {exc.message}" + (f" (at {exc.path})" if exc.path else ""), file=sys.stderr)
    return 2


@_command("resolve")
def cmd_resolve(args: argparse.Namespace) -> int:
    """Resolve a position: what happens now, step by step, with the cited paragraphs."""
    from engine.core import resolve
    from engine.errors import UnreadableInputError

    try:
        position = _read_position(args.file)
        ruling = resolve(position)
    except UnreadableInputError as exc:
        return _unreadable(exc, args.json)
    if args.json:
        _print_json(ruling.to_json())
        return 0
    _print_ruling(ruling, _piece_names(position))
    return 0


def _piece_names(position: Any) -> dict[str, str]:
    """Return the names a player reads for a table position's handles (units and terrain; empty otherwise)."""
    names: dict[str, str] = {}
    if not isinstance(position, dict):
        return names
    for key, fallback, word in (("units", "name", "Unit"), ("terrain", "kind", "Terrain")):
        pieces = position.get(key)
        for i, piece in enumerate(pieces if isinstance(pieces, list) else []):
            if isinstance(piece, dict) and isinstance(piece.get("id"), str):
                name = piece.get(fallback)
                names[piece["id"]] = name.strip() if isinstance(name, str) and name.strip() else f"{word} {i + 1}"
    return names


def _named(value: Any, names: Mapping[str, str]) -> Any:
    """Return an outcome value with table handles replaced by the pieces' names (strings in lists and maps)."""
    if isinstance(value, str):
        return names.get(value, value)
    if isinstance(value, list):
        return [_named(v, names) for v in value]
    if isinstance(value, dict):
        return {names.get(k, k): _named(v, names) for k, v in value.items()}
    return value


def _print_ruling(ruling: Resolution, names: Mapping[str, str] | None = None) -> None:
    """Print a ruling (:class:`engine.core.Resolution`) for a player: summary, reading, steps, decisions, outcome."""
    from engine.core import load_situations

    corpus = get_corpus()
    sit = load_situations()[(ruling.game, ruling.situation)]
    print(textwrap.fill(ruling.summary, _width()))
    print(f"\n{corpus.games.get(ruling.game, ruling.game)}: {ruling.situation}"
          + ("" if ruling.legal else "  —  NOT LEGAL"))
    if ruling.reading:
        print("\nWhat this ruling read:")
        for line in ruling.reading:
            print(textwrap.fill(line, _width(), initial_indent="  - ", subsequent_indent="    "))
        print()
    for n, step in enumerate(ruling.steps, 1):
        print(textwrap.fill(step.text, _width(), initial_indent=f"{n:>3}. ", subsequent_indent="     "))
        for pid in step.cites:
            src = ruling.sources[pid]
            print(f"       [{pid}] {src['title']} — {src['locator']}")
    if ruling.decisions:
        print("\nDecisions left to the players:")
        for d in ruling.decisions:
            opts = f" (options: {', '.join(map(str, d.options))})" if d.options else ""
            print(f"  - {d.who}: choose {d.choose}{opts}; answer at {d.field}  [{', '.join(d.cites)}]")
    print("\nOutcome:")
    for key, value in ruling.outcome.items():
        if key == "drawing":
            print(f"  {sit.label(key)}: {len(value)} (drawn on the table board)")
        elif key != "violations":
            print(f"  {sit.label(key)}: {_shown(_named(value, names or {}), sit.values.get(key, {}))}")
    for v in ruling.outcome.get("violations", []):
        print(f"  violation: {v['message']}  [{', '.join(v['cites'])}]")


@_command("army-import")
def cmd_army_import(args: argparse.Namespace) -> int:
    """Read a BattleScribe or New Recruit roster into an army position and rule on it."""
    from engine.errors import UnreadableInputError
    from engine.files.battlescribe import MAX_FILE, read_roster

    data_dir = args.data or os.environ.get("RUNECODEX_BSDATA") or None
    try:
        data = _read_roster_file(args.file, MAX_FILE)
        doc = read_roster(data, Path(args.file).name)  # a hostile file stops here, before the engine loads
        from engine.runewars_miniatures import roster

        imported = roster.from_document(doc, data_dir)
        ruling = roster.rule_on(imported)
    except UnreadableInputError as exc:
        return _unreadable(exc, args.json)
    if args.json:
        _print_json({"position": imported.position, "ruling": ruling.to_json(),
                     "import": {**imported.source, "missing": imported.missing}})
        return 0
    print("Position read from the roster:")
    print(json.dumps(imported.position, ensure_ascii=False, indent=2))
    print()
    _print_ruling(ruling)
    if imported.missing:
        print("\nNot stated in the roster:")
        for item in imported.missing:
            print(f"  - {item['path']}: {item['why']}")
    return 0


def _read_roster_file(path: str, cap: int) -> bytes:
    """Return a roster file's bytes (``-``: standard input), refusing one over *cap* bytes before reading it."""
    from engine.errors import UnreadableInputError

    try:
        if path == "-":
            data = sys.stdin.buffer.read(cap + 1)
        else:
            size = os.stat(path).st_size
            if size > cap:
                raise UnreadableInputError(f"{path!r} is {size:,} bytes (a roster file is at most {cap:,})",
                                           path="file")
            with open(path, "rb") as handle:
                data = handle.read(cap + 1)
    except OSError as exc:
        raise UnreadableInputError(f"cannot read {path!r}: {(exc.strerror or str(exc)).lower()}",
                                   path="file") from None
    if len(data) > cap:
        raise UnreadableInputError(f"{path!r} is more than {cap:,} bytes (a roster file is at most {cap:,})",
                                   path="file")
    return data


def _situation_reference(sits: list[Any], name: str, game: str | None) -> int:
    """Print the reference of situation *name* (its fields and worked examples); exit 2 when unknown."""
    from engine.views.situations import describe, to_text

    found = [s for s in sits if s.name == name]
    if not found:
        known = ", ".join(sorted({s.name for s in sits}))
        print(f"runecodex: no situation {name!r}" + (f" in {game}" if game else "") + f"; known: {known}",
              file=sys.stderr)
        return 2
    print("\n\n".join(to_text(describe(s)) for s in found))
    return 0


@_command("situations")
def cmd_situations(args: argparse.Namespace) -> int:
    """List the situations the engine resolves, with their JSON Schemas."""
    from engine.core import load_situations

    sits = sorted(load_situations().values(), key=lambda s: (s.game, s.name))
    if args.game:
        sits = [s for s in sits if s.game == args.game]
    if args.name:
        return _situation_reference(sits, args.name, args.game)
    if args.json:
        _print_json({"situations": [s.to_json() for s in sits]})
        return 0
    game = None
    for s in sits:
        if s.game != game:
            game = s.game
            print(f"{get_corpus().games.get(game, game)} ({game})")
        print(f"  {s.name:<18} {s.description}")
    return 0


# --------------------------------------------------------------------------------------------- graph

@_command("graph")
def cmd_graph(args: argparse.Namespace) -> int:
    """Print the glossary graph's statistics, or export a term's neighbourhood (svg, dot, json)."""
    from engine.files import ownership

    if args.output:
        ownership.check_file(Path(args.output), "the graph")  # refused before the graph is computed
    status, text = graph_command(get_corpus(), stats=args.stats, list_all=args.all, as_json=args.json,
                                 term=args.term, game=args.game, depth=args.depth, max_nodes=args.max_nodes,
                                 fmt=args.format, output=args.output, base=args.base)
    sys.stdout.write(text)  # the file itself is written and recorded by engine.files.ownership.write_file
    return status


# --------------------------------------------------------------------------------------------- build

@_command("build")
def cmd_build(args: argparse.Namespace) -> int:
    """Build the site (and the search index) into --out, aside and swapped in when complete."""
    from engine.site.build import build_command

    return build_command(out=args.out, fresh=args.fresh, jobs=args.jobs, quiet=args.quiet)


# --------------------------------------------------------------------------------------------- quickref

@_command("quickref")
def cmd_quickref(args: argparse.Namespace) -> int:
    """Write the printable quick reference of a game (PDF or HTML), or list its topics."""
    from engine.files import ownership
    from engine.views.quickref import default_output, quickref_command

    size = "large" if args.large else args.size
    if not args.list_topics and args.output != "-":
        fmt = args.format or ("html" if args.output and args.output.lower().endswith((".html", ".htm")) else "pdf")
        target = Path(args.output) if args.output else default_output(args.game, fmt, size)
        ownership.check_file(target, "the quick reference")  # never a file of the user's, a device or a link
    # refused before rendering; the sheet itself is written and recorded by engine.files.ownership.write_file
    return quickref_command(args.game, topics=args.topics, paper=args.paper, fmt=args.format,
                            output=args.output, list_only=args.list_topics, as_json=args.json, size=size)


# --------------------------------------------------------------------------------------------- search

def _search_offset(args: argparse.Namespace) -> int:
    """Return the offset of ``--offset`` or ``--page`` (one of them), checked."""
    from engine.errors import UnreadableInputError

    if args.offset is not None and args.page is not None:
        raise UnreadableInputError("give --offset or --page, not both", path="page")
    if args.page is not None:
        if args.page < 1:
            raise UnreadableInputError(f"page must be 1 or more, got {args.page}", path="page")
        return int((args.page - 1) * max(args.limit, 1))
    return int(args.offset or 0)


@_command("search")
def cmd_search(args: argparse.Namespace) -> int:
    """Find the paragraphs that answer a question, best first (the contract's JSON with --json)."""
    from engine import search as search_module

    query = " ".join(args.query)
    offset = _search_offset(args)
    detect = not args.all_games
    try:
        return search_module.search_command(query, args.game, args.limit, args.json, offset, detect)
    except (RunecodexError, BrokenPipeError):  # a closed pipe (`| head`) is no broken index
        raise
    except Exception as exc:  # an index on disk that cannot be read: rebuild it once
        from engine.search.index import build_index, default_index_dir

        index_dir = default_index_dir()
        print(f"runecodex: the search index {str(index_dir)!r} is unreadable ({type(exc).__name__}); "
              "rebuilding it…", file=sys.stderr)
        build_index(index_dir)
        getattr(search_module, "_HANDLES", {}).clear()  # forget the handle on the broken index
    try:
        return search_module.search_command(query, args.game, args.limit, args.json, offset, detect)
    except (RunecodexError, BrokenPipeError):
        raise
    except Exception as exc:  # reported in one line, never a traceback
        print(f"runecodex: the search index is unreadable even after a rebuild ({type(exc).__name__}: {exc})",
              file=sys.stderr)
        return 2


@_command("index")
def cmd_index(args: argparse.Namespace) -> int:
    """Build the search index (default build/index/), aside and swapped in when complete."""
    from engine.search import index_command

    return index_command(args.out, args.if_stale)


# --------------------------------------------------------------------------------------------- serve

@_command("serve")
def cmd_serve(args: argparse.Namespace) -> int:
    """Serve the web app with waitress (building the site and search index first when missing)."""
    from webapp.server import serve

    _check_listen(args.host, args.port)
    try:
        return serve(host=args.host, port=args.port, threads=args.threads, build=not args.no_build)
    except OSError as exc:  # e.g. the port was taken between the check and waitress's bind
        print(f"runecodex: cannot listen on {args.host}:{args.port}: {(exc.strerror or str(exc)).lower()}",
              file=sys.stderr)
        return 2


def _check_listen(host: str, port: int) -> None:
    """Raise :class:`UnreadableInputError` unless *host* resolves and *port* is free on it."""
    import socket

    from engine.errors import UnreadableInputError

    try:
        infos = socket.getaddrinfo(host, port, type=socket.SOCK_STREAM, flags=socket.AI_PASSIVE)
    except (socket.gaierror, UnicodeError, ValueError) as exc:
        reason = exc.strerror if isinstance(exc, socket.gaierror) and exc.strerror else str(exc)
        raise UnreadableInputError(f"cannot listen on host {host!r}: {reason.lower()}", path="host") from None
    family, kind, proto, _, address = infos[0]
    with socket.socket(family, kind, proto) as probe:
        probe.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)  # as waitress does
        try:
            probe.bind(address)
        except OSError as exc:
            raise UnreadableInputError(f"cannot listen on {host}:{port}: {(exc.strerror or str(exc)).lower()}",
                                       path="port") from None


def _port(text: str) -> int:
    """Return a TCP port (0 picks a free one) from the command line."""
    try:
        value = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"the port must be a number from 0 to 65535, got {text[:40]!r}") from None
    if not 0 <= value <= 65535:
        raise argparse.ArgumentTypeError(f"the port must be a number from 0 to 65535, got {value}")
    return value


def _count(low: int, high: int) -> Callable[[str], int]:
    """Return an argparse type accepting whole numbers from *low* to *high*."""
    def parse(text: str) -> int:
        try:
            value = int(text)
        except ValueError:
            raise argparse.ArgumentTypeError(f"expected a whole number from {low} to {high}, got {text[:40]!r}") \
                from None
        if not low <= value <= high:
            raise argparse.ArgumentTypeError(f"expected a whole number from {low} to {high}, got {value}")
        return value
    return parse


def graph_command(corpus: Corpus, *, stats: bool, list_all: bool, as_json: bool, term: str | None,
                  game: str | None, depth: int, max_nodes: int, fmt: str, output: str | None,
                  base: str) -> tuple[int, str]:
    """Run ``runecodex graph`` and return ``(exit status, text to print)``; write *output* if given.

    ``--stats`` exits 1 when a reference dangles. ``--term`` exports the term's neighbourhood.
    """
    from engine.site.layout import site_linker
    from engine.views.graph import GraphError, GraphStats, build_graph, export, term_neighbourhood

    graph = build_graph(corpus)
    if stats or term is None:
        s = GraphStats.from_graph(graph)
        text = json.dumps(s.to_json(), indent=2) + "\n" if as_json else s.render(None if list_all else 20) + "\n"
        return (1 if s.dangling else 0), text
    if depth < 0 or depth > 6:
        raise GraphError(f"depth must be between 0 and 6, got {depth}", path="depth")
    if max_nodes < 1:
        raise GraphError(f"max-nodes must be at least 1, got {max_nodes}", path="max-nodes")
    sub = term_neighbourhood(graph, term, game, depth, max_nodes, fanout=None)
    text = export(sub, fmt, site_linker(corpus, base=base))
    if output:
        from pathlib import Path

        from engine.files.ownership import write_file

        # aside, then renamed: a full disk or a link planted at *output* never costs the previous file
        write_file(Path(output), text.encode("utf-8"), "the graph")
        return 0, f"wrote {output} ({sub.number_of_nodes()} nodes, {sub.number_of_edges()} edges)\n"
    return 0, text


class _Parser(argparse.ArgumentParser):
    """An argument parser whose errors are one line (and exit 2), naming the command and its help."""

    def error(self, message: str) -> NoReturn:
        """Print ``runecodex COMMAND: error: MESSAGE (see --help)`` and exit 2."""
        self.exit(2, f"{self.prog}: error: {message} (see {self.prog} --help)\n")


# --------------------------------------------------------------------------------------------- main

def build_parser() -> argparse.ArgumentParser:
    """Return the argument parser of ``runecodex``."""
    parser = _Parser(prog="runecodex", description="Rules reference and rulings assistant "
                                     "for the Terrinoth games.")
    sub = parser.add_subparsers(dest="command", metavar="COMMAND", parser_class=_Parser)
    for add in (_reading_commands, _graph_command, _publishing_commands, _search_commands):
        add(sub)
    return parser


def _reading_commands(sub: Any) -> None:
    """Add ``rule``, ``list``, ``check``, ``resolve`` and ``situations``."""
    p = sub.add_parser("rule", help="show one paragraph by id")
    p.add_argument("id")
    p.add_argument("--json", action="store_true", help="print the contract's JSON")

    p = sub.add_parser("list", help="list paragraphs")
    p.add_argument("--game")
    p.add_argument("--kind", choices=KINDS)
    p.add_argument("--json", action="store_true")

    p = sub.add_parser("check", help="validate the corpus (and its locators against the sources)")
    p.add_argument("--sources", help="folder of the source texts (default: ../shared/seeds or "
                                     "$RUNECODEX_SOURCES)")
    p.add_argument("--no-sources", action="store_true", help="skip the source check")
    p.add_argument("--doc", help="only this document")
    p.add_argument("--rules", help="corpus folder (default: rules/)")
    p.add_argument("-v", "--verbose", action="store_true", help="list the sections no paragraph cites")

    p = sub.add_parser("resolve", help="what happens now: resolve a position (a JSON file, or - for stdin)")
    p.add_argument("file")
    p.add_argument("--json", action="store_true")

    p = sub.add_parser("army-import", help="check a RuneWars Miniatures army list: a BattleScribe roster (.ros, "
                                          ".rosz) or New Recruit JSON export")
    p.add_argument("file", help="the roster file (- for standard input)")
    p.add_argument("--data", help="folder of your BattleScribe data files (.gst/.cat, .gstz/.catz) to check costs, "
                                  "configurations and upgrade icons against (default: $RUNECODEX_BSDATA)")
    p.add_argument("--json", action="store_true", help="print {position, ruling, import} as JSON")

    p = sub.add_parser("situations", help="list the situations the engine resolves, or one situation's fields "
                                         "and worked examples")
    p.add_argument("name", nargs="?", help="a situation: print its reference (every field, its worked examples)")
    p.add_argument("--game", help="only this game's situations")
    p.add_argument("--json", action="store_true")


def _graph_command(sub: Any) -> None:
    """Add ``graph``."""
    p = sub.add_parser("graph", help="the glossary graph: statistics, or a term's neighbourhood")
    p.add_argument("--stats", action="store_true", help="print counts, dangling references, unused terms "
                   "and paragraphs nothing links to (exit 1 if a reference dangles)")
    p.add_argument("--all", action="store_true", help="with --stats: list every item, not the first 20")
    p.add_argument("--json", action="store_true", help="with --stats: print JSON")
    p.add_argument("--term", help="export the neighbourhood of this glossary term (or alias)")
    p.add_argument("--game", help="the game whose glossary defines --term")
    p.add_argument("--depth", type=_count(0, 50), default=2, help="links to follow from the term (default 2)")
    p.add_argument("--max-nodes", type=_count(1, 5000), default=40, help="largest picture (default 40 nodes)")
    p.add_argument("--format", choices=("svg", "dot", "json"), default="svg")
    p.add_argument("-o", "--output", help="write to this file instead of standard output")
    p.add_argument("--base", default="/site/", help="URL of the built site the nodes link to (default /site/, "
                   "where the web app serves it)")


def _publishing_commands(sub: Any) -> None:
    """Add ``build`` and ``quickref``."""
    p = sub.add_parser("build", help="build the site and the search index")
    p.add_argument("--out", help="output folder (default build/site/)")
    p.add_argument("--fresh", action="store_true", help="rebuild everything (ignore the incremental cache)")
    p.add_argument("-j", "--jobs", type=_count(1, 64), default=None,
                   help="parallel Sphinx processes (default: cores)")
    p.add_argument("-q", "--quiet", action="store_true", help="print only warnings and the summary")

    p = sub.add_parser("quickref", help="write the printable quick reference of a game (PDF or HTML)")
    p.add_argument("--game", required=True, help="the game: rune-age, runewars-miniatures, runewars, "
                   "runeslingers")
    p.add_argument("--topics", help="comma-separated topic keys: 'a,b' for exactly these, '+a,-b' to change "
                   "the default selection (write --topics=-a when it starts with -), 'all', or a chapter key "
                   "for all its topics (see --list-topics)")
    p.add_argument("--paper", default="a4", help="a4 (default) or letter")
    p.add_argument("--size", choices=("standard", "large"), default="standard",
                   help="standard (default: the two-page sheet) or large (body type 13 pt, one or two topics "
                   "a page, to read across the table)")
    p.add_argument("--large", action="store_true", help="the same as --size large")
    p.add_argument("--format", choices=("pdf", "html"), help="pdf (default, or html when -o ends in .html)")
    p.add_argument("-o", "--output", help="file to write, - for standard output "
                   "(default build/quickref/quickref-GAME.pdf)")
    p.add_argument("--list-topics", action="store_true", help="list the game's topics by chapter and exit")
    p.add_argument("--json", action="store_true", help="with --list-topics: print JSON")


def _search_commands(sub: Any) -> None:
    """Add ``search``, ``index`` and ``serve``."""
    p = sub.add_parser("search", help="find the paragraphs that answer a question")
    p.add_argument("query", nargs="+", help='the question; "quoted phrase", +required, -excluded words')
    p.add_argument("--game", help="only this game")
    p.add_argument("--limit", type=int, default=10, help="most hits to show (default 10)")
    p.add_argument("--offset", type=int, default=None, help="skip this many hits (paging; see next_offset)")
    p.add_argument("--page", type=int, default=None, help="show page N of --limit hits (1 = the first)")
    p.add_argument("--all-games", action="store_true",
                   help="search every game even when the question names one")
    p.add_argument("--json", action="store_true", help="print the contract's JSON")

    p = sub.add_parser("index", help="build the search index")
    p.add_argument("--out", help="index folder (default build/index/ or $RUNECODEX_INDEX)")
    p.add_argument("--if-stale", action="store_true", help="only when missing or older than the corpus")

    p = sub.add_parser("serve", help="serve the web app (search, rule pages, boards, JSON API)")
    p.add_argument("--host", default="127.0.0.1", help="address to listen on (default 127.0.0.1)")
    p.add_argument("--port", type=_port, default=8000, help="port (default 8000; 0 picks a free one)")
    p.add_argument("--threads", type=_count(1, 256), default=4, help="waitress worker threads (default 4)")
    p.add_argument("--no-build", action="store_true", help="do not build a missing site or search index")


def main(argv: Sequence[str] | None = None) -> int:
    """Run the command line; return the exit status."""
    parser = build_parser()
    args = parser.parse_args(argv)
    if not args.command:
        parser.print_help()
        return 0
    rules_env = os.environ.get("RUNECODEX_RULES")
    if rules_env and not (Path(rules_env) / "documents.yaml").is_file():
        print(f"runecodex: RUNECODEX_RULES={rules_env!r} is not a rules folder (it has no documents.yaml)",
              file=sys.stderr)
        return 2
    try:
        return _HANDLERS[args.command](args)
    except CorpusError as exc:
        for problem in exc.problems[:50]:
            print(problem, file=sys.stderr)
        print(f"runecodex: {exc.message} (run `runecodex check`)", file=sys.stderr)
        return 1
    except RunecodexError as exc:
        print(f"runecodex: {exc.message}" + (f" (at {exc.path})" if exc.path else ""), file=sys.stderr)
        return 2
    except BrokenPipeError:  # pragma: no cover - e.g. `runecodex list | head`
        return 0
    except OSError as exc:  # a file or folder the command could not read or write
        where = f" {exc.filename!r}:" if exc.filename else ""
        print(f"runecodex:{where} {(exc.strerror or str(exc)).lower()}", file=sys.stderr)
        return 2
    except RecursionError:
        print("runecodex: the input is nested too deeply", file=sys.stderr)
        return 2


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main())
