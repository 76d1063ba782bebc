"""YAML loading that keeps line numbers.

The document is composed into nodes with libyaml when available (``yaml.CSafeLoader``),
then converted here into plain Python values, where every mapping is a :class:`YamlMap`
(a ``dict`` that knows its own line and the line of each key) and every sequence a
:class:`YamlList`. Duplicate keys, which PyYAML silently resolves to the last value,
are reported as errors.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import yaml

from .errors import Diagnostics, Location

try:
    _Loader: type = yaml.CSafeLoader
except AttributeError:  # pragma: no cover - PyYAML without libyaml
    _Loader = yaml.SafeLoader

_STR = "tag:yaml.org,2002:str"
_NULL = "tag:yaml.org,2002:null"
_BOOL = "tag:yaml.org,2002:bool"
_INT = "tag:yaml.org,2002:int"
_BOOL_VALUES = {"yes": True, "no": False, "true": True, "false": False, "on": True, "off": False}


class YamlMap(dict):  # type: ignore[type-arg]
    """A mapping with its line (1-based) and the line of each of its keys."""

    line: int
    key_lines: dict[str, int]

    def key_line(self, key: str) -> int:
        return self.key_lines.get(key, self.line)


class YamlList(list):  # type: ignore[type-arg]
    line: int
    item_lines: list[int]


class _Converter:
    def __init__(self, file: str, diags: Diagnostics) -> None:
        self.file = file
        self.diags = diags
        self._scalar_ctor = yaml.constructor.SafeConstructor()

    def convert(self, node: yaml.Node) -> Any:
        if isinstance(node, yaml.ScalarNode):
            return self._scalar(node)
        if isinstance(node, yaml.SequenceNode):
            seq = YamlList(self.convert(item) for item in node.value)
            seq.line = node.start_mark.line + 1
            seq.item_lines = [item.start_mark.line + 1 for item in node.value]
            return seq
        if isinstance(node, yaml.MappingNode):
            mapping = YamlMap()
            mapping.line = node.start_mark.line + 1
            mapping.key_lines = {}
            for key_node, value_node in node.value:
                key = self.convert(key_node)
                line = key_node.start_mark.line + 1
                if not isinstance(key, str):
                    self.diags.error(
                        Location(self.file, line), None, f"mapping key {key!r} must be a string"
                    )
                    key = str(key)
                if key in mapping:
                    first = mapping.key_lines[key]
                    self.diags.error(
                        Location(self.file, line),
                        None,
                        f"duplicate key '{key}' (first at line {first})",
                    )
                    continue
                mapping[key] = self.convert(value_node)
                mapping.key_lines[key] = line
            return mapping
        raise TypeError(f"unexpected YAML node {node!r}")  # pragma: no cover

    def _scalar(self, node: yaml.ScalarNode) -> Any:
        tag = node.tag
        if tag == _STR:
            return node.value
        if tag == _NULL:
            return None
        if tag == _BOOL:
            return _BOOL_VALUES[node.value.lower()]
        if tag == _INT:
            try:
                return int(node.value.replace("_", ""), 0)
            except ValueError:
                pass
        return self._scalar_ctor.construct_object(node)


def load_yaml(path: Path, display: str, diags: Diagnostics) -> Any:
    """Load one YAML document with line numbers.

    Syntax errors and duplicate keys are added to ``diags``; the return value is then
    ``None`` (syntax) or the document with the first value of each duplicate key.
    """
    try:
        text = path.read_text(encoding="utf-8")
    except OSError as e:
        diags.error(Location(display, 1), None, f"cannot read file: {e.strerror or e}")
        return None
    loader = _Loader(text)
    try:
        node = loader.get_single_node()
    except yaml.MarkedYAMLError as e:
        mark = e.problem_mark or e.context_mark
        line = mark.line + 1 if mark is not None else 1
        what = " ".join(str(p) for p in (e.context, e.problem) if p)
        diags.error(Location(display, line), None, f"YAML syntax error: {what}")
        return None
    except yaml.YAMLError as e:
        diags.error(Location(display, 1), None, f"YAML error: {e}")
        return None
    finally:
        loader.dispose()
    if node is None:
        return None
    return _Converter(display, diags).convert(node)
