"""torch._foreach_* ops and the torch.optim optimizers (SGD with momentum, Adam,
AdamW) on npu, compared with CPU, with no CPU fallback (NPU_FALLBACK=error).

torch picks the foreach implementation for the privateuse1 device by default
(torch.utils._foreach_utils._get_foreach_kernels_supported_devices lists it on
torch 2.1 and 2.13). The _foreach ops the optimizers call have op_api kernels that
queue one aclnn elementwise launch per tensor (torch 2.1 has no slow path for
them outside CPU/CUDA)."""

from __future__ import annotations

import pytest
import torch
from torch.optim.optimizer import _default_to_fused_or_foreach
from torch.utils._python_dispatch import TorchDispatchMode


@pytest.fixture(autouse=True)
def _no_fallback():
    torch.npu.set_fallback_mode("error")
    yield


class RecordOps(TorchDispatchMode):
    """The top-level aten ops a block calls."""

    def __init__(self) -> None:
        super().__init__()
        self.ops: set[str] = set()

    def __torch_dispatch__(self, func, types, args=(), kwargs=None):
        self.ops.add(str(func.overloadpacket.__name__))
        return func(*args, **(kwargs or {}))


def tensors(seed: int, low: float = -2.0, high: float = 2.0) -> list[torch.Tensor]:
    g = torch.Generator().manual_seed(seed)
    return [torch.rand(shape, generator=g) * (high - low) + low for shape in ((3, 5), (7,), (1,), (2, 129))]


def npu(ts: list[torch.Tensor]) -> list[torch.Tensor]:
    return [t.npu() for t in ts]


def assert_lists(npu_list, cpu_list, assert_same, **kw) -> None:
    assert len(npu_list) == len(cpu_list)
    for a, b in zip(npu_list, cpu_list):
        assert_same(a, b, **kw)


def test_npu_defaults_to_foreach():
    params = [torch.zeros(3).npu()]
    assert _default_to_fused_or_foreach(params, differentiable=False, use_fused=False) == (False, True)


@pytest.mark.parametrize(
    "name, args",
    [
        ("_foreach_add_", (1.5,)),
        ("_foreach_add_", ("list",)),
        ("_foreach_mul_", (0.9,)),
        ("_foreach_mul_", ("list",)),
        ("_foreach_div_", ([2.0, 3.0, 4.0, 5.0],)),
        ("_foreach_lerp_", ("list", 0.1)),
        ("_foreach_addcmul_", ("list", "list", 0.01)),
        ("_foreach_addcdiv_", ("list", "positive", [0.1, -0.2, 0.3, 0.4])),
        ("_foreach_maximum_", ("list",)),
        ("_foreach_sqrt_", ()),
        ("_foreach_neg_", ()),
    ],
)
def test_foreach_inplace_ops(name, args, assert_same, ledger):
    base = tensors(1, 0.1, 3.0)
    other = tensors(2)
    positive = tensors(3, 0.5, 2.0)

    def materialize(device_fn):
        out = []
        for a in args:
            out.append(device_fn(other) if a == "list" else device_fn(positive) if a == "positive" else a)
        return out

    cpu = [t.clone() for t in base]
    dev = [t.npu() for t in base]
    getattr(torch, name)(cpu, *materialize(lambda ts: ts))
    getattr(torch, name)(dev, *materialize(npu))
    assert_lists(dev, cpu, assert_same, rtol=2e-6, atol=2e-6)
    assert [paths["op_api"] for op, paths in ledger().items() if op.startswith(name)] == [1]


def test_foreach_list_errors_name_the_op():
    a = [torch.zeros(2).npu(), torch.zeros(3).npu()]
    with pytest.raises(RuntimeError, match="Tensor lists must have the same number of tensors, got 2 and 1"):
        torch._foreach_add_(a, a[:1])
    with pytest.raises(RuntimeError, match="Tensor list must have same number of elements as scalar list"):
        torch._foreach_div_(a, [1.0])


def test_foreach_out_of_place(assert_same):
    a, b = tensors(4, 0.1, 3.0), tensors(5)
    assert_lists(torch._foreach_sqrt(npu(a)), torch._foreach_sqrt(a), assert_same)
    assert_lists(torch._foreach_add(npu(a), npu(b)), torch._foreach_add(a, b), assert_same)
    assert_lists(torch._foreach_neg(npu(b)), torch._foreach_neg(b), assert_same)


def _step(opt_cls, kwargs, foreach, steps=4):
    """Runs `steps` optimizer steps on CPU and on npu with the same gradients; returns
    (npu params, cpu params, the top-level ops the npu step called)."""
    torch.manual_seed(0)
    cpu = [p.requires_grad_() for p in tensors(6)]
    dev = [p.detach().clone().npu().requires_grad_() for p in cpu]
    opt_cpu = opt_cls(cpu, foreach=foreach, **kwargs)
    opt_npu = opt_cls(dev, foreach=foreach, **kwargs)
    recorder = RecordOps()
    g = torch.Generator().manual_seed(7)
    for _ in range(steps):
        for p, q in zip(cpu, dev):
            grad = torch.randn(p.shape, generator=g)
            p.grad = grad.clone()
            q.grad = grad.npu()
        opt_cpu.step()
        with recorder:
            opt_npu.step()
    return dev, cpu, recorder.ops


OPTIMIZERS = [
    ("SGD", {"lr": 0.1, "momentum": 0.9}),
    ("SGD", {"lr": 0.1, "momentum": 0.9, "nesterov": True, "weight_decay": 0.01}),
    ("Adam", {"lr": 0.01}),
    ("Adam", {"lr": 0.01, "weight_decay": 0.1, "amsgrad": True}),
    ("AdamW", {"lr": 0.01, "weight_decay": 0.05}),
]


@pytest.mark.parametrize("foreach", [None, True, False], ids=["default", "foreach", "for_loop"])
@pytest.mark.parametrize("opt_name, kwargs", OPTIMIZERS, ids=[f"{n}-{i}" for i, (n, _) in enumerate(OPTIMIZERS)])
def test_optimizer_steps_match_cpu(opt_name, kwargs, foreach, assert_same, ledger):
    if foreach is False and not torch._C._dispatch_has_kernel_for_dispatch_key("aten::mul.out", "PrivateUse1"):
        pytest.skip("the for-loop step's mul_ reaches mul.out, which yaml/op_plugin_functions.yaml declares "
                    "for npu from v2.5 on only (tests/test_version_ranges.py)")
    dev, cpu, ops = _step(getattr(torch.optim, opt_name), kwargs, foreach)
    for q, p in zip(dev, cpu):
        assert_same(q.detach(), p.detach(), rtol=1e-5, atol=1e-6)
    uses_foreach = foreach is not False
    assert any(op.startswith("_foreach_") for op in ops) == uses_foreach, sorted(ops)
    counts = ledger()
    assert all(paths["cpu_fallback"] == 0 for paths in counts.values())
    foreach_launches = sum(paths["op_api"] for op, paths in counts.items() if op.startswith("_foreach_"))
    assert (foreach_launches > 0) == uses_foreach
    if opt_name != "SGD":
        sqrt = "_foreach_sqrt" if uses_foreach else "sqrt.out"
        assert counts[sqrt]["op_api"] > 0
