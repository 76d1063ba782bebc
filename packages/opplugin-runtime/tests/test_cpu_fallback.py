"""Ops without an npu kernel run on the CPU: warned once per op, counted in the
ledger, forbidden with NPU_FALLBACK=error, and random ops use npu generators.

The ops used here have no npu kernel in any label and no composite form that would run others
instead: linalg.matrix_exp, cholesky_inverse, linalg.solve_triangular and poisson (random)."""

import re

import pytest
import torch


def test_fallback_result_matches_cpu_and_is_counted(ledger, assert_same):
    a = torch.rand(3, 3) + torch.eye(3) * 3
    assert_same(torch.linalg.matrix_exp(a.npu()), torch.linalg.matrix_exp(a))
    assert_same(torch.cholesky_inverse(a.npu()), torch.cholesky_inverse(a))
    assert ledger()["linalg_matrix_exp"]["cpu_fallback"] == 1


def test_fallback_mutating_op_writes_back(assert_same):
    a = torch.randn(5)
    n = a.npu()
    n.clamp_(min=0.0)
    assert_same(n, a.clamp(min=0.0))


def test_fallback_warns_once_per_op(run_python):
    result = run_python(
        """
        import warnings
        import torch, opplugin_runtime
        a = torch.eye(3).npu()
        with warnings.catch_warnings(record=True) as caught:
            warnings.simplefilter("always")
            torch.linalg.matrix_exp(a); torch.linalg.matrix_exp(a); torch.cholesky_inverse(a)
        print(sorted(str(w.message).split("'")[1] for w in caught if "falls back" in str(w.message)))
        """
    )
    assert result.returncode == 0, result.stderr
    assert result.stdout.strip().splitlines()[-1] == "['cholesky_inverse', 'linalg_matrix_exp']"


def test_fallback_error_mode_env(run_python):
    result = run_python(
        """
        import torch, opplugin_runtime
        a = torch.randn(3).npu()
        print((a + a).cpu().shape)   # native ops still run
        try:
            torch.linalg.matrix_exp(a.view(3, 1) * a)
        except NotImplementedError as error:
            print("ERROR:", str(error).splitlines()[0])
        """,
        env={"NPU_FALLBACK": "error"},
    )
    assert result.returncode == 0, result.stderr
    lines = result.stdout.strip().splitlines()
    assert lines[0] == "torch.Size([3])"
    assert lines[1].startswith("ERROR: The operator 'linalg_matrix_exp' has no npu kernel")


def test_fallback_error_mode_api():
    torch.npu.set_fallback_mode("error")
    with pytest.raises(NotImplementedError, match="NPU_FALLBACK=error"):
        torch.linalg.matrix_exp(torch.ones(2, 2, device="npu"))


def test_fallback_rejects_mixed_devices_but_allows_cpu_scalars(assert_same):
    n = torch.randn(3).npu()
    with pytest.raises(RuntimeError, match="Expected all tensors to be on the same device"):
        torch.atan2(n, torch.randn(3))
    assert_same(torch.atan2(n, torch.tensor(2.0)), torch.atan2(n.cpu(), torch.tensor(2.0)))


def test_random_ops_without_npu_kernels_fall_back_with_the_npu_generator(ledger):
    # poisson has no npu kernel: the fallback hands the CPU kernel a CPU generator
    # seeded from the npu generator's next (seed, offset), which it consumes.
    g = torch.Generator(device="npu")
    assert g.device == torch.device("npu:0")
    rates = torch.full((16,), 50.0, device="npu")
    g.manual_seed(1234)
    first = torch.poisson(rates, generator=g)
    assert int.from_bytes(bytes(g.get_state()[8:].tolist()), "little") == 1
    second = torch.poisson(rates, generator=g)
    g.manual_seed(1234)
    again = torch.poisson(rates, generator=g)
    assert torch.equal(first.cpu(), again.cpu())
    assert not torch.equal(first.cpu(), second.cpu())
    assert (first.cpu() > 0).all()
    assert ledger()["poisson"]["cpu_fallback"] == 3


def test_manual_seed_controls_default_generator():
    torch.manual_seed(7)
    a = torch.rand(5, device="npu")
    torch.npu.manual_seed(7)
    b = torch.rand(5, device="npu")
    assert torch.equal(a.cpu(), b.cpu())
    state = torch.npu.get_rng_state()
    c = torch.rand(5, device="npu")
    torch.npu.set_rng_state(state)
    d = torch.rand(5, device="npu")
    assert torch.equal(c.cpu(), d.cpu())
    assert torch.npu.initial_seed() == 7


# --- CPU fallback polish ---


@pytest.mark.parametrize(
    ("call", "op", "argument", "other"),
    [
        (lambda n: torch.linalg.solve_triangular(torch.eye(3, device="npu"), torch.randn(3, 2), upper=True,
                                                 out=torch.empty(3, 2, device="npu")),
         "linalg_solve_triangular.out", "B", "cpu"),
        (lambda n: torch.ops.aten._histogramdd_from_bin_tensors(n.view(3, 1), [torch.linspace(-3, 3, 5)]),
         "_histogramdd_from_bin_tensors", "bins", "cpu"),  # a CPU tensor inside a TensorList
        (lambda n: torch.linalg.solve_triangular(torch.eye(3, device="npu"), torch.randn(3, 2), upper=True),
         "linalg_solve_triangular", "B", "cpu"),
        (lambda n: torch.cholesky_inverse(torch.eye(3, device="npu"), out=torch.empty(3, 3, device="npu:1")),
         "cholesky_inverse.out", "out", "npu:1"),
        (lambda n: n + torch.randn(3), "add", "other", "cpu"),  # an op with an npu kernel rejects it too
    ],
    ids=["fallback-out", "fallback-list", "fallback-functional", "two-npu-devices", "npu-kernel"],
)
def test_mixed_devices_are_rejected_naming_the_op(ledger, call, op, argument, other):
    """The op's name first, then torch's own device check (its form differs between releases:
    2.1 "found at least two devices, npu:0 and cpu! (when checking argument for argument other ...)",
    2.13 "got other is on cpu, different from other tensors on npu:0")."""
    n = torch.randn(3).npu()
    with pytest.raises(RuntimeError) as error:
        call(n)
    first = str(error.value).splitlines()[0]
    assert first.startswith(f"{op}: Expected all tensors to be on the same device"), first
    assert re.search(rf"for argument {argument}\b|got {argument} is on", first), first
    assert "npu:0" in first and other in first, first
    assert ledger().get(op, {}).get("cpu_fallback", 0) == 0, ledger()  # rejected before counting a fallback


def test_fallback_ledger_counts_every_call_and_not_refused_ones(ledger):
    n = torch.eye(4).npu()
    for _ in range(5):
        torch.linalg.matrix_exp(n)
    assert ledger()["linalg_matrix_exp"] == {"op_api": 0, "acl_op": 0, "compat": 0, "cpu_fallback": 5, "dvm": 0}
    torch.npu.set_fallback_mode("error")
    with pytest.raises(NotImplementedError, match=r"'linalg_matrix_exp' has no npu kernel"):
        torch.linalg.matrix_exp(n)
    assert ledger()["linalg_matrix_exp"]["cpu_fallback"] == 5  # a refused fallback ran nothing on the CPU


def test_fallback_mode_api_round_trip_and_validation():
    for mode in ("warn", "silent", "error"):
        torch.npu.set_fallback_mode(mode)
        assert torch.npu.get_fallback_mode() == mode
    with pytest.raises(Exception, match="bogus"):
        torch.npu.set_fallback_mode("bogus")


def test_fallback_warn_mode_set_from_python_warns_once_per_op(run_python):
    result = run_python(
        """
        import warnings
        import torch, opplugin_runtime
        torch.npu.set_fallback_mode("silent")
        a = torch.eye(3).npu()
        torch.linalg.matrix_exp(a)        # silent: no warning, and matrix_exp is not marked as warned
        torch.npu.set_fallback_mode("warn")
        with warnings.catch_warnings(record=True) as caught:
            warnings.simplefilter("always")
            for _ in range(3):
                torch.linalg.matrix_exp(a); torch.cholesky_inverse(a)
        texts = [str(w.message) for w in caught if "falls back" in str(w.message)]
        print(len(texts), sorted(t.split("'")[1] for t in texts))
        print(all("NPU_FALLBACK=error" in t for t in texts))
        print(torch.npu.path_ledger()["linalg_matrix_exp"]["cpu_fallback"])
        """
    )
    assert result.returncode == 0, result.stderr
    assert result.stdout.strip().splitlines()[-3:] == ["2 ['cholesky_inverse', 'linalg_matrix_exp']", "True", "4"]


def test_unknown_fallback_env_value_warns_and_uses_warn(run_python):
    result = run_python(
        """
        import torch, opplugin_runtime
        print(torch.npu.get_fallback_mode())
        """,
        env={"NPU_FALLBACK": "bogus"},
    )
    assert result.returncode == 0, result.stderr
    assert result.stdout.strip().splitlines()[-1] == "warn"
    assert "NPU_FALLBACK='bogus' is not one of warn, silent, error" in result.stderr
