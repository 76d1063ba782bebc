"""Shared machinery of the OpInfo suite (test_opinfo.py) and the A/B path tests (test_path_ab.py).

Which OpInfos run is decided by registration truth: an aten operator counts as declared
for the label when the label's yaml projection (build/generated/<label>/op_plugin/config/
op_plugin_functions.yaml) lists it AND the dispatcher has a PrivateUse1 kernel for it.
An OpInfo is selected when one of its aten names (explicit table, its aten_name, its name,
its in-place name) is such an operator, so ops merged later are picked up without edits here.

Samples are made on the CPU and copied to npu with identical sizes, strides and storage
offset (CPU kernels can give different results for different layouts), then the op runs on
both devices and the results are compared (device, dtype, shape, values).

tests/conftest.py imports it once as `npu_opinfo` (pytest runs in importlib mode, where tests/
is not a package), so the test modules share one module object and its counters.
"""

from __future__ import annotations

import contextlib
import os
from collections.abc import Callable, Iterable, Iterator, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import torch
from torch.utils._pytree import tree_flatten, tree_map

import yaml

REPO = Path(__file__).resolve().parent.parent
SKIPS_FILE = Path(__file__).resolve().parent / "opinfo_skips.yaml"

# OpInfo name -> aten operators it reaches whose names differ from the OpInfo's. Name matching
# (aten_name, last part of the name, `<name>_` for OpInfos with an in-place variant) covers the rest.
OPINFO_TO_ATEN: dict[str, tuple[str, ...]] = {
    "nn.functional.softmax": ("_softmax", "softmax"),
    "softmax": ("_softmax",),
    "nn.functional.log_softmax": ("_log_softmax", "log_softmax"),
    "log_softmax": ("_log_softmax",),
    "nn.functional.dropout": ("native_dropout", "native_dropout_backward"),
    "nn.functional.layer_norm": ("native_layer_norm", "native_layer_norm_backward"),
    "nn.functional.group_norm": ("native_group_norm", "native_group_norm_backward"),
    "nn.functional.batch_norm": ("native_batch_norm", "_native_batch_norm_legit", "native_batch_norm_backward"),
    "nn.functional.linear": ("addmm", "mm", "linear"),
    "matmul": ("mm", "bmm"),
    "nn.functional.gelu": ("gelu", "gelu_backward"),
    "nn.functional.relu": ("relu", "threshold_backward"),
    "nn.functional.silu": ("silu", "silu_backward"),
    "nn.functional.embedding": ("embedding", "embedding_dense_backward"),
    "nn.functional.cross_entropy": ("nll_loss_forward", "nll_loss", "_log_softmax"),
    "nn.functional.nll_loss": ("nll_loss_forward", "nll_loss"),
    "nn.functional.mse_loss": ("mse_loss", "mse_loss_backward"),
    "nn.functional.conv2d": ("convolution", "convolution_overrideable", "_convolution"),
    "nn.functional.conv1d": ("convolution_overrideable", "convolution_backward_overrideable"),
    "nn.functional.conv3d": ("convolution_overrideable", "convolution_backward_overrideable"),
    "nn.functional.conv_transpose1d": ("convolution_overrideable", "convolution_backward_overrideable"),
    "nn.functional.conv_transpose2d": ("convolution_overrideable", "convolution_backward_overrideable"),
    "nn.functional.conv_transpose3d": ("convolution_overrideable", "convolution_backward_overrideable"),
    "nn.functional.max_pool2d": ("max_pool2d_with_indices", "max_pool2d_with_indices_backward"),
    "nn.functional.avg_pool2d": ("avg_pool2d", "avg_pool2d_backward"),
    "nn.functional.avg_pool1d": ("avg_pool2d", "avg_pool2d_backward"),
    "nn.functional.adaptive_avg_pool1d": ("_adaptive_avg_pool2d", "_adaptive_avg_pool2d_backward"),
    "nn.functional.adaptive_avg_pool2d": ("_adaptive_avg_pool2d", "_adaptive_avg_pool2d_backward"),
    "nn.functional.adaptive_avg_pool3d": ("_adaptive_avg_pool3d", "_adaptive_avg_pool3d_backward"),
    "nn.functional.adaptive_max_pool1d": ("adaptive_max_pool2d", "adaptive_max_pool2d_backward"),
    "nn.functional.max_pool3d": ("max_pool3d_with_indices", "max_pool3d_with_indices_backward"),
    "nn.functional.max_unpool1d": ("max_unpool2d",),
    "nn.functional.interpolate": (
        "upsample_nearest1d", "upsample_nearest2d", "upsample_nearest3d", "_upsample_nearest_exact1d",
        "_upsample_nearest_exact2d", "_upsample_nearest_exact3d", "upsample_linear1d", "upsample_bilinear2d",
        "upsample_bicubic2d", "upsample_trilinear3d", "_adaptive_avg_pool2d",
    ),
    "nn.functional.upsample_bilinear": ("upsample_bilinear2d", "upsample_bilinear2d_backward"),
    "nn.functional.upsample_nearest": ("upsample_nearest1d", "upsample_nearest2d", "upsample_nearest3d"),
    "nn.functional.pad": (
        "reflection_pad1d", "reflection_pad2d", "reflection_pad3d", "replication_pad1d", "replication_pad2d",
        "replication_pad3d",
    ),
    "nn.functional.scaled_dot_product_attention": ("_scaled_dot_product_attention_math", "bmm", "_softmax"),
    "bernoulli": ("bernoulli", "bernoulli_"),
    "masked_fill": ("masked_fill_",),
    "clamp": ("clamp", "clamp_min", "clamp_max"),
    "cummax": ("_cummax_helper",),
    "cummin": ("_cummin_helper",),
    "logcumsumexp": ("_logcumsumexp",),
    "nn.functional.logsigmoid": ("log_sigmoid_forward", "log_sigmoid_backward"),
    "nn.functional.celu": ("elu", "elu_backward"),
    "nn.functional.selu": ("elu", "elu_backward"),
    "nn.functional.relu6": ("hardtanh", "hardtanh_backward"),
}
# torch.fft's functions compose the three transforms (real to complex, complex to complex and back).
OPINFO_TO_ATEN.update({f"fft.{kind}{suffix}": ("_fft_r2c", "_fft_c2c", "_fft_c2r")
                       for kind in ("fft", "ifft", "rfft", "irfft", "hfft", "ihfft") for suffix in ("", "2", "n")})

# Tolerances per dtype (assert_close rtol, atol); integral and bool results must be equal.
TOLERANCES: dict[torch.dtype, tuple[float, float]] = {
    torch.float32: (1e-4, 1e-5),
    torch.float64: (1e-7, 1e-7),
    torch.float16: (1e-3, 1e-3),
    torch.bfloat16: (1.6e-2, 1e-2),
    torch.complex64: (1e-4, 1e-5),
    torch.complex128: (1e-7, 1e-7),
}

TESTS = ("forward", "special", "layouts", "inplace", "out", "backward", "ab", "*")
KINDS = ("xfail", "skip", "meta_only")


@contextlib.contextmanager
def modes(fallback: str, jit_compile: bool | None = None) -> Iterator[None]:
    """The CPU-fallback mode (and the jit compile mode) for a block; the previous modes afterwards."""
    old_fallback, old_jit_off = torch.npu.get_fallback_mode(), torch.npu.is_jit_compile_false()
    torch.npu.set_fallback_mode(fallback)
    if jit_compile is not None:
        torch.npu.set_compile_mode(jit_compile=jit_compile)
    try:
        yield
    finally:
        torch.npu.set_fallback_mode(old_fallback)
        torch.npu.set_compile_mode(jit_compile=not old_jit_off)


def accept_privateuse1_device_type(op_db: Sequence[Any]) -> bool:
    """`@ops` asks each OpInfo for its dtypes on the test class's device type, which is
    'privateuse1' for PrivateUse1TestBase until its setUpClass names the backend. From torch 2.4
    OpInfo.supported_dtypes / supported_backward_dtypes map 'privateuse1' to the backend's name;
    torch 2.2 and 2.3 pass it to torch.device, which rejects it once the backend is renamed. On
    those releases the two methods get 2.4's mapping (returns whether it was needed)."""
    from torch.testing._internal.opinfo.core import OpInfo

    try:
        op_db[0].supported_dtypes("privateuse1")
        return False
    except RuntimeError:
        pass

    def mapped(method: Callable[[Any, str], Any]) -> Callable[[Any, str], Any]:
        def supported(self: Any, device_type: str) -> Any:
            if device_type == "privateuse1":
                device_type = torch._C._get_privateuse1_backend_name()
            return method(self, device_type)

        return supported

    OpInfo.supported_dtypes = mapped(OpInfo.supported_dtypes)
    OpInfo.supported_backward_dtypes = mapped(OpInfo.supported_backward_dtypes)
    return True


def label() -> str:
    return os.environ.get("NPU_TEST_LABEL", "v2.13")


def generated_dir() -> Path:
    return Path(os.environ.get("NPU_GENERATED_DIR", REPO / "build" / "generated" / label()))


def declared_ops() -> dict[str, set[str]]:
    """The label's declared aten operators (`name.overload` or `name`) -> live paths (op_api, acl_op)."""
    path = generated_dir() / "op_plugin" / "config" / "op_plugin_functions.yaml"
    if not path.exists():
        raise FileNotFoundError(f"{path} does not exist: run `nox -s generate -- {label()}`")
    data = yaml.safe_load(path.read_text()) or {}
    ops: dict[str, set[str]] = {}
    for entry in data.get("official") or []:
        name = entry["func"].split("(", 1)[0]
        ops[name] = {p.strip() for p in str(entry.get("impl_ns", "")).split(",") if p.strip()}
    return ops


def registered_npu_ops() -> set[str]:
    """aten operators with a PrivateUse1 kernel, as the dispatcher reports them (no `aten::`)."""
    regs = torch._C._dispatch_get_registrations_for_dispatch_key("PrivateUse1")
    return {r.split("::", 1)[1] for r in regs if r.startswith("aten::")}


def live_ops() -> dict[str, set[str]]:
    """Declared for the label and registered for npu: the operators the suites prove."""
    registered = registered_npu_ops()
    return {name: paths for name, paths in declared_ops().items() if name in registered}


def base_name(op: str) -> str:
    return op.split(".", 1)[0]


def aten_candidates(opinfo: Any) -> set[str]:
    """Base names of the aten operators an OpInfo is taken to exercise."""
    names = {opinfo.aten_name, opinfo.name, opinfo.name.rsplit(".", 1)[-1]}
    if opinfo.inplace_variant is not None:
        names |= {n + "_" for n in list(names) if not n.endswith("_")}
    names |= set(OPINFO_TO_ATEN.get(opinfo.name, ()))
    return {n for n in names if n}


def select(op_db: Sequence[Any], ops: Iterable[str]) -> tuple[list[Any], set[str]]:
    """The OpInfos covering `ops`, and the base names of `ops` that no OpInfo covers."""
    bases = {base_name(op) for op in ops}
    selected = [o for o in op_db if aten_candidates(o) & bases]
    covered = set().union(*(aten_candidates(o) for o in selected)) if selected else set()
    return selected, bases - covered


def opinfo_id(opinfo: Any) -> str:
    return opinfo.name + (f".{opinfo.variant_test_name}" if opinfo.variant_test_name else "")


# ---------------------------------------------------------------------------------------------
# skips: data in tests/opinfo_skips.yaml


@dataclass(frozen=True)
class SkipEntry:
    op: str
    variant: str
    dtype: str
    test: str
    kind: str
    reason: str
    labels: tuple[str, ...] = ()

    def applies(self, opinfo: Any, dtype: torch.dtype, test: str) -> bool:
        return (
            self.op == opinfo.name
            and self.variant == opinfo.variant_test_name
            and self.dtype in ("*", dtype_name(dtype))
            and ("*" in self.tests or test in self.tests)
            and (not self.labels or label() in self.labels)
        )


    @property
    def tests(self) -> tuple[str, ...]:
        """`test` names one test, '*', or several separated by commas (a yaml list is joined so)."""
        return tuple(self.test.split(","))


def dtype_name(dtype: torch.dtype) -> str:
    return str(dtype).replace("torch.", "")


def load_skips(path: Path = SKIPS_FILE) -> list[SkipEntry]:
    raw = yaml.safe_load(path.read_text()) or {}
    entries = []
    for item in raw.get("skips") or []:
        unknown = set(item) - {"op", "variant", "dtype", "test", "kind", "reason", "labels"}
        if unknown or "op" not in item or not item.get("reason"):
            raise ValueError(f"{path}: bad entry {item!r} (keys op, variant, dtype, test, kind, reason, labels; "
                             "op and reason are required)")
        test = item.get("test", "*")
        entries.append(SkipEntry(op=item["op"], variant=item.get("variant", ""), dtype=item.get("dtype", "*"),
                                 test=",".join(test) if isinstance(test, list) else test,
                                 kind=item.get("kind", "xfail"), reason=item["reason"],
                                 labels=tuple(item.get("labels") or ())))
    return entries


def check_skips(entries: Sequence[SkipEntry], op_db: Sequence[Any], selected: Sequence[Any]) -> list[str]:
    """Problems with the skip entries: unknown OpInfos/fields, and entries for OpInfos this label does not run."""
    known = {(o.name, o.variant_test_name) for o in op_db}
    running = {(o.name, o.variant_test_name) for o in selected}
    problems = []
    for e in entries:
        if e.labels and label() not in e.labels:
            continue  # an entry for other labels may name an OpInfo this torch's op_db lacks
        where = f"{e.op}{'.' + e.variant if e.variant else ''} ({e.test}, {e.dtype})"
        if (e.op, e.variant) not in known:
            problems.append(f"unknown OpInfo {where}: not in op_db")
        elif any(t not in TESTS for t in e.tests) or e.kind not in KINDS:
            problems.append(f"{where}: test must be one of {TESTS}, kind one of {KINDS}")
        elif e.dtype != "*" and not isinstance(getattr(torch, e.dtype, None), torch.dtype):
            problems.append(f"{where}: unknown dtype {e.dtype!r}")
        elif (not e.labels or label() in e.labels) and (e.op, e.variant) not in running:
            problems.append(f"stale entry {where}: the OpInfo does not run for {label()} (no declared op covers it)")
    return problems


def find_skip(entries: Sequence[SkipEntry], opinfo: Any, dtype: torch.dtype, test: str) -> SkipEntry | None:
    return next((e for e in entries if e.applies(opinfo, dtype, test)), None)


def find_named_skip(entries: Sequence[SkipEntry], opinfo: Any, dtype: torch.dtype, test: str) -> SkipEntry | None:
    """The first entry that names `test` itself ('*' entries are the other tests')."""
    return next((e for e in entries if test in e.tests and e.applies(opinfo, dtype, test)), None)


# ---------------------------------------------------------------------------------------------
# moving samples and comparing results


def to_npu_same_layout(t: torch.Tensor, device: str) -> torch.Tensor:
    """`t` on `device` with the same sizes, strides and storage offset (overlapping layouts included); on "cpu",
    a copy of that layout."""
    if t.layout != torch.strided:
        raise TypeError(f"only strided tensors move to npu, got {t.layout}")
    src = t.detach()
    storage_len = src.untyped_storage().nbytes() // src.element_size()
    flat = torch.empty(0, dtype=src.dtype).set_(src.untyped_storage(), 0, (storage_len,), (1,))
    copied = flat.clone() if torch.device(device).type == "cpu" else flat.to(device)
    moved = copied.as_strided(src.size(), src.stride(), src.storage_offset())
    return moved.detach().requires_grad_(t.requires_grad)


# Layouts the samples are also run in (test_opinfo.py's *_layouts tests): the same values
# in other strides, so every aclnn entry point sees operands that are not dense row-major.
LAYOUTS = ("noncontiguous", "transposed", "offset")


def relayout(t: torch.Tensor, layout: str) -> torch.Tensor:
    """`t`'s values and shape in another memory layout (requires_grad kept)."""
    from torch.testing._internal.common_utils import noncontiguous_like

    src = t.detach()
    if layout == "noncontiguous":  # every innermost element has a NaN (or 12, True) neighbour
        return noncontiguous_like(t)
    if layout == "transposed":     # dimensions stored in reverse order
        if src.dim() < 2:
            return t
        order = list(reversed(range(src.dim())))
        result = src.permute(order).contiguous().permute(order)
    elif layout == "offset":       # a view 3 elements into a larger storage
        flat = torch.empty(src.numel() + 3, dtype=src.dtype)
        result = flat[3:].view(src.shape).copy_(src)
    else:
        raise ValueError(f"unknown layout {layout!r}; known: {', '.join(LAYOUTS)}")
    return result.requires_grad_(t.requires_grad) if t.requires_grad else result


def relayout_sample(sample: Any, layout: str) -> Any:
    """The sample with every tensor argument in `layout` (OpInfo's SampleInput.transform)."""
    if layout == "noncontiguous":
        return sample.noncontiguous()
    return sample.transform(lambda x: relayout(x, layout) if isinstance(x, torch.Tensor) else x)


# Values every floating op must treat as CPU does (test_opinfo.py's special-values test): NaN,
# both infinities, both zeros, and ordinary values so that the specials meet ordinary operands
# (pow(-inf, -1.5), clamp(x, nan), tanh(-0.0), ...). Elementwise ops also get finite values
# near float32's overflow; ops that sum products (matmul, norms) do not: where such sums
# overflow depends on the order of summation, which differs between any two BLAS.
SPECIAL_VALUES = (float("nan"), float("inf"), float("-inf"), -0.0, 0.0, 1.0, -1.5, 0.5, 2.0, -2.0)
HUGE_VALUES = (3e38, -3e38)


def with_special_values(t: torch.Tensor, generator: torch.Generator, huge: bool = False) -> torch.Tensor:
    """A floating `t` with about half its elements replaced by SPECIAL_VALUES (and HUGE_VALUES if
    `huge`), same layout, requires_grad kept."""
    if not t.is_floating_point() or t.numel() == 0:
        return t
    src = t.detach()
    values = SPECIAL_VALUES + (HUGE_VALUES if huge else ())
    specials = torch.tensor(values, dtype=src.dtype)
    pick = torch.randint(len(values), src.shape, generator=generator)
    keep = torch.rand(src.shape, generator=generator) < 0.5
    result = src.clone()  # clone keeps the strides of a dense (or offset) source
    result.copy_(torch.where(keep, src, specials[pick]))
    return result.requires_grad_(t.requires_grad) if t.requires_grad else result


def special_sample(sample: Any, seed: int, huge: bool = False) -> Any:
    """The sample with its floating tensors (not its Python scalars) seeded with SPECIAL_VALUES."""
    generator = torch.Generator().manual_seed(seed)
    return sample.transform(lambda x: with_special_values(x, generator, huge) if isinstance(x, torch.Tensor) else x)


NOT_VALUES = ("dropout_p",)


def special_scalar_sample(sample: Any, value: float) -> Any | None:
    """The sample with every Python float among its arguments set to `value`, or None if it has none."""
    from torch.testing._internal.opinfo.core import SampleInput

    # A probability (sdpa's dropout_p) is not a value: NaN there is a bad input (test_bad_inputs.py).
    kwargs = {k: v for k, v in sample.kwargs.items() if k not in NOT_VALUES}
    leaves, _ = tree_flatten((sample.args, kwargs))
    if not any(isinstance(x, float) for x in leaves):
        return None
    def replace(x: Any) -> Any:
        return value if isinstance(x, float) else x
    return SampleInput(sample.input, args=tree_map(replace, tuple(sample.args)),
                       kwargs={**dict(sample.kwargs), **tree_map(replace, kwargs)},
                       output_process_fn_grad=sample.output_process_fn_grad, broadcasts_input=sample.broadcasts_input,
                       name=sample.name + "_special_scalars")


# Ops whose result for two zeros of opposite sign IEEE 754 leaves open (max(-0.0, +0.0)): CPU
# itself returns the first operand in its scalar loop and the second in its vector lanes.
ZERO_SIGN_UNSPECIFIED = ("maximum", "minimum", "clamp", "clamp_min", "clamp_max", "fmax", "fmin", "max", "min",
                         "amax", "amin")


def assert_signed_zeros(npu_result: Any, cpu_result: Any, *, where: str = "") -> None:
    """Where CPU's floating result is a zero, npu's is the zero of the same sign."""
    for i, (n, c) in enumerate(zip(tree_flatten(npu_result)[0], tree_flatten(cpu_result)[0])):
        if (not isinstance(c, torch.Tensor) or not c.is_floating_point() or not isinstance(n, torch.Tensor)
                or c.device.type == "meta"):  # a meta reference has no values (reference_result)
            continue
        n = n.detach().cpu()
        c = c.detach()
        zeros = (c == 0) & (n == 0)
        wrong = zeros & (torch.signbit(n) != torch.signbit(c))
        if wrong.any():
            at = tuple(int(k) for k in wrong.nonzero()[0])
            raise AssertionError(f"{where} result {i}: {int(wrong.sum())} zero(s) of the wrong sign, first at {at}: "
                                 f"npu {float(n[at])!r}, CPU {float(c[at])!r}")


def sample_to(sample: Any, device: str) -> tuple[Any, tuple[Any, ...], dict[str, Any]]:
    """(input, args, kwargs) of a CPU sample, with every tensor copied to `device` (same layout)."""
    def move(x: Any) -> Any:
        return to_npu_same_layout(x, device) if isinstance(x, torch.Tensor) else x
    kwargs = tree_map(move, dict(sample.kwargs))
    tensors = [x for x in tree_flatten((sample.input, sample.args, sample.kwargs))[0] if isinstance(x, torch.Tensor)]
    # factory samples (arange, ...) name the device they create on; one that leaves it to the default
    # (logspace's defaults sample) creates on the device under test
    if "device" in kwargs or not tensors:
        kwargs["device"] = device
    return tree_map(move, sample.input), tree_map(move, tuple(sample.args)), kwargs


def sample_parts(sample: Any) -> tuple[Any, tuple[Any, ...], dict[str, Any]]:
    return sample.input, tuple(sample.args), dict(sample.kwargs)


# CPU's batch norm returns the saved mean and inverse standard deviation empty in evaluation mode;
# ATen's meta functions (as CUDA and upstream torch_npu) return them per channel in float32, and so
# does npu. Those outputs are checked against the meta result: shape and dtype (CPU defines no values).
EVAL_STATS_FROM_META: dict[str, tuple[int, ...]] = {"native_batch_norm": (1, 2), "_native_batch_norm_legit": (1, 2)}


def reference_result(opinfo: Any, parts: tuple[Any, tuple[Any, ...], dict[str, Any]], expected: Any) -> Any:
    """CPU's result, where CPU leaves outputs empty that ATen's meta function defines with the meta
    function's outputs (on the meta device: assert_same compares their shape and dtype)."""
    which = EVAL_STATS_FROM_META.get(opinfo.name)
    if (which is None or not isinstance(expected, (tuple, list)) or len(expected) <= max(which)
            or not all(isinstance(expected[i], torch.Tensor) for i in which)
            or all(expected[i].numel() for i in which)):
        return expected

    def to_meta(x: Any) -> Any:
        return x.detach().to("meta") if isinstance(x, torch.Tensor) else x

    meta = opinfo(tree_map(to_meta, parts[0]), *tree_map(to_meta, parts[1]), **tree_map(to_meta, parts[2]))
    return type(expected)(meta[i] if i in which else t for i, t in enumerate(expected))


def assert_same(npu_result: Any, cpu_result: Any, *, values: bool = True, where: str = "") -> None:
    """Same structure; each npu tensor on npu with the CPU tensor's dtype, shape and (if `values`) values."""
    npu_leaves, npu_spec = tree_flatten(npu_result)
    cpu_leaves, cpu_spec = tree_flatten(cpu_result)
    assert npu_spec == cpu_spec, f"{where}: result structure {npu_spec} != CPU {cpu_spec}"
    for i, (n, c) in enumerate(zip(npu_leaves, cpu_leaves)):
        what = f"{where} result {i}"
        if isinstance(c, torch.Tensor):
            assert isinstance(n, torch.Tensor), f"{what}: {type(n).__name__} instead of a tensor"
            assert n.device.type == "npu", f"{what}: on {n.device}"
            assert n.dtype == c.dtype, f"{what}: dtype {n.dtype} != CPU {c.dtype}"
            assert n.shape == c.shape, f"{what}: shape {tuple(n.shape)} != CPU {tuple(c.shape)}"
            if values and c.device.type != "meta":  # a meta reference has no values (reference_result)
                rtol, atol = TOLERANCES.get(c.dtype, (0.0, 0.0))
                torch.testing.assert_close(n.detach().cpu(), c.detach(), rtol=rtol, atol=atol, equal_nan=True,
                                           msg=lambda m, what=what: f"{what}: {m}")
        elif values:
            assert n == c or (n != n and c != c), f"{what}: {n!r} != CPU {c!r}"


def grad_inputs(parts: Any) -> list[torch.Tensor]:
    leaves, _ = tree_flatten(parts)
    return [x for x in leaves if isinstance(x, torch.Tensor) and x.requires_grad]


def differentiable_outputs(result: Any) -> list[torch.Tensor]:
    leaves, _ = tree_flatten(result)
    return [x for x in leaves if isinstance(x, torch.Tensor) and x.requires_grad and x.grad_fn is not None]


def fallback_ops(ledger: dict[str, dict[str, int]]) -> list[str]:
    return sorted(op for op, counts in ledger.items() if counts.get("cpu_fallback"))


# ---------------------------------------------------------------------------------------------
# counters for the pytest summary (tests/conftest.py prints them)


@dataclass
class Counts:
    ran: int = 0
    passed: int = 0
    expected_failures: int = 0
    without_values: int = 0
    used_fallback: int = 0
    fallback_ops: set[str] = field(default_factory=set)


STATS: dict[str, Counts] = {}
NOTES: list[str] = []


def count(kind: str) -> Counts:
    return STATS.setdefault(kind, Counts())


def summary_lines() -> list[str]:
    lines = list(dict.fromkeys(NOTES))
    for kind, c in sorted(STATS.items()):
        line = f"{kind}: {c.ran} samples ran, {c.passed} passed"
        if c.without_values:
            line += f" ({c.without_values} of them random: device, dtype and shape only)"
        if c.expected_failures:
            line += f", {c.expected_failures} failed as xfail entries of opinfo_skips.yaml expect"
        if c.used_fallback:
            line += (f"; {c.used_fallback} used the CPU fallback for "
                     f"{', '.join(sorted(c.fallback_ops)[:12])}{' ...' if len(c.fallback_ops) > 12 else ''}")
        lines.append(line)
    return lines


def run_samples(
    samples: Iterable[Any], body: Callable[[Any, int], None], counts: Counts
) -> list[str]:
    """Runs `body(sample, index)` for each sample; returns the failures (the counts record every sample)."""
    failures = []
    for i, sample in enumerate(samples):
        counts.ran += 1
        try:
            body(sample, i)
        except Exception as error:  # noqa: BLE001  every failing sample is reported, not only the first
            failures.append(f"sample {i} ({sample_summary(sample)}): {type(error).__name__}: {error}")
        else:
            counts.passed += 1
    return failures


def sample_summary(sample: Any) -> str:
    def describe(x: Any) -> Any:
        if isinstance(x, torch.Tensor):
            return f"T{tuple(x.shape)}{'' if x.is_contiguous() else ' nc'}"
        return x
    text = repr(tree_map(describe, (sample.input, tuple(sample.args), dict(sample.kwargs))))
    return text if len(text) < 160 else text[:157] + "..."
