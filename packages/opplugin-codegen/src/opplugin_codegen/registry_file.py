"""The one reader of the version registry, ``yaml/versions.yaml``, for everything that reads it:
nox (which runs with nothing but nox installed and imports this module from the source tree),
both generators, and the runtime's build (which records the registry in the extension's build
information for its import-time check). Standard library only.

The registry is YAML in a fixed line format, one label per line, labels ascending::

    default: v2.13
    versions:
      v2.1: {torch: "2.1.2", extra: ["numpy<2"]}  # a comment
      v2.2: {torch: "2.2.2"}

Other spellings of the same YAML (block mappings, unquoted pins) are refused at their line, so
that every reader sees the same registry; every problem of the file is reported in one run.
"""

from __future__ import annotations

import difflib
import re
from dataclasses import dataclass
from pathlib import Path

from . import text_checks

TOP_KEYS = ("default", "versions")
LABEL_KEYS = ("torch", "extra")
LABEL_RE = re.compile(r"^v(\d+)\.(\d+)$")
_TORCH_RE = re.compile(r"^(\d+)\.(\d+)(\.\d+)?([a-z0-9.+-]*)$")
_COMMENT_RE = re.compile(r"\s+#.*$|^#.*$")
_TOP_RE = re.compile(r"^([A-Za-z_][\w-]*)\s*:\s*(.*)$")
_LABEL_LINE_RE = re.compile(r"^(\s+)(\S+?)\s*:\s*(.*)$")
# one item of the flow mapping: key, then a double-quoted string or a list of them
_ITEM_RE = re.compile(r'\s*([A-Za-z_][\w-]*)\s*:\s*("(?:[^"\\]|\\.)*"|\[[^\]]*\]|[^,}]*?)\s*(,|\})')
_STRING_RE = re.compile(r'\s*"((?:[^"\\]|\\.)*)"\s*')
_FORM = '`  vX.Y: {torch: "<pin>"[, extra: ["<requirement>", ...]]}`'


@dataclass(frozen=True)
class RegistryLabel:
    name: str  # v2.13
    torch: str  # the pinned release, 2.13.0
    extra: tuple[str, ...]  # pip requirements of the label's environment besides torch
    line: int

    @property
    def torch_major_minor(self) -> tuple[int, int]:
        m = _TORCH_RE.match(self.torch)
        assert m is not None  # checked when read
        return int(m.group(1)), int(m.group(2))


@dataclass(frozen=True)
class Registry:
    labels: tuple[RegistryLabel, ...]  # in file order (ascending)
    default: str
    default_line: int

    @property
    def names(self) -> tuple[str, ...]:
        return tuple(label.name for label in self.labels)

    def label_of_torch(self, version: str) -> str | None:
        """The label whose pin is the release of ``version`` (``2.1.2+cu121`` -> ``v2.1``)."""
        numbers = re.findall(r"\d+", version.split("+")[0])
        wanted = (int(numbers[0]), int(numbers[1])) if len(numbers) >= 2 else None
        return next(
            (label.name for label in self.labels if label.torch_major_minor == wanted), None
        )


class RegistryError(ValueError):
    """Every problem of a registry file, each ``(line, message)``; ``str`` is one
    ``file:line: message`` per line."""

    def __init__(self, display: str, problems: list[tuple[int, str]]) -> None:
        self.display = display
        self.problems = sorted(problems, key=lambda p: p[0])
        super().__init__(
            "\n".join(f"{display}:{line}: {message}" for line, message in self.problems)
        )


def _did_you_mean(word: str, candidates: tuple[str, ...] | list[str]) -> str:
    matches = difflib.get_close_matches(word, sorted(set(candidates)), n=1, cutoff=0.7)
    return f"; did you mean '{matches[0]}'?" if matches else ""


def read_registry(path: Path, display: str | None = None) -> Registry:
    """The registry in ``path`` (messages name it ``display``). Raises :class:`RegistryError`."""
    display = display or str(path)
    try:
        data = path.read_bytes()
    except OSError as e:
        raise RegistryError(display, [(1, f"cannot read file: {e.strerror or e}")]) from None
    return parse_registry(data, display)


def parse_registry(data: bytes, display: str) -> Registry:
    """The registry in ``data``. Raises :class:`RegistryError` with every problem."""
    text, problem = text_checks.decode(data)
    if text is None:
        assert problem is not None
        raise RegistryError(display, [problem])
    problem = text_checks.forbidden_character(text)
    if problem is not None:
        raise RegistryError(display, [problem])
    return _Reader(display).read(text)


class _Reader:
    def __init__(self, display: str) -> None:
        self.display = display
        self.problems: list[tuple[int, str]] = []

    def error(self, line: int, message: str) -> None:
        self.problems.append((line, message))

    def read(self, text: str) -> Registry:
        default: tuple[str, int] | None = None
        versions_line: int | None = None
        labels: list[RegistryLabel] = []
        named: set[str] = set()  # every label a line names, read or not
        seen_top: set[str] = set()
        section = None  # the top-level key the indented lines belong to
        label_indent: int | None = None  # of the first label line
        for number, raw in enumerate(text.splitlines(), 1):
            line = _COMMENT_RE.sub("", raw.rstrip())
            if not line.strip():
                continue
            if not line[0].isspace():
                top = _TOP_RE.match(line)
                if top is None:
                    self.error(number, f"expected `default: <label>` or `versions:`, got {line!r}")
                    continue
                key, value = top.group(1), top.group(2).strip()
                section = key
                if key in seen_top:
                    self.error(number, f"'{key}' is given twice")
                    continue
                seen_top.add(key)
                if key == "default":
                    default = (value.strip("\"'"), number)
                elif key == "versions":
                    versions_line = number
                    if value:
                        self.error(
                            number, f"'versions:' takes one label per line below it, {_FORM}"
                        )
                else:
                    self.error(number, f"unknown key '{key}'{_did_you_mean(key, TOP_KEYS)}")
                continue
            if section != "versions":
                self.error(number, f"an indented line outside 'versions:': {line.strip()!r}")
                continue
            indent = len(line) - len(line.lstrip())
            label_indent = indent if label_indent is None else label_indent
            if indent > label_indent:
                self.error(number, f"expected {_FORM}: a label and its mapping on one line")
                continue
            named.add(line.strip().split(":", 1)[0].strip("\"'"))
            entry = self._label_line(line, number, labels)
            if entry is not None:
                labels.append(entry)
        if versions_line is None:
            self.error(1, "no 'versions:' mapping label -> {torch: pin}")
        elif not labels and not self.problems:
            self.error(
                versions_line, "'versions' must be a non-empty mapping label -> {torch: pin}"
            )
        if default is None:
            self.error(1, "no 'default: <label>'")
        elif default[0] not in named:
            hint = _did_you_mean(default[0], [label.name for label in labels])
            self.error(default[1], f"default {default[0]!r} is not a label of 'versions'{hint}")
        if self.problems:
            raise RegistryError(self.display, self.problems)
        assert default is not None
        return Registry(tuple(labels), default[0], default[1])

    def _label_line(
        self, line: str, number: int, labels: list[RegistryLabel]
    ) -> RegistryLabel | None:
        m = _LABEL_LINE_RE.match(line)
        if m is None:
            self.error(number, f"expected {_FORM}, got {line.strip()!r}")
            return None
        name, spec = m.group(2).strip("\"'"), m.group(3).strip()
        lm = LABEL_RE.match(name)
        if lm is None:
            self.error(number, f"label '{name}' is not of the form v<major>.<minor>")
            return None
        if any(label.name == name for label in labels):
            self.error(number, f"label '{name}' is given twice")
            return None
        version = (int(lm.group(1)), int(lm.group(2)))
        if labels:
            prev = LABEL_RE.match(labels[-1].name)
            assert prev is not None
            if version <= (int(prev.group(1)), int(prev.group(2))):
                self.error(number, f"label '{name}' is out of order: labels must ascend")
        fields = self._flow_mapping(spec, name, number)
        if fields is None:
            return None
        torch = fields.get("torch")
        if torch is None:
            self.error(number, f"'{name}' needs a mapping {{torch: \"<pin>\"}}")
            return None
        pin = _STRING_RE.fullmatch(torch)
        tm = _TORCH_RE.match(pin.group(1)) if pin else None
        if pin is None or tm is None:
            self.error(
                number, f"torch pin of '{name}' must be a quoted version string, got {torch}"
            )
            return None
        if (int(tm.group(1)), int(tm.group(2))) != version:
            self.error(number, f"torch pin {pin.group(1)} does not match label '{name}'")
        extra = self._extra(fields.get("extra"), name, number)
        return RegistryLabel(name, pin.group(1), extra, number)

    def _flow_mapping(self, spec: str, name: str, number: int) -> dict[str, str] | None:
        if not (spec.startswith("{") and spec.endswith("}")):
            self.error(
                number, f"'{name}' needs a mapping {{torch: \"<pin>\"}} on its line, {_FORM}"
            )
            return None
        fields: dict[str, str] = {}
        rest = spec[1:]
        while rest.strip() not in ("", "}"):
            item = _ITEM_RE.match(rest)
            if item is None:
                self.error(number, f"expected {_FORM}, got {spec!r}")
                return None
            key, value = item.group(1), item.group(2)
            if key not in LABEL_KEYS:
                self.error(
                    number,
                    f"unknown key '{key}' for label '{name}'{_did_you_mean(key, LABEL_KEYS)}",
                )
            elif key in fields:
                self.error(number, f"'{key}' is given twice for label '{name}'")
            else:
                fields[key] = value
            rest = rest[item.end() :]
            if item.group(3) == "}":
                break
        if rest.strip():
            self.error(number, f"unexpected text after the mapping of '{name}': {rest.strip()!r}")
        return fields

    def _extra(self, value: str | None, name: str, number: int) -> tuple[str, ...]:
        if value is None:
            return ()
        items = value[1:-1].split(",") if value.startswith("[") and value.endswith("]") else None
        strings = [_STRING_RE.fullmatch(item) for item in items or () if item.strip()]
        if items is None or not all(s is not None and s.group(1).strip() for s in strings):
            self.error(
                number,
                f"'extra' of '{name}' must be a list of pip requirement strings, "
                'e.g. ["numpy<2"]',
            )
            return ()
        return tuple(s.group(1).strip() for s in strings if s is not None)
