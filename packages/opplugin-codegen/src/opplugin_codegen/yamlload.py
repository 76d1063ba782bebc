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

from . import text_checks
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


def describe(value: Any) -> str:
    """A YAML value as its author wrote it, for messages: ``a mapping``, ``a list``,
    ``the number 5``, ``true``, ``null``, ``the text 'x'``."""
    if value is None:
        return "null"
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, (int, float)):
        return f"the number {value!r}"
    if isinstance(value, str):
        return f"the text {value!r}"
    if isinstance(value, dict):
        return "a mapping"
    if isinstance(value, list):
        return "a list"
    return "a value of an unsupported YAML type"


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


#: How deep mappings and lists may nest: the op files need four levels, anything far deeper
#: is not an op file (and would exhaust the composer's recursion).
MAX_DEPTH = 32


# What YAML does not allow in a stream: C0 controls other than tab, LF and CR, DEL, C1
def _decode(data: bytes, display: str, diags: Diagnostics) -> str | None:
    """The file's text, or None with an error at the line and byte that is not UTF-8."""
    text, problem = text_checks.decode(data)
    if problem is not None:
        diags.error(Location(display, problem[0]), None, problem[1])
    return text


def _check_characters(text: str, display: str, diags: Diagnostics) -> bool:
    """False, with an error at its line, if the text holds a character YAML forbids."""
    problem = text_checks.forbidden_character(text)
    if problem is not None:
        diags.error(Location(display, problem[0]), None, problem[1])
    return problem is None


def _syntax_error(e: yaml.YAMLError, display: str, diags: Diagnostics) -> None:
    if isinstance(e, yaml.MarkedYAMLError):
        mark = e.problem_mark or e.context_mark
        line = mark.line + 1 if mark is not None else 1
        what = " ".join(str(p) for p in (e.context, e.problem) if p)
        diags.error(Location(display, line), None, f"YAML syntax error: {what}")
    else:
        diags.error(Location(display, 1), None, f"YAML error: {e}")


def _check_structure(text: str, display: str, diags: Diagnostics) -> bool:
    """One pass over the parser's events before anything is built: aliases are refused (an
    alias is expanded where it is used, so a few lines can stand for a document of any size,
    or for itself) and nesting is bounded. False, with the error, when either is found."""
    depth = 0
    try:
        for event in yaml.parse(text, Loader=_Loader):
            if isinstance(event, yaml.AliasEvent):
                diags.error(
                    Location(display, event.start_mark.line + 1),
                    None,
                    f"YAML alias '*{event.anchor}': aliases and anchors are not supported here; "
                    "write the value out",
                )
                return False
            if isinstance(event, (yaml.MappingStartEvent, yaml.SequenceStartEvent)):
                depth += 1
                if depth > MAX_DEPTH:
                    diags.error(
                        Location(display, event.start_mark.line + 1),
                        None,
                        f"mappings and lists nest more than {MAX_DEPTH} levels deep here",
                    )
                    return False
            elif isinstance(event, (yaml.MappingEndEvent, yaml.SequenceEndEvent)):
                depth -= 1
    except yaml.YAMLError as e:
        _syntax_error(e, display, diags)
        return False
    return True


def load_yaml(path: Path, display: str, diags: Diagnostics) -> Any:
    """Load one YAML document with line numbers.

    Problems are added to ``diags``: an unreadable file, bytes that are not UTF-8 and
    characters YAML forbids (at their line), syntax errors, aliases, nesting deeper than
    :data:`MAX_DEPTH`, duplicate keys. The return value is then ``None`` (anything but
    duplicate keys) or the document with the first value of each duplicate key.
    """
    try:
        data = path.read_bytes()
    except OSError as e:
        diags.error(Location(display, 1), None, f"cannot read file: {e.strerror or e}")
        return None
    text = _decode(data, display, diags)
    if text is None or not _check_characters(text, display, diags):
        return None
    if not _check_structure(text, display, diags):
        return None
    loader = _Loader(text)
    try:
        node = loader.get_single_node()
    except yaml.YAMLError as e:
        _syntax_error(e, display, diags)
        return None
    finally:
        loader.dispose()
    if node is None:
        return None
    return _Converter(display, diags).convert(node)
