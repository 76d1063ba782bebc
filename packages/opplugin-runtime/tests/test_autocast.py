"""Mixed precision on npu: torch.autocast("npu") / torch.npu.amp.autocast with torch_npu's op lists, and the
autocast state functions of torch.npu.

Every op check runs with the CPU fallback forbidden (NPU_FALLBACK=error's switch), so the casts and the ops
themselves run on the npu; each result is compared with the same op on CPU computed from the inputs rounded
to the dtype the policy says.
"""

from __future__ import annotations

import mmap
import re
import warnings
from pathlib import Path

import pytest
import torch
import torch.nn.functional as F

LOW = [torch.float16, torch.bfloat16]
# float16/bfloat16 products of 16..64-term sums: the npu rounds once per output, CPU once per output too,
# with a different summation order.
TOL = {torch.float16: {"rtol": 2e-3, "atol": 2e-3}, torch.bfloat16: {"rtol": 1.6e-2, "atol": 1e-2},
       torch.float32: {"rtol": 1e-5, "atol": 1e-5}}


@pytest.fixture
def no_fallback():
    """The CPU fallback raises instead of running an op on the CPU."""
    torch.npu.set_fallback_mode("error")
    yield
    torch.npu.set_fallback_mode("silent")


def _rand(*shape: int, seed: int = 0) -> torch.Tensor:
    return torch.randn(*shape, generator=torch.Generator().manual_seed(seed))


def test_module_functions_and_defaults():
    assert torch.npu.is_bf16_supported()
    assert torch.npu.get_amp_supported_dtype() == [torch.float16, torch.bfloat16, torch.float32]
    assert torch.npu.get_autocast_dtype() == torch.float16  # torch_npu's default
    assert not torch.npu.is_autocast_enabled()
    with torch.autocast("npu", dtype=torch.bfloat16):
        assert torch.npu.is_autocast_enabled()
        assert torch.npu.get_autocast_dtype() == torch.bfloat16
        with torch.npu.amp.autocast(enabled=False):
            assert not torch.npu.is_autocast_enabled()
        assert torch.npu.is_autocast_enabled()
    assert not torch.npu.is_autocast_enabled()
    assert torch.npu.get_autocast_dtype() == torch.float16
    torch.npu.set_autocast_enabled(True)
    torch.npu.set_autocast_dtype(torch.bfloat16)
    try:
        assert torch.npu.is_autocast_enabled() and torch.npu.get_autocast_dtype() == torch.bfloat16
    finally:
        torch.npu.set_autocast_enabled(False)
        torch.npu.set_autocast_dtype(torch.float16)
    with pytest.raises(TypeError, match="enabled must be a bool"):
        torch.npu.set_autocast_enabled(1)
    with pytest.raises(TypeError, match=r"dtype must be a torch\.dtype"):
        torch.npu.set_autocast_dtype("float16")
    # The CPU's state is its own.
    with torch.autocast("npu"):
        # torch.get_autocast_dtype came with the device-type forms (2.4); torch 2.1 has only the CPU-named one.
        assert not (torch.is_autocast_enabled("cpu") if hasattr(torch, "get_autocast_dtype")
                    else torch.is_autocast_cpu_enabled())


def test_npu_amp_autocast_is_torch_autocast_for_npu():
    import torch_npu

    assert torch_npu.npu.amp.autocast is torch.npu.amp.autocast
    region = torch.npu.amp.autocast()
    assert isinstance(region, torch.amp.autocast_mode.autocast)
    assert (region.device, region.fast_dtype) == ("npu", torch.float16)
    a, b = _rand(8, 8).npu(), _rand(8, 8, seed=1).npu()

    @torch.npu.amp.autocast(dtype=torch.bfloat16)
    def decorated(x, y):
        return x @ y

    assert decorated(a, b).dtype == torch.bfloat16
    assert (a @ b).dtype == torch.float32


def test_amp_imports_find_one_module(run_python):
    """`import torch.npu.amp`, `from torch.npu.amp import ...` and torch_npu's spelling give the loaded module,
    never a second copy with classes of its own."""
    result = run_python("""
        import torch, opplugin_runtime
        import torch.npu.amp as by_path
        from torch.npu.amp import GradScaler, autocast
        import torch_npu
        from torch_npu.npu.amp import GradScaler as upstream_scaler
        amp = opplugin_runtime.npu.amp
        assert by_path is amp and torch.npu.amp is amp, (by_path, torch.npu.amp, amp)
        assert GradScaler is amp.GradScaler is upstream_scaler and autocast is amp.autocast
        print("ok")
    """)
    assert result.returncode == 0 and result.stdout.strip() == "ok", result.stderr[-2000:]


def test_unsupported_dtype_disables_autocast_with_a_warning():
    a = _rand(4, 4).npu()
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        with torch.autocast("npu", dtype=torch.float64):
            assert (a @ a).dtype == torch.float32
    assert any("npu" in str(w.message) for w in caught), [str(w.message) for w in caught]


# (op name, function of the float32 CPU or npu inputs, input shapes); each run under autocast on npu and
# compared with the CPU computing the same function on the inputs cast as the policy says.
LOWER_PRECISION = [
    ("mm", lambda a, b: torch.mm(a, b), [(16, 32), (32, 8)]),
    ("matmul", lambda a, b: torch.matmul(a, b), [(2, 16, 32), (32, 8)]),
    ("linear", lambda x, w, b: F.linear(x, w, b), [(16, 32), (8, 32), (8,)]),
    ("addmm", lambda c, a, b: torch.addmm(c, a, b), [(16, 8), (16, 32), (32, 8)]),
    ("bmm", lambda a, b: torch.bmm(a, b), [(3, 16, 32), (3, 32, 8)]),
    ("baddbmm", lambda c, a, b: torch.baddbmm(c, a, b), [(3, 16, 8), (3, 16, 32), (3, 32, 8)]),
    ("mv", lambda a, v: torch.mv(a, v), [(16, 32), (32,)]),
    ("prelu", lambda x, w: F.prelu(x, w), [(4, 3, 5), (3,)]),
]
FP32 = [
    ("exp", lambda x: torch.exp(x), [(64,)]),
    ("log", lambda x: torch.log(x), [(64,)]),
    ("rsqrt", lambda x: torch.rsqrt(x), [(64,)]),
    ("pow", lambda x: torch.pow(x, 2.0), [(64,)]),
    ("softmax", lambda x: torch.softmax(x, dim=-1), [(8, 16)]),
    ("log_softmax", lambda x: torch.log_softmax(x, dim=-1), [(8, 16)]),
    ("sum", lambda x: torch.sum(x), [(8, 16)]),
    ("cumsum", lambda x: torch.cumsum(x, dim=1), [(8, 16)]),
    ("layer_norm", lambda x, w, b: F.layer_norm(x, (16,), w, b), [(8, 16), (16,), (16,)]),
    ("mse_loss", lambda x, y: F.mse_loss(x, y), [(8, 16), (8, 16)]),
    ("bce_with_logits", lambda x, y: F.binary_cross_entropy_with_logits(x, y), [(8, 16), (8, 16)]),
    ("norm", lambda x: torch.norm(x), [(8, 16)]),
]


def _inputs(shapes: list[tuple[int, ...]]) -> list[torch.Tensor]:
    return [_rand(*shape, seed=i) for i, shape in enumerate(shapes)]


@pytest.mark.parametrize("dtype", LOW, ids=str)
@pytest.mark.parametrize(("name", "fn", "shapes"), LOWER_PRECISION, ids=[c[0] for c in LOWER_PRECISION])
def test_lower_precision_ops_run_in_the_autocast_dtype(no_fallback, dtype, name, fn, shapes):
    cpu = _inputs(shapes)
    with torch.autocast("npu", dtype=dtype):
        result = fn(*[t.npu() for t in cpu])
    assert result.dtype == dtype, name
    expected = fn(*[t.to(dtype).float() for t in cpu]).to(dtype)
    torch.testing.assert_close(result.cpu(), expected, **TOL[dtype])


@pytest.mark.parametrize("dtype", LOW, ids=str)
@pytest.mark.parametrize(("name", "fn", "shapes"), FP32, ids=[c[0] for c in FP32])
def test_float32_ops_run_in_float32_from_lower_precision_inputs(no_fallback, dtype, name, fn, shapes):
    """The inputs come from a lower-precision op (as in a model); the op itself computes and returns float32."""
    if name == "bce_with_logits" and not torch._C._dispatch_has_kernel_for_dispatch_key("aten::mul.out", "PrivateUse1"):
        pytest.skip("this torch's binary_cross_entropy_with_logits calls mul.out, which has no npu kernel in this "
                    "label (yaml: mul.out from v2.5)")
    # The inputs are made on the CPU, in range for the op (log and rsqrt: positive; bce's targets: in [0, 1]).
    cpu = [(t.abs() + 0.5 if name in ("log", "rsqrt") else t).to(dtype) for t in _inputs(shapes)]
    if name == "bce_with_logits":
        cpu[1] = (cpu[1].float().abs() / 4).clamp(max=1).to(dtype)
    with torch.autocast("npu", dtype=dtype):
        result = fn(*[t.npu() for t in cpu])
    assert result.dtype == torch.float32, name
    torch.testing.assert_close(result.cpu(), fn(*[t.float() for t in cpu]), rtol=1e-5, atol=1e-5)


@pytest.mark.parametrize("dtype", LOW, ids=str)
def test_promote_ops_run_in_the_widest_input_dtype(no_fallback, dtype):
    x, t1, t2 = _inputs([(32,), (32,), (32,)])
    with torch.autocast("npu", dtype=dtype):
        low = torch.mm(x.npu()[None], t1.npu()[:, None]).reshape(1)  # a lower-precision result
        mixed = torch.addcmul(x.npu(), low.expand(32), t2.npu())
        same = torch.addcmul(low.expand(32), low.expand(32), low.expand(32))
        angle = torch.atan2(low.expand(32), t2.npu())
    assert (low.dtype, mixed.dtype, same.dtype, angle.dtype) == (dtype, torch.float32, dtype, torch.float32)
    low_cpu = low.cpu().float().expand(32)
    torch.testing.assert_close(mixed.cpu(), torch.addcmul(x, low_cpu, t2))
    torch.testing.assert_close(angle.cpu(), torch.atan2(low_cpu, t2))


def test_ops_without_a_policy_keep_their_input_dtype(no_fallback):
    """relu, add, cat have no policy: they run in whatever the inputs are. torch_npu's lists differ from CUDA's:
    upsample_* (float32 on CUDA) keeps the lower precision on npu."""
    x = _rand(1, 2, 4, 4)
    with torch.autocast("npu", dtype=torch.float16):
        half = F.conv2d(x.npu(), _rand(2, 2, 1, 1, seed=3).npu()) if _has_conv() else x.npu().half()
        assert torch.relu(half).dtype == torch.float16
        assert (half + half).dtype == torch.float16
        assert (half + x.npu()).dtype == torch.float32  # ordinary type promotion
        up = F.interpolate(half, scale_factor=2, mode="nearest")
    assert up.dtype == torch.float16
    torch.testing.assert_close(up.cpu(), F.interpolate(half.cpu().float(), scale_factor=2, mode="nearest").half())


def _has_conv() -> bool:
    return torch._C._dispatch_has_kernel_for_dispatch_key("aten::convolution_overrideable", "PrivateUse1") or \
        torch._C._dispatch_has_kernel_for_dispatch_key("aten::convolution", "PrivateUse1")


def test_autocast_disabled_inside_a_region(no_fallback):
    a, b = _rand(8, 8).npu(), _rand(8, 8, seed=1).npu()
    with torch.autocast("npu", dtype=torch.float16):
        assert (a @ b).dtype == torch.float16
        with torch.autocast("npu", enabled=False):
            inner = a @ b
        with torch.npu.amp.autocast(enabled=False):
            legacy = a @ b
        assert (a @ b).dtype == torch.float16
    assert inner.dtype == legacy.dtype == torch.float32
    torch.testing.assert_close(inner.cpu(), a.cpu() @ b.cpu())


def test_backward_through_autocast_gives_float32_grads_of_float32_leaves(no_fallback):
    w_cpu = _rand(8, 16, seed=5)
    x_cpu = _rand(4, 16, seed=6)
    w = w_cpu.npu().requires_grad_()
    with torch.autocast("npu", dtype=torch.bfloat16):
        out = F.linear(x_cpu.npu(), w)
        loss = out.float().pow(2).sum()
    loss.backward()
    assert out.dtype == torch.bfloat16 and w.grad.dtype == torch.float32
    w_ref = w_cpu.clone().requires_grad_()
    out_ref = F.linear(x_cpu.bfloat16().float(), w_ref.bfloat16().float()).bfloat16()
    out_ref.float().pow(2).sum().backward()
    torch.testing.assert_close(w.grad.cpu(), w_ref.grad, rtol=2e-2, atol=2e-2)


def _cast_count(fn) -> int:
    """How many npu copies (each dtype cast is one copy_ into a new tensor) fn makes, from the op hooks."""
    calls = []
    handle = torch.npu.register_op_hook(pre=lambda op, args: calls.append(op))
    try:
        fn()
    finally:
        handle.remove()
    return calls.count("copy_")


def test_casts_of_leaf_weights_are_cached_within_a_region(no_fallback):
    """A float32 leaf that requires grad (a weight) is cast once per autocast region and reused; a tensor that
    does not require grad is cast at each use; cache_enabled=False casts every time; leaving the region empties
    the cache."""
    w = _rand(8, 8).npu().requires_grad_()
    x = _rand(8, 8, seed=1).npu()

    def twice(cache: bool, weight: torch.Tensor) -> None:
        with torch.autocast("npu", dtype=torch.float16, cache_enabled=cache):
            weight16 = x.half()  # x is cast by each mm below too; this cast is the baseline
            del weight16
            torch.mm(x, weight)
            torch.mm(x, weight)

    cached = _cast_count(lambda: twice(True, w))
    uncached = _cast_count(lambda: twice(False, w))
    plain = _cast_count(lambda: twice(True, w.detach()))
    assert cached == 4 and uncached == 5, (cached, uncached)  # x.half(), x twice, the weight once or twice
    assert plain == uncached, (plain, uncached)
    again = _cast_count(lambda: twice(True, w))
    assert again == cached  # a new region casts the weight again (the cache was cleared on exit)


def test_binary_cross_entropy_is_refused_under_autocast(no_fallback):
    p, y = torch.rand(8).npu(), torch.rand(8).npu()
    with torch.autocast("npu"), pytest.raises(RuntimeError, match=r"unsafe to autocast on npu.*_with_logits"):
        F.binary_cross_entropy(p, y)
    torch.testing.assert_close(F.binary_cross_entropy(p, y).cpu(), F.binary_cross_entropy(p.cpu(), y.cpu()))


def test_custom_fwd_and_bwd_aliases_are_deprecated_and_follow_autocast():
    with pytest.warns(FutureWarning) as caught:

        class Square(torch.autograd.Function):
            @staticmethod
            @torch.npu.amp.custom_fwd(cast_inputs=torch.float16)
            def forward(ctx, x):
                ctx.save_for_backward(x)
                ctx.seen = (x.dtype, torch.npu.is_autocast_enabled())
                return x * x

            @staticmethod
            @torch.npu.amp.custom_bwd
            def backward(ctx, grad):
                (x,) = ctx.saved_tensors
                ctx.backward_autocast = torch.npu.is_autocast_enabled()
                return 2 * x * grad

    messages = [str(w.message) for w in caught]
    assert any("torch.amp.custom_fwd" in m for m in messages) and any("torch.amp.custom_bwd" in m for m in messages)
    x = _rand(6).npu().requires_grad_()
    with torch.autocast("npu", dtype=torch.bfloat16):
        y = Square.apply(x)
    assert y.dtype == torch.float16
    assert y.grad_fn.seen == (torch.float16, False)  # inputs cast, autocast off inside
    y.float().sum().backward()
    assert y.grad_fn.backward_autocast is False  # backward runs under the forward's autocast state
    assert x.grad.dtype == torch.float32
    torch.testing.assert_close(x.grad.cpu(), 2 * x.detach().cpu().half().float(), rtol=1e-3, atol=1e-3)


# The ops of CUDA's autocast lists that torch_npu's leave out (by name; the Dimname overloads and _cudnn_rnn exist
# only in some torch releases).
NOT_IN_TORCH_NPU_LISTS = {"linalg_vecdot", "rms_norm", "vdot", "_cudnn_rnn"}


def _left_out_by_torch_npu(op: str) -> bool:
    name, _, overload = op.removeprefix("aten::").partition(".")
    return name in NOT_IN_TORCH_NPU_LISTS or "upsample" in name or "dimname" in overload.lower() or \
        overload.startswith("names_")


def test_the_registered_policies_are_torch_npus_lists():
    """Every aten op with an AutocastPrivateUse1 kernel, against CUDA's: the same ops but those torch_npu leaves
    out. (Which policy each op gets is checked by the dtype tests above.)"""
    names = torch._C._dispatch_get_all_op_names()
    npu = {n for n in names if torch._C._dispatch_has_kernel_for_dispatch_key(n, "AutocastPrivateUse1")}
    cuda = {n for n in names if torch._C._dispatch_has_kernel_for_dispatch_key(n, "AutocastCUDA")}
    assert npu == {op for op in cuda if not _left_out_by_torch_npu(op)}, (sorted(npu - cuda), sorted(cuda - npu))
    assert {"aten::mm", "aten::conv2d", "aten::softmax.int", "aten::norm.Scalar", "aten::addcmul",
            "aten::binary_cross_entropy"} <= npu


# The autocast kernels are instances of at::autocast::WrapFunction_<CastPolicy, DeviceType, signature, function>;
# their mangled names give each kernel's policy (0 lower_precision_fp, 1 fp32, 2 fp32_set_opt_dtype,
# 3 fp32_append_dtype, 4 promote) for the function with that exact signature.
_WRAPPER = re.compile(rb"_ZN2at8autocast13WrapFunction_ILNS0_10CastPolicyE(\d+)ELN3c1010DeviceTypeE(\d+)E"
                      rb"([\x21-\x7e]+)")
_WRAPPED_NAME = re.compile(r"XadL_ZNS_(?:4_ops)?(\d+)")  # &at::_ops::<op>::call or &at::<function>
_CUDA, _PRIVATEUSE1 = 1, 20  # c10::DeviceType


def _autocast_wrappers(library: str, device_type: int) -> dict[str, tuple[str, int]]:
    """{mangled signature and function: (the function's name, policy)} of the library's kernels for a device."""
    found = {}
    with open(library, "rb") as f, mmap.mmap(f.fileno(), 0, access=mmap.ACCESS_READ) as image:
        for match in _WRAPPER.finditer(image):
            if int(match.group(2)) != device_type:
                continue
            rest = match.group(3).decode()
            name = _WRAPPED_NAME.search(rest)
            if name is not None:
                found[rest] = (rest[name.end():name.end() + int(name.group(1))], int(match.group(1)))
    return found


def test_every_policy_is_the_one_cuda_gives_the_same_function():
    """Per op and overload: each npu autocast kernel casts as CUDA's kernel of the same function and signature
    does, and every CUDA kernel torch_npu keeps has its npu twin (for example linalg_matrix_sqrth, float32 from
    torch 2.14). Read from the kernels' names in torch's library and in ours."""
    import opplugin_runtime

    cuda = _autocast_wrappers(str(Path(torch.__file__).parent / "lib" / "libtorch_cpu.so"), _CUDA)
    if not cuda:
        pytest.skip("this torch's libtorch_cpu.so names no autocast kernels")
    npu = _autocast_wrappers(opplugin_runtime._C.__file__, _PRIVATEUSE1)
    assert len(npu) >= 90, len(npu)
    differ = sorted((npu[k][0], cuda[k][1], npu[k][1]) for k in npu.keys() & cuda.keys() if npu[k] != cuda[k])
    assert not differ, differ  # (function, CUDA's policy, npu's)
    assert not sorted(npu[k][0] for k in npu.keys() - cuda.keys())

    def left_out(key: str) -> bool:
        name = cuda[key][0]
        return "upsample" in name or "Dimname" in key or \
            any(name == op or name.startswith(op + "_") for op in NOT_IN_TORCH_NPU_LISTS)

    assert not sorted(cuda[k][0] for k in cuda.keys() - npu.keys() if not left_out(k))
