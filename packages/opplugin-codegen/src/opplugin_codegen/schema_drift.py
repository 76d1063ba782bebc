"""Schema drift: does each YAML ``func`` match PyTorch's schema in every label of its range?

An entry of ``op_plugin_functions.yaml`` says "this schema, in these labels". PyTorch
changes schemas between releases (an argument added, a default changed, an overload
removed), and an entry whose range reaches a release with another schema produces code
that does not register (or does not compile) there. This module compares every aten
entry (sections ``official`` and ``quant``; ``custom`` ops are ``npu::`` ops PyTorch does
not know) and every aten ``backward`` entry of derivatives.yaml with the
``native_functions.yaml`` of each checked label's torch release, and, where they
differ, says in which labels, since when, and which split of the entry fixes it.

Releases come from a cache directory of ``<label>.yaml`` files (copies of each label
environment's ``torchgen/packaged/ATen/native/native_functions.yaml``, written by
:func:`store_installed`, whose first line records the torch version) or from explicit
files. Labels without a file are "not checked": a change between two checked labels is
placed at the later one, and the report names the labels in between.

Nothing here imports torch or torchgen.
"""

from __future__ import annotations

import importlib.metadata
import importlib.util
import re
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path

from .errors import CodegenError, Diagnostic, Location
from .model import Model, OpEntry
from .schema import SchemaError, parse_schema
from .versions import VersionRegistry

#: Sections whose entries are aten operators (in native_functions.yaml).
ATEN_SECTIONS = ("official", "quant")
#: Range-valued keys of an entry, carried into the proposed split.
RANGE_KEYS = ("acl_op", "op_api", "internal_format_opapi", "exposed", "sparse", "dvm")

_FUNC_LINE = re.compile(r"^- func:\s*(.+?)\s*$", re.MULTILINE)
_CACHE_HEADER = re.compile(
    r"^# opplugin-codegen: native_functions\.yaml of torch (\S+) for (v\d+\.\d+)"
)
PACKAGED_NATIVE_FUNCTIONS = ("packaged", "ATen", "native", "native_functions.yaml")


def canonical(func: str) -> str:
    """One spelling per schema (whitespace and quoting do not count as a change)."""
    func = func.strip()
    if len(func) > 1 and func[0] == func[-1] and func[0] in "'\"":
        func = func[1:-1]
    try:
        return str(parse_schema(func))
    except SchemaError:
        return " ".join(func.split())


@dataclass(frozen=True)
class ReleaseSchemas:
    """The schemas of one torch release, for one label."""

    label: str
    torch: str
    source: str  # where they were read from (for messages)
    funcs: Mapping[str, str]  # "name.overload" -> func as written in native_functions.yaml

    def canonical(self, name: str) -> str | None:
        func = self.funcs.get(name)
        return None if func is None else canonical(func)


def parse_native_functions(text: str) -> dict[str, str]:
    """``name.overload`` -> func of every ``- func:`` entry of a native_functions.yaml.

    A line scan, not a YAML load: every entry of the file starts with ``- func:`` in
    column 0, and the scan takes 20 ms instead of a second."""
    funcs: dict[str, str] = {}
    for match in _FUNC_LINE.finditer(text):
        func = match.group(1)
        if len(func) > 1 and func[0] == func[-1] and func[0] in "'\"":
            func = func[1:-1]
        funcs[func.split("(", 1)[0].strip()] = func
    return funcs


def _release_error(path: Path | str, message: str) -> CodegenError:
    return CodegenError([Diagnostic(Location(str(path), 1), None, message)])


def read_release(path: Path, label: str, registry: VersionRegistry) -> ReleaseSchemas:
    """A native_functions.yaml for ``label``: a cache file (its first line names the torch
    release, which must be the label's major.minor) or any copy (the label's pin is assumed)."""
    if label not in registry:
        raise CodegenError([Diagnostic(None, None, registry.unknown_label_message(label))])
    if not path.is_file():
        raise _release_error(path, f"no native_functions.yaml for {label} here")
    text = path.read_text(encoding="utf-8")
    header = _CACHE_HEADER.match(text)
    torch = registry.torch_pin(label)
    if header:
        torch, cached_label = header.group(1), header.group(2)
        if cached_label != label or _major_minor(torch) != registry.torch_version(label):
            raise _release_error(
                path,
                f"holds the schemas of torch {torch} ({cached_label}), not of {label} "
                f"(torch {registry.torch_pin(label)}): refill it with "
                f"`nox -s check-schemas -- {label}`",
            )
    funcs = parse_native_functions(text)
    if not funcs:
        raise _release_error(path, "has no '- func:' entries: not a native_functions.yaml")
    return ReleaseSchemas(label, torch, str(path), funcs)


def _major_minor(version: str) -> tuple[int, int]:
    parts = re.findall(r"\d+", version)
    return (int(parts[0]), int(parts[1])) if len(parts) >= 2 else (-1, -1)


def read_cache(
    cache_dir: Path, labels: Sequence[str], registry: VersionRegistry
) -> dict[str, ReleaseSchemas]:
    """The cached releases of ``labels`` (each must be there)."""
    missing = [label for label in labels if not (cache_dir / f"{label}.yaml").is_file()]
    if missing:
        raise CodegenError(
            [
                Diagnostic(
                    None,
                    None,
                    f"{cache_dir} has no native_functions.yaml for {', '.join(missing)}: "
                    f"fill it with `nox -s check-schemas -- {' '.join(missing)}` "
                    "(or `opplugin-codegen cache-schemas` "
                    "in each label's environment)",
                )
            ]
        )
    return {label: read_release(cache_dir / f"{label}.yaml", label, registry) for label in labels}


def cached_labels(cache_dir: Path, registry: VersionRegistry) -> list[str]:
    """Labels of the registry that have a file in ``cache_dir``, in registry order."""
    return [label for label in registry.labels if (cache_dir / f"{label}.yaml").is_file()]


# --------------------------------------------------------------------------- the installed torch


def installed_native_functions() -> tuple[Path, str]:
    """(native_functions.yaml of the interpreter's torchgen, torch version); torch is not
    imported."""
    spec = importlib.util.find_spec("torchgen")
    if spec is None or not spec.submodule_search_locations:
        raise CodegenError(
            [Diagnostic(None, None, "torchgen is not installed in this interpreter")]
        )
    path = Path(next(iter(spec.submodule_search_locations))).joinpath(*PACKAGED_NATIVE_FUNCTIONS)
    try:
        version = importlib.metadata.version("torch")
    except importlib.metadata.PackageNotFoundError:
        raise CodegenError(
            [Diagnostic(None, None, "torch is not installed in this interpreter")]
        ) from None
    if not path.is_file():
        raise _release_error(
            path, f"torch {version}: torchgen ships no packaged native_functions.yaml"
        )
    return path, version


def label_of_torch(version: str, registry: VersionRegistry) -> str:
    wanted = _major_minor(version)
    for label in registry.labels:
        if registry.torch_version(label) == wanted:
            return label
    raise CodegenError([Diagnostic(None, None, f"no label of the registry pins torch {version}")])


def wheel_native_functions(wheel: Path) -> tuple[str, str, str]:
    """(native_functions.yaml text, torch version, where from) read out of a torch wheel
    without installing it: its torchgen package and its METADATA."""
    import zipfile

    try:
        with zipfile.ZipFile(wheel) as archive:
            names = archive.namelist()
            metadata = [
                n for n in names if n.endswith(".dist-info/METADATA") and n.startswith("torch-")
            ]
            member = "torchgen/" + "/".join(PACKAGED_NATIVE_FUNCTIONS)
            if not metadata or member not in names:
                raise _release_error(
                    wheel, "is not a torch wheel with torchgen's native_functions.yaml"
                )
            version = next(
                (
                    line.split(":", 1)[1].strip()
                    for line in archive.read(metadata[0]).decode("utf-8").splitlines()
                    if line.startswith("Version:")
                ),
                None,
            )
            if version is None:
                raise _release_error(wheel, "has no Version in its METADATA")
            return archive.read(member).decode("utf-8"), version, f"{wheel.name}:{member}"
    except (OSError, zipfile.BadZipFile) as e:
        raise _release_error(wheel, f"cannot be read as a wheel ({e})") from None


def store_installed(
    cache_dir: Path, registry: VersionRegistry, label: str | None = None, wheel: Path | None = None
) -> tuple[str, Path, bool]:
    """Copy the installed torchgen's native_functions.yaml (or the one inside ``wheel``, a torch
    wheel that need not be installed) to ``cache_dir/<label>.yaml`` (write-if-changed), with a
    first line naming the release. Returns (label, path, written)."""
    if wheel is not None:
        body, version, source = wheel_native_functions(wheel)
        where = "this wheel"
    else:
        path, version = installed_native_functions()
        body, source, where = path.read_text(encoding="utf-8"), str(path), "this interpreter"
    found = label_of_torch(version, registry)
    if label is not None and label != found:
        raise CodegenError(
            [
                Diagnostic(
                    None,
                    None,
                    f"{where} has torch {version} ({found}), not the torch of {label} "
                    f"({registry.torch_pin(label)}): run it with {label}'s environment or wheel",
                )
            ]
        )
    header = (
        f"# opplugin-codegen: native_functions.yaml of torch {version} for {found} "
        f"(from {source})\n"
    )
    text = header + body
    target = cache_dir / f"{found}.yaml"
    if target.is_file() and target.read_text(encoding="utf-8") == text:
        return found, target, False
    cache_dir.mkdir(parents=True, exist_ok=True)
    partial = target.with_name(target.name + ".partial")
    partial.write_text(text, encoding="utf-8")
    partial.replace(target)
    return found, target, True


# --------------------------------------------------------------------------- the check


@dataclass(frozen=True)
class Segment:
    """Part of an entry's range with one actual schema (None: the op does not exist there)."""

    mask: int
    func: str | None


@dataclass(frozen=True)
class Drift:
    """One entry whose func is wrong for some checked labels of its range."""

    subject: str  # name.overload
    loc: Location
    yaml_func: str
    ranges: tuple[tuple[str, int], ...]  # (key, mask) of the entry's range-valued keys
    live_mask: int
    checked: tuple[
        tuple[str, str | None], ...
    ]  # (label, release's canonical func or None), in order
    segments: tuple[Segment, ...]
    registry: VersionRegistry
    torch: Mapping[str, str]  # label -> torch version of the checked releases

    @property
    def wrong_labels(self) -> tuple[str, ...]:
        return tuple(label for label, func in self.checked if func != self.yaml_func)

    def message(self) -> str:
        reg = self.registry
        parts: list[str] = []
        by_func: dict[str | None, list[str]] = {}
        for label, func in self.checked:
            if func != self.yaml_func:
                by_func.setdefault(func, []).append(label)
        for func, labels in by_func.items():
            where = _label_span(labels, reg)
            torch = self._torch_span(labels)
            if func is None:
                parts.append(f"no such operator in {where} ({torch})")
            else:
                parts.append(f"schema differs in {where} ({torch}: {func})")
        matching = [label for label, func in self.checked if func == self.yaml_func]
        text = "; ".join(parts)
        if matching:
            text += f"; the YAML's func matches {_label_span(matching, reg)}"
        changes = self._change_points()
        if changes:
            text += "; " + "; ".join(changes)
        text += f"; {self._fix_summary()}:\n" + self.fix_yaml()
        return text

    def _change_points(self) -> list[str]:
        """Where the schema changes between two checked labels with unchecked ones in between."""
        reg = self.registry
        notes = []
        for (a, fa), (b, fb) in zip(self.checked, self.checked[1:]):
            gap = reg.labels[reg.index(a) + 1 : reg.index(b)]
            gap = tuple(label for label in gap if self.live_mask >> reg.index(label) & 1)
            if fa != fb and gap:
                notes.append(
                    f"it changed after {a} and by {b} (not checked: {_label_span(gap, reg)}; "
                    f"the split assumes {b})"
                )
        return notes

    def _fix_summary(self) -> str:
        reg = self.registry
        pieces = []
        for seg in self.segments:
            span = render_range(seg.mask, reg)
            if seg.func is None:
                pieces.append(f"drop {span}")
            elif seg.func == self.yaml_func:
                pieces.append(f"{span} with the YAML's schema")
            else:
                pieces.append(f"{span} with the schema of {self._torch_of(seg)}")
        if len(self.segments) == 1:
            only = self.segments[0]
            if only.func is None:
                return f"the operator does not exist in the range: remove the entry ({pieces[0]})"
            return f"change the func for its whole range ({pieces[0]})"
        return "split into " + ", ".join(pieces[:-1]) + " and " + pieces[-1]

    def _torch_span(self, labels: Sequence[str]) -> str:
        """``torch 2.1.2``, ``torch 2.1.2..2.4.1`` (consecutive labels) or
        ``torch 2.1.2, 2.13.0``."""
        versions = [self.torch[label] for label in labels]
        if len(versions) == 1:
            return f"torch {versions[0]}"
        if "," not in _label_span(labels, self.registry):
            return f"torch {versions[0]}..{versions[-1]}"
        return "torch " + ", ".join(versions)

    def _torch_of(self, seg: Segment) -> str:
        reg = self.registry
        labels = [
            label
            for label, func in self.checked
            if func == seg.func and seg.mask >> reg.index(label) & 1
        ]
        return self._torch_span(labels) if labels else "the checked release"

    def fix_yaml(self) -> str:
        """The entries that replace this one (range-valued keys shown; other keys unchanged)."""
        lines = []
        for seg in self.segments:
            if seg.func is None:
                continue
            lines.append(f"    - func: {seg.func}")
            for key, mask in self.ranges:
                part = mask & seg.mask
                if part:
                    lines.append(f"      {key}: {render_range(part, self.registry)}")
        if not lines:
            lines.append("    (no entry: the operator exists in no checked label of the range)")
        return "\n".join(lines)

    def diagnostic(self) -> Diagnostic:
        return Diagnostic(self.loc, self.subject, self.message())


def _label_span(labels: Sequence[str], registry: VersionRegistry) -> str:
    """``v2.1``, ``v2.1..v2.4`` (consecutive in the registry) or ``v2.1, v2.13``."""
    if len(labels) == 1:
        return labels[0]
    indices = [registry.index(label) for label in labels]
    if indices == list(range(indices[0], indices[0] + len(indices))):
        return f"{labels[0]}..{labels[-1]}"
    return ", ".join(labels)


def render_range(mask: int, registry: VersionRegistry) -> str:
    """A label mask in the YAML's range grammar: all_version, [a, b] / [a, newest], or "a, b"."""
    if mask == registry.full_mask:
        return "all_version"
    labels = registry.labels_of(mask)
    indices = [registry.index(label) for label in labels]
    if len(labels) == 1:
        return labels[0]
    if indices == list(range(indices[0], indices[-1] + 1)):
        end = "newest" if indices[-1] == len(registry.labels) - 1 else labels[-1]
        return f"[{labels[0]}, {end}]"
    return '"' + ", ".join(labels) + '"'


def _segments(
    live_mask: int, checked: Sequence[tuple[str, str | None]], registry: VersionRegistry
) -> tuple[Segment, ...]:
    """Split the live labels into runs of one actual schema. An unchecked label takes the
    schema of the checked label before it (labels before the first checked one take the
    first one's): a change between two checked labels is placed at the later one."""
    owner: dict[int, str | None] = {}
    checked_at = {registry.index(label): func for label, func in checked}
    indices = [i for i in range(len(registry.labels)) if live_mask >> i & 1]
    known = [i for i in indices if i in checked_at]
    for i in indices:
        preceding = max((c for c in known if c <= i), default=known[0])
        owner[i] = checked_at[preceding]
    segments: list[Segment] = []
    for i in indices:
        func = owner[i]
        if segments and segments[-1].func == func:
            segments[-1] = Segment(segments[-1].mask | 1 << i, func)
        else:
            segments.append(Segment(1 << i, func))
    return tuple(segments)


def _check_one(
    subject: str,
    loc: Location,
    yaml_func: str,
    ranges: tuple[tuple[str, int], ...],
    live_mask: int,
    releases: Mapping[str, ReleaseSchemas],
    registry: VersionRegistry,
) -> Drift | None:
    checked = tuple(
        (label, releases[label].canonical(subject))
        for label in registry.labels
        if label in releases and live_mask >> registry.index(label) & 1
    )
    if not checked or all(func == yaml_func for _, func in checked):
        return None
    return Drift(
        subject=subject,
        loc=loc,
        yaml_func=yaml_func,
        ranges=ranges,
        live_mask=live_mask,
        checked=checked,
        segments=_segments(live_mask, checked, registry),
        registry=registry,
        torch={label: releases[label].torch for label, _ in checked},
    )


def _entry_ranges(entry: OpEntry) -> tuple[tuple[str, int], ...]:
    return tuple(
        (key, getattr(entry, key).mask) for key in RANGE_KEYS if getattr(entry, key) is not None
    )


def check_schemas(model: Model, releases: Mapping[str, ReleaseSchemas]) -> list[Drift]:
    """Every aten entry (and aten backward entry) whose func differs from a checked release."""
    registry = model.registry
    drifts: list[Drift] = []
    for entry in model.entries:
        if entry.section not in ATEN_SECTIONS or entry.schema.name.namespace:
            continue
        drift = _check_one(
            entry.name,
            entry.loc,
            str(entry.schema),
            _entry_ranges(entry),
            entry.live_mask,
            releases,
            registry,
        )
        if drift is not None:
            drifts.append(drift)
    custom = {e.name for e in model.entries if e.section == "custom"}
    for derivative in model.derivatives:
        try:
            schema = parse_schema(derivative.name)
        except SchemaError:  # the loader reported it already
            continue
        subject = schema.name.full
        known = any(subject in release.funcs for release in releases.values())
        if schema.name.namespace or subject in custom or not known:
            continue  # a backward formula of an npu:: operator
        drift = _check_one(
            subject,
            derivative.loc,
            str(schema),
            (("version", derivative.version.mask),),
            derivative.version.mask,
            releases,
            registry,
        )
        if drift is not None:
            drifts.append(drift)
    return sorted(drifts, key=lambda d: (d.loc.file, d.loc.line))


def summarize(model: Model, releases: Mapping[str, ReleaseSchemas]) -> str:
    checked = ", ".join(f"{label} (torch {r.torch})" for label, r in releases.items())
    entries = sum(1 for e in model.entries if e.section in ATEN_SECTIONS)
    return f"{entries} aten entries checked against {checked or 'no release'}"


def releases_from(
    registry: VersionRegistry,
    cache_dir: Path | None,
    labels: Iterable[str],
    explicit: Mapping[str, Path],
) -> dict[str, ReleaseSchemas]:
    """Explicit files first, then the cache, for ``labels`` (all with a file when empty)."""
    wanted = list(labels)
    for label in [*wanted, *explicit]:
        if label not in registry:
            raise CodegenError([Diagnostic(None, None, registry.unknown_label_message(label))])
    if not wanted:
        wanted = list(explicit) + (
            [label for label in cached_labels(cache_dir, registry) if label not in explicit]
            if cache_dir
            else []
        )
        if not wanted:
            where = f"{cache_dir} is empty" if cache_dir else "no --native-functions given"
            raise CodegenError(
                [
                    Diagnostic(
                        None,
                        None,
                        f"nothing to check: {where} "
                        "(fill it with `nox -s check-schemas -- <labels>`)",
                    )
                ]
            )
    releases: dict[str, ReleaseSchemas] = {}
    from_cache = [label for label in wanted if label not in explicit]
    if from_cache:
        if cache_dir is None:
            raise CodegenError(
                [
                    Diagnostic(
                        None,
                        None,
                        f"no native_functions.yaml for {', '.join(from_cache)}: "
                        "give --cache-dir or --native-functions",
                    )
                ]
            )
        releases.update(read_cache(cache_dir, from_cache, registry))
    for label in wanted:
        if label in explicit:
            releases[label] = read_release(explicit[label], label, registry)
    return {label: releases[label] for label in registry.labels if label in releases}
