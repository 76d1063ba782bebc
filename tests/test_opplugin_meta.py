"""The Meta functions generated from gen_opapi size/dtype agree with PyTorch and the kernels.

For every aten op of the label with a complete gen_opapi block, opplugin-codegen compiles
its size:/dtype: facts into ``npu_meta_check::<op>`` (test_only/MetaCheckFunctions_<k>.cpp, a
test-only library the ``npu_meta_check_library`` fixture builds; no wheel ships it).
On sample inputs (several shapes with broadcasting, dtypes with promotion) its result must
have the shape and dtype of PyTorch's own Meta kernel of ``aten::<op>`` and of what the npu
kernel returns, so a wrong ``size:`` or ``dtype:`` in yaml/op_plugin_functions.yaml fails
here. Custom ops (``npu::``) get the same function as their Meta kernel
(op_plugin/MetaFunctions_<k>.cpp, in the runtime); they are checked against their npu kernel.
"""

from __future__ import annotations

import contextlib
from pathlib import Path
from typing import Any

import opplugin_meta_check as meta_check
import opplugin_runtime  # noqa: F401
import pytest
import torch

import yaml


def _projection(generated_dir: Path) -> dict:
    path = generated_dir / "op_plugin" / "config" / "op_plugin_functions.yaml"
    return yaml.safe_load(path.read_text())


def _meta_sources(generated_dir: Path) -> str:
    """The runtime's Meta kernels of custom ops."""
    return "".join(p.read_text() for p in sorted((generated_dir / "op_plugin").glob("MetaFunctions_*.cpp")))


def _check_sources(generated_dir: Path) -> str:
    """The test-only npu_meta_check operators."""
    return "".join(p.read_text() for p in sorted((generated_dir / "test_only").glob("MetaCheckFunctions_*.cpp")))


def _declared_check_ops(generated_dir: Path) -> list[tuple[str, str]]:
    """The npu_meta_check ops the generated tree registers (from its m.def lines)."""
    ops = []
    for line in _check_sources(generated_dir).splitlines():
        line = line.strip()
        if line.startswith('m.def("'):
            name = line[len('m.def("') :].split("(", 1)[0]
            base, _, overload = name.partition(".")
            ops.append((base, overload or "default"))
    return sorted(ops)


def test_every_check_op_of_the_tree_is_registered(generated_dir: Path, npu_meta_check_library: Path) -> None:
    declared = _declared_check_ops(generated_dir)
    assert declared, "no npu_meta_check operator generated: does the YAML have gen_opapi ops?"
    registered = meta_check.check_ops()
    missing = [op for op in declared if op not in registered]
    assert not missing, f"generated but not in {npu_meta_check_library}: {missing}"


# Up to the torch release named, the Meta kernels of these ops are Python decompositions that
# disagree with torch's own CPU kernels (shifts that neither broadcast nor promote,
# hardtanh_backward's result in grad_output's dtype or float32 for integers, where the CPU kernel
# promotes both operands) or take no out= (hardswish, binary cross entropy, mse_loss_backward,
# frexp): the YAML follows the CPU kernels and later releases, so there they are not compared.
_TORCH = tuple(int(p) for p in torch.__version__.split("+")[0].split(".")[:2])
META_OF_OLDER_TORCH_DIFFERS = {
    **dict.fromkeys(("__lshift__.Tensor", "__rshift__.Tensor", "hardswish.out", "binary_cross_entropy.out",
                     "binary_cross_entropy_backward.grad_input", "frexp.Tensor_out",
                     "mse_loss_backward.grad_input"), (2, 1)),
    **dict.fromkeys(("hardtanh_backward", "hardtanh_backward.grad_input"), (2, 5)),
}
# Ops the generic samples cannot check: glu's backward takes a gradient half of self's size
# along dim (no pair of the sampler's shapes is valid; the OpInfo suite runs it).
UNSAMPLED = {"glu_backward", "glu_backward.grad_input"}
# Ops whose kernels check the values: binary cross entropy faults the device for probabilities
# outside [0, 1], which the sampler's values are (their shapes and dtypes are still compared with
# PyTorch's Meta kernels; test_ops_loss.py runs them on npu).
VALUES_CHECKED = {"binary_cross_entropy", "binary_cross_entropy.out", "binary_cross_entropy_backward",
                  "binary_cross_entropy_backward.grad_input"}


@pytest.mark.usefixtures("npu_meta_check_library")
def test_meta_functions_agree_with_pytorch_and_the_npu_kernel(generated_dir: Path) -> None:
    failures = []
    for name, overload in _declared_check_ops(generated_dir):
        full = name if overload == "default" else f"{name}.{overload}"
        if full in UNSAMPLED or _TORCH <= META_OF_OLDER_TORCH_DIFFERS.get(full, (0, 0)):
            continue
        on_device = full not in VALUES_CHECKED
        report = meta_check.check_aten_op(name, overload, device="npu" if on_device else None)
        with contextlib.suppress(RuntimeError):  # a sample's values the kernel faults on (an integer
            torch.npu.synchronize()               # division by zero) end here, not in a later op
        failures += report.mismatches
        if report.compared < 3:
            failures.append(f"{report.name}: only {report.compared} samples compared with PyTorch: {report.skipped}")
        if on_device and report.compared_on_device < 3:
            failures.append(f"{report.name}: only {report.compared_on_device} samples ran on npu: {report.skipped}")
    assert not failures, "\n".join(failures)


def test_broadcasting_and_promotion_are_covered() -> None:
    """The sampler really exercises what size:/dtype: get wrong most often."""
    schema = torch.ops.aten.mul.Tensor._schema
    samples = list(meta_check.samples(schema))
    shapes = {tuple(tuple(a.shape) for a in s.args) for s in samples}
    dtypes = {tuple(a.dtype for a in s.args) for s in samples}
    assert ((2, 3), (3,)) in shapes and ((), (2, 3)) in shapes
    assert (torch.float32, torch.int64) in dtypes and (torch.bool, torch.int32) in dtypes


def test_custom_ops_meta_kernels_agree_with_the_npu_kernel(generated_dir: Path) -> None:
    custom = [e["func"].split("(", 1)[0] for e in _projection(generated_dir)["custom"]]
    sources = _meta_sources(generated_dir)
    with_meta = [op for op in custom if f'm.impl("{op}", TORCH_FN(op_plugin::meta::' in sources]
    if not with_meta:
        pytest.skip("the label has no custom op with a generated Meta kernel")
    for op in with_meta:
        name, _, overload = op.partition(".")
        overload = overload or "default"
        real = getattr(getattr(torch.ops.npu, name), overload)

        def run_on_npu(sample: meta_check.Sample, real: Any = real) -> Any:
            moved = sample.to("npu")
            return real(*moved.args, **moved.kwargs)

        report = meta_check.check_custom_op(name, overload, run_on_npu)
        assert not report.mismatches, "\n".join(report.mismatches)
        assert report.compared >= 1, report.skipped
