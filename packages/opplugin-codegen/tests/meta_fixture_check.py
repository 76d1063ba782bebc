"""Run by test_meta_functions.py in a fresh interpreter: build the generated Meta
function shards of tests/data/meta (both kinds) into a small extension and report, as JSON, what the
generated Meta functions do (argv: generated dir, build dir)."""

from __future__ import annotations

import json
import sys
from pathlib import Path

import torch
from torch.utils import cpp_extension

import opplugin_meta_check as meta_check

CHECK_NAMESPACE = "npu_meta_fixture"

INFER_SIZE_CPP = """
#include "npu/op_infer/InferSize.h"
namespace op_infer {
SmallVector broadcast_ops_npu_output_size(c10::IntArrayRef a, c10::IntArrayRef b) {
  const at::DimVector sizes = at::infer_size_dimvector(a, b);
  return SmallVector(sizes.begin(), sizes.end());
}
SmallVector broadcast_ops_npu_output_size(const at::Tensor& a, const at::Tensor& b) {
  return broadcast_ops_npu_output_size(a.sizes(), b.sizes());
}
SmallVector input_same_output_size(const at::Tensor& t) {
  return SmallVector(t.sizes().begin(), t.sizes().end());
}
}  // namespace op_infer
"""
INFER_SIZE_H = """
#pragma once
#include <ATen/ExpandUtils.h>
#include <ATen/core/Tensor.h>
#include <ATen/ops/result_type.h>
#include <c10/util/SmallVector.h>
namespace op_infer {
using SmallVector = c10::SmallVector<int64_t, 8>;
SmallVector broadcast_ops_npu_output_size(const at::Tensor& self, const at::Tensor& other);
SmallVector broadcast_ops_npu_output_size(c10::IntArrayRef self_sizes,
                                          c10::IntArrayRef other_sizes);
SmallVector input_same_output_size(const at::Tensor& input);
}  // namespace op_infer
namespace op_plugin::utils {}
"""

# What the shards' `using npu_preparation = ...` line needs of the runtime's OpPreparation.h.
OP_PREPARATION_H = """
#pragma once
namespace at_npu::native {
struct OpPreparation {};
}  // namespace at_npu::native
"""


def build(generated: Path, build_dir: Path) -> None:
    include = build_dir / "include" / "npu"
    for header, text in (
        ("op_infer/InferSize.h", INFER_SIZE_H),
        ("op_common/OpPreparation.h", OP_PREPARATION_H),
    ):
        (include / header).parent.mkdir(parents=True, exist_ok=True)
        (include / header).write_text(text)
    infer = build_dir / "InferSize.cpp"
    infer.write_text(INFER_SIZE_CPP)
    sources = [
        str(p)
        for pattern in ("op_plugin/MetaFunctions_*.cpp", "test_only/MetaCheckFunctions_*.cpp")
        for p in sorted(generated.glob(pattern))
    ]
    cpp_extension.load(
        name="opplugin_meta_fixture",
        sources=[*sources, str(infer)],
        extra_include_paths=[str(build_dir / "include"), str(generated)],
        extra_cflags=["-O0", "-Wall", "-Wextra", "-Werror", "-Wno-unused-function"],
        build_directory=str(build_dir),
        is_python_module=False,
        verbose=False,
    )


def define_custom_ops() -> torch.library.Library:
    """The npu:: schemas (torchnpugen's job in the runtime) and CPU kernels standing in for
    the real npu kernels; the Meta kernels come from the generated code."""
    lib = torch.library.Library("npu", "FRAGMENT")
    lib.define("npu_fixture_scaled_add(Tensor self, Tensor other, float scale=1.0) -> Tensor")
    lib.define(
        "npu_fixture_scaled_add.out(Tensor self, Tensor other, float scale=1.0, *, "
        "Tensor(a!) out) -> Tensor(a!)"
    )
    lib.define(
        "npu_fixture_scaled_add_(Tensor(a!) self, Tensor other, float scale=1.0) -> Tensor(a!)"
    )
    lib.define("npu_fixture_expand(Tensor self, SymInt[] size) -> Tensor")
    lib.define("npu_fixture_like(Tensor self, Tensor other) -> Tensor")

    def scaled_add(self: torch.Tensor, other: torch.Tensor, scale: float = 1.0) -> torch.Tensor:
        # Like the aclnn kernel it stands for: computes in the tensors' result type.
        return (self + other * scale).to(torch.result_type(self, other))

    def scaled_add_out(self: torch.Tensor, other: torch.Tensor, scale: float = 1.0, *,
                       out: torch.Tensor) -> torch.Tensor:  # fmt: skip
        return out.resize_(torch.broadcast_shapes(self.shape, other.shape)).copy_(
            scaled_add(self, other, scale)
        )

    def scaled_add_(self: torch.Tensor, other: torch.Tensor, scale: float = 1.0) -> torch.Tensor:
        return self.add_(other * scale)

    def expand(self: torch.Tensor, size: list[int]) -> torch.Tensor:
        return torch.ones(size, dtype=self.dtype)

    def like(self: torch.Tensor, other: torch.Tensor) -> torch.Tensor:
        return torch.zeros_like(self, dtype=other.dtype)

    lib.impl("npu_fixture_scaled_add", scaled_add, "CPU")
    lib.impl("npu_fixture_scaled_add.out", scaled_add_out, "CPU")
    lib.impl("npu_fixture_scaled_add_", scaled_add_, "CPU")
    lib.impl("npu_fixture_expand", expand, "CPU")
    lib.impl("npu_fixture_like", like, "CPU")
    return lib


def main() -> None:
    generated, build_dir = Path(sys.argv[1]), Path(sys.argv[2])
    build(generated, build_dir)
    result: dict[str, object] = {}
    for name, overload in meta_check.check_ops(CHECK_NAMESPACE):
        report = meta_check.check_aten_op(name, overload, device="cpu", namespace=CHECK_NAMESPACE)
        result[report.name] = {"compared": report.compared, "on_device": report.compared_on_device,
                               "mismatches": report.mismatches}  # fmt: skip
    lib = define_custom_ops()
    for name, overload in (("npu_fixture_scaled_add", "default"), ("npu_fixture_like", "default")):
        op = getattr(getattr(torch.ops.npu, name), overload)
        report = meta_check.check_custom_op(
            name, overload, lambda s, op=op: op(*s.args, **s.kwargs)
        )
        result[f"npu::{report.name}"] = {
            "compared": report.compared,
            "mismatches": report.mismatches,
        }

    # FakeTensor and torch.compile trace the custom ops through the generated Meta kernels.
    from torch._subclasses.fake_tensor import FakeTensorMode

    with FakeTensorMode():
        a, b = torch.empty(4, 1, 3), torch.empty(2, 1, dtype=torch.int64)
        fake = torch.ops.npu.npu_fixture_scaled_add(a, b, 2.0)
        expanded = torch.ops.npu.npu_fixture_expand(a, [5, 6])
        out = torch.empty(0, dtype=torch.float64)
        torch.ops.npu.npu_fixture_scaled_add.out(a, b, out=out)
        inplace = torch.ops.npu.npu_fixture_scaled_add_(a, b)
    result["fake"] = {
        "scaled_add": [list(fake.shape), str(fake.dtype)],
        "expand": [list(expanded.shape), str(expanded.dtype)],
        "out": [list(out.shape), str(out.dtype)],
        "inplace_is_self": inplace is a,
    }

    def f(x: torch.Tensor, y: torch.Tensor) -> torch.Tensor:
        return torch.ops.npu.npu_fixture_scaled_add(
            x, y, 0.5
        ).relu() + torch.ops.npu.npu_fixture_like(x, y)

    compiled = torch.compile(f, backend="aot_eager", fullgraph=True, dynamic=False)
    x, y = torch.randn(4, 1, 3), torch.randn(2, 1)
    torch.testing.assert_close(compiled(x, y), f(x, y))
    dynamic = torch.compile(f, backend="aot_eager", fullgraph=True, dynamic=True)
    for shape in ((3, 1), (5, 1)):
        x, y = torch.randn(shape), torch.randn(shape[0], 4)
        torch.testing.assert_close(dynamic(x, y), f(x, y))
    result["compile"] = "ok"
    del lib
    print(json.dumps(result))


if __name__ == "__main__":
    main()
