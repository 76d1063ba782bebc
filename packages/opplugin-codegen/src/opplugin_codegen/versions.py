"""The version registry (``yaml/versions.yaml``) and the one version-range model.

A :class:`VersionRange` is a set of labels of one registry, stored as a bit mask over
the registry's label order. Every step (projection, interface, struct kernels,
derivatives, validation) asks the same question the same way: ``label in range``, an
exact membership test (``v2.1`` never matches ``v2.10``).

Range grammar (op-plugin's): ``all_version`` | ``[start, end]`` (inclusive, ``end`` may
be ``newest``) | a single label ``v2.5`` | a comma list ``"v2.1, v2.2"``.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from .errors import Diagnostics, Location, did_you_mean
from .registry_file import RegistryError, read_registry
from .yamlload import describe

ALL_VERSION = "all_version"
NEWEST = "newest"
_LABEL_RE = re.compile(r"^v(\d+)\.(\d+)$")
_LABEL_KEYS = ("torch", "extra")
_TORCH_RE = re.compile(r"^(\d+)\.(\d+)(?:\.(\d+))?(?:[.+-]?[0-9A-Za-z.+-]*)?$")

#: The first torch release without named tensors (no ``at::Dimname``, no
#: ``ATen/NamedTensorUtils.h``).
TORCH_WITHOUT_NAMED_TENSORS = (2, 13)


class RangeError(ValueError):
    """A version range that does not parse or does not fit the registry."""


@dataclass(frozen=True)
class VersionRegistry:
    """Labels in order (the order of ``all_version`` and of ``[start, end]``), torch pins,
    the default label, and each label's extra pip requirements for its environment
    (``extra: ["numpy<2"]``: what that torch release needs next to it)."""

    labels: tuple[str, ...]
    torch: tuple[str, ...]  # torch pin of each label, same order
    default: str
    #: extra requirements of each label, same order (or empty)
    extra: tuple[tuple[str, ...], ...] = ()
    _index: dict[str, int] = field(init=False, repr=False, compare=False, hash=False)

    def __post_init__(self) -> None:
        object.__setattr__(self, "_index", {label: i for i, label in enumerate(self.labels)})

    def __contains__(self, label: object) -> bool:
        return label in self._index

    def index(self, label: str) -> int:
        return self._index[label]

    def torch_pin(self, label: str) -> str:
        return self.torch[self._index[label]]

    def extra_requirements(self, label: str) -> tuple[str, ...]:
        return self.extra[self._index[label]] if self.extra else ()

    def ordinal(self, label: str) -> int:
        """The label's 1-based position in the registry: the value of its ``V<major>R<minor>``
        macro, which ``VERSION_BETWEEN`` compares."""
        return self._index[label] + 1

    def torch_version(self, label: str) -> tuple[int, int]:
        m = _TORCH_RE.match(self.torch_pin(label))
        assert m is not None  # checked at load time
        return int(m.group(1)), int(m.group(2))

    def has_named_tensors(self, label: str) -> bool:
        return self.torch_version(label) < TORCH_WITHOUT_NAMED_TENSORS

    @property
    def full_mask(self) -> int:
        return (1 << len(self.labels)) - 1

    def labels_of(self, mask: int) -> tuple[str, ...]:
        return tuple(label for i, label in enumerate(self.labels) if mask >> i & 1)

    def all_versions(self) -> VersionRange:
        return VersionRange(self, self.full_mask, ALL_VERSION)

    def parse_range(self, value: Any) -> VersionRange:
        return parse_range(value, self)

    def unknown_label_message(self, label: str) -> str:
        hint = did_you_mean(label, self.labels)
        known = f"{self.labels[0]} ... {self.labels[-1]}" if self.labels else "none"
        return f"unknown version label '{label}' (known: {known}){hint}"


@dataclass(frozen=True)
class VersionRange:
    """A set of labels of ``registry``; ``spelling`` is the normalised authored form."""

    registry: VersionRegistry = field(repr=False, compare=False)
    mask: int
    spelling: str

    def __contains__(self, label: object) -> bool:
        if not isinstance(label, str) or label not in self.registry:
            return False
        return bool(self.mask >> self.registry.index(label) & 1)

    @property
    def labels(self) -> tuple[str, ...]:
        return self.registry.labels_of(self.mask)

    def __bool__(self) -> bool:
        return self.mask != 0

    def __str__(self) -> str:
        return self.spelling


def _require_label(text: str, registry: VersionRegistry) -> int:
    if text not in registry:
        raise RangeError(registry.unknown_label_message(text))
    return registry.index(text)


def parse_range(value: Any, registry: VersionRegistry) -> VersionRange:
    """Parse one authored range. Raises :class:`RangeError` with what is wrong."""
    if isinstance(value, bool) or value is None:
        raise RangeError(
            f"expected a version range (all_version, [start, end], v2.5 or 'v2.1, v2.2'), "
            f"got {describe(value)}"
        )
    if isinstance(value, (int, float)):
        label = f"v{value}"
        hint = f"'{label}'" if label in registry else f"'{registry.default}'"
        raise RangeError(
            f"expected a version label such as {hint}, got {describe(value)} "
            f"(write labels with a leading 'v')"
        )
    if isinstance(value, list):
        if len(value) != 2:
            raise RangeError(
                f"a range list must be [start, end] with two labels, got {len(value)} "
                f"element(s); for an explicit set write a comma string such as 'v2.1, v2.3'"
            )
        start, end = value
        if not isinstance(start, str) or not isinstance(end, str):
            raise RangeError(f"range bounds must be labels, got [{start!r}, {end!r}]")
        start, end = start.strip(), end.strip()
        if start == NEWEST:
            raise RangeError("'newest' can only end a range: write [start, newest]")
        lo = _require_label(start, registry)
        hi = len(registry.labels) - 1 if end == NEWEST else _require_label(end, registry)
        if hi < lo:
            raise RangeError(f"reversed range [{start}, {end}]: {end} comes before {start}")
        mask = ((1 << (hi + 1)) - 1) & ~((1 << lo) - 1)
        return VersionRange(registry, mask, f"[{start}, {end}]")
    if isinstance(value, str):
        text = value.strip()
        if text == ALL_VERSION:
            return VersionRange(registry, registry.full_mask, ALL_VERSION)
        if not text:
            raise RangeError("empty version range")
        if text.startswith("[") and text.endswith("]"):
            raise RangeError(
                f"'{text}' is a quoted string, not a list: write the range without quotes"
            )
        items = [item.strip() for item in text.split(",")]
        mask = 0
        for item in items:
            if not item:
                raise RangeError(f"empty label in the list '{value}'")
            if item in (ALL_VERSION, NEWEST):
                raise RangeError(f"'{item}' cannot be part of a label list ('{value}')")
            bit = 1 << _require_label(item, registry)
            if mask & bit:
                raise RangeError(f"label '{item}' is listed twice in '{value}'")
            mask |= bit
        return VersionRange(registry, mask, ", ".join(items))
    raise RangeError(f"expected a version range, got {describe(value)}")


def load_registry(path: Path, display: str, diags: Diagnostics) -> VersionRegistry | None:
    """Load ``versions.yaml`` (with the project's one reader, registry_file). Problems go to
    ``diags``; returns None when unusable."""
    try:
        found = read_registry(path, display)
    except RegistryError as e:
        for line, message in e.problems:
            diags.error(Location(display, line), None, message)
        return None
    return VersionRegistry(
        tuple(label.name for label in found.labels),
        tuple(label.torch for label in found.labels),
        found.default,
        tuple(label.extra for label in found.labels),
    )
