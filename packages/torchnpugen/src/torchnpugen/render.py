"""Turns resolved ops into the text of RegisterNPU_<k>.cpp and NPUNativeFunctions.h (no I/O;
templates/RegisterNPU.cpp.j2, templates/NPUNativeFunctions.h.j2).

A shard holds, for the ops whose base name hashes to it: the aten wrappers
(unstructured and structured) registered with ``TORCH_LIBRARY_IMPL(aten, PrivateUse1)``
and the custom ``npu::`` wrappers registered with ``TORCH_LIBRARY_IMPL(npu, PrivateUse1)``.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Sequence

import torchgen.dest as dest
from opplugin_codegen.cppfile import shard_of as shard_of_key  # the project's one shard function
from torchgen.model import BackendIndex, BackendMetadata, DispatchKey, NativeFunction, NativeFunctionsGroup
from torchgen.utils import Target

from . import templating
from .compat import structured_set_output_takes_names
from .ops import OP_API_CLASS, Callee, RegisteredOp, Resolution, StructuredGroup
from .register import make_register_dispatch_key, needs_overlap_helper, structured_includes

__all__ = [
    "NATIVE_FUNCTIONS_HEADER",
    "native_functions_index",
    "render_native_functions_header",
    "render_register_shards",
    "shard_file",
    "shard_of",
]

NATIVE_FUNCTIONS_HEADER = "NPUNativeFunctions.h"


def shard_file(index: int) -> str:
    return f"RegisterNPU_{index}.cpp"


def shard_key(f: NativeFunction) -> str:
    return f"{f.namespace}::{f.func.name.name.base}" if f.namespace != "aten" else str(f.func.name.name.base)


def shard_of(op: RegisteredOp, shards: int) -> int:
    """Stable shard of an op: by base name, so add / add_ / add.out share a file."""
    return shard_of_key(shard_key(op.f), shards)


def native_functions_index(ops: Sequence[RegisteredOp], cpp_namespace: str) -> BackendIndex:
    """The backend index of the runtime-owned kernels (NPUNativeFunctions)."""
    return BackendIndex(
        dispatch_key=DispatchKey.PrivateUse1,
        use_out_as_primary=True,
        external=True,
        device_guard=True,
        index={
            op.f.func.name: BackendMetadata(kernel=op.kernel, structured=False, cpp_namespace=cpp_namespace)
            for op in ops
        },
    )


def render_native_functions_header(
    ops: Sequence[RegisteredOp], *, cpp_namespace: str, class_name: str, banner: str
) -> str:
    """The runtime-owned kernels, declared through torchgen's native declaration step
    (``torchgen.dest.compute_native_function_declaration``, patched: see patch.py)."""
    runtime_ops = sorted(
        (op for op in ops if op.callee is Callee.NPU_NATIVE), key=lambda op: (op.kernel, op.qualified_name)
    )
    index = native_functions_index(runtime_ops, cpp_namespace)

    def declarations(ops: Sequence[RegisteredOp]) -> list[str]:
        lines: list[str] = []
        for op in ops:
            lines.append(f"  // {op.qualified_name}  ({op.source_file})")
            lines += [f"  {line}" for line in dest.compute_native_function_declaration(op.f, index)]
        return lines

    return templating.render(
        "NPUNativeFunctions.h.j2",
        banner=banner,
        cpp_namespace=cpp_namespace,
        class_name=class_name,
        declarations=declarations(runtime_ops),
        # The same kernels on the op_api (aclnn) path, for the entries marked op_api: True; the
        # wrappers choose between the two at run time as op_plugin:: functions do.
        op_api_class=OP_API_CLASS,
        op_api_declarations=declarations([op for op in runtime_ops if op.op_api_kernel is not None]),
    )


# What a shard with structured kernels needs on top (create_out & co., the meta classes).
_STRUCTURED_INCLUDES = ("ATen/ops/empty.h", "ATen/ops/empty_strided.h", "ATen/native/Resize.h")


@dataclass(frozen=True)
class _Unit:
    """What one wrapper-emitting call covers: an unstructured op or a structured group."""

    item: RegisteredOp | StructuredGroup

    @property
    def target(self) -> NativeFunction | NativeFunctionsGroup:
        return self.item.g if isinstance(self.item, StructuredGroup) else self.item.f

    @property
    def ops(self) -> tuple[RegisteredOp, ...]:
        if isinstance(self.item, StructuredGroup):
            return (self.item.out, *self.item.members)
        return (self.item,)


def _units(ops: Sequence[RegisteredOp], groups: Sequence[StructuredGroup]) -> list[_Unit]:
    """Ops in their given order; a structured group where its first member appears."""
    group_of = {op.f.func.name: group for group in groups for op in (group.out, *group.members)}
    units: list[_Unit] = []
    emitted: set[int] = set()
    for op in ops:
        group = group_of.get(op.f.func.name)
        if group is None:
            units.append(_Unit(op))
        elif id(group) not in emitted:
            emitted.add(id(group))
            units.append(_Unit(group))
    return units


def render_register_shards(resolution: Resolution, *, shards: int, banner: str) -> dict[str, str]:
    if shards < 1:
        raise ValueError("shards must be >= 1")
    aten = _units(resolution.ops, resolution.structured)
    custom = _units(resolution.custom, ())
    by_shard: list[tuple[list[_Unit], list[_Unit]]] = [([], []) for _ in range(shards)]
    for unit in aten:  # native_functions.yaml order; kept within a shard
        by_shard[shard_of(unit.ops[0], shards)][0].append(unit)
    for unit in custom:
        by_shard[shard_of(unit.ops[0], shards)][1].append(unit)

    aten_defs = make_register_dispatch_key(resolution.ops, Target.ANONYMOUS_DEFINITION, resolution.structured)
    aten_regs = make_register_dispatch_key(resolution.ops, Target.REGISTRATION, resolution.structured)
    custom_defs = make_register_dispatch_key(resolution.custom, Target.ANONYMOUS_DEFINITION)
    custom_regs = make_register_dispatch_key(resolution.custom, Target.REGISTRATION)
    files: dict[str, str] = {}
    for index, (aten_units, custom_units) in enumerate(by_shard):
        groups = [u.item for u in aten_units if isinstance(u.item, StructuredGroup)]
        all_ops = [op for u in (*aten_units, *custom_units) for op in u.ops]
        system = sorted(
            {
                *(_STRUCTURED_INCLUDES if groups else ()),
                # at::namedinference::propagate_names, where set_output_* pass names (torch 2.1)
                *(("ATen/NamedTensorUtils.h",) if groups and structured_set_output_takes_names() else ()),
                *(h for g in groups for h in structured_includes(g)),
            }
        )
        local = ["npu/core/NPUGuard.h", "npu/aten/NPUStructuredNativeFunctions.h"] if groups else []
        # The op families this shard calls into (not all of op_plugin: a change to one op recompiles its shard only).
        local += sorted({h for op in all_ops if (h := op.op_plugin_header) is not None})
        if any(op.op_api_kernel is not None for op in all_ops):
            local += ["npu/dispatch/PathDecision.h", "npu/dispatch/PathLedger.h"]
        blocks = []
        if aten_units:
            blocks.append(("aten", "PrivateUse1", [text for u in aten_units for text in aten_regs(u.target)]))
        # Custom ops are registered for PrivateUse1 unless their entry names another key.
        keys = sorted({u.ops[0].dispatch_key for u in custom_units}, key=lambda k: (k != "PrivateUse1", k))
        for key in keys:
            registrations = [
                text for u in custom_units if u.ops[0].dispatch_key == key for text in custom_regs(u.target)
            ]
            blocks.append(("npu", key, registrations))
        files[shard_file(index)] = templating.render(
            "RegisterNPU.cpp.j2",
            banner=banner,
            index=index,
            shards=shards,
            aten_count=sum(len(u.ops) for u in aten_units),
            custom_count=sum(len(u.ops) for u in custom_units),
            wrappers=[text for u in aten_units for text in aten_defs(u.target)]
            + [text for u in custom_units for text in custom_defs(u.target)],
            overlap_helper=any(needs_overlap_helper(op.f) for op in all_ops),
            structured_helpers=bool(groups),
            system_includes=system,
            local_includes=local,
            blocks=blocks,
        )
    return files
