"""Turns resolved ops into the text of each generated file (no I/O here)."""

from __future__ import annotations

import hashlib
from typing import Sequence

from torchgen.utils import Target

from .ops import Callee, RegisteredOp
from .register import OVERLAP_HELPER, kernel_declaration, make_register_dispatch_key, needs_overlap_helper

__all__ = [
    "NATIVE_FUNCTIONS_HEADER",
    "render_native_functions_header",
    "render_register_shards",
    "shard_file",
    "shard_of",
]

NATIVE_FUNCTIONS_HEADER = "NPUNativeFunctions.h"


def shard_file(index: int) -> str:
    return f"RegisterNPU_{index}.cpp"


def shard_of(op: RegisteredOp, shards: int) -> int:
    """Stable shard of an op: by base name, so add / add_ / add.out share a file."""
    key = str(op.f.func.name.name.base).encode("utf-8")
    return int.from_bytes(hashlib.sha256(key).digest()[:8], "big") % shards


def render_native_functions_header(
    ops: Sequence[RegisteredOp], *, cpp_namespace: str, class_name: str, banner: str
) -> str:
    runtime_ops = sorted(
        (op for op in ops if op.callee is Callee.NPU_NATIVE), key=lambda op: (op.kernel, op.schema_name)
    )
    decls: list[str] = []
    for op in runtime_ops:
        decls.append(f"  // {op.schema_name}  ({op.source})")
        decls.append(f"  static {kernel_declaration(op)};")
    body = "\n".join(decls)
    return f"""{banner}
// Kernels the NPU runtime implements itself; RegisterNPU_*.cpp wrappers call them.
#pragma once

#include <ATen/core/Tensor.h>
#include <ATen/core/Generator.h>
#include <ATen/core/List.h>
#include <c10/core/Scalar.h>
#include <c10/core/Storage.h>

namespace {cpp_namespace} {{

struct {class_name} {{
{body}
}};

}} // namespace {cpp_namespace}
"""


_SHARD_INCLUDES = """\
#define TORCH_ASSERT_ONLY_METHOD_OPERATORS
#include <ATen/core/Tensor.h>
#include <ATen/DeviceGuard.h>
#include <ATen/core/op_registration/adaption.h>
#include <c10/core/DeviceGuard.h>
#include <c10/macros/Macros.h>
#include <torch/library.h>

#include <vector>

#include "npu/framework/EnvVariables.h"
#include "npu/framework/MemoryOverlap.h"
#include "npu/framework/NPURecordFunction.h"
#include "npu/framework/OpHook.h"
#include "npu/aten/NPUNativeFunctions.h"
#include "op_plugin/OpInterface.h"
"""


def render_register_shards(ops: Sequence[RegisteredOp], *, shards: int, banner: str) -> dict[str, str]:
    if shards < 1:
        raise ValueError("shards must be >= 1")
    by_shard: list[list[RegisteredOp]] = [[] for _ in range(shards)]
    for op in ops:  # ops arrive in native_functions.yaml order; keep it within a shard
        by_shard[shard_of(op, shards)].append(op)

    definitions = make_register_dispatch_key(ops, Target.ANONYMOUS_DEFINITION)
    registrations = make_register_dispatch_key(ops, Target.REGISTRATION)
    files: dict[str, str] = {}
    for index, shard_ops in enumerate(by_shard):
        header = (
            f"{banner}\n// Shard {index} of {shards}: NPU (PrivateUse1) wrappers for {len(shard_ops)} aten operators.\n"
        )
        if not shard_ops:
            files[shard_file(index)] = header + "// No operators hash to this shard.\n"
            continue
        wrappers = "\n".join(text for op in shard_ops for text in definitions(op.f))
        if any(needs_overlap_helper(op.f) for op in shard_ops):
            wrappers = OVERLAP_HELPER + "\n" + wrappers
        impls = "\n".join("  " + text for op in shard_ops for text in registrations(op.f))
        files[shard_file(index)] = f"""{header}
{_SHARD_INCLUDES}
namespace {{

{wrappers}
}} // anonymous namespace

TORCH_LIBRARY_IMPL(aten, PrivateUse1, m) {{
{impls}
}}
"""
    return files
