"""add.Tensor / add.out / add_.Tensor on both paths, compared with CPU."""

import pytest
import torch

CASES = [
    # (self, other, alpha)
    (torch.randn(4, 5), torch.randn(4, 5), 1),
    (torch.randn(4, 5), torch.randn(4, 5), 2.5),
    (torch.randn(4, 1), torch.randn(1, 5), -1),  # broadcasting
    (torch.randn(3, 4), torch.randn(4), 0.5),
    (torch.randint(-9, 9, (6,)), torch.randint(-9, 9, (6,)), 3),  # integral with integral alpha
    (torch.randint(-9, 9, (6,), dtype=torch.int32), torch.randn(6), 1),  # promotion int32 + float32
    (torch.randn(5).half(), torch.randn(5).double(), 1),  # float16 + float64 -> float64
    (torch.randint(0, 5, (4,), dtype=torch.uint8), torch.randint(0, 5, (4,), dtype=torch.int16), 2),
    (torch.tensor([True, False, True]), torch.tensor([False, False, True]), True),
]


@pytest.fixture(params=[False, True], ids=["op_api", "acl_op"])
def jit_compile(request):
    torch.npu.set_compile_mode(jit_compile=request.param)
    return request.param


@pytest.mark.parametrize("case", range(len(CASES)))
def test_add_functional(case, jit_compile, assert_same):
    a, b, alpha = CASES[case]
    assert_same(torch.add(a.npu(), b.npu(), alpha=alpha), torch.add(a, b, alpha=alpha))


@pytest.mark.parametrize("case", range(len(CASES)))
def test_add_out(case, jit_compile, assert_same):
    a, b, alpha = CASES[case]
    expected = torch.add(a, b, alpha=alpha)
    out = torch.empty(0, dtype=expected.dtype, device="npu")
    torch.add(a.npu(), b.npu(), alpha=alpha, out=out)
    assert_same(out, expected)


def test_add_out_non_contiguous_and_wider_dtype(jit_compile, assert_same):
    a, b = torch.randn(3, 4), torch.randn(3, 4)
    out = torch.zeros(4, 6, device="npu").t()[::2]
    torch.add(a.npu(), b.npu(), out=out)
    assert_same(out, a + b)
    wide = torch.empty(3, 4, dtype=torch.float64, device="npu")
    torch.add(a.npu(), b.npu(), alpha=2, out=wide)
    assert_same(wide, torch.add(a, b, alpha=2).double())
    with pytest.raises(RuntimeError, match="can't be cast to the desired output type"):
        torch.add(a.npu(), b.npu(), out=torch.empty(3, 4, dtype=torch.int64, device="npu"))


@pytest.mark.parametrize("case", [0, 1, 3, 4, 6])
def test_add_inplace(case, jit_compile, assert_same):
    a, b, alpha = CASES[case]
    n = a.npu()
    n.add_(b.npu(), alpha=alpha)
    c = a.clone()
    c.add_(b, alpha=alpha)
    assert_same(n, c)


def test_add_inplace_rejects_like_cpu(jit_compile):
    with pytest.raises(RuntimeError, match="doesn't match the broadcast shape"):
        torch.ones(4, device="npu").add_(torch.ones(3, 4, device="npu"))
    with pytest.raises(RuntimeError, match="can't be cast to the desired output type"):
        torch.ones(4, dtype=torch.int64, device="npu").add_(torch.ones(4, device="npu"))


def test_add_cpu_scalars(jit_compile, assert_same):
    a = torch.randn(3, 4)
    i = torch.arange(6)
    assert_same(a.npu() + 2.5, a + 2.5)
    assert_same(i.npu() + 2.5, i + 2.5)  # wrapped float promotes int64 to the default dtype
    assert_same(i.npu() + 3, i + 3)
    assert_same(torch.add(a.npu(), torch.tensor(1.5), alpha=2), torch.add(a, torch.tensor(1.5), alpha=2))
    assert_same(torch.add(torch.tensor(1.5), a.npu()), torch.add(torch.tensor(1.5), a))
    assert_same(a.npu().add_(2), a.clone().add_(2))


def test_add_alpha_checks(jit_compile):
    with pytest.raises(RuntimeError, match="alpha must not be a floating point number"):
        torch.add(
            torch.ones(2, dtype=torch.int64, device="npu"), torch.ones(2, dtype=torch.int64, device="npu"), alpha=0.5
        )


def test_add_rejects_mixed_devices(jit_compile):
    with pytest.raises(RuntimeError, match="Expected all tensors to be on the same device"):
        torch.add(torch.ones(3, device="npu"), torch.ones(3))
    with pytest.raises(RuntimeError, match="Expected all tensors to be on the same device"):
        torch.add(torch.ones(3, device="npu:0"), torch.ones(3, device="npu:1"))


def test_add_on_second_device(jit_compile):
    a, b = torch.randn(4), torch.randn(4)
    result = torch.add(a.to("npu:1"), b.to("npu:1"), alpha=2)
    assert result.device == torch.device("npu:1")
    torch.testing.assert_close(result.cpu(), torch.add(a, b, alpha=2))
