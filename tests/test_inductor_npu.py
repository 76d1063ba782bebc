"""torch.compile with the default backend (Inductor) on npu tensors.

Inductor's C++ code generation writes the kernels; each runs as device work, queued on the
current npu stream through the simulator's launch entry point (opplugin_runtime.npu.inductor).
Every result is compared with the same computation eagerly on the CPU, with the CPU fallback
forbidden. The trainings of whole models compile for tens of seconds: they are `slow`.
"""

from __future__ import annotations

import sys
import time

import npu_models  # examples/npu_models.py (the conftest puts examples/ on sys.path)
import opplugin_runtime  # noqa: F401  registers the npu device
import pytest
import torch
from opplugin_runtime.npu import inductor as npu_inductor
from torch import nn

_SUPPORTED, _WHY_NOT = npu_inductor.supported()
pytestmark = pytest.mark.skipif(not _SUPPORTED, reason=f"no Inductor backend for npu: {_WHY_NOT}")


@pytest.fixture(autouse=True)
def no_cpu_fallback():
    """Forbids the CPU fallback and starts every test from fresh Dynamo caches."""
    torch._dynamo.reset()
    old = torch.npu.get_fallback_mode()
    torch.npu.set_fallback_mode("error")
    torch.npu.reset_path_ledger()
    try:
        yield
        fell_back = {op for op, counts in torch.npu.path_ledger().items() if counts["cpu_fallback"]}
        assert not fell_back, f"ops ran through the CPU fallback: {sorted(fell_back)}"
    finally:
        torch.npu.set_fallback_mode(old)
        torch._dynamo.reset()


def _compiled_code(fn, *args):
    """fn's result and the Python wrapper code Inductor generated for it."""
    from torch._inductor.utils import run_and_get_code

    return run_and_get_code(fn, *args)


def _npu_kernel_names(code: str) -> list[str]:
    return [line.split(" = ")[0] for line in code.splitlines() if "= npu_host_kernel(async_compile" in line]


# ---------------------------------------------------------------------------------------------
# registration
# ---------------------------------------------------------------------------------------------

def test_backend_is_registered_for_npu():
    from torch._dynamo.device_interface import get_interface_for_device
    from torch._inductor.codegen.common import get_scheduling_for_device, init_backend_registration

    interface = get_interface_for_device("npu")
    assert interface.device_count() == torch.npu.device_count()
    assert interface.current_stream() == torch.npu.current_stream()
    assert get_interface_for_device("npu:0") is interface
    init_backend_registration()
    assert get_scheduling_for_device("npu") is torch.npu.Scheduling


@pytest.mark.slow
def test_cpp_wrapper_launches_kernels_on_the_stream():
    # The C++ wrapper (what AOTInductor generates too): extern kernels through the npu C shim,
    # C++ kernels queued on the stream, a 0-dim CPU tensor's value taken at the call.
    from torch._inductor import config

    def f(x, w, scale):
        return (x @ w).relu() * scale + 1

    x, w, scale = torch.randn(4, 8), torch.randn(8, 3), torch.tensor(3.0)
    with config.patch(cpp_wrapper=True):
        compiled = torch.compile(f, fullgraph=True)
        compiled(x.npu(), w.npu(), scale)
        xn, wn = x.npu(), w.npu()
        torch.npu._sleep(300_000_000)
        y = compiled(xn, wn, scale)
        assert not torch.npu.current_stream().query()
        scale.fill_(100.0)
    torch.testing.assert_close(y.cpu(), f(x, w, torch.tensor(3.0)))


_AOTI_RUNNER = torch.torch_version.TorchVersion(torch.__version__) >= (2, 13)


@pytest.mark.slow
@pytest.mark.skipif(not _AOTI_RUNNER, reason="the runtime registers its AOTInductor model runner from torch 2.13 "
                    "(NPU_HAS_AOTI_RUNNER_REGISTRY)")
def test_aoti_package_of_an_npu_model_runs_in_a_fresh_process(tmp_path):
    import subprocess

    torch.manual_seed(0)
    model = nn.Sequential(nn.Linear(8, 16), nn.GELU(), nn.Linear(16, 4), nn.Softmax(-1))
    x = torch.randn(5, 8)
    exported = torch.export.export(_copy(model).npu(), (x.npu(),))
    package = torch._inductor.aoti_compile_and_package(exported, package_path=str(tmp_path / "model.pt2"))
    torch.save({"x": x, "want": model(x).detach()}, tmp_path / "io.pt")
    code = f"""
import torch, opplugin_runtime
io = torch.load({str(tmp_path / "io.pt")!r})
runner = torch._inductor.aoti_load_package({package!r})
x = io["x"].npu()
runner(x)  # the first run copies the weights to the device
torch.npu.synchronize()
torch.npu._sleep(300_000_000)
out = runner(x)
out = out[0] if isinstance(out, (list, tuple)) else out
assert out.device.type == "npu", out.device
assert not torch.npu.current_stream().query(), "the model waited for the stream"
torch.testing.assert_close(out.cpu(), io["want"], rtol=1e-5, atol=1e-6)
print("ok")
"""
    result = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=600)
    assert result.returncode == 0 and result.stdout.strip().endswith("ok"), result.stderr[-3000:]


# ---------------------------------------------------------------------------------------------
# kernels: generated, launched on the stream, correct
# ---------------------------------------------------------------------------------------------

def test_fused_pointwise_and_reduction_match_cpu():
    def f(x, y):
        z = torch.sigmoid(x * y + 0.5) - y.abs()
        return z.sum(1), z.amax(0), torch.where(z > 0, z, z * 0.1)

    x, y = torch.randn(37, 129), torch.randn(37, 129)
    out, (code,) = _compiled_code(torch.compile(f, fullgraph=True), x.npu(), y.npu())
    assert _npu_kernel_names(code), code  # Inductor's own kernels, not an eager graph
    for got, want in zip(out, f(x, y)):
        assert got.device.type == "npu"
        torch.testing.assert_close(got.cpu(), want, rtol=1e-5, atol=1e-5)


def test_integer_and_half_kernels_match_cpu():
    def f(a, b, h):
        return (a * 3 + b) // 2, (h.float().exp() * 0.5).to(torch.float16)

    a, b = torch.randint(-50, 50, (257,)), torch.randint(1, 9, (257,))
    h = torch.randn(64, 3).to(torch.float16)
    got = torch.compile(f, fullgraph=True)(a.npu(), b.npu(), h.npu())
    for g, w in zip(got, f(a, b, h)):
        torch.testing.assert_close(g.cpu(), w)


def test_kernel_runs_on_the_stream_after_earlier_work_and_host_does_not_wait():
    def f(x):
        return (x * 2 + 1).sin()

    compiled = torch.compile(f, fullgraph=True)
    x = torch.ones(1 << 16, device="npu")
    compiled(x)  # compiles
    torch.npu.synchronize()
    stream = torch.npu.current_stream()
    torch.npu._sleep(400_000_000)  # the stream is busy for 0.4 s
    x.fill_(3.0)  # queued behind the sleep: the kernel must see it
    start = time.perf_counter()
    y = compiled(x)
    host_seconds = time.perf_counter() - start
    assert not stream.query(), "the compiled call waited for the stream"
    assert host_seconds < 0.2, host_seconds
    torch.testing.assert_close(y.cpu(), f(torch.full((1 << 16,), 3.0)))


def test_kernel_follows_the_current_stream():
    def f(x):
        return x.cos() * 3

    compiled = torch.compile(f, fullgraph=True)
    x = torch.randn(4096)
    compiled(x.npu())
    side = torch.npu.Stream()
    with torch.npu.stream(side):
        xs = x.npu()
        torch.npu._sleep(300_000_000)  # only the side stream is busy
        y = compiled(xs)
        assert not side.query()
        assert torch.npu.default_stream().query()
    side.synchronize()
    torch.testing.assert_close(y.cpu(), f(x))


@pytest.mark.skipif(torch.npu.device_count() < 2, reason="needs two npu devices")
def test_graph_on_the_second_device_runs_on_its_stream():
    def f(x, w):
        return ((x @ w) * 2).sin().sum(0)

    compiled = torch.compile(f, fullgraph=True)
    x, w = torch.randn(64, 16), torch.randn(16, 8)
    xs, ws = x.to("npu:1"), w.to("npu:1")
    compiled(xs, ws)
    torch.npu.synchronize(1)
    with torch.npu.device(1):
        torch.npu._sleep(300_000_000)
    y = compiled(xs, ws)  # the current device stays npu:0
    assert y.device == torch.device("npu", 1)
    assert not torch.npu.current_stream(1).query()
    assert torch.npu.current_stream(0).query()
    torch.testing.assert_close(y.cpu(), f(x, w), rtol=1e-4, atol=1e-4)


def test_intermediate_buffers_freed_while_queued_stay_valid():
    # The wrapper frees buf0.. as soon as its host code is done with them, long before the
    # queued kernels ran; their blocks are reused only by work queued behind those kernels.
    def f(x):
        a = torch.softmax(x, dim=-1)
        b = a @ x.t()
        c = torch.layer_norm(b, b.shape[-1:])
        return (c * a.sum(-1, keepdim=True)).relu()

    x = torch.randn(96, 96)
    compiled = torch.compile(f, fullgraph=True)
    compiled(x.npu())
    torch.npu.synchronize()
    xn = x.npu()
    torch.npu._sleep(200_000_000)
    outs = [compiled(xn) for _ in range(4)]
    for out in outs:
        torch.testing.assert_close(out.cpu(), f(x), rtol=1e-4, atol=1e-4)


def test_cpu_scalar_tensor_is_read_when_the_kernel_is_queued():
    # A 0-dim CPU tensor may enter an npu kernel; the kernel runs later, on the stream, so it
    # gets the tensor's value at the call (as eager would use it), not its address.
    def f(x, scale, shift):
        return x * scale + shift

    compiled = torch.compile(f, fullgraph=True)
    x = torch.randn(512)
    scale, shift = torch.tensor(3.0), torch.tensor(2, dtype=torch.int64)
    compiled(x.npu(), scale, shift)
    xn = x.npu()
    torch.npu._sleep(300_000_000)
    y = compiled(xn, scale, shift)
    scale.fill_(100.0)  # before the queued kernel ran
    shift.fill_(-7)
    torch.testing.assert_close(y.cpu(), x * 3.0 + 2)


def test_foreach_kernel_of_hundreds_of_tensors_compiles_and_matches_cpu():
    # An optimizer step's shape: one foreach kernel over every parameter takes hundreds of
    # pointers and a 0-dim CPU tensor read by value (its launch entry binds them all).
    xs = [torch.randn(3 + i % 5) for i in range(100)]
    ys = [torch.randn_like(x) for x in xs]
    scale = torch.tensor(0.25)

    def f(xs, ys, scale):
        return torch._foreach_add(torch._foreach_mul(xs, scale), ys)

    compiled = torch.compile(f, fullgraph=True)
    got, code = _compiled_code(compiled, [x.npu() for x in xs], [y.npu() for y in ys], scale)
    for g, want in zip(got, f(xs, ys, scale)):
        torch.testing.assert_close(g.cpu(), want)
    widest = max((line.count("*'") for c in code for line in c.splitlines() if "npu_host_kernel(" in line),
                 default=0)
    # torch 2.13's C++ backend puts the whole group in one kernel (as it does an Adam step's);
    # an older Inductor may cut it into several.
    if torch.torch_version.TorchVersion(torch.__version__) >= (2, 13):
        assert widest >= 200, f"expected one kernel over all 100 tensors, the widest took {widest} arguments"


def test_failing_kernel_is_reported_at_the_next_synchronisation_naming_it():
    def f(a, b):
        return a // b + 1

    a, b = torch.arange(10), torch.zeros(10, dtype=torch.long)
    with pytest.raises(RuntimeError, match="ZeroDivisionError"):
        f(a, b)
    y = torch.compile(f, fullgraph=True)(a.npu(), b.npu())  # queued: the host does not see it yet
    with pytest.raises(RuntimeError, match=r"kernel 'cpp_fused_\w+' failed: .*ZeroDivisionError"):
        y.cpu()
    assert torch.equal(torch.ones(3, device="npu").cpu(), torch.ones(3))  # the stream is usable again


def test_dropout_in_a_compiled_kernel():
    def f(x):
        return torch.nn.functional.dropout(x, 0.5, training=True) * 3

    compiled = torch.compile(f, fullgraph=True)
    x = torch.ones(20000, device="npu")
    first, second = compiled(x).cpu(), compiled(x).cpu()
    assert set(first.unique().tolist()) == {0.0, 6.0}
    assert 0.45 < (first == 0).float().mean().item() < 0.55
    assert not torch.equal(first, second)  # a new draw per call


@pytest.mark.skipif(not opplugin_runtime._C.device_activity_available(),
                    reason="device activity needs torch's PrivateUse1 profiler registry, absent in this torch")
def test_profiler_shows_the_generated_kernel_on_the_device():
    from torch.profiler import ProfilerActivity, profile

    compiled = torch.compile(lambda x: torch.tanh(x) + x, fullgraph=True)
    x = torch.randn(1000, device="npu")
    compiled(x)
    with profile(activities=[ProfilerActivity.CPU, ProfilerActivity.PrivateUse1]) as prof:
        compiled(x)
        torch.npu.synchronize()
    kernels = [e for e in prof.events() if e.device_type == torch.autograd.DeviceType.PrivateUse1]
    assert any(e.name.startswith("cpp_fused_") and e.device_index == 0 for e in kernels), [e.name for e in kernels]


def test_dynamic_shapes_compile_once_and_match_cpu():
    from torch._dynamo.testing import CompileCounterWithBackend

    counter = CompileCounterWithBackend("inductor")

    def f(x):
        return torch.nn.functional.gelu(x) * x.mean(0)

    compiled = torch.compile(f, backend=counter, dynamic=True, fullgraph=True)
    for rows in (5, 17, 33):
        x = torch.randn(rows, 24)
        torch.testing.assert_close(compiled(x.npu()).cpu(), f(x), rtol=1e-5, atol=1e-5)
    assert counter.frame_count == 1


def test_extern_mm_and_custom_op_in_one_graph():
    def f(a, b, w):
        return torch.ops.npu.npu_add_relu(a @ w, b, alpha=0.5) * 2

    a, b, w = torch.randn(16, 32), torch.randn(16, 8), torch.randn(32, 8)
    out, (code,) = _compiled_code(torch.compile(f, fullgraph=True), a.npu(), b.npu(), w.npu())
    assert "npu.npu_add_relu" in code and "extern_kernels.mm" in code, code
    torch.testing.assert_close(out.cpu(), torch.relu(a @ w + 0.5 * b) * 2, rtol=1e-5, atol=1e-5)


def test_graph_breaks_are_reported():
    def f(x):
        y = x.relu() + 1
        if y.sum().item() > 0:  # data-dependent branch: a graph break
            y = y * 2
        return y.exp()

    x = torch.randn(64)
    explanation = torch._dynamo.explain(f)(x.npu())
    assert explanation.graph_break_count >= 1
    assert explanation.break_reasons, explanation
    torch._dynamo.reset()
    torch.testing.assert_close(torch.compile(f)(x.npu()).cpu(), f(x))
    torch._dynamo.reset()  # the frames compiled above would be reused
    with pytest.raises((torch._dynamo.exc.Unsupported, torch._dynamo.exc.UserError)):
        torch.compile(f, fullgraph=True)(x.npu())


def test_training_step_of_a_small_mlp_matches_cpu():
    torch.manual_seed(0)
    model = nn.Sequential(nn.Linear(12, 32), nn.Tanh(), nn.Linear(32, 3))
    x, target = torch.randn(8, 12), torch.randint(0, 3, (8,))

    def run(device: str, compiled: bool) -> tuple[list[float], list[torch.Tensor]]:
        m = _copy(model).to(device)
        opt = torch.optim.SGD(m.parameters(), lr=0.1, momentum=0.9)
        loss_of = lambda a, b: nn.functional.cross_entropy(m(a), b)  # noqa: E731
        step = torch.compile(loss_of, fullgraph=True) if compiled else loss_of
        losses = []
        for _ in range(3):
            opt.zero_grad()
            loss = step(x.to(device), target.to(device))
            loss.backward()
            opt.step()
            losses.append(loss.item())
        return losses, [p.detach().cpu() for p in m.parameters()]

    npu_losses, npu_params = run("npu", True)
    cpu_losses, cpu_params = run("cpu", False)
    torch.testing.assert_close(npu_losses, cpu_losses, rtol=1e-5, atol=1e-6)
    for got, want in zip(npu_params, cpu_params):
        torch.testing.assert_close(got, want, rtol=1e-4, atol=1e-5)


def test_compiled_optimizer_step_matches_cpu():
    """torch.compile(opt.step) of Adam on npu parameters: the update is Inductor kernels on the
    stream (the step counters stay 0-dim CPU tensors, read by value), equal to eager Adam on the CPU."""
    torch.manual_seed(1)
    model = nn.Sequential(nn.Linear(6, 16), nn.ReLU(), nn.Linear(16, 2))
    grads = [[torch.randn_like(p) for p in model.parameters()] for _ in range(3)]

    def run(device: str, compiled: bool) -> list[torch.Tensor]:
        m = _copy(model).to(device)
        opt = torch.optim.Adam(m.parameters(), lr=0.01, weight_decay=0.1)
        step = torch.compile(opt.step) if compiled else opt.step
        for step_grads in grads:
            for p, g in zip(m.parameters(), step_grads):
                p.grad = g.to(device)
            step()
        return [p.detach().cpu() for p in m.parameters()]

    from torch._inductor.utils import run_and_get_code

    model_npu_params, code = run_and_get_code(run, "npu", True)
    assert any(_npu_kernel_names(c) for c in code), "the optimizer step ran no npu kernel"
    for got, want in zip(model_npu_params, run("cpu", False)):
        torch.testing.assert_close(got, want, rtol=1e-5, atol=1e-6)


def _copy(model: nn.Module) -> nn.Module:
    import copy

    return copy.deepcopy(model)


# ---------------------------------------------------------------------------------------------
# whole models: forward, backward and optimizer steps, compiled npu against eager npu and CPU
# ---------------------------------------------------------------------------------------------

STEPS = 4
# Relative tolerance of the losses and absolute tolerance of the trained weights against the CPU:
# the summation order (matmul, BatchNorm's batch statistics, softmax, layer norm) differs.
LOSS_RTOL = {"mlp": 1e-4, "cnn": 1e-3, "transformer": 1e-3, "resnet_block": 1e-3, "encoder": 1e-3}
WEIGHT_ATOL = 1e-4


class ResNetBlock(nn.Module):
    """A basic residual block with a projection shortcut, then a classifier head."""

    def __init__(self) -> None:
        super().__init__()
        self.conv1 = nn.Conv2d(3, 16, 3, stride=2, padding=1, bias=False)
        self.bn1 = nn.BatchNorm2d(16)
        self.conv2 = nn.Conv2d(16, 16, 3, padding=1, bias=False)
        self.bn2 = nn.BatchNorm2d(16)
        self.short = nn.Sequential(nn.Conv2d(3, 16, 1, stride=2, bias=False), nn.BatchNorm2d(16))
        self.head = nn.Linear(16, 10)

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        y = torch.relu(self.bn1(self.conv1(x)))
        y = torch.relu(self.bn2(self.conv2(y)) + self.short(x))
        return self.head(y.mean((2, 3)))


class Encoder(nn.Module):
    def __init__(self) -> None:
        super().__init__()
        layer = nn.TransformerEncoderLayer(d_model=32, nhead=4, dim_feedforward=64, dropout=0.0, batch_first=True)
        self.encoder = nn.TransformerEncoder(layer, num_layers=2, enable_nested_tensor=False)
        self.head = nn.Linear(32, 5)

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        return self.head(self.encoder(x).mean(1))


def _task(name: str):
    if name in npu_models.TASKS:
        task = npu_models.TASKS[name]
        return task.model, task.data, task.loss

    def data(steps: int):
        g = torch.Generator().manual_seed(1)
        shape = (8, 3, 16, 16) if name == "resnet_block" else (6, 10, 32)
        classes = 10 if name == "resnet_block" else 5
        return [(torch.randn(*shape, generator=g), torch.randint(0, classes, (shape[0],), generator=g))
                for _ in range(steps)]

    def model(seed: int):
        torch.manual_seed(seed)
        return ResNetBlock() if name == "resnet_block" else Encoder()

    return model, data, nn.functional.cross_entropy


def _train(name: str, device: str, compiled: bool, dynamic: bool | None = None):
    make, data, loss_fn = _task(name)
    model = make(0).to(device)
    for module in model.modules():  # the npu and CPU generators draw different dropout masks
        if isinstance(module, nn.Dropout):
            module.eval()
    # SGD: Adam would turn the rounding noise of a gradient that is zero in exact arithmetic (a
    # convolution bias before BatchNorm) into full lr-sized steps of either sign.
    opt = torch.optim.SGD(model.parameters(), lr=0.05, momentum=0.9)
    loss_of = lambda x, y: loss_fn(model(x), y)  # noqa: E731
    step = torch.compile(loss_of, fullgraph=True, dynamic=dynamic) if compiled else loss_of
    losses = []
    for x, y in data(STEPS):
        opt.zero_grad()
        loss = step(x.to(device), y.to(device))
        loss.backward()
        opt.step()
        losses.append(loss.item())
    return losses, [p.detach().cpu() for p in model.parameters()]


@pytest.mark.slow
@pytest.mark.parametrize("name", ["mlp", "cnn", "transformer", "resnet_block", "encoder"])
def test_compiled_training_matches_eager_npu_and_cpu(name):
    if name in ("cnn", "resnet_block") and not any(
            torch._C._dispatch_has_kernel_for_dispatch_key(f"aten::{op}", "PrivateUse1")
            for op in ("convolution_overrideable", "convolution")):
        pytest.skip("this build has no npu convolution")
    compiled_losses, compiled_params = _train(name, "npu", compiled=True)
    eager_losses, eager_params = _train(name, "npu", compiled=False)
    cpu_losses, cpu_params = _train(name, "cpu", compiled=False)
    rtol = LOSS_RTOL[name]
    torch.testing.assert_close(compiled_losses, cpu_losses, rtol=rtol, atol=0.0)
    torch.testing.assert_close(compiled_losses, eager_losses, rtol=rtol, atol=0.0)
    for got, eager, want in zip(compiled_params, eager_params, cpu_params):
        torch.testing.assert_close(got, want, rtol=0.0, atol=WEIGHT_ATOL)
        torch.testing.assert_close(got, eager, rtol=0.0, atol=WEIGHT_ATOL)


@pytest.mark.slow
def test_compiled_training_with_dynamic_shapes_matches_cpu():
    compiled_losses, compiled_params = _train("mlp", "npu", compiled=True, dynamic=True)
    cpu_losses, cpu_params = _train("mlp", "cpu", compiled=False)
    torch.testing.assert_close(compiled_losses, cpu_losses, rtol=1e-4, atol=0.0)
    for got, want in zip(compiled_params, cpu_params):
        torch.testing.assert_close(got, want, rtol=0.0, atol=WEIGHT_ATOL)
