"""Which operators get an NPU wrapper, and what each wrapper calls.

Resolves the YAML records against torchgen's parsed native_functions.yaml into one
``RegisteredOp`` per operator: aten operators (``official``, ``supported:``), their
structured groups, and the custom ``npu::`` operators (``custom:`` of both YAMLs, parsed
into torchgen ``NativeFunction``s of namespace ``npu``).  All validation happens here,
before any file is rendered, so an error never leaves half-written output.
"""

from __future__ import annotations

import dataclasses
from collections import Counter
from dataclasses import dataclass, replace
from enum import Enum
from typing import Sequence

from torchgen.api import cpp
from torchgen.api.types import NativeSignature
from torchgen.context import native_function_manager
from torchgen.model import (
    DeviceCheckType,
    FunctionSchema,
    Location,
    NativeFunction,
    NativeFunctionsGroup,
    OperatorName,
    SchemaKind,
)

from .compat import difference_of_tag, tags_for_installed_torch
from .errors import InputError, Problems
from .inputs import NpuBackendYaml, Projection, ProjectionEntry

__all__ = [
    "CUSTOM_NAMESPACE",
    "OP_API_CLASS",
    "Callee",
    "RegisteredOp",
    "Resolution",
    "StructuredGroup",
    "StructuredRole",
    "resolve_custom_ops",
    "resolve_registered_ops",
]

CUSTOM_NAMESPACE = "npu"

OP_PLUGIN_NAMESPACE = "op_plugin"
#: The runtime's op_api kernels of runtime-owned ops (upstream's name), next to NPUNativeFunctions.
OP_API_CLASS = "NPUNativeOpApiFunctions"


class Callee(Enum):
    OP_PLUGIN = "op_plugin"  # declared in op_plugin_functions.yaml (the projection)
    NPU_NATIVE = "npu_native"  # `supported:` in npu_native_functions.yaml (runtime-owned)


class StructuredRole(Enum):
    KERNEL = "structured kernel"  # the out= op marked structured: true
    DELEGATE = "structured_delegate"  # functional / in-place: meta + the out= kernel's impl
    INPLACE_IMPL = "structured in-place"  # in-place marked structured: true: meta + its own kernel


def yaml_file_of(source: str) -> str:
    """The YAML file of a `file:line` source: generated code names the file only, so that a line added
    above an entry does not rewrite (and so recompile) every generated file below it."""
    file, _, line = source.rpartition(":")
    return file if file and line.isdigit() else source


@dataclass(frozen=True)
class RegisteredOp:
    f: NativeFunction
    callee: Callee
    kernel: str  # unqualified C++ name: add, add_out, empty_strided_symint ...
    qualified_kernel: str  # op_plugin::add, at_npu::native::NPUNativeFunctions::empty
    symint: bool  # kernel takes SymInt types (listed under `symint:`)
    device_check: DeviceCheckType
    device_check_note: str  # why there is no device check, for the wrapper's comment
    source: str  # file:line of the declaring YAML entry
    provenance: str  # short note for the comment line, e.g. "impl_ns: acl_op, op_api"
    structured: StructuredRole | None = None
    tags: tuple[str, ...] = ()  # custom ops: the tags their schema is defined with
    #: runtime-owned ops with upstream's ``op_api: True``: the op_api kernel the wrapper
    #: chooses at run time (``at_npu::native::NPUNativeOpApiFunctions::clone``), else None
    op_api_kernel: str | None = None
    internal_format_opapi: bool = False  # that op_api kernel takes internal formats too
    #: the key the wrapper is registered for (custom ops may name another one in ``dispatch:``)
    dispatch_key: str = "PrivateUse1"
    exposed: bool = False  # custom ops: part of the public torch_npu API

    @property
    def schema_name(self) -> str:
        return str(self.f.func.name)

    @property
    def source_file(self) -> str:
        return yaml_file_of(self.source)

    @property
    def op_plugin_header(self) -> str | None:
        """The opplugin-codegen header that declares this op's op_plugin:: kernel: one per op
        family (``add``, ``add_``, ``add.out``), ``op_plugin/ops/<family>.h``; None for kernels
        of another namespace."""
        if not self.qualified_kernel.startswith(f"{OP_PLUGIN_NAMESPACE}::"):
            return None
        name = str(self.f.func.name.name)
        family = name[:-1] if name.endswith("_") and not name.startswith("__") else name
        return f"op_plugin/ops/{family}.h"

    @property
    def namespace(self) -> str:
        return self.f.namespace

    @property
    def qualified_name(self) -> str:
        """``aten::add.Tensor``, ``npu::npu_add_relu``."""
        return f"{self.namespace}::{self.f.func.name}"


@dataclass(frozen=True)
class StructuredGroup:
    """A torchgen structured group with an NPU structured kernel (its out= op)."""

    g: NativeFunctionsGroup
    out: RegisteredOp
    members: tuple[RegisteredOp, ...]  # the declared functional / in-place ops
    #: the structured_<name> class's name where two groups' out= kernels share a C++ name
    #: (overloads: isin.Tensor_Tensor_out and isin.Tensor_Scalar_out are both isin_out)
    class_base: str = ""

    @property
    def kernel(self) -> str:
        """The base of the structured_<kernel> class: the out= kernel's C++ name, qualified by
        its overload name where another structured group has the same kernel name."""
        return self.class_base or self.out.kernel


@dataclass(frozen=True)
class Resolution:
    ops: tuple[RegisteredOp, ...]  # aten ops, native_functions.yaml order (structured members included)
    structured: tuple[StructuredGroup, ...]
    custom: tuple[RegisteredOp, ...]  # npu:: ops, declaration order (npu_native_functions.yaml first)
    notes: tuple[str, ...]


def kernel_base_name(func: FunctionSchema) -> str:
    """contracts.md section 2: name for functional/inplace, name_out for out= schemas."""
    return cpp.name(func)


def _parse_op_name(name: str, where: str) -> OperatorName:
    try:
        return OperatorName.parse(name)
    except Exception as e:  # torchgen raises AssertionError on malformed names
        raise InputError(f"malformed operator name {name!r}: {e}", where) from e


def _lookup(natives: dict[OperatorName, NativeFunction], name: str, where: str, torch_version: str) -> NativeFunction:
    op = _parse_op_name(name, where)
    f = natives.get(op)
    if f is None:
        raise InputError(f"unknown operator '{name}': not in native_functions.yaml of torch {torch_version}", where)
    if f.manual_kernel_registration:
        raise InputError(f"operator '{name}' uses manual_kernel_registration and cannot be registered", where)
    return f


def _effective_device_check(
    f: NativeFunction, override: DeviceCheckType | None, origin: str
) -> tuple[DeviceCheckType, str]:
    if override is not None:
        return override, f"device_check {override.name} ({origin})"
    return f.device_check, f"device_check {f.device_check.name} (native_functions.yaml)"


def _cpp_call_shape(schema: FunctionSchema) -> tuple[str, tuple[str, ...], str]:
    """What a C++ call of the schema's (non-SymInt) native kernel depends on: its name, the
    C++ types of its arguments in order and its return type (argument names do not matter,
    nor SymInt vs int or an alias annotation on a list: the C++ types are the same)."""
    sig = NativeSignature(schema, symint=False)
    return str(schema.name), tuple(a.type for a in sig.arguments()), sig.returns_type().cpp_type()


def _callable_as(torch_shape: tuple[str, tuple[str, ...], str], kernel_shape: tuple[str, tuple[str, ...], str]) -> bool:
    """True when the wrapper (torch's signature) can call the kernel (the projection's) with its
    own arguments: the same name, count and return type, each argument of the kernel's type
    or a mutable tensor the kernel takes as const (a reference binds to a const one)."""
    name, torch_args, torch_returns = torch_shape
    kernel_name, kernel_args, kernel_returns = kernel_shape
    if name != kernel_name or torch_returns != kernel_returns or len(torch_args) != len(kernel_args):
        return False
    return all(t == k or (t, k) == ("at::Tensor &", "const at::Tensor &") for t, k in zip(torch_args, kernel_args))


def has_hand_written_kernels(entry: ProjectionEntry) -> bool:
    """The cat family, as upstream: marked structured in the YAML, but its kernels are written by
    hand and reached through op_plugin::cat / cat_out like any other op's (upstream's generators
    make this one exception by name; opplugin-codegen generates op_plugin::cat for it)."""
    return entry.op_name.split(".", 1)[0] == "cat"


def _check_schema(entry: ProjectionEntry, f: NativeFunction, torch_version: str) -> str | None:
    """Raises when the projection's schema is not torch's; one that differs only where the C++
    call does not (argument names, SymInt spelt int, an alias annotation on a list, a mutable
    tensor the kernel takes as const, a default on one side only: upstream's projection has
    such, from older releases) is accepted, and the note returned says so: torch's schema is
    the one registered. Two different values for one default are an error."""
    try:
        declared = FunctionSchema.parse(entry.func)
    except Exception as e:
        raise InputError(f"invalid schema {entry.func!r}: {e}", entry.yaml_source) from e
    if str(declared) == str(f.func):
        return None
    # A default on one side only is harmless (the wrapper passes every argument); two different
    # values for one default are not.
    ours, theirs = declared.arguments.flat_all, f.func.arguments.flat_all
    defaults = len(ours) == len(theirs) and all(
        o.default is None or t.default is None or o.default == t.default for o, t in zip(ours, theirs)
    )
    with native_function_manager(f):
        same_call = defaults and _callable_as(_cpp_call_shape(f.func), _cpp_call_shape(declared))
    if same_call:
        theirs = [a.name for a in f.func.arguments.flat_all]
        ours = [a.name for a in declared.arguments.flat_all]
        renamed = ", ".join(f"{o} (torch: {t})" for o, t in zip(ours, theirs) if o != t) or "none"
        return (
            f"{entry.op_name} ({entry.yaml_source}): registered with torch {torch_version}'s schema; the "
            f"projection's differs only where the C++ kernel's types do not (argument names: {renamed})"
        )
    raise InputError(
        f"schema of '{entry.op_name}' differs from torch {torch_version}:\n  yaml:  {declared}\n  torch: {f.func}",
        entry.yaml_source,
    )


def resolve_registered_ops(
    native_functions: Sequence[NativeFunction],
    backend: NpuBackendYaml,
    projection: Projection,
    torch_version: str,
    valid_tags: set[str] | None = None,
) -> Resolution:
    """Every registered operator: aten ops in native_functions.yaml order, the structured
    groups, the custom ops in declaration order, and notes."""
    problems = Problems()
    ops, groups, notes = _resolve_aten_ops(native_functions, backend, projection, torch_version, problems)
    tag_notes: list[str] = []
    custom = resolve_custom_ops(
        backend, projection, valid_tags if valid_tags is not None else set(), tag_notes, problems
    )
    problems.raise_if_any()
    return Resolution(ops, groups, custom, (*notes, *tag_notes))


def _resolve_aten_ops(
    native_functions: Sequence[NativeFunction],
    backend: NpuBackendYaml,
    projection: Projection,
    torch_version: str,
    problems: Problems,
) -> tuple[tuple[RegisteredOp, ...], tuple[StructuredGroup, ...], tuple[str, ...]]:
    notes: list[str] = []
    natives: dict[OperatorName, NativeFunction] = {f.func.name: f for f in native_functions}
    chosen: dict[OperatorName, RegisteredOp] = {}
    first_seen: dict[OperatorName, str] = {}

    def claim(f: NativeFunction, where: str) -> None:
        if f.func.name in first_seen:
            raise InputError(f"operator '{f.func.name}' is listed twice (first at {first_seen[f.func.name]})", where)
        first_seen[f.func.name] = where

    # --- op-plugin projection.  `symint` entries are markers repeating an official or
    # custom entry (contracts.md section 2: the C++ name gains _symint).
    official = projection.section("official")
    marked_names = {e.op_name for e in official} | {e.op_name for e in projection.section("custom")}
    symint_names = set()
    for entry in projection.section("symint"):
        with problems.entry(entry.op_name):
            if entry.op_name not in marked_names:
                raise InputError(
                    f"symint entry '{entry.op_name}' marks no op declared in official or custom", entry.yaml_source
                )
            symint_names.add(entry.op_name)

    structured_entries: list[tuple[ProjectionEntry, NativeFunction]] = []
    for entry in official:
        with problems.entry(entry.op_name):
            f = _lookup(natives, entry.op_name, entry.yaml_source, torch_version)
            renamed = _check_schema(entry, f, torch_version)
            if renamed is not None:
                notes.append(renamed)
            claim(f, entry.yaml_source)
            if entry.sparse:
                notes.append(
                    f"{entry.op_name} ({entry.yaml_source}): its sparse kernel is not registered "
                    "(this runtime has no SparsePrivateUse1 kernels)"
                )
            if (entry.structured_delegate or entry.structured) and not has_hand_written_kernels(entry):
                structured_entries.append((entry, f))
                continue
            if not entry.impl_ns:
                notes.append(f"{entry.op_name} ({entry.yaml_source}): no dense implementation path in this label")
                continue
            chosen[f.func.name] = _op_plugin_op(f, entry, entry.op_name in symint_names)

    # --- runtime-owned kernels; on a clash with op-plugin the runtime entry wins.
    supported_names = {e.name for e in backend.supported}
    backend_symint = set()
    for name, where in backend.symint:
        with problems.entry(name):
            if name not in supported_names:
                raise InputError(f"symint entry '{name}' is not listed under supported", where)
            backend_symint.add(name)
    native_seen: dict[OperatorName, str] = {}
    backend_custom_names = {c.func.split("(", 1)[0].strip() for c in backend.custom}
    for entry in backend.supported:
        with problems.entry(entry.name):
            if entry.name in backend_custom_names and OperatorName.parse(entry.name) not in natives:
                # upstream's file lists some of its custom ops under supported as well: the custom
                # entry declares and registers them
                notes.append(
                    f"{entry.name} ({entry.where}): a custom op of the same file; registered as npu::{entry.name}"
                )
                continue
            f = _lookup(natives, entry.name, entry.where, torch_version)
            if f.func.name in native_seen:
                raise InputError(
                    f"operator '{entry.name}' is listed twice (first at {native_seen[f.func.name]})", entry.where
                )
            native_seen[f.func.name] = entry.where
            symint = entry.name in backend_symint
            kernel = kernel_base_name(f.func) + ("_symint" if symint else "")
            check, note = _effective_device_check(f, entry.device_check, "npu_native_functions.yaml")
            chosen[f.func.name] = RegisteredOp(
                f=f,
                callee=Callee.NPU_NATIVE,
                kernel=kernel,
                qualified_kernel=f"{backend.cpp_namespace}::{backend.class_name}::{kernel}",
                symint=symint,
                device_check=check,
                device_check_note=note,
                source=entry.where,
                provenance="runtime kernel" + (", op_api" if entry.op_api else ""),
                op_api_kernel=f"{backend.cpp_namespace}::{OP_API_CLASS}::{kernel}" if entry.op_api else None,
                internal_format_opapi=entry.internal_format_opapi,
            )

    groups = _resolve_structured(structured_entries, natives, chosen, symint_names, torch_version, problems)
    order = {f.func.name: i for i, f in enumerate(native_functions)}
    ops = tuple(sorted(chosen.values(), key=lambda op: order[op.f.func.name]))
    return ops, tuple(groups), tuple(notes)


def _op_plugin_op(
    f: NativeFunction, entry: ProjectionEntry, symint: bool, structured: StructuredRole | None = None
) -> RegisteredOp:
    kernel = entry.impl_name or kernel_base_name(f.func) + ("_symint" if symint else "")
    check, note = _effective_device_check(f, entry.device_check, "op_plugin_functions.yaml")
    return RegisteredOp(
        f=f,
        callee=Callee.OP_PLUGIN,
        kernel=kernel,
        qualified_kernel=f"{OP_PLUGIN_NAMESPACE}::{kernel}",
        symint=symint,
        device_check=check,
        device_check_note=note,
        source=entry.yaml_source,
        provenance="impl_ns: " + ", ".join(entry.impl_ns),
        structured=structured,
        tags=entry.tags,
    )


def _resolve_structured(
    entries: list[tuple[ProjectionEntry, NativeFunction]],
    natives: dict[OperatorName, NativeFunction],
    chosen: dict[OperatorName, RegisteredOp],
    symint_names: set[str],
    torch_version: str,
    problems: Problems,
) -> list[StructuredGroup]:
    """Structured groups (seed section 4.2): an out= op marked ``structured: true`` is the
    kernel; its functional / in-place ops name it in ``structured_delegate`` (meta, then the
    out= kernel's impl) or, for in-place ops, are marked ``structured: true`` themselves
    (meta, then their own kernel: the separate in-place impl list)."""
    outs: dict[str, tuple[ProjectionEntry, NativeFunction]] = {}
    for entry, f in entries:
        with problems.entry(entry.op_name):
            if entry.structured and f.func.kind() is SchemaKind.out:
                if entry.structured_delegate:
                    raise InputError(
                        "an out= op cannot be both structured and a structured_delegate", entry.yaml_source
                    )
                if not f.structured:
                    raise InputError(
                        f"'{entry.op_name}' is marked structured but is not a structured kernel in torch "
                        f"{torch_version} (native_functions.yaml has no structured: True for it)",
                        entry.yaml_source,
                    )
                if not entry.impl_ns:
                    raise InputError(
                        "a structured kernel needs a live implementation path in the label", entry.yaml_source
                    )
                outs[entry.op_name] = (entry, f)
    out_ops = {
        name: _op_plugin_op(f, entry, name in symint_names, StructuredRole.KERNEL) for name, (entry, f) in outs.items()
    }
    members: dict[str, list[RegisteredOp]] = {name: [] for name in outs}
    for entry, f in entries:
        with problems.entry(entry.op_name):
            if entry.op_name in outs:
                continue
            kind = f.func.kind()
            if entry.structured and kind is not SchemaKind.inplace:
                raise InputError(
                    f"structured: true marks an out= kernel or an in-place op with its own kernel; "
                    f"'{entry.op_name}' is {kind.name}",
                    entry.yaml_source,
                )
            target = entry.structured_delegate or (str(f.structured_delegate) if f.structured_delegate else None)
            if target is None or f.structured_delegate is None or str(f.structured_delegate) != target:
                raise InputError(
                    f"'{entry.op_name}' delegates to '{target}', but in torch {torch_version} its structured_delegate "
                    f"is {str(f.structured_delegate) if f.structured_delegate else 'none'}",
                    entry.yaml_source,
                )
            if target not in outs:
                raise InputError(
                    f"'{entry.op_name}' needs '{target}' declared as a structured kernel (structured: true) "
                    "in the label",
                    entry.yaml_source,
                )
            out_entry, _ = outs[target]
            if entry.structured:
                if not entry.impl_ns:
                    raise InputError(
                        "a structured in-place op with its own kernel needs a live path", entry.yaml_source
                    )
                op = _op_plugin_op(f, entry, entry.op_name in symint_names, StructuredRole.INPLACE_IMPL)
            else:
                kernel = out_ops[target]
                check, note = _effective_device_check(f, entry.device_check, "op_plugin_functions.yaml")
                op = RegisteredOp(
                    f=f,
                    callee=Callee.OP_PLUGIN,
                    kernel=kernel.kernel,
                    qualified_kernel=kernel.qualified_kernel,
                    symint=False,
                    device_check=check,
                    device_check_note=note,
                    source=entry.yaml_source,
                    provenance=f"structured_delegate: {target}, impl_ns: " + ", ".join(out_entry.impl_ns),
                    structured=StructuredRole.DELEGATE,
                )
            members[target].append(op)
            chosen[f.func.name] = op
    groups = []
    for name, (_, f) in outs.items():
        out_op = out_ops[name]
        chosen[f.func.name] = out_op
        functions = {m.f.func.kind(): m.f for m in members[name]}
        functions[SchemaKind.out] = f
        for kind in (SchemaKind.functional, SchemaKind.inplace):
            if kind not in functions:  # undeclared members: in the group, never registered
                functions[kind] = next(
                    (n for n in natives.values() if n.structured_delegate == f.func.name and n.func.kind() is kind),
                    None,
                )
        g = NativeFunctionsGroup.from_dict({k: v for k, v in functions.items() if v is not None})
        assert g is not None and g.structured, name
        groups.append(StructuredGroup(g, out_op, tuple(members[name])))
    kernel_names = Counter(group.out.kernel for group in groups)
    return [
        replace(group, class_base=f"{group.g.out.func.name.name}_{group.g.out.func.name.overload_name}")
        if kernel_names[group.out.kernel] > 1 else group
        for group in groups
    ]


# --------------------------------------------------------------------------- custom npu:: operators


def _is_factory(func: str) -> bool:
    """torchgen's definition: TensorOptions-style arguments and no Tensor argument."""
    schema = FunctionSchema.parse(func)
    names = {a.name for a in schema.arguments.flat_all}
    tensors = [a for a in schema.arguments.flat_all if a.type.is_tensor_like()]
    return {"dtype", "layout", "device", "pin_memory"} <= names and not [a for a in tensors if not a.is_write]


def _custom_function(func: str, where: str, tags: Sequence[str], valid_tags: set[str]) -> NativeFunction:
    """A custom schema as a torchgen NativeFunction of namespace ``npu``."""
    file, _, line = where.rpartition(":")
    loc = Location(file or where, int(line) if line.isdigit() else 1)
    if "::" in func.split("(", 1)[0]:
        raise InputError(f"custom schemas are declared without a namespace (they live in '{CUSTOM_NAMESPACE}')", where)
    unknown = [t for t in tags if t not in valid_tags]
    if unknown:
        raise InputError(
            f"unknown tag {unknown[0]!r}; tags.yaml of this torch has: {', '.join(sorted(valid_tags))}", where
        )
    raw: dict = {"func": f"{CUSTOM_NAMESPACE}::{func}", "variants": "function"}
    if tags:
        raw["tags"] = list(tags)
    try:
        if _is_factory(func):
            # torchgen insists that factories name an explicit kernel; its metadata is not
            # used (the npu kernel is registered by the RegisterNPU shards).
            raw["dispatch"] = {"CompositeExplicitAutograd": "npu_kernel"}
        f, _ = NativeFunction.from_yaml(raw, loc, valid_tags)
    except Exception as e:  # torchgen raises AssertionError with the reason
        raise InputError(f"invalid custom schema {func!r}: {e}", where) from e
    if str(f.func) != func.strip():
        raise InputError(f"custom schema {func!r} is not in canonical form; write it as {str(f.func)!r}", where)
    return f


def resolve_custom_ops(
    backend: NpuBackendYaml,
    projection: Projection,
    valid_tags: set[str],
    notes: list[str] | None = None,
    problems: Problems | None = None,
) -> tuple[RegisteredOp, ...]:
    """Custom ``npu::`` ops: runtime-owned ones (npu_native_functions.yaml) first, then the
    op-plugin ones (the projection's ``custom`` section), each in declaration order.
    Tags that only later torch releases know are left out on this one (``notes`` say so).
    Problems go to ``problems`` when given, else they are raised here, all together."""
    own = problems is None
    problems = Problems() if problems is None else problems
    symint_names = {e.op_name for e in projection.section("symint")}

    def usable(entry, where: str):  # type: ignore[no-untyped-def]
        kept, dropped = tags_for_installed_torch(entry.tags, valid_tags)
        if not dropped:
            return entry
        if notes is not None:
            notes.append(
                f"{entry.func.split('(', 1)[0]} ({where}): registered without {', '.join(dropped)} "
                f"({'; '.join(difference_of_tag(t).releases for t in dropped)})"
            )
        return dataclasses.replace(entry, tags=kept)

    backend_custom = [usable(e, e.where) for e in backend.custom]
    projection_custom = [usable(e, e.yaml_source) for e in projection.section("custom")]
    ops: list[RegisteredOp] = []
    seen: dict[OperatorName, str] = {}

    def add(f: NativeFunction, where: str) -> None:
        if f.func.name in seen:
            raise InputError(
                f"custom operator 'npu::{f.func.name}' is declared twice (first at {seen[f.func.name]})", where
            )
        seen[f.func.name] = where

    for entry in backend_custom:
        with problems.entry(entry.func.split("(", 1)[0].strip()):
            f = _custom_function(entry.func, entry.where, entry.tags, valid_tags)
            add(f, entry.where)
            kernel = entry.dispatch[1] if entry.dispatch else kernel_base_name(f.func)
            check, note = _effective_device_check(f, entry.device_check, "npu_native_functions.yaml")
            ops.append(
                RegisteredOp(
                    f=f,
                    callee=Callee.NPU_NATIVE,
                    kernel=kernel,
                    qualified_kernel=f"{backend.cpp_namespace}::{backend.class_name}::{kernel}",
                    symint=False,
                    device_check=check,
                    device_check_note=note,
                    source=entry.where,
                    provenance="runtime kernel" + (f", dispatch: {entry.dispatch[0]}" if entry.dispatch else ""),
                    tags=entry.tags,
                    dispatch_key=entry.dispatch[0] if entry.dispatch else "PrivateUse1",
                    exposed=entry.exposed,
                )
            )
    for entry in projection_custom:
        with problems.entry(entry.op_name):
            f = _custom_function(entry.func, entry.yaml_source, entry.tags, valid_tags)
            add(f, entry.yaml_source)
            if entry.structured or entry.structured_delegate:
                raise InputError(
                    "custom operators cannot be structured (there is no at::meta class for them)", entry.yaml_source
                )
            if not entry.impl_ns:
                raise InputError("custom operator has no dense implementation path in this label", entry.yaml_source)
            op = _op_plugin_op(f, entry, entry.op_name in symint_names)
            if entry.dispatch is not None:
                key, kernel = entry.dispatch
                op = dataclasses.replace(
                    op,
                    kernel=kernel,
                    qualified_kernel=f"{OP_PLUGIN_NAMESPACE}::{kernel}",
                    dispatch_key=key,
                    provenance=f"{op.provenance}, dispatch: {key}",
                )
            ops.append(dataclasses.replace(op, exposed=entry.exposed))
    if own:
        problems.raise_if_any()
    return tuple(ops)
