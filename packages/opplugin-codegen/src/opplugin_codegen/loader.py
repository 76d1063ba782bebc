"""YAML -> :class:`~opplugin_codegen.model.Model`, with validation.

Everything is checked once, for every label of the registry, before anything is
generated: a file either yields a complete model or a :class:`CodegenError` listing all
its problems (file:line, the entry, what is wrong).
"""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

from . import entry_keys, model_cache
from .cpp import CppTypeError, signature
from .errors import CodegenError, Diagnostics, Location, did_you_mean
from .model import (
    CODE_SECTIONS,
    SECTIONS,
    CpuScalarOp,
    Deprecation,
    Derivative,
    FrozenMap,
    GenOpApi,
    Model,
    OpEntry,
    OutputSpec,
    freeze,
)
from .schema import (
    FunctionSchema,
    SchemaError,
    SchemaKind,
    parse_schema,
)
from .validate import describe_labels, validate
from .versions import RangeError, VersionRange, VersionRegistry, load_registry
from .yaml_files import (
    BACKEND_FILE,
    DEPRECATED_FILE,
    DERIVATIVES_FILE,
    INPUT_FILES,
    OP_FILE,
    VERSIONS_FILE,
    display_names,
)
from .yamlload import YamlList, YamlMap, load_yaml

_RANGE_KEYS = ("acl_op", "op_api", "internal_format_opapi", "exposed", "sparse", "dvm")
#: Pass-through keys: handed to torchnpugen unchanged.
_PASSTHROUGH_KEYS = (
    "device_check",
    "tags",
    "dispatch",
    "structured",
    "structured_delegate",
    "use_const_ref_for_mutable_tensors",
)
ENTRY_KEYS = ("func", *_RANGE_KEYS, "gen_opapi", "impl_name", *_PASSTHROUGH_KEYS)
TOP_KEYS = ("all_version", *SECTIONS)
_GEN_KEYS = (
    "exec",
    "structured_inherit",
    "new_params",
    "integral_identity_tensor",
    "cpu_scalar_h2d",
    "cpu_scalar_op",
)
_OUTPUT_KEYS = ("size", "dtype", "name")
_CPU_SCALAR_OP_KEYS = ("param", "exec")
_DEPRECATION_KEYS = ("name", "replace")
_IDENT = entry_keys.IDENT
_OP_NAME = entry_keys.OP_NAME
_TOKEN = re.compile(r"[A-Za-z_][A-Za-z0-9_]*")


def load_model(yaml_dir: Path | str) -> Model:
    """Load and validate the YAML of ``yaml_dir``. Raises :class:`CodegenError`. A model
    loaded before from the same files comes from the cache (model_cache)."""
    yaml_dir = Path(yaml_dir)
    names = display_names(yaml_dir)
    display = sorted(names.values())
    return model_cache.cached(yaml_dir, INPUT_FILES, display, lambda: _load(yaml_dir, names))


def _load(yaml_dir: Path, names: dict[str, str]) -> Model:
    diags = Diagnostics()
    registry = load_registry(yaml_dir / VERSIONS_FILE, names[VERSIONS_FILE], diags)
    if registry is None:
        diags.raise_if_any()
        raise CodegenError([])  # pragma: no cover - load_registry always reports
    entries = _load_entries(yaml_dir / OP_FILE, names[OP_FILE], registry, diags)
    derivatives = _load_derivatives(
        yaml_dir / DERIVATIVES_FILE, names[DERIVATIVES_FILE], registry, diags
    )
    deprecations = _load_deprecations(
        yaml_dir / DEPRECATED_FILE, names[DEPRECATED_FILE], entries, diags
    )
    _check_derivatives(derivatives, entries, _backend_op_names(yaml_dir), registry, diags)
    # The cross-entry checks run over the entries that parsed, whatever else was wrong: one
    # run reports every problem of every file.
    validate(entries, registry, diags)
    # The file being generated from first, then the files that refer to it.
    diags.raise_if_any(
        file_order=[names[f] for f in (OP_FILE, DERIVATIVES_FILE, DEPRECATED_FILE, VERSIONS_FILE)]
    )
    return Model(
        registry,
        names[OP_FILE],
        tuple(entries),
        names[DERIVATIVES_FILE],
        tuple(derivatives),
        tuple(deprecations),
    )


def check_all_version(
    doc: YamlMap, display: str, registry: VersionRegistry, diags: Diagnostics
) -> None:
    """A file's own ``all_version`` (upstream files carry one) must be the registry's labels,
    in the same order: ranges such as ``[v2.3, newest]`` are read against that one list, so
    a file that listed fewer labels would silently mean something else by ``newest``."""
    if "all_version" not in doc:
        return
    listed = doc["all_version"]
    loc = Location(display, doc.key_line("all_version"))
    expected = ", ".join(registry.labels)
    if not isinstance(listed, list) or not all(isinstance(x, str) for x in listed):
        diags.error(loc, None, f"all_version must be a list of labels ({expected})")
        return
    if tuple(listed) == registry.labels:
        return
    missing = [x for x in registry.labels if x not in listed]
    extra = [x for x in listed if x not in registry]
    if missing or extra:
        what = "; ".join(
            part
            for part in (
                f"missing {', '.join(missing)}" if missing else "",
                f"not in versions.yaml: {', '.join(extra)}" if extra else "",
            )
            if part
        )
    else:
        what = "same labels in another order"
    diags.error(
        loc,
        None,
        f"all_version must list the labels of versions.yaml in the same order ({expected}); {what}",
    )


# --------------------------------------------------------------------------- entries


def _load_entries(
    path: Path, display: str, registry: VersionRegistry, diags: Diagnostics
) -> list[OpEntry]:
    before = len(diags)
    doc = load_yaml(path, display, diags)
    if doc is None:
        if len(diags) == before:  # readable, but no document: empty or only comments
            diags.error(Location(display, 1), None, "declares no operators (the file is empty)")
        return []
    if not isinstance(doc, YamlMap):
        diags.error(Location(display, 1), None, "expected a mapping of sections")
        return []
    for key in doc:
        if key in TOP_KEYS:
            continue
        loc = Location(display, doc.key_line(key))
        if key in ("tocpu", "unsupported"):
            diags.error(loc, None, f"section '{key}' is obsolete (it applied to v1.11/v2.0 only)")
        else:
            diags.error(loc, None, f"unknown section '{key}'{did_you_mean(key, TOP_KEYS)}")
    check_all_version(doc, display, registry, diags)
    entries: list[OpEntry] = []
    for section in SECTIONS:
        items = doc.get(section)
        if items is None:
            continue
        if not isinstance(items, YamlList):
            diags.error(
                Location(display, doc.key_line(section)),
                None,
                f"section '{section}' must be a list of entries",
            )
            continue
        for item, line in zip(items, items.item_lines):
            entry = _parse_entry(section, item, Location(display, line), registry, diags)
            if entry is not None:
                entries.append(entry)
    if not any(doc.get(section) for section in CODE_SECTIONS):
        diags.error(
            Location(display, 1),
            None,
            f"declares no operators: none of the sections {', '.join(CODE_SECTIONS)} has an entry",
        )
    return entries


def _parse_entry(
    section: str, item: Any, loc: Location, registry: VersionRegistry, diags: Diagnostics
) -> OpEntry | None:
    if not isinstance(item, YamlMap) or "func" not in item:
        diags.error(loc, None, "an entry must be a mapping with a 'func' schema")
        return None
    func = item["func"]
    try:
        schema = parse_schema(func)
    except SchemaError as e:
        diags.error(loc, f"'{func}'", f"malformed schema: {e}")
        return None
    subject = schema.name.full
    file = loc.file
    ok = True

    def err(key: str | None, message: str) -> None:
        nonlocal ok
        ok = False
        line = item.key_line(key) if key else loc.line
        diags.error(Location(file, line), subject, message)

    for key in item:
        if key in ENTRY_KEYS:
            continue
        if key == "impl_ns":
            err(key, "impl_ns is written by the projection; declare acl_op/op_api ranges instead")
        else:
            err(key, f"unknown key '{key}'{did_you_mean(key, ENTRY_KEYS)}")

    ranges: dict[str, VersionRange | None] = {}
    for key in _RANGE_KEYS:
        value = item.get(key)
        if key not in item:
            ranges[key] = None
            continue
        if value is True and key in ("internal_format_opapi", "exposed"):
            ranges[key] = registry.all_versions()
            continue
        try:
            ranges[key] = registry.parse_range(value)
        except RangeError as e:
            err(key, f"{key}: {e}")
            ranges[key] = None

    if not any(k in item for k in ("acl_op", "op_api", "sparse", "dvm")):
        err(None, "declares no implementation path: give acl_op and/or op_api a version range")

    impl_name = item.get("impl_name")
    if impl_name is not None:
        parsed_name = entry_keys.parse_impl_name(impl_name)
        if isinstance(parsed_name, entry_keys.KeyProblem):
            err("impl_name", str(parsed_name))
            impl_name = None

    passthrough: dict[str, Any] = {}
    for key in _PASSTHROUGH_KEYS:
        if key in item:
            problem = _check_passthrough(key, item[key])
            if problem:
                err(key, problem)
            passthrough[key] = freeze(item[key])
    structured_delegate = passthrough.get("structured_delegate")

    cpp = None
    try:
        cpp = signature(
            schema,
            cpp_base_name(schema, impl_name),
            const_ref_for_mutable=bool(passthrough.get("use_const_ref_for_mutable_tensors")),
        )
    except CppTypeError as e:
        err(None, f"no C++ signature: {e}")

    gen = None
    if "gen_opapi" in item:
        gen = _parse_gen_opapi(item["gen_opapi"], item.key_line("gen_opapi"), file, subject, diags)
        if gen is None:
            ok = False

    if not ok or cpp is None:
        return None
    # Keys in authored order; the passthrough mapping keeps that order for the projection.
    ordered = FrozenMap({k: passthrough[k] for k in item if k in passthrough})
    return OpEntry(
        section=section,
        func=func,
        schema=schema,
        loc=loc,
        cpp=cpp,
        acl_op=ranges["acl_op"],
        op_api=ranges["op_api"],
        internal_format_opapi=ranges["internal_format_opapi"],
        exposed=ranges["exposed"],
        sparse=ranges["sparse"],
        dvm=ranges["dvm"],
        gen_opapi=gen,
        impl_name=impl_name,
        use_const_ref_for_mutable_tensors=bool(
            passthrough.get("use_const_ref_for_mutable_tensors")
        ),
        structured=bool(passthrough.get("structured")),
        structured_delegate=structured_delegate if isinstance(structured_delegate, str) else None,
        passthrough=ordered,
        key_lines=FrozenMap(dict(item.key_lines)),
    )


def _check_passthrough(key: str, value: Any) -> str | None:
    parsers = {
        "device_check": entry_keys.parse_device_check,
        "structured_delegate": entry_keys.parse_structured_delegate,
        "tags": entry_keys.parse_tags,
        "dispatch": entry_keys.parse_dispatch,
    }
    parser = parsers.get(key)
    parsed = parser(value) if parser is not None else entry_keys.parse_flag(key, value)
    return str(parsed) if isinstance(parsed, entry_keys.KeyProblem) else None


def _parse_exec(value: Any) -> tuple[str, tuple[str, ...] | None] | str:
    """``aclnnName[, arg, ...]`` -> (api, args or None); a message when malformed."""
    parts = [p.strip() for p in value.split(",")] if isinstance(value, str) else []
    if not parts or not _IDENT.match(parts[0]):
        return "exec must be 'aclnnName' or 'aclnnName, arg, arg, ...'"
    bad = [p for p in parts[1:] if not _IDENT.match(p)]
    if bad:
        return f"exec argument '{bad[0]}' is not a name"
    return parts[0], (tuple(parts[1:]) if len(parts) > 1 else None)


def _parse_gen_opapi(
    block: Any, line: int, file: str, subject: str, diags: Diagnostics
) -> GenOpApi | None:
    loc = Location(file, line)
    if not isinstance(block, YamlMap):
        diags.error(loc, subject, "gen_opapi must be a mapping (exec, outputs, ...)")
        return None
    ok = True

    def err(key: str | None, message: str, at: YamlMap = block) -> None:
        nonlocal ok
        ok = False
        diags.error(Location(file, at.key_line(key) if key else at.line), subject, message)

    outputs: list[OutputSpec] = []
    for key, value in block.items():
        if key in _GEN_KEYS:
            continue
        if isinstance(value, YamlMap):
            if not _IDENT.match(key):
                err(key, f"gen_opapi: output name '{key}' must be a C++ identifier")
                continue
            typo = did_you_mean(key, _GEN_KEYS)
            if typo and not set(value) <= set(_OUTPUT_KEYS):
                # Not an output (its keys are not size/dtype/name): a misspelt gen_opapi key.
                err(key, f"gen_opapi: unknown key '{key}'{typo}")
                continue
            spec = _parse_output(key, value, block.key_line(key), file, subject, diags)
            if spec is None:
                ok = False
            else:
                outputs.append(spec)
        else:
            err(key, f"gen_opapi: unknown key '{key}'{did_you_mean(key, _GEN_KEYS)}")

    inherit = block.get("structured_inherit")
    if inherit is not None:
        if not isinstance(inherit, str) or not _OP_NAME.match(inherit):
            err("structured_inherit", "structured_inherit must name an op as name.overload")
        others = [k for k in block if k != "structured_inherit"]
        if others:
            err(
                others[0],
                f"gen_opapi: '{others[0]}' cannot be combined with structured_inherit "
                "(the inherited block is used as it is)",
            )
        return GenOpApi(loc, structured_inherit=inherit) if ok else None

    exec_api = exec_args = None
    if "exec" not in block:
        err(None, "gen_opapi needs 'exec: aclnnName[, args...]' (or structured_inherit)")
    else:
        parsed = _parse_exec(block["exec"])
        if isinstance(parsed, str):
            err("exec", parsed)
        else:
            exec_api, exec_args = parsed

    new_params: list[tuple[str, str]] = []
    new_param_lines: list[int] = []
    params = block.get("new_params")
    if params is not None:
        if not isinstance(params, YamlMap):
            err("new_params", "new_params must map local names to C++ expressions")
        else:
            for name, expr in params.items():
                if not _IDENT.match(name) or not isinstance(expr, str) or not expr.strip():
                    err(
                        name,
                        f"new_params: '{name}' must be a name with a C++ expression",
                        at=params,
                    )
                else:
                    new_params.append((name, expr.strip()))
                    new_param_lines.append(params.key_line(name))

    identity = block.get("integral_identity_tensor")
    if identity is not None and (not isinstance(identity, str) or not _IDENT.match(identity)):
        err("integral_identity_tensor", "integral_identity_tensor must name a tensor argument")

    h2d: list[str] = []
    if "cpu_scalar_h2d" in block:
        names = entry_keys.split_names(block["cpu_scalar_h2d"])
        if not names or not all(_IDENT.match(n) for n in names):
            err("cpu_scalar_h2d", "cpu_scalar_h2d must be a list of tensor argument names")
        elif len(set(names)) != len(names):
            err("cpu_scalar_h2d", "cpu_scalar_h2d names an argument twice")
        else:
            h2d = names

    scalar_ops: list[CpuScalarOp] = []
    if "cpu_scalar_op" in block:
        items = block["cpu_scalar_op"]
        if not isinstance(items, YamlList) or not items:
            err("cpu_scalar_op", "cpu_scalar_op must be a list of {param, exec} mappings")
        else:
            for item, item_line in zip(items, items.item_lines):
                parsed_op = _parse_cpu_scalar_op(item, item_line, file, subject, diags)
                if parsed_op is None:
                    ok = False
                elif any(o.param == parsed_op.param for o in scalar_ops):
                    err("cpu_scalar_op", f"cpu_scalar_op: '{parsed_op.param}' is listed twice")
                else:
                    scalar_ops.append(parsed_op)

    if not ok:
        return None
    return GenOpApi(
        loc,
        exec_api=exec_api,
        exec_args=exec_args,
        exec_loc=Location(file, block.key_line("exec")),
        outputs=tuple(outputs),
        new_params=tuple(new_params),
        new_param_lines=tuple(new_param_lines),
        integral_identity_tensor=identity,
        cpu_scalar_h2d=tuple(h2d),
        cpu_scalar_op=tuple(scalar_ops),
    )


def _report_unknown_keys(
    mapping: YamlMap,
    allowed: tuple[str, ...] | frozenset[str],
    file: str,
    subject: str | None,
    diags: Diagnostics,
    prefix: str = "",
) -> bool:
    """Reports every key of ``mapping`` not in ``allowed`` at its line; True when there was none."""
    ok = True
    for key in mapping:
        if key not in allowed:
            ok = False
            diags.error(
                Location(file, mapping.key_line(key)),
                subject,
                f"{prefix}unknown key '{key}'{did_you_mean(key, tuple(allowed))}",
            )
    return ok


def _parse_cpu_scalar_op(
    item: Any, line: int, file: str, subject: str, diags: Diagnostics
) -> CpuScalarOp | None:
    loc = Location(file, line)
    if not isinstance(item, YamlMap):
        diags.error(loc, subject, "cpu_scalar_op: each item must be a mapping {param, exec}")
        return None
    ok = _report_unknown_keys(item, _CPU_SCALAR_OP_KEYS, file, subject, diags, "cpu_scalar_op: ")
    param = item.get("param")
    if not isinstance(param, str) or not _IDENT.match(param):
        diags.error(loc, subject, "cpu_scalar_op: 'param' must name a tensor argument")
        ok = False
    parsed = _parse_exec(item.get("exec"))
    if isinstance(parsed, str):
        diags.error(Location(file, item.key_line("exec")), subject, f"cpu_scalar_op: {parsed}")
        return None
    if not ok:
        return None
    assert isinstance(param, str)
    return CpuScalarOp(param, parsed[0], parsed[1], Location(file, item.key_line("exec")))


def _parse_output(
    name: str, block: YamlMap, line: int, file: str, subject: str, diags: Diagnostics
) -> OutputSpec | None:
    ok = True
    values: dict[str, str] = {}
    for key, value in block.items():
        loc = Location(file, block.key_line(key))
        if key not in _OUTPUT_KEYS:
            diags.error(
                loc,
                subject,
                f"gen_opapi: {name}: unknown key '{key}'{did_you_mean(key, _OUTPUT_KEYS)}",
            )
            ok = False
        elif not isinstance(value, str) or not value.strip():
            diags.error(loc, subject, f"gen_opapi: {name}.{key} must be a non-empty string")
            ok = False
        else:
            values[key] = value.strip()
    if not ok:
        return None
    names = tuple(n.strip() for n in values["name"].split(",")) if "name" in values else ()
    key_lines = tuple((key, block.key_line(key)) for key in values)
    return OutputSpec(
        name, values.get("size"), values.get("dtype"), names, Location(file, line), key_lines
    )


def cpp_base_name(schema: FunctionSchema, impl_name: str | None) -> str:
    """The C++ name (contracts.md section 2) before any ``_symint`` suffix."""
    if impl_name:
        return impl_name
    name = schema.name.name
    return name + "_out" if schema.kind is SchemaKind.out else name


# --------------------------------------------------------------------------- derivatives


def _load_derivatives(
    path: Path, display: str, registry: VersionRegistry, diags: Diagnostics
) -> list[Derivative]:
    if not path.exists():
        return []
    doc = load_yaml(path, display, diags)
    if doc is None:
        return []
    if not isinstance(doc, YamlMap):
        diags.error(Location(display, 1), None, "expected a mapping with 'backward'")
        return []
    _report_unknown_keys(doc, ("backward", "all_version"), display, None, diags)
    check_all_version(doc, display, registry, diags)
    items = doc.get("backward")
    if items is None:
        return []
    if not isinstance(items, YamlList):
        diags.error(Location(display, doc.key_line("backward")), None, "'backward' must be a list")
        return []
    out: list[Derivative] = []
    for item, line in zip(items, items.item_lines):
        loc = Location(display, line)
        if not isinstance(item, YamlMap) or "name" not in item:
            diags.error(loc, None, "a backward entry must be a mapping with 'name'")
            continue
        name = item["name"]
        try:
            subject = parse_schema(name).name.full
        except SchemaError as e:
            diags.error(loc, f"'{name}'", f"malformed schema: {e}")
            continue
        if "version" not in item:
            diags.error(loc, subject, "needs a 'version' range")
            continue
        try:
            version = registry.parse_range(item["version"])
        except RangeError as e:
            diags.error(Location(display, item.key_line("version")), subject, f"version: {e}")
            continue
        fields = FrozenMap({k: freeze(v) for k, v in item.items() if k != "version"})
        out.append(Derivative(name, version, fields, loc))
    return out


def _backend_op_names(yaml_dir: Path) -> set[str]:
    """Ops the backend declares itself in ``npu_native_functions.yaml`` (torchnpugen's input,
    next to the op file when the project has one): derivatives.yaml may give their backward
    formulas too, as upstream's does for ``_npu_format_cast``. Its own problems are
    torchnpugen's to report; an unreadable file declares nothing here."""
    path = yaml_dir / BACKEND_FILE
    if not path.is_file():
        return set()
    doc = load_yaml(path, BACKEND_FILE, Diagnostics())
    names: set[str] = set()
    if not isinstance(doc, YamlMap):
        return names
    for items in doc.values():
        if not isinstance(items, YamlList):
            continue
        for item in items:
            func = item.get("func") if isinstance(item, YamlMap) else item
            if isinstance(func, str):
                names.add(func.split("(", 1)[0].strip())
    return names


def _check_derivatives(
    derivatives: list[Derivative],
    entries: list[OpEntry],
    backend_names: set[str],
    registry: VersionRegistry,
    diags: Diagnostics,
) -> None:
    """A formula for an op declared nowhere is an orphan; two formulas for one op must
    have disjoint version ranges."""
    declared = {e.name for e in entries} | backend_names
    first: dict[str, list[Derivative]] = {}
    for d in derivatives:
        subject = parse_schema(d.name).name.full
        if subject not in declared:
            diags.error(
                d.loc,
                subject,
                f"backward formula for an op declared neither in {OP_FILE} nor in {BACKEND_FILE}"
                f"{did_you_mean(subject, declared)}",
            )
        for earlier in first.get(subject, []):
            overlap = earlier.version.mask & d.version.mask
            if overlap:
                diags.error(
                    d.loc,
                    subject,
                    f"backward formula given twice for {describe_labels(registry, overlap)} "
                    f"(also at {earlier.loc}); give the entries disjoint version ranges",
                )
        first.setdefault(subject, []).append(d)


# --------------------------------------------------------------------------- deprecated.yaml


def _load_deprecations(
    path: Path, display: str, entries: list[OpEntry], diags: Diagnostics
) -> list[Deprecation]:
    """``deprecated: [{name: op[.overload], replace?: text}]`` (optional file). As upstream,
    a name is one overload exactly: ``op`` is the overload without a name, ``op.out`` the
    out= one; every name must be declared."""
    if not path.exists():
        return []
    doc = load_yaml(path, display, diags)
    if doc is None:
        return []
    if not isinstance(doc, YamlMap):
        diags.error(Location(display, 1), None, "expected a mapping with 'deprecated'")
        return []
    _report_unknown_keys(doc, ("deprecated",), display, None, diags)
    items = doc.get("deprecated")
    if items is None:
        return []
    if not isinstance(items, YamlList):
        diags.error(
            Location(display, doc.key_line("deprecated")), None, "'deprecated' must be a list"
        )
        return []
    code = [e for e in entries if e.section in CODE_SECTIONS]
    full_names = {e.name for e in code}
    out: list[Deprecation] = []
    seen: dict[str, Location] = {}
    for item, line in zip(items, items.item_lines):
        loc = Location(display, line)
        if not isinstance(item, YamlMap) or not isinstance(item.get("name"), str):
            diags.error(loc, None, "an entry must be a mapping with 'name: op[.overload]'")
            continue
        name = item["name"].strip()
        ok = _report_unknown_keys(item, _DEPRECATION_KEYS, display, name, diags)
        replace = item.get("replace")
        if replace is not None and (not isinstance(replace, str) or not replace.strip()):
            ok = False
            diags.error(Location(display, item.key_line("replace")), name, "replace must be a text")
        if not _OP_NAME.match(name):
            ok = False
            diags.error(loc, name, "name must be op or op.overload")
        elif name not in full_names:
            ok = False
            diags.error(
                loc,
                name,
                f"no op of this name in official, custom or quant{did_you_mean(name, full_names)}",
            )
        if name in seen:
            ok = False
            diags.error(loc, name, f"listed twice (first at {seen[name]})")
        seen.setdefault(name, loc)
        if ok:
            out.append(Deprecation(name, replace.strip() if replace else None, loc))
    return out
