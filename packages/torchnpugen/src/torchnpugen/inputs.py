"""The YAML inputs, parsed once into small frozen records.

* ``yaml/versions.yaml``: label -> torch pin.
* ``yaml/npu_native_functions.yaml``: ``backend: NPU``, ``cpp_namespace``,
  ``supported`` (bare names or dicts with flags), ``custom``, ``symint``.
* ``<out>/op_plugin/config/op_plugin_functions.yaml``: the per-label projection
  written by opplugin-codegen (sections official/custom/symint/quant/autograd; each
  entry has ``func``, ``impl_ns``, ``yaml_source`` and optional flags).

Every record keeps ``where`` (``file:line``) so later errors can point at the entry.
"""

from __future__ import annotations

import difflib
import re
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from opplugin_codegen import entry_keys
from torchgen.model import DeviceCheckType

from .errors import InputError, Problems
from .yaml_lines import LocatedYaml, load_located

__all__ = [
    "DERIVATIVES_RELPATH",
    "PROJECTION_RELPATH",
    "BackendEntry",
    "CustomEntry",
    "DerivativeEntry",
    "NpuBackendYaml",
    "Projection",
    "ProjectionEntry",
    "load_derivatives",
    "load_npu_backend_yaml",
    "load_projection",
    "load_versions",
]

PROJECTION_RELPATH = Path("op_plugin") / "config" / "op_plugin_functions.yaml"


def _display(yaml_dir: Path, filename: str) -> str:
    # Generated comments must not depend on where the checkout lives.
    return f"{yaml_dir.resolve().name}/{filename}"


def _parsed(parsed: Any, where: str) -> Any:
    """A value of opplugin-codegen's key parsers (entry_keys), or its problem raised."""
    if isinstance(parsed, entry_keys.KeyProblem):
        raise InputError(str(parsed), where)
    return parsed


def _dispatch(value: Any, where: str) -> tuple[str, str] | None:
    """``dispatch: {<key>: <kernel>}`` of a custom entry: what torchnpugen registers is one key
    of CUSTOM_DISPATCH_KEYS with one kernel."""
    if value is None:
        return None
    parsed = _parsed(entry_keys.parse_dispatch(value), where)
    if len(parsed) != 1 or len(parsed[0][0]) != 1:
        raise InputError("dispatch must map one dispatch key to a kernel name", where)
    ((key,), kernel), = parsed
    if key not in CUSTOM_DISPATCH_KEYS:
        raise InputError(f"dispatch key {key!r} is not supported for custom ops; use one of: "
                         f"{', '.join(CUSTOM_DISPATCH_KEYS)}", where)
    if "::" in kernel:
        raise InputError(f"dispatch: {key}: the kernel must be a C++ function name, got {kernel!r}", where)
    return key, kernel


def _flag(item: dict, key: str, where: str) -> bool:
    """A true/false flag of an entry (absent: false)."""
    return bool(_parsed(entry_keys.parse_flag(key, item.get(key, False)), where))


def _device_check(value: Any, where: str) -> DeviceCheckType | None:
    if value is None:
        return None
    return DeviceCheckType[_parsed(entry_keys.parse_device_check(value), where)]


def _tags(value: Any, where: str) -> tuple[str, ...]:
    return () if value is None else _parsed(entry_keys.parse_tags(value), where)


def _structured_delegate(value: Any, where: str) -> str | None:
    return None if value is None else _parsed(entry_keys.parse_structured_delegate(value), where)


# --------------------------------------------------------------------------- versions


def load_versions(yaml_dir: Path) -> tuple[dict[str, str], str]:
    """(label -> torch pin, default label) from versions.yaml, read by the project's one
    reader of the registry (opplugin-codegen's registry_file)."""
    from opplugin_codegen.registry_file import RegistryError, read_registry

    try:
        registry = read_registry(yaml_dir / "versions.yaml", _display(yaml_dir, "versions.yaml"))
    except RegistryError as error:
        raise InputError(str(error)) from None
    return {label.name: label.torch for label in registry.labels}, registry.default


# --------------------------------------------------------------------------- npu_native_functions.yaml


@dataclass(frozen=True)
class BackendEntry:
    """One ``supported:`` item: an aten op whose kernel the runtime owns."""

    name: str  # operator name with overload, e.g. "empty.memory_format"
    where: str
    device_check: DeviceCheckType | None
    #: upstream's ``op_api: True``: the runtime has an op_api (aclnn) kernel as well, in
    #: NPUNativeOpApiFunctions, chosen at run time as op-plugin's dual path chooses.
    op_api: bool = False
    #: upstream's ``internal_format_opapi: True``: that op_api kernel takes internal formats too.
    internal_format_opapi: bool = False


@dataclass(frozen=True)
class CustomEntry:
    """One ``custom:`` item of npu_native_functions.yaml: a new ``npu::`` operator whose
    kernel the runtime owns (``at_npu::native::NPUNativeFunctions::<name>``)."""

    func: str  # full schema, without namespace
    where: str
    device_check: DeviceCheckType | None
    tags: tuple[str, ...]
    #: upstream's ``exposed: True``: part of the public torch_npu API (listed in custom_ops.EXPOSED)
    exposed: bool = False
    #: upstream's ``dispatch: {<key>: <kernel>}``: registered for that key, with that C++ kernel
    dispatch: tuple[str, str] | None = None


@dataclass(frozen=True)
class NpuBackendYaml:
    display_path: str
    backend: str
    cpp_namespace: str
    class_name: str
    supported: tuple[BackendEntry, ...]
    symint: tuple[tuple[str, str], ...]  # (op name, where)
    custom: tuple[CustomEntry, ...]


_BACKEND_KEYS = ("backend", "cpp_namespace", "class_name", "supported", "custom", "symint")
# Flags a supported dict entry may carry in this version of the generator.  Upstream's
# op_api / internal_format_opapi (PTA dual path) arrive with a later issue: reject them
# rather than silently generating a single-path wrapper.
_SUPPORTED_FLAGS = ("func", "device_check", "op_api", "internal_format_opapi")
_CUSTOM_FLAGS = ("func", "device_check", "tags", "exposed", "dispatch")
#: The dispatch keys a custom op may be registered for instead of PrivateUse1 (what upstream's
#: files use): a device-agnostic kernel (factories), or one that does its own autograd.
CUSTOM_DISPATCH_KEYS = ("PrivateUse1", "AutogradPrivateUse1", "CompositeExplicitAutograd")
_IDENTIFIER = re.compile(r"^[A-Za-z_][A-Za-z0-9_]*$")


def load_npu_backend_yaml(yaml_dir: Path, problems: Problems | None = None) -> NpuBackendYaml:
    """npu_native_functions.yaml. Every problem of the file is reported: into ``problems`` when
    given (the caller raises them with those of the other inputs), else raised here."""
    own = problems is None
    problems = Problems() if problems is None else problems
    filename = "npu_native_functions.yaml"
    doc = load_located(yaml_dir / filename, _display(yaml_dir, filename))
    data = doc.data
    if not isinstance(data, dict):
        raise InputError("expected a mapping at the top level", doc.display_path)

    def at(key: str) -> str:
        return f"{doc.display_path}:{doc.key_lines.get(key, 1)}"

    for key in data:
        if key not in _BACKEND_KEYS:
            problems.add(f"unknown key {key!r}; allowed: {', '.join(_BACKEND_KEYS)}", at(key))
    backend = data.get("backend")
    if backend != "NPU":
        problems.add(f"backend must be NPU, got {backend!r}", at("backend"))
    cpp_namespace = data.get("cpp_namespace")
    if not isinstance(cpp_namespace, str) or not cpp_namespace:
        problems.add("cpp_namespace is required", doc.display_path)
    class_name = data.get("class_name", "NPUNativeFunctions")

    supported: list[BackendEntry] = []
    for index, item in enumerate(_list_section(doc, "supported", problems)):
        where = doc.where("supported", index)
        with problems.entry(_entry_name(item)):
            supported.append(_backend_entry(item, where, problems))

    symint: list[tuple[str, str]] = []
    for index, item in enumerate(_list_section(doc, "symint", problems)):
        where = doc.where("symint", index)
        if not isinstance(item, str):
            problems.add(f"a symint entry must be an op name, got {item!r}", where)
            continue
        symint.append((item, where))

    custom: list[CustomEntry] = []
    for index, item in enumerate(_list_section(doc, "custom", problems)):
        where = doc.where("custom", index)
        with problems.entry(_entry_name(item)):
            if not isinstance(item, dict) or not isinstance(item.get("func"), str):
                raise InputError("a custom entry needs 'func: <full schema>'", where)
            _check_flags(item, _CUSTOM_FLAGS, "custom", where, problems)
            custom.append(
                CustomEntry(
                    item["func"],
                    where,
                    _device_check(item.get("device_check"), where),
                    _tags(item.get("tags"), where),
                    exposed=_flag(item, "exposed", where),
                    dispatch=_dispatch(item.get("dispatch"), where),
                )
            )

    if own:
        problems.raise_if_any()
    return NpuBackendYaml(
        display_path=doc.display_path,
        backend=str(backend),
        cpp_namespace=str(cpp_namespace),
        class_name=str(class_name),
        supported=tuple(supported),
        symint=tuple(symint),
        custom=tuple(custom),
    )


def _entry_name(item: Any) -> str | None:
    """The op an entry declares (``abs.out``), for the problems reported about it."""
    func = item.get("func") if isinstance(item, dict) else item
    return (func.split("(", 1)[0].strip() or None) if isinstance(func, str) else None


def _check_flags(item: dict, allowed: tuple[str, ...], kind: str, where: str, problems: Problems) -> None:
    for key in item:
        if key not in allowed:
            problems.add(
                f"unsupported flag {key!r} on a {kind} entry; allowed: {', '.join(allowed)}",
                where,
                _entry_name(item),
            )


def _backend_entry(item: Any, where: str, problems: Problems) -> BackendEntry:
    if isinstance(item, str):
        return BackendEntry(item, where, None)
    if not isinstance(item, dict):
        raise InputError(f"a supported entry must be an op name or a mapping, got {item!r}", where)
    _check_flags(item, _SUPPORTED_FLAGS, "supported", where, problems)
    if not isinstance(item.get("func"), str):
        raise InputError("a supported entry given as a mapping needs 'func: <op name>'", where)
    flags = {key: _flag(item, key, where) for key in ("op_api", "internal_format_opapi")}
    if flags["internal_format_opapi"] and not flags["op_api"]:
        raise InputError("internal_format_opapi describes the op_api kernel: it needs op_api: True", where)
    return BackendEntry(item["func"], where, _device_check(item.get("device_check"), where), **flags)


def _list_section(doc: LocatedYaml, key: str, problems: Problems) -> list[Any]:
    value = doc.data.get(key)
    if value is None:
        return []
    if not isinstance(value, list):
        problems.add(f"'{key}' must be a list", f"{doc.display_path}:{doc.key_lines.get(key, 1)}")
        return []
    return value


# --------------------------------------------------------------------------- projection


@dataclass(frozen=True)
class ProjectionEntry:
    section: str  # official | custom | symint | quant | autograd
    func: str  # full schema
    impl_ns: tuple[str, ...]  # live implementation paths, e.g. ("acl_op", "op_api")
    yaml_source: str  # "yaml/op_plugin_functions.yaml:31": the entry in the source YAML
    where: str  # the entry in the projection file itself
    device_check: DeviceCheckType | None
    impl_name: str | None
    structured_delegate: str | None  # op_plugin generates no function for these
    structured: bool = False  # out=: the structured kernel; in-place: keeps its own kernel after meta
    tags: tuple[str, ...] = ()
    exposed: bool = False  # custom: part of the public torch_npu API
    dispatch: tuple[str, str] | None = None  # custom: registered for that key, with that kernel
    sparse: bool = False  # op-plugin also has a sparse kernel (op_plugin::<name>_sparse)

    @property
    def op_name(self) -> str:
        return self.func.split("(", 1)[0].strip()


@dataclass(frozen=True)
class Projection:
    display_path: str
    entries: tuple[ProjectionEntry, ...]

    def section(self, name: str) -> tuple[ProjectionEntry, ...]:
        return tuple(e for e in self.entries if e.section == name)


PROJECTION_SECTIONS = ("official", "custom", "symint", "quant", "autograd")


#: Upstream's merged projection (torch_npu's npu_native_functions_by_codegen.yaml) calls the
#: official section ``supported`` and repeats npu_native_functions.yaml's own entries in it.
UPSTREAM_OFFICIAL_SECTION = "supported"


def load_projection(
    path: Path, display_path: str, backend: NpuBackendYaml | None = None, problems: Problems | None = None
) -> Projection:
    """The op-plugin projection of the label: opplugin-codegen's (sections official, custom,
    symint, quant, autograd) or upstream's merged form, whose ``supported`` section holds the
    official entries (a full schema each) next to the runtime-owned ops of
    npu_native_functions.yaml repeated by name, and whose ``custom`` and ``symint`` sections
    repeat the backend's own: those repeats must match ``backend`` and are skipped here (the
    backend YAML declares them). Problems are reported as load_npu_backend_yaml's are."""
    own = problems is None
    problems = Problems() if problems is None else problems
    if not path.is_file():
        raise InputError(
            "op-plugin projection not found; run opplugin-codegen for this label first "
            "(it writes <out>/op_plugin/config/op_plugin_functions.yaml)",
            display_path,
        )
    doc = load_located(path, display_path)
    data = doc.data if doc.data is not None else {}
    if not isinstance(data, dict):
        raise InputError("expected a mapping at the top level", display_path)
    backend_supported = {e.name for e in backend.supported} if backend is not None else set()
    backend_custom = {e.func.strip() for e in backend.custom} if backend is not None else set()
    backend_symint = {n for n, _ in backend.symint} if backend is not None else set()
    for key, value in data.items():
        if key not in (*PROJECTION_SECTIONS, UPSTREAM_OFFICIAL_SECTION) and isinstance(value, list):
            problems.add(
                f"unknown section {key!r}; known: {', '.join(PROJECTION_SECTIONS)}",
                f"{display_path}:{doc.key_lines.get(key, 1)}",
            )
    entries: list[ProjectionEntry] = []
    for listed in (*PROJECTION_SECTIONS, UPSTREAM_OFFICIAL_SECTION):
        section = "official" if listed == UPSTREAM_OFFICIAL_SECTION else listed
        for index, item in enumerate(_list_section(doc, listed, problems)):
            where = doc.where(listed, index)
            with problems.entry(_entry_name(item)):
                if isinstance(item, dict):
                    _check_projection_keys(item, where, problems)
                name = item.get("func") if isinstance(item, dict) else item
                if listed == UPSTREAM_OFFICIAL_SECTION and isinstance(name, str) and "(" not in name:
                    if name.strip() not in backend_supported:
                        raise InputError(
                            f"'{name.strip()}' is listed by name, as a runtime-owned op, but "
                            "npu_native_functions.yaml does not list it under supported",
                            where,
                        )
                    continue
                if listed == "symint" and isinstance(item, str) and backend is not None:
                    if item.strip() not in backend_symint:
                        raise InputError(
                            f"'{item.strip()}' is listed by name, as a runtime-owned symint op, but "
                            "npu_native_functions.yaml does not list it under symint",
                            where,
                        )
                    continue
                if (
                    listed == "custom"
                    and isinstance(item, dict)
                    and "impl_ns" not in item
                    and isinstance(name, str)
                    and name.strip() in backend_custom
                ):
                    continue
                entries.append(_projection_entry(item, section, where))
    if own:
        problems.raise_if_any()
    return Projection(display_path, tuple(entries))


def _projection_entry(item: Any, section: str, where: str) -> ProjectionEntry:
    if not isinstance(item, dict) or not isinstance(item.get("func"), str):
        raise InputError("each entry needs a 'func' schema", where)
    impl_ns = item.get("impl_ns", "")
    if not isinstance(impl_ns, str):
        raise InputError(f"impl_ns must be a string like 'acl_op, op_api', got {impl_ns!r}", where)
    impl_name = item.get("impl_name")
    if impl_name is not None:
        impl_name = _parsed(entry_keys.parse_impl_name(impl_name), where)
    return ProjectionEntry(
        section=section,
        func=item["func"],
        impl_ns=tuple(p.strip() for p in impl_ns.split(",") if p.strip()),
        yaml_source=str(item.get("yaml_source") or where),
        where=where,
        device_check=_device_check(item.get("device_check"), where),
        impl_name=impl_name,
        structured_delegate=_structured_delegate(item.get("structured_delegate"), where),
        structured=_flag(item, "structured", where),
        tags=_tags(item.get("tags"), where),
        exposed=section == "custom" and _flag(item, "exposed", where),
        dispatch=_dispatch(item.get("dispatch"), where) if section == "custom" else None,
        sparse=bool(item.get("sparse")),  # ours: true; upstream's: the path, e.g. "op_api"
    )


#: Keys of a projection entry: opplugin-codegen's (pass-through keys of op_plugin_functions.yaml,
#: range keys resolved for the label, yaml_source) and upstream's merged form (op_api on the
#: runtime-owned entries it repeats).
PROJECTION_ENTRY_KEYS = (
    "func",
    "impl_ns",
    "impl_name",
    "yaml_source",
    "device_check",
    "tags",
    "dispatch",
    "structured",
    "structured_delegate",
    "use_const_ref_for_mutable_tensors",
    "exposed",
    "internal_format_opapi",
    "sparse",
    "op_api",
)


def _check_projection_keys(item: dict, where: str, problems: Problems) -> None:
    for key in item:
        if key not in PROJECTION_ENTRY_KEYS:
            close = difflib.get_close_matches(str(key), PROJECTION_ENTRY_KEYS, n=1)
            hint = f"; did you mean {close[0]!r}?" if close else f"; known: {', '.join(PROJECTION_ENTRY_KEYS)}"
            problems.add(f"unknown key {key!r} on a projection entry{hint}", where, _entry_name(item))


# --------------------------------------------------------------------------- derivatives


@dataclass(frozen=True)
class DerivativeEntry:
    """One backward entry of the label's filtered derivatives.yaml (``version`` already
    dropped by opplugin-codegen): the schema and its formulas, as torchgen reads them."""

    name: str  # schema
    fields: tuple[tuple[str, Any], ...]  # every key but name, in file order
    where: str


DERIVATIVES_RELPATH = Path("op_plugin") / "config" / "derivatives.yaml"


def load_derivatives(path: Path, display_path: str, problems: Problems | None = None) -> tuple[DerivativeEntry, ...]:
    """The filtered ``derivatives.yaml`` opplugin-codegen writes next to the projection:
    a bare list (or a ``backward:`` list) of ``{name: <schema>, <input>: <formula>, ...}``.
    A missing file means no derivatives (older trees). Problems are reported as
    load_npu_backend_yaml's are."""
    own = problems is None
    problems = Problems() if problems is None else problems
    if not path.is_file():
        return ()
    doc = load_located(path, display_path)
    data = doc.data
    key = None
    if isinstance(data, dict):
        key, data = "backward", data.get("backward") or []
    if data is None:
        return ()
    if not isinstance(data, list):
        raise InputError("expected a list of backward entries", display_path)
    entries = []
    for index, item in enumerate(data):
        where = doc.where(key, index) if key else f"{display_path}:{_list_item_line(doc, index)}"
        if not isinstance(item, dict) or not isinstance(item.get("name"), str):
            problems.add("each backward entry needs 'name: <schema>'", where)
            continue
        fields = tuple((str(k), v) for k, v in item.items() if k not in ("name", "yaml_source"))
        source = item.get("yaml_source")
        entries.append(DerivativeEntry(item["name"], fields, str(source) if source else where))
    if own:
        problems.raise_if_any()
    return tuple(entries)


def _list_item_line(doc: LocatedYaml, index: int) -> int:
    return doc.item_lines.get("", ())[index] if index < len(doc.item_lines.get("", ())) else 1
