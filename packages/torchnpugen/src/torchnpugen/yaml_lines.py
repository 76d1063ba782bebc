"""YAML loading that remembers where every list item came from.

One libyaml parse gives both the plain data and the node tree; the tree supplies
the 1-based line of each item (bare strings included, which torchgen's LineLoader
cannot annotate) and lets us reject duplicate mapping keys.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import Any

import yaml

from .errors import InputError

try:  # libyaml: about 4x faster than the pure-Python loader
    _BaseLoader = yaml.CSafeLoader  # type: ignore[attr-defined]
except AttributeError:  # pragma: no cover - PyYAML built without libyaml
    _BaseLoader = yaml.SafeLoader  # type: ignore[assignment,misc]


@dataclass(frozen=True)
class LocatedYaml:
    """A loaded YAML document plus the line of each item of each top-level list."""

    display_path: str  # how the file is named in messages and generated comments
    data: Any
    item_lines: dict[str, tuple[int, ...]]  # top-level key ("" for a bare list) -> line of each item
    key_lines: dict[str, int]  # top-level key -> its line

    def where(self, key: str, index: int) -> str:
        return f"{self.display_path}:{self.item_lines[key][index]}"


def _check_duplicate_keys(node: yaml.Node, display_path: str) -> None:
    stack = [node]
    while stack:
        current = stack.pop()
        if isinstance(current, yaml.MappingNode):
            seen: dict[Any, int] = {}
            for key_node, value_node in current.value:
                if isinstance(key_node, yaml.ScalarNode):
                    line = key_node.start_mark.line + 1
                    if key_node.value in seen:
                        raise InputError(
                            f"duplicate key {key_node.value!r} (first at line {seen[key_node.value]})",
                            f"{display_path}:{line}",
                        )
                    seen[key_node.value] = line
                stack.append(value_node)
        elif isinstance(current, yaml.SequenceNode):
            stack.extend(current.value)


def load_located(path: Path, display_path: str) -> LocatedYaml:
    try:
        text = path.read_text(encoding="utf-8")
    except OSError as e:
        raise InputError(f"cannot read: {e.strerror}", display_path) from e
    loader = _BaseLoader(text)
    try:
        node = loader.get_single_node()
        data = loader.construct_document(node) if node is not None else None
    except yaml.YAMLError as e:
        mark = getattr(e, "problem_mark", None)
        where = f"{display_path}:{mark.line + 1}" if mark is not None else display_path
        raise InputError(f"invalid YAML: {getattr(e, 'problem', e)}", where) from e
    finally:
        loader.dispose()

    item_lines: dict[str, tuple[int, ...]] = {}
    key_lines: dict[str, int] = {}
    if node is not None:
        _check_duplicate_keys(node, display_path)
    if isinstance(node, yaml.SequenceNode):  # a bare list: its items under the key ""
        item_lines[""] = tuple(item.start_mark.line + 1 for item in node.value)
    if isinstance(node, yaml.MappingNode):
        for key_node, value_node in node.value:
            if not isinstance(key_node, yaml.ScalarNode):
                continue
            key_lines[key_node.value] = key_node.start_mark.line + 1
            if isinstance(value_node, yaml.SequenceNode):
                lines: list[int] = [item.start_mark.line + 1 for item in value_node.value]
                item_lines[key_node.value] = tuple(lines)
    return LocatedYaml(display_path, data, item_lines, key_lines)
