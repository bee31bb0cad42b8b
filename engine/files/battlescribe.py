"""Read BattleScribe files safely: rosters (``.ros``, ``.rosz``, New Recruit's JSON) and data files
(``.gst``/``.cat`` and their zipped ``.gstz``/``.catz``) into a small neutral tree of :class:`Node`.

Every file is untrusted. XML is parsed by defusedxml with DTDs, entities and external references refused
(a billion-laughs or external-entity file names its DTD and stops at once), and the tree is built by a
bounded target: depth, element count, attribute and text lengths each have a cap checked as the parser goes,
so a hostile file stops at the first element over a cap. A zip is opened only if its size and member count
are small; its one member is read up to a cap whatever its header claims (a zip bomb stops there). JSON is
read by :mod:`engine.jsoninput` (depth, huge numbers, lone surrogates refused) and mapped to the same tree:
an object's scalar members are attributes, a list member ``costs`` holds ``cost`` children, and so on.

Every refusal is an :class:`~engine.errors.UnreadableInputError` naming the file and the cap.
"""

from __future__ import annotations

import io
import zipfile
import zlib
from collections.abc import Iterator, Mapping
from dataclasses import dataclass, field
from typing import Any

from defusedxml import DefusedXmlException
from defusedxml.ElementTree import ParseError, XMLParser

from engine import jsoninput
from engine.errors import UnreadableInputError

MAX_FILE = 2 * 1024 * 1024
"""Bytes of a roster file as given (zipped or not)."""
MAX_XML = 8 * 1024 * 1024
"""Bytes of XML or JSON once unzipped (a roster of a 200-point army is tens of kilobytes)."""
MAX_DATA_FILE = 16 * 1024 * 1024
"""Bytes of one BattleScribe data file (``.cat``/``.gst``) once unzipped."""
MAX_DEPTH = 64
"""Elements nested inside each other."""
MAX_NODES = 400_000
"""Elements in one file."""
MAX_ATTRIBUTE = 4096
"""Characters of one attribute value (names, ids, costs)."""
MAX_TEXT = 65_536
"""Characters of one element's text (a rule's description)."""
MAX_MEMBERS = 16
"""Files inside a zipped roster or data file."""

ROSTER_NS = "http://www.battlescribe.net/schema/rosterSchema"
CATALOGUE_NS = "http://www.battlescribe.net/schema/catalogueSchema"
GAME_SYSTEM_NS = "http://www.battlescribe.net/schema/gameSystemSchema"

SINGULAR = {"forces": "force", "selections": "selection", "costs": "cost", "costLimits": "costLimit",
            "categories": "category", "rules": "rule", "profiles": "profile", "characteristics": "characteristic",
            "publications": "publication"}
"""A JSON list member's children's tag (New Recruit's export names lists in the plural)."""


@dataclass
class Node:
    """One element: its local tag (namespace dropped), attributes, text and children in order."""

    tag: str
    attrs: dict[str, str] = field(default_factory=dict)
    children: list[Node] = field(default_factory=list)
    text: str = ""
    namespace: str = ""

    def get(self, name: str, default: str = "") -> str:
        """Return an attribute (``default`` when absent)."""
        return self.attrs.get(name, default)

    def child(self, tag: str) -> Node | None:
        """Return the first child with *tag*."""
        return next((c for c in self.children if c.tag == tag), None)

    def items(self, holder: str, tag: str) -> list[Node]:
        """Return the *tag* children of the first *holder* child (``items("costs", "cost")``)."""
        box = self.child(holder)
        return [c for c in box.children if c.tag == tag] if box else []

    def walk(self) -> Iterator[tuple[Node, tuple[Node, ...]]]:
        """Yield every element below this one with its ancestors (this one first), without recursion."""
        stack: list[tuple[Node, tuple[Node, ...]]] = [(self, ())]
        while stack:
            node, above = stack.pop()
            yield node, above
            stack.extend((c, (*above, node)) for c in reversed(node.children))


@dataclass(frozen=True)
class Document:
    """A file read: its root element, the format it came in and the name to show."""

    root: Node
    format: str  # "battlescribe-xml", "battlescribe-zip" or "newrecruit-json"
    name: str


class _Builder:
    """The parser's target: builds :class:`Node` trees and refuses what goes over a cap as it is read."""

    def __init__(self, name: str) -> None:
        self.name = name
        self.stack: list[Node] = []
        self.root: Node | None = None
        self.count = 0

    def _refuse(self, what: str) -> UnreadableInputError:
        return UnreadableInputError(f"{self.name}: {what}", path="file")

    def start(self, tag: str, attrs: dict[str, str]) -> None:
        self.count += 1
        if self.count > MAX_NODES:
            raise self._refuse(f"too many elements (more than {MAX_NODES:,})")
        if len(self.stack) >= MAX_DEPTH:
            raise self._refuse(f"elements nested too deeply (more than {MAX_DEPTH} levels)")
        for key, value in attrs.items():
            if len(value) > MAX_ATTRIBUTE:
                raise self._refuse(f"attribute {_local(key)!r} is too long ({len(value):,} characters, "
                                   f"at most {MAX_ATTRIBUTE:,})")
        namespace, local = (tag[1:].split("}", 1) if tag.startswith("{") else ("", tag))
        node = Node(local, {_local(k): v for k, v in attrs.items()}, namespace=namespace)
        if self.stack:
            self.stack[-1].children.append(node)
        else:
            self.root = node
        self.stack.append(node)

    def end(self, tag: str) -> None:
        self.stack.pop()

    def data(self, text: str) -> None:
        if self.stack:
            node = self.stack[-1]
            if len(node.text) + len(text) > MAX_TEXT:
                raise self._refuse(f"the text of a {node.tag!r} element is too long (at most {MAX_TEXT:,} "
                                   "characters)")
            node.text += text

    def close(self) -> Node:
        if self.root is None:
            raise self._refuse("no XML element")
        return self.root


def _local(name: str) -> str:
    return name.split("}", 1)[1] if name.startswith("{") else name


def parse_xml(data: bytes, name: str) -> Node:
    """Return the root of an XML document, refusing DTDs, entities, external references and anything over a cap."""
    builder = _Builder(name)
    parser = XMLParser(target=builder, forbid_dtd=True, forbid_entities=True, forbid_external=True)
    try:
        parser.feed(data)
        parser.close()
        root = builder.close()
    except DefusedXmlException as exc:
        kind = type(exc).__name__
        what = {"DTDForbidden": "a DTD (document type declaration)", "EntitiesForbidden": "an entity declaration",
                "ExternalReferenceForbidden": "an external reference"}.get(kind, "a forbidden construct")
        raise UnreadableInputError(f"{name}: the file contains {what}, which is refused", path="file") from None
    except ParseError as exc:
        raise UnreadableInputError(f"{name}: not well-formed XML ({str(exc)[:120]})", path="file") from None
    return root


def unzip(data: bytes, name: str, suffixes: tuple[str, ...], cap: int) -> bytes:
    """Return the one member of a zip whose name ends with one of *suffixes*, read up to *cap* bytes."""
    try:
        with zipfile.ZipFile(io.BytesIO(data)) as archive:
            members = archive.infolist()
            if len(members) > MAX_MEMBERS:
                raise UnreadableInputError(f"{name}: the zip holds {len(members)} files (at most {MAX_MEMBERS})",
                                           path="file")
            chosen = [m for m in members if m.filename.lower().endswith(suffixes) and not m.is_dir()]
            if len(chosen) != 1:
                raise UnreadableInputError(f"{name}: the zip holds {len(chosen)} files ending "
                                           f"{' or '.join(suffixes)} (exactly 1 expected)", path="file")
            member = chosen[0]
            if member.file_size > cap:
                raise UnreadableInputError(f"{name}: {member.filename!r} unzips to {member.file_size:,} bytes "
                                           f"(at most {cap:,})", path="file")
            with archive.open(member) as handle:
                out = handle.read(cap + 1)
    except UnreadableInputError:
        raise
    except (zipfile.BadZipFile, zipfile.LargeZipFile, NotImplementedError, RuntimeError, zlib.error,
            EOFError, ValueError) as exc:
        raise UnreadableInputError(f"{name}: not a readable zip ({str(exc)[:120].lower()})", path="file") from None
    if len(out) > cap:
        raise UnreadableInputError(f"{name}: the zipped file unzips to more than {cap:,} bytes", path="file")
    return out


def _from_json(value: Any, tag: str) -> Node:
    """Return a JSON object as a :class:`Node` (scalars as attributes, lists as holders of singular children)."""
    node = Node(tag)
    stack: list[tuple[Any, Node]] = [(value, node)]
    count = 0
    while stack:
        item, target = stack.pop()
        count += 1
        if count > MAX_NODES:
            raise UnreadableInputError(f"too many objects (more than {MAX_NODES:,})", path="file")
        if not isinstance(item, Mapping):
            target.text = "" if item is None else str(item)
            continue
        for key, member in item.items():
            if isinstance(member, list):
                holder = Node(key)
                target.children.append(holder)
                for entry in member:
                    child = Node(SINGULAR.get(key, key.rstrip("s") or key))
                    holder.children.append(child)
                    stack.append((entry, child))
            elif isinstance(member, Mapping):
                child = Node(key)
                target.children.append(child)
                stack.append((member, child))
            elif key in ("description", "$text", "text"):
                target.text = "" if member is None else str(member)
            elif member is not None:
                text = str(member).lower() if isinstance(member, bool) else str(member)
                if len(text) > MAX_ATTRIBUTE:
                    raise UnreadableInputError(f"the value of {key!r} is too long ({len(text):,} characters, "
                                               f"at most {MAX_ATTRIBUTE:,})", path="file")
                target.attrs[key] = text
    return node


def _kind(data: bytes) -> str:
    head = data[:64].lstrip(b"\xef\xbb\xbf \t\r\n")
    if data[:4] == b"PK\x03\x04":
        return "zip"
    if head[:1] in (b"{", b"["):
        return "json"
    if head[:1] == b"<":
        return "xml"
    return "unknown"


def read_roster(data: bytes, name: str) -> Document:
    """Return a roster file (``.ros``, ``.rosz`` or New Recruit JSON) read into a tree rooted at ``roster``."""
    if len(data) > MAX_FILE:
        raise UnreadableInputError(f"{name}: the file is {len(data):,} bytes (at most {MAX_FILE:,})", path="file")
    kind = _kind(data)
    fmt = "battlescribe-xml"
    if kind == "zip":
        data, fmt = unzip(data, name, (".ros",), MAX_XML), "battlescribe-zip"
        kind = _kind(data)
        if kind != "xml":
            raise UnreadableInputError(f"{name}: the zipped roster is not XML", path="file")
    if kind == "json":
        value = jsoninput.parse_bytes(data, name)
        if not isinstance(value, dict) or not isinstance(value.get("roster"), dict):
            raise UnreadableInputError(f"{name}: a New Recruit roster is a JSON object with a 'roster' object",
                                       path="roster")
        return Document(_from_json(value["roster"], "roster"), "newrecruit-json", name)
    if kind != "xml":
        raise UnreadableInputError(f"{name}: not a BattleScribe roster (.ros, .rosz) or New Recruit JSON export",
                                   path="file")
    root = parse_xml(data, name)
    if root.tag != "roster" or root.namespace != ROSTER_NS:
        found = f"<{root.tag}>" + (f" in namespace {root.namespace!r}" if root.namespace else " without a namespace")
        raise UnreadableInputError(f"{name}: not a BattleScribe roster: the root is {found}, expected <roster> "
                                   f"in {ROSTER_NS}", path="roster")
    return Document(root, fmt, name)


def read_data_file(data: bytes, name: str) -> Node:
    """Return a BattleScribe data file (``.gst``, ``.cat``, ``.gstz``, ``.catz``) read into a tree."""
    if len(data) > MAX_DATA_FILE:
        raise UnreadableInputError(f"{name}: the file is {len(data):,} bytes (at most {MAX_DATA_FILE:,})",
                                   path="data")
    if _kind(data) == "zip":
        data = unzip(data, name, (".cat", ".gst"), MAX_DATA_FILE)
    root = parse_xml(data, name)
    expected = {"catalogue": CATALOGUE_NS, "gameSystem": GAME_SYSTEM_NS}
    if expected.get(root.tag) != root.namespace:
        raise UnreadableInputError(f"{name}: not a BattleScribe data file (root <{root.tag}>, expected "
                                   "<catalogue> or <gameSystem> in the BattleScribe namespace)", path="data")
    return root


__all__ = ["MAX_FILE", "Document", "Node", "read_data_file", "read_roster"]
