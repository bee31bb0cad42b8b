"""The one YAML reader of Runecodex: safe, strict and line-aware.

Every YAML file of the corpus (and the search synonyms) is read through :func:`read_yaml`, on libyaml's
``CSafeLoader`` (the pure-Python ``SafeLoader`` only when PyYAML was built without libyaml). It refuses
what a hand-written file never needs and a hostile one abuses, each as an error at its file and line:

- a duplicate key in a mapping (the later one would silently win);
- anchors and aliases (``&name`` / ``*name``: the "billion laughs" bomb); a node met twice is refused
  before it is built again;
- merge keys (``<<``);
- a key that is not a plain value (a list or a mapping as a key).

The data comes back as plain Python values (dicts, lists, scalars), with the line of every mapping,
every key and every list item kept aside in a :class:`YamlDoc`: :meth:`YamlDoc.line_of` turns a path
into the data (a pydantic error's ``loc``, e.g. ``("paragraphs", 3, "source", "page")``) into the line
of the deepest key or item it reaches.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import yaml

_BaseLoader: type[yaml.SafeLoader] = getattr(yaml, "CSafeLoader", yaml.SafeLoader)
MERGE_TAG = "tag:yaml.org,2002:merge"


class YamlError(ValueError):
    """A YAML file that cannot be read: its (relative) name, the line (0 when unknown) and what is wrong."""

    def __init__(self, file: str, line: int, message: str) -> None:
        super().__init__(f"{file}:{line}: {message}")
        self.file = file
        self.line = line
        self.message = message


@dataclass
class Lines:
    """The lines of one YAML document's containers, by the identity of the container built."""

    mappings: dict[int, tuple[int, dict[Any, int]]] = field(default_factory=dict)
    sequences: dict[int, tuple[int, list[int]]] = field(default_factory=dict)


@dataclass
class YamlDoc:
    """A YAML file read: its data, its name (for messages) and where each mapping, key and item starts."""

    data: Any
    file: str
    lines: Lines

    def line(self, value: Any) -> int:
        """Return the line where the mapping or list *value* (part of :attr:`data`) starts, 0 if unknown."""
        found = self.lines.mappings.get(id(value)) or self.lines.sequences.get(id(value))
        return found[0] if found else 0

    def line_of(self, loc: tuple[Any, ...], base: Any = None) -> int:
        """Return the line of the deepest key or item *loc* reaches from *base* (default: the whole data)."""
        node = self.data if base is None else base
        line = self.line(node) or 1
        for part in loc:
            if isinstance(node, dict):
                known = self.lines.mappings.get(id(node))
                if known is None or part not in known[1]:
                    break
                line, node = known[1][part], node[part]
            elif isinstance(node, list) and isinstance(part, int) and 0 <= part < len(node):
                known_seq = self.lines.sequences.get(id(node))
                if known_seq is not None:
                    line = known_seq[1][part]
                node = node[part]
            else:
                break
        return line


class _Loader(_BaseLoader):  # type: ignore[valid-type,misc]
    """The safe loader with the refusals above, recording lines into :attr:`found_lines`."""

    def __init__(self, stream: str) -> None:
        super().__init__(stream)
        self.found_lines = Lines()

    def construct_object(self, node: yaml.Node, deep: bool = False) -> Any:
        """Construct *node*, refusing one met twice: a YAML alias (``*name``; no alias bombs)."""
        if node in self.constructed_objects or node in self.recursive_objects:
            raise yaml.constructor.ConstructorError(
                None, None, "yaml anchors and aliases (&name, *name) are not allowed in the corpus", node.start_mark)
        return super().construct_object(node, deep=deep)


def _construct_mapping(loader: _Loader, node: yaml.MappingNode) -> dict[Any, Any]:
    mapping: dict[Any, Any] = {}
    lines: dict[Any, int] = {}
    for key_node, value_node in node.value:
        if key_node.tag == MERGE_TAG:
            raise yaml.constructor.ConstructorError(
                None, None, "yaml merge keys (<<) are not allowed in the corpus", key_node.start_mark)
        key = loader.construct_object(key_node, deep=True)
        try:
            first = lines.get(key)
        except TypeError:
            raise yaml.constructor.ConstructorError(
                None, None, "a mapping key must be a plain value", key_node.start_mark) from None
        if first is not None:
            raise yaml.constructor.ConstructorError(
                None, None, f"duplicate key {key!r} (first at line {first})", key_node.start_mark)
        lines[key] = key_node.start_mark.line + 1
        mapping[key] = loader.construct_object(value_node, deep=True)
    loader.found_lines.mappings[id(mapping)] = (node.start_mark.line + 1, lines)
    return mapping


def _construct_sequence(loader: _Loader, node: yaml.SequenceNode) -> list[Any]:
    items = [loader.construct_object(child, deep=True) for child in node.value]
    loader.found_lines.sequences[id(items)] = (node.start_mark.line + 1,
                                               [child.start_mark.line + 1 for child in node.value])
    return items


_Loader.add_constructor(yaml.resolver.BaseResolver.DEFAULT_MAPPING_TAG, _construct_mapping)
_Loader.add_constructor(yaml.resolver.BaseResolver.DEFAULT_SEQUENCE_TAG, _construct_sequence)


def parse_yaml(text: str, file: str) -> YamlDoc:
    """Return *text* (the content of *file*) read as YAML, or raise :class:`YamlError` with its line."""
    loader = _Loader(text)
    try:
        data = loader.get_single_data()
    except yaml.MarkedYAMLError as exc:
        mark = exc.problem_mark
        raise YamlError(file, (mark.line + 1) if mark else 0, f"unreadable yaml: {exc.problem}") from None
    except yaml.YAMLError as exc:
        raise YamlError(file, 0, f"unreadable yaml: {exc}") from None
    except RecursionError:
        raise YamlError(file, 0, "unreadable yaml: nested too deeply") from None
    finally:
        loader.dispose()
    return YamlDoc(data, file, loader.found_lines)


def read_yaml(path: Path, file: str | None = None) -> YamlDoc:
    """Return the YAML file *path* read (messages name it *file*, default the path as given)."""
    name = file if file is not None else str(path)
    try:
        text = path.read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError) as exc:
        raise YamlError(name, 0, f"unreadable file: {exc}") from None
    return parse_yaml(text, name)


__all__ = ["Lines", "YamlDoc", "YamlError", "parse_yaml", "read_yaml"]
