"""The generated op_plugin dispatch of every op of the label runs in the runtime and takes
the path its YAML declares: op_api by default when the label has it, acl_op with
jit_compile=True when the label has it (contracts.md section 3), and the results match
the CPU."""

from __future__ import annotations

import contextlib
import math
from pathlib import Path
from typing import Any, Callable

import opplugin_meta_check as meta_check
import opplugin_runtime  # noqa: F401
import pytest
import torch

import yaml


def _live_ops(generated_dir: Path) -> list[tuple[str, list[str]]]:
    path = generated_dir / "op_plugin" / "config" / "op_plugin_functions.yaml"
    doc = yaml.safe_load(path.read_text())
    out = []
    for entry in doc["official"]:
        paths = [p.strip() for p in entry["impl_ns"].split(",") if p.strip()]
        if paths and "structured_delegate" not in entry:
            out.append((entry["func"].split("(", 1)[0], paths))
    return out


# --- indexing / cat / factories / embedding / convolution / pooling ---
# Ops whose arguments the generic float sampler cannot make (integer indices, window
# geometry, a factory without tensor inputs) or whose CPU kernel is no reference (the
# *_overrideable convolutions raise on the CPU): a hand-made float32 sample, the dtypes
# of its out= arguments, and the CPU reference (None: the op itself on the CPU).
def _t(*shape: int, seed: int = 0) -> torch.Tensor:
    return torch.rand(shape, generator=torch.Generator().manual_seed(seed)) * 4 - 2


def _conv_reference(*args: Any) -> Any:
    return torch.ops.aten.convolution(*args)


def _conv_backward_reference(grad: Any, x: Any, w: Any, *args: Any) -> Any:
    return torch.ops.aten.convolution_backward(grad, x, w, [w.shape[0]], *args)


_LONG = torch.int64
_INDEX = torch.tensor([[1, 0, 2], [2, 2, 0]])
_SPECIAL: dict[str, tuple[Callable[[], meta_check.Sample], dict[str, torch.dtype], Callable[..., Any] | None]] = {
    "cat": (lambda: meta_check.Sample([[_t(2, 3), _t(1, 3, seed=1)]], {}), {}, None),
    "cat.out": (lambda: meta_check.Sample([[_t(2, 3), _t(1, 3, seed=1)]], {}), {}, None),
    "index_select": (lambda: meta_check.Sample([_t(4, 3), 0, torch.tensor([3, 0, 3])], {}), {}, None),
    "index_select.out": (lambda: meta_check.Sample([_t(4, 3), 1, torch.tensor([2, 0])], {}), {}, None),
    "embedding_dense_backward": (lambda: meta_check.Sample([_t(5, 3), torch.tensor([1, 4, 1, 0, 2]), 6, -1, False],
                                                           {}), {}, None),
    "arange.start_out": (lambda: meta_check.Sample([0.5, 7, 0.75], {}), {}, None),
    "convolution_overrideable": (lambda: meta_check.Sample([_t(2, 3, 6, 5), _t(4, 3, 3, 3, seed=1), _t(4, seed=2),
                                                            [1, 1], [1, 0], [1, 1], False, [0, 0], 1], {}),
                                 {}, _conv_reference),
    "convolution_backward_overrideable": (
        lambda: meta_check.Sample([_t(2, 4, 6, 3), _t(2, 3, 6, 5, seed=1), _t(4, 3, 3, 3, seed=2), [1, 1], [1, 0],
                                   [1, 1], False, [0, 0], 1, [True, True, True]], {}),
        {}, _conv_backward_reference),
    "max_pool2d_with_indices.out": (lambda: meta_check.Sample([_t(2, 3, 7, 6), [3, 2], [2, 2], [1, 1]], {}),
                                    {"indices": _LONG}, None),
    "max_pool2d_with_indices_backward.grad_input": (
        lambda: meta_check.Sample([_t(1, 2, 2, 2), _t(1, 2, 4, 4, seed=1), [2, 2], [2, 2], [0, 0], [1, 1], False,
                                   torch.tensor([0, 5, 10, 15]).repeat(2, 1).reshape(1, 2, 2, 2)], {}), {}, None),
    "gather.out": (lambda: meta_check.Sample([_t(3, 4), 0, _INDEX], {}), {}, None),
    "scatter.src_out": (lambda: meta_check.Sample([_t(3, 4), 0, torch.tensor([[1, 0, 2]]), _t(2, 3, seed=1)], {}),
                        {}, None),
    "scatter.value_out": (lambda: meta_check.Sample([_t(3, 4), 0, torch.tensor([[1, 0, 2]]), 2.5], {}), {}, None),
    "scatter_add.out": (lambda: meta_check.Sample([_t(3, 4), 0, _INDEX, _t(2, 3, seed=1)], {}), {}, None),
    "index_add.out": (lambda: meta_check.Sample([_t(4, 3), 0, torch.tensor([3, 3]), _t(2, 3, seed=1)], {}), {}, None),
    "index_add": (lambda: meta_check.Sample([_t(4, 3), 0, torch.tensor([3, 3]), _t(2, 3, seed=1)], {}), {}, None),
    "index_add_": (lambda: meta_check.Sample([_t(4, 3), 1, torch.tensor([0]), _t(4, 1, seed=1)], {}), {}, None),
    # --- attention masks: tril / isneginf / all: bool results, tril needs a matrix ---
    "tril.out": (lambda: meta_check.Sample([_t(2, 4, 5), 1], {}), {}, None),
    "isneginf.out": (lambda: meta_check.Sample([torch.tensor([-math.inf, 1.0, math.inf, -2.0])], {}),
                     {"out": torch.bool}, None),
    "all.dim": (lambda: meta_check.Sample([_t(3, 4).round(), 1], {}), {}, None),
    "all.out": (lambda: meta_check.Sample([_t(3, 4).round(), 1], {}), {"out": torch.bool}, None),
    "all": (lambda: meta_check.Sample([_t(3, 4) + 3], {}), {}, None),
    "all.all_out": (lambda: meta_check.Sample([_t(3, 4) + 3], {}), {"out": torch.bool}, None),
    "all.dims": (lambda: meta_check.Sample([_t(3, 4, 2).round(), [0, 2]], {}), {}, None),
    "all.dims_out": (lambda: meta_check.Sample([_t(3, 4, 2).round(), [0, 2]], {}), {"out": torch.bool}, None),
    # --- binary cross entropy: probabilities in [0, 1] (the kernel faults on others, after the launch) ---
    # (CPU's binary_cross_entropy.out into an empty out of a reduced loss gives NaN: the functional
    # form is the reference, as for the backward below)
    "binary_cross_entropy": (lambda: meta_check.Sample([(_t(3, 4) + 2) / 4, (_t(3, 4, seed=1) + 2) / 4], {}), {}, None),
    "binary_cross_entropy.out": (lambda: meta_check.Sample([(_t(3, 4) + 2) / 4, (_t(3, 4, seed=1) + 2) / 4], {}), {},
                                 torch.ops.aten.binary_cross_entropy),
    **{name: (lambda: meta_check.Sample([_t(3, 4, seed=2), (_t(3, 4) + 2) / 4, (_t(3, 4, seed=1) + 2) / 4], {}),
              {}, reference)
       for name, reference in (("binary_cross_entropy_backward", None),  # (CPU's grad_input form leaves an
                               ("binary_cross_entropy_backward.grad_input",  # empty grad_input unsized)
                                torch.ops.aten.binary_cross_entropy_backward))},
}


def _float_sample_or_none(name: str, overload: str) -> meta_check.Sample | None:
    try:
        return _float_sample(name, overload)
    except (AssertionError, TypeError, ValueError, meta_check.NoSample):
        return None


def _float_sample(name: str, overload: str) -> meta_check.Sample:
    op = getattr(getattr(torch.ops.aten, name), overload)
    for sample in meta_check.samples(op._schema):
        tensors = [a for a in [*sample.args, *sample.kwargs.values()] if isinstance(a, torch.Tensor)]
        if tensors and all(t.dtype == torch.float32 and t.dim() > 0 for t in tensors):
            return sample
    raise AssertionError(f"no float32 sample for {name}.{overload}")


def _run(name: str, overload: str, sample: meta_check.Sample, device: str,
         out_dtypes: dict[str, torch.dtype] | None = None) -> Any:
    op = getattr(getattr(torch.ops.aten, name), overload)
    moved = sample.to(device)
    kwargs = dict(moved.kwargs)
    for arg in op._schema.arguments:
        if meta_check._is_out(arg):
            kwargs[arg.name] = torch.empty(0, device=device, dtype=(out_dtypes or {}).get(arg.name))
    if name.endswith("_"):  # in-place: work on a copy
        moved.args[0] = moved.args[0].clone()
    return op(*moved.args, **kwargs)


# Ops whose generic float32 sample (no running stats, eval) crashes ATen's own CPU kernel
# (a segfault in native_batch_norm on CPU), so there is no CPU reference to compare with;
# their paths and results are tested in packages/opplugin-runtime/tests/test_ops_norm.py and
# test_ops_loss.py (_native_batch_norm_legit).
NO_GENERIC_CPU_REFERENCE = {"native_batch_norm", "native_batch_norm_backward", "_batch_norm_with_update",
                            "_batch_norm_no_update", "batch_norm_backward", "_native_batch_norm_legit",
                            "_native_batch_norm_legit.no_stats"}


# log_sigmoid's buffer: the generic sample's is arbitrary (CPU's backward reads it, the npu kernel
# computes from self; CPU's forward leaves it as given): test_opinfo.py compares the op itself.
VALUES_NOT_COMPARED = {"log_sigmoid_forward", "log_sigmoid_forward.output", "log_sigmoid_backward",
                       "log_sigmoid_backward.grad_input"}


def _check_path(generated_dir: Path, jit_compile: bool, wanted: str) -> None:
    checked = 0
    for full, paths in _live_ops(generated_dir):
        if wanted not in paths or full in NO_GENERIC_CPU_REFERENCE:
            continue
        name, _, overload = full.partition(".")
        overload = overload or "default"
        if torch.Tag.nondeterministic_seeded in getattr(getattr(torch.ops.aten, name), overload).tags:
            continue  # random values cannot match CPU's generator: paths and distributions in test_random.py
        schema = getattr(getattr(torch.ops.aten, name), overload)._schema
        if full not in _SPECIAL and any(str(a.type) == "List[Tensor]" for a in schema.arguments):
            continue  # tensor-list (_foreach_*) ops: tested against CPU in opplugin-runtime's test_ops_foreach.py
        special, out_dtypes, reference = _SPECIAL.get(full, (None, None, None))
        if special is None and _float_sample_or_none(name, overload) is None:
            continue  # no tensor or string-free float sample (eye, index, *reduce): the OpInfo suite runs them
        sample = special() if special is not None else _float_sample(name, overload)
        cpu_index_error = False
        try:
            if reference is not None:
                expected, cpu_error = reference(*sample.args), None
            else:
                expected, cpu_error = _run(name, overload, sample, "cpu", out_dtypes), None
        except RuntimeError as error:  # a float32 sample the op rejects (a float mask): npu must reject it alike
            expected, cpu_error = None, str(error).split("\n")[0]
        except IndexError as error:  # CPU trips over a dimension before its own check (baddbmm with a 2-D batch2)
            expected, cpu_error, cpu_index_error = None, str(error).split("\n")[0], True
        torch.npu.reset_path_ledger()
        torch.npu.set_compile_mode(jit_compile=jit_compile)
        try:
            if cpu_error is None:
                result = _run(name, overload, sample, "npu", out_dtypes)
            elif cpu_index_error:  # npu must reject the sample too (its own message)
                with pytest.raises((RuntimeError, IndexError)):
                    _run(name, overload, sample, "npu", out_dtypes)
            elif cpu_error.startswith("Could not run 'aten::"):  # no CPU kernel: nothing to compare
                with contextlib.suppress(RuntimeError):
                    _run(name, overload, sample, "npu", out_dtypes)
            else:  # npu must reject the sample too, with CPU's message or its own naming the op
                with pytest.raises(RuntimeError) as rejected:
                    _run(name, overload, sample, "npu", out_dtypes)
                message = str(rejected.value)
                assert cpu_error in message or name.rstrip("_") in message, (
                    f"{full}: the npu error names neither the op nor CPU's reason ({cpu_error}): {message}")
        finally:
            torch.npu.set_compile_mode(jit_compile=False)
        counts = torch.npu.path_ledger().get(full, {})
        # (a sample the op rejects may be refused by ATen's meta function before any kernel runs)
        assert cpu_error is not None or counts.get(wanted, 0) >= 1, (
            f"{full}: expected the {wanted} path, ledger: {counts}")
        if cpu_error is None and full not in VALUES_NOT_COMPARED:  # each tensor of several results
            results = result if isinstance(result, (tuple, list)) else (result,)
            expecteds = expected if isinstance(expected, (tuple, list)) else (expected,)
            assert len(results) == len(expecteds), f"{full}: {len(results)} results, CPU has {len(expecteds)}"
            for got, want in zip(results, expecteds):
                if isinstance(want, torch.Tensor):
                    torch.testing.assert_close(got.cpu(), want, equal_nan=True, msg=lambda m, op=full: f"{op}: {m}")
                else:  # None, or a Python value (equal's bool)
                    assert got == want, f"{full}: {got!r} vs {want!r}"
        checked += 1
    if checked == 0:
        pytest.skip(f"no op of the label has {wanted}")


def test_op_api_is_the_default_path(generated_dir: Path) -> None:
    _check_path(generated_dir, jit_compile=False, wanted="op_api")


def test_jit_compile_selects_acl_op(generated_dir: Path) -> None:
    _check_path(generated_dir, jit_compile=True, wanted="acl_op")
