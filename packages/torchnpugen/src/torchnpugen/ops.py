"""Which aten operators get an NPU wrapper, and what each wrapper calls.

Resolves the YAML records against torchgen's parsed native_functions.yaml into one
``RegisteredOp`` per operator.  All validation happens here, before any file is
rendered, so an error never leaves half-written output.
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import Enum
from typing import Sequence

from torchgen.api import cpp
from torchgen.model import DeviceCheckType, FunctionSchema, NativeFunction, OperatorName

from .errors import InputError
from .inputs import NpuBackendYaml, Projection, ProjectionEntry

__all__ = ["Callee", "RegisteredOp", "resolve_registered_ops"]

OP_PLUGIN_NAMESPACE = "op_plugin"


class Callee(Enum):
    OP_PLUGIN = "op_plugin"  # declared in op_plugin_functions.yaml (the projection)
    NPU_NATIVE = "npu_native"  # `supported:` in npu_native_functions.yaml (runtime-owned)


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

    @property
    def schema_name(self) -> str:
        return str(self.f.func.name)


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


def _check_schema(entry: ProjectionEntry, f: NativeFunction, torch_version: str) -> None:
    try:
        declared = FunctionSchema.parse(entry.func)
    except Exception as e:
        raise InputError(f"invalid schema {entry.func!r}: {e}", entry.yaml_source) from e
    if str(declared) != str(f.func):
        raise InputError(
            f"schema of '{entry.op_name}' differs from torch {torch_version}:\n  yaml:  {declared}\n  torch: {f.func}",
            entry.yaml_source,
        )


def resolve_registered_ops(
    native_functions: Sequence[NativeFunction],
    backend: NpuBackendYaml,
    projection: Projection,
    torch_version: str,
) -> tuple[tuple[RegisteredOp, ...], tuple[str, ...]]:
    """(one RegisteredOp per registered aten operator in native_functions.yaml order, notes)."""
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
        if entry.op_name not in marked_names:
            raise InputError(
                f"symint entry '{entry.op_name}' marks no op declared in official or custom", entry.yaml_source
            )
        symint_names.add(entry.op_name)

    for entry in official:
        f = _lookup(natives, entry.op_name, entry.yaml_source, torch_version)
        _check_schema(entry, f, torch_version)
        claim(f, entry.yaml_source)
        if entry.structured_delegate:
            notes.append(f"{entry.op_name} ({entry.yaml_source}): structured_delegate entries are not registered yet")
            continue
        if not entry.impl_ns:
            notes.append(f"{entry.op_name} ({entry.yaml_source}): no dense implementation path in this label")
            continue
        symint = entry.op_name in symint_names
        kernel = entry.impl_name or kernel_base_name(f.func) + ("_symint" if symint else "")
        check, note = _effective_device_check(f, entry.device_check, "op_plugin_functions.yaml")
        chosen[f.func.name] = RegisteredOp(
            f=f,
            callee=Callee.OP_PLUGIN,
            kernel=kernel,
            qualified_kernel=f"{OP_PLUGIN_NAMESPACE}::{kernel}",
            symint=symint,
            device_check=check,
            device_check_note=note,
            source=entry.yaml_source,
            provenance="impl_ns: " + ", ".join(entry.impl_ns),
        )

    # --- runtime-owned kernels; on a clash with op-plugin the runtime entry wins.
    supported_names = {e.name for e in backend.supported}
    backend_symint = set()
    for name, where in backend.symint:
        if name not in supported_names:
            raise InputError(f"symint entry '{name}' is not listed under supported", where)
        backend_symint.add(name)
    native_seen: dict[OperatorName, str] = {}
    for entry in backend.supported:
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
            provenance="runtime kernel",
        )

    order = {f.func.name: i for i, f in enumerate(native_functions)}
    return tuple(sorted(chosen.values(), key=lambda op: order[op.f.func.name])), tuple(notes)
