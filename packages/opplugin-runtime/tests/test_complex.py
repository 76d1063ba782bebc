"""complex64/complex128 tensors on npu: copies, casts, fill, views and the FFT, with no CPU fallback."""

import warnings

import pytest
import torch


@pytest.fixture
def no_fallback():
    mode = torch.npu.get_fallback_mode()
    torch.npu.set_fallback_mode("error")
    yield
    torch.npu.set_fallback_mode(mode)


@pytest.mark.parametrize("dtype", [torch.complex64, torch.complex128])
def test_copies_casts_and_views(no_fallback, dtype):
    a = torch.randn(4, 6, dtype=dtype)
    n = a.npu()
    assert torch.equal(n.cpu(), a)
    assert torch.equal(n.t().contiguous().cpu(), a.t().contiguous())
    assert torch.equal(n[:, ::2].clone().cpu(), a[:, ::2])
    assert torch.equal(n.to(torch.complex128 if dtype == torch.complex64 else torch.complex64).cpu(),
                       a.to(torch.complex128 if dtype == torch.complex64 else torch.complex64))
    assert torch.equal(a.real.npu().to(dtype).cpu(), a.real.to(dtype))
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # ATen's warning, once per process (TORCH_WARN_ONCE)
        real = n.to(torch.float32)
    assert torch.equal(real.cpu(), a.real.float())
    assert torch.equal(torch.view_as_real(n).cpu(), torch.view_as_real(a))
    assert torch.equal(torch.view_as_complex(torch.view_as_real(n)).cpu(), a)
    assert torch.equal(n.imag.cpu(), a.imag)
    filled = torch.empty(3, 5, dtype=dtype, device="npu").fill_(2 - 1j)
    assert torch.equal(filled.cpu(), torch.full((3, 5), 2 - 1j, dtype=dtype))
    assert torch.equal(torch.conj_physical(n).cpu(), torch.conj_physical(a))


def test_fft_functions_match_cpu(no_fallback, assert_same):
    x = torch.randn(3, 10, 7)
    for fn, arg in [(torch.fft.fft, x), (torch.fft.rfft, x), (torch.fft.irfft, torch.fft.rfft(x)),
                    (torch.fft.fftn, x), (torch.fft.ihfft, x), (torch.fft.hfft, x.to(torch.complex64)),
                    (lambda t: torch.fft.ifft2(t, norm="ortho"), x.to(torch.complex64))]:
        torch.testing.assert_close(fn(arg.npu()).cpu(), fn(arg), rtol=1e-4, atol=1e-5)


def test_fft_backward_matches_cpu(assert_same):
    x = torch.randn(4, 9, requires_grad=True)
    xn = x.detach().npu().requires_grad_()
    torch.fft.irfft(torch.fft.rfft(x), n=9).pow(2).sum().backward()
    torch.fft.irfft(torch.fft.rfft(xn), n=9).pow(2).sum().backward()
    torch.testing.assert_close(xn.grad.cpu(), x.grad, rtol=1e-4, atol=1e-5)


def test_complex_arithmetic_and_errors(no_fallback):
    a, b = torch.randn(3, 4, dtype=torch.complex64), torch.randn(4, dtype=torch.complex64)
    for fn in (torch.add, torch.sub, torch.mul, torch.div):
        torch.testing.assert_close(fn(a.npu(), b.npu()).cpu(), fn(a, b))
    torch.testing.assert_close((a.npu() * (1 - 2j)).cpu(), a * (1 - 2j))
    torch.testing.assert_close(torch.abs(a.npu()).cpu(), torch.abs(a))
    torch.testing.assert_close(torch.exp(a.npu()).cpu(), torch.exp(a))
    with pytest.raises(RuntimeError, match="Expected object of scalar type Float but got scalar type Double"):
        torch.complex(torch.ones(2, device="npu"), torch.ones(2, device="npu", dtype=torch.float64))
