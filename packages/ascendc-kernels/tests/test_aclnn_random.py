"""aclnnInplaceUniform, aclnnInplaceNormal, aclnnInplaceBernoulli(Tensor), aclnnDropoutGenMask,
aclnnDropoutDoMask and aclnnMaskedScale: counter-based Philox4x32-10 keyed by (seed, offset)."""

from __future__ import annotations

import os
import subprocess
import sys

import ascendc_kernels_testing as sim
import numpy as np
import pytest
from ascendc_kernels_testing import from_device, to_device

FLOAT_TYPES = {"float32": sim.ACL_FLOAT, "float16": sim.ACL_FLOAT16, "bfloat16": sim.ACL_BF16,
               "float64": sim.ACL_DOUBLE}
N = 200_000  # several blocks on a multi-core simulator (blocks hold >= 64 KiB)


def uniform(n, acl_type, lo, hi, seed, offset, **view):
    y = sim.DeviceArray.empty((n,), acl_type)
    sim.check(sim.run_aclnn("aclnnInplaceUniform", y.tensor(**view), lo, hi, seed, offset))
    return from_device(y).astype(np.float64)


def normal(n, acl_type, mean, std, seed, offset):
    y = sim.DeviceArray.empty((n,), acl_type)
    sim.check(sim.run_aclnn("aclnnInplaceNormal", y.tensor(), mean, std, seed, offset))
    return from_device(y).astype(np.float64)


def test_philox_reference_matches_the_random123_known_answers():
    counters = np.array([[0, 0, 0, 0], [0xFFFFFFFF] * 4, [0x243F6A88, 0x85A308D3, 0x13198A2E, 0x03707344]],
                        dtype=np.uint32)
    got = [sim.philox4x32_10(counters[i:i + 1], key)[0].tolist()
           for i, key in enumerate([(0, 0), (0xFFFFFFFF, 0xFFFFFFFF), (0xA4093822, 0x299F31D0)])]
    assert got == [[0x6627E8D5, 0xE169C58D, 0xBC57AC4C, 0x9B00DBD8],
                   [0x408F276D, 0x41C83B0E, 0xA20BC7C6, 0x6D5451FD],
                   [0xD16CFE09, 0x94FDCCEB, 0x5001E420, 0x24126EA1]]


def test_uniform_float32_and_float64_equal_the_reference_bit_for_bit(acl):
    seed, offset, lo, hi = 0x1234_5678_9ABC, 7, -2.0, 3.0
    blocks = sim.philox_blocks(N, seed, offset).astype(np.uint64)
    u32 = (blocks[:, 0] >> np.uint64(8)).astype(np.float64) * 2.0**-24
    expected32 = (lo + u32 * (hi - lo)).astype(np.float32)
    expected32[expected32 >= hi] = lo
    np.testing.assert_array_equal(uniform(N, sim.ACL_FLOAT, lo, hi, seed, offset), expected32)
    u64 = ((blocks[:, 0] << np.uint64(32) | blocks[:, 1]) >> np.uint64(11)).astype(np.float64) * 2.0**-53
    np.testing.assert_array_equal(uniform(N, sim.ACL_DOUBLE, lo, hi, seed, offset), lo + u64 * (hi - lo))


@pytest.mark.parametrize("dtype", list(FLOAT_TYPES))
def test_uniform_stays_in_range_with_the_moments_of_u(acl, dtype):
    lo, hi = -1.5, 2.5
    values = uniform(N, FLOAT_TYPES[dtype], lo, hi, 42, 0)
    assert values.min() >= lo and values.max() < hi
    sigma = (hi - lo) / np.sqrt(12)
    assert abs(values.mean() - (lo + hi) / 2) < 5 * sigma / np.sqrt(N)
    assert abs(values.std() - sigma) < 0.01 * sigma
    # every tenth of the range gets its share (a stuck or periodic generator would not)
    counts = np.histogram(values, bins=10, range=(lo, hi))[0]
    assert np.all(np.abs(counts - N / 10) < 5 * np.sqrt(N / 10))


def test_uniform_is_a_function_of_seed_and_offset(acl):
    a = uniform(4096, sim.ACL_FLOAT, 0.0, 1.0, 5, 3)
    np.testing.assert_array_equal(a, uniform(4096, sim.ACL_FLOAT, 0.0, 1.0, 5, 3))
    for other in (uniform(4096, sim.ACL_FLOAT, 0.0, 1.0, 6, 3), uniform(4096, sim.ACL_FLOAT, 0.0, 1.0, 5, 4)):
        assert np.mean(a == other) < 0.01
    # the first elements of a longer launch are the elements of a shorter one
    np.testing.assert_array_equal(uniform(100, sim.ACL_FLOAT, 0.0, 1.0, 5, 3), a[:100])


def test_uniform_into_a_strided_view_numbers_the_elements_of_the_view(acl):
    dense = uniform(12, sim.ACL_FLOAT, 0.0, 1.0, 9, 1)
    y = sim.DeviceArray.empty((3, 4), sim.ACL_FLOAT)
    sim.check(sim.run_aclnn("aclnnInplaceUniform", y.tensor(shape=(4, 3), strides=(1, 4)), 0.0, 1.0, 9, 1))
    np.testing.assert_array_equal(y.to_numpy().T.reshape(-1), dense)


def test_values_do_not_depend_on_the_core_count(acl):
    script = (
        "import hashlib, numpy as np\n"
        "import ascendc_kernels_testing as sim\n"
        "sim.check(sim.load().aclInit(None))\n"
        "y = sim.DeviceArray.empty((300_001,), sim.ACL_FLOAT)\n"
        "sim.check(sim.run_aclnn('aclnnInplaceNormal', y.tensor(), 0.0, 1.0, 11, 2))\n"
        "m = sim.DeviceArray.empty((300_032 // 8,), sim.ACL_UINT8)\n"
        "sim.check(sim.run_aclnn('aclnnDropoutGenMask', sim.IntArray([300_001]), 0.25, 11, 2, m.tensor()))\n"
        "digest = hashlib.sha256(y.to_numpy().tobytes() + m.to_numpy().tobytes()).hexdigest()\n"
        "print(sim.load().aclsimGetCoreNumAiv(), digest)\n"
    )
    digests = set()
    for cores in ("1", "3", "8"):
        env = dict(os.environ, ASCEND_SIM_AICORE_NUM=cores)
        out = subprocess.run([sys.executable, "-c", script], env=env, capture_output=True, text=True, timeout=120)
        assert out.returncode == 0, out.stderr
        reported, digest = out.stdout.split()
        assert reported == cores
        digests.add(digest)
    assert len(digests) == 1


@pytest.mark.parametrize("dtype", list(FLOAT_TYPES))
def test_normal_has_the_requested_moments(acl, dtype):
    mean, std = 1.5, 2.0
    values = normal(N, FLOAT_TYPES[dtype], mean, std, 3, 0)
    assert abs(values.mean() - mean) < 5 * std / np.sqrt(N)
    assert abs(values.std() - std) < 0.01 * std
    # tails: P(|z| > 2) = 4.55 %
    tail = np.mean(np.abs(values - mean) > 2 * std)
    assert abs(tail - 0.0455) < 0.004
    np.testing.assert_array_equal(values, normal(N, FLOAT_TYPES[dtype], mean, std, 3, 0))
    assert np.mean(values == normal(N, FLOAT_TYPES[dtype], mean, std, 3, 1)) < 0.01


def test_normal_rejects_a_negative_std_and_integral_tensors(acl):
    y = sim.DeviceArray.empty((4,), sim.ACL_FLOAT)
    rc, _, _ = sim.aclnn_workspace("aclnnInplaceNormal", y.tensor(), 0.0, -1.0, 0, 0)
    assert rc == sim.ACLNN_ERR_PARAM_INVALID
    assert "std must be >= 0" in sim.recent_error()
    i = sim.DeviceArray.empty((4,), sim.ACL_INT32)
    rc, _, _ = sim.aclnn_workspace("aclnnInplaceUniform", i.tensor(), 0.0, 1.0, 0, 0)
    assert rc == sim.ACLNN_ERR_PARAM_INVALID
    assert sim.recent_error().startswith("aclnnInplaceUniform: selfRef has dtype ACL_INT32")
    rc, _, _ = sim.aclnn_workspace("aclnnInplaceUniform", y.tensor(), 2.0, 1.0, 0, 0)
    assert rc == sim.ACLNN_ERR_PARAM_INVALID
    assert "from <= to" in sim.recent_error()


@pytest.mark.parametrize("acl_type", [sim.ACL_FLOAT, sim.ACL_FLOAT16, sim.ACL_BF16, sim.ACL_DOUBLE, sim.ACL_INT32,
                                      sim.ACL_INT64, sim.ACL_UINT8, sim.ACL_BOOL])
def test_bernoulli_with_a_scalar_probability_equals_the_reference(acl, acl_type):
    p, seed, offset = 0.3, 77, 5
    y = sim.DeviceArray.empty((N,), acl_type)
    sim.check(sim.run_aclnn("aclnnInplaceBernoulli", y.tensor(), sim.Scalar(p), seed, offset))
    words = sim.philox_blocks(N, seed, offset)[:, 0].astype(np.float64)
    expected = words * 2.0**-32 < p
    got = from_device(y)
    np.testing.assert_array_equal(got.astype(np.float64), expected.astype(np.float64))
    assert abs(got.astype(np.float64).mean() - p) < 5 * np.sqrt(p * (1 - p) / N)


def test_bernoulli_probability_zero_and_one_and_out_of_range(acl):
    y = sim.DeviceArray.empty((1000,), sim.ACL_FLOAT)
    sim.check(sim.run_aclnn("aclnnInplaceBernoulli", y.tensor(), sim.Scalar(0.0), 1, 0))
    assert not y.to_numpy().any()
    sim.check(sim.run_aclnn("aclnnInplaceBernoulli", y.tensor(), sim.Scalar(1), 1, 0))
    assert (y.to_numpy() == 1).all()
    rc, _, _ = sim.aclnn_workspace("aclnnInplaceBernoulli", y.tensor(), sim.Scalar(1.5), 1, 0)
    assert rc == sim.ACLNN_ERR_PARAM_INVALID
    assert "prob must be in [0, 1], got 1.5" in sim.recent_error()


@pytest.mark.parametrize("prob_type", [sim.ACL_FLOAT, sim.ACL_FLOAT16, sim.ACL_DOUBLE])
def test_bernoulli_with_tensor_probabilities_broadcast_per_column(acl, prob_type):
    rows, probs = 40_000, np.array([0.0, 0.1, 0.5, 0.9, 1.0], dtype=np.float32)
    p = to_device(probs.reshape(1, -1), prob_type)
    y = sim.DeviceArray.empty((rows, probs.size), sim.ACL_FLOAT16)
    sim.check(sim.run_aclnn("aclnnInplaceBernoulliTensor", y.tensor(), p.tensor(), 4, 0))
    freq = from_device(y).astype(np.float64).mean(axis=0)
    assert freq[0] == 0 and freq[-1] == 1
    np.testing.assert_allclose(freq, probs, atol=5 * np.sqrt(0.25 / rows))
    words = sim.philox_blocks(rows * probs.size, 4, 0)[:, 0].astype(np.float64).reshape(rows, -1)
    expected = words * 2.0**-32 < sim.round_to(probs, prob_type).astype(np.float64)  # p as stored
    np.testing.assert_array_equal(from_device(y), expected.astype(np.float32))


def test_bernoulli_tensor_reports_an_invalid_probability_at_synchronisation(acl, stream):
    p = to_device(np.array([0.5, 1.5, 0.2], dtype=np.float32), sim.ACL_FLOAT)
    y = sim.DeviceArray.empty((3,), sim.ACL_FLOAT)
    rc = sim.run_aclnn("aclnnInplaceBernoulliTensor", y.tensor(), p.tensor(), 0, 0, stream=stream)
    sync = acl.aclrtSynchronizeStream(stream)
    assert rc != 0 or sync != 0
    assert "probability 1.5 of element 1 is outside [0, 1]" in sim.recent_error()


def gen_mask(numel, prob, seed, offset):
    m = sim.DeviceArray.empty(((numel + 127) // 128 * 16,), sim.ACL_UINT8)
    sim.check(sim.run_aclnn("aclnnDropoutGenMask", sim.IntArray([numel]), prob, seed, offset, m.tensor()))
    return m


def test_dropout_gen_mask_bits_equal_the_reference(acl):
    numel, prob = 100_003, 0.25
    m = gen_mask(numel, prob, 123, 9)
    bits = np.unpackbits(m.to_numpy(), bitorder="little")
    words = sim.philox_blocks(numel, 123, 9)[:, 0].astype(np.float64)
    np.testing.assert_array_equal(bits[:numel], (words * 2.0**-32 < 1 - prob).astype(np.uint8))
    assert not bits[numel:].any()
    assert abs(bits[:numel].mean() - (1 - prob)) < 5 * np.sqrt(prob * (1 - prob) / numel)


@pytest.mark.parametrize("dtype", ["float32", "float16", "bfloat16"])
def test_dropout_do_mask_keeps_and_scales_the_masked_elements(acl, dtype):
    acl_type, numel, prob = FLOAT_TYPES[dtype], 5000, 0.4
    x_host = sim.random_values((50, 100), acl_type, np.random.default_rng(0))
    x = to_device(x_host, acl_type)
    m = gen_mask(numel, prob, 1, 0)
    out = sim.DeviceArray.empty((50, 100), acl_type)
    sim.check(sim.run_aclnn("aclnnDropoutDoMask", x.tensor(), m.tensor(), prob, out.tensor()))
    keep = np.unpackbits(m.to_numpy(), bitorder="little")[:numel].reshape(50, 100).astype(bool)
    scaled = sim.round_to(x_host * np.float32(1 / (1 - prob)), acl_type)
    np.testing.assert_array_equal(from_device(out), np.where(keep, scaled, 0))


def test_dropout_do_mask_checks_the_mask_size(acl):
    x = sim.DeviceArray.empty((300,), sim.ACL_FLOAT)
    m = sim.DeviceArray.empty((32,), sim.ACL_UINT8)  # 300 elements need align(300, 128) / 8 = 48 bytes
    rc, _, _ = sim.aclnn_workspace("aclnnDropoutDoMask", x.tensor(), m.tensor(), 0.5, x.tensor())
    assert rc == sim.ACLNN_ERR_PARAM_INVALID
    assert "align(300, 128) / 8 = 48 bytes" in sim.recent_error()


@pytest.mark.parametrize("mask_type", [sim.ACL_UINT8, sim.ACL_INT8, sim.ACL_FLOAT16, sim.ACL_FLOAT])
def test_masked_scale_multiplies_by_mask_and_scale(acl, mask_type):
    rng = np.random.default_rng(1)
    x_host = rng.standard_normal((7, 33)).astype(np.float32)
    m_host = rng.integers(0, 2, size=(7, 33))
    x = to_device(x_host, sim.ACL_FLOAT)
    m = to_device(m_host.astype(np.float32), mask_type)
    out = sim.DeviceArray.empty((33, 7), sim.ACL_FLOAT)
    scale = 1 / 0.7
    sim.check(sim.run_aclnn("aclnnMaskedScale", x.tensor(), m.tensor(), scale,
                            out.tensor(shape=(7, 33), strides=(1, 7))))
    expected = (x_host * m_host.astype(np.float32)) * np.float32(scale)
    np.testing.assert_array_equal(out.to_numpy().T, expected)

