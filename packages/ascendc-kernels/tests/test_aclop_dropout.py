"""The dropout acl_op types (abi/aclop/dropout.decl): StatelessDropOutGenMask's bit mask (padded to 128 bits, the
keep ratio near prob, the same seed and offset giving the same mask, another offset another one) and
DropOutDoMask against numpy's unpacking (least significant bit first), MaskedScale's element mask against numpy
in each mask and value dtype; a high seed half, bad probabilities, a short mask and a mask of another shape
refused."""

from __future__ import annotations

import ascendc_kernels_testing as sim
import numpy as np
import pytest
from ascendc_kernels_testing import op_in

F32, I64, U8 = sim.ACL_FLOAT, sim.ACL_INT64, sim.ACL_UINT8
RNG = np.random.default_rng(0)


def const(value, acl_type=I64):
    v = np.asarray(value, dtype=sim.numpy_dtype(acl_type))
    return (None, tuple(v.shape), acl_type, sim.ACL_FORMAT_ND, v)


def gen_mask_inputs(shape, prob, seed=7, offset=3, seed1=0, high=0):
    return [const(list(shape)), const(prob, F32), const(seed), const(seed1), const([high, offset])]


def gen_mask(shape, prob, **kwargs):
    numel = int(np.prod(shape))
    out = sim.DeviceArray.empty(((numel + 127) // 128 * 16,), U8)
    sim.check(sim.run_aclop("StatelessDropOutGenMask", gen_mask_inputs(shape, prob, **kwargs), [op_in(out)]),
              "StatelessDropOutGenMask")
    return out.to_numpy()


@pytest.mark.parametrize("prob", [0.0, 0.3, 0.75, 1.0])
def test_gen_mask_keeps_each_bit_with_prob(acl, prob):
    mask = gen_mask((50, 41), prob)
    assert mask.shape == (17 * 16,)  # 2050 bits padded to 17 blocks of 128
    bits = np.unpackbits(mask, bitorder="little")
    ratio = bits.mean()
    assert abs(ratio - prob) < 4 * np.sqrt(prob * (1 - prob) / bits.size) + 1e-12


def test_gen_mask_follows_seed_and_offset(acl):
    first, again = gen_mask((300,), 0.5), gen_mask((300,), 0.5)
    np.testing.assert_array_equal(first, again)
    assert not np.array_equal(first, gen_mask((300,), 0.5, offset=4))
    assert not np.array_equal(first, gen_mask((300,), 0.5, seed=8))


def test_do_mask_scales_the_kept_elements(acl):
    x = RNG.normal(size=(7, 19)).astype(np.float32)
    mask = RNG.integers(0, 256, size=(32,), dtype=np.uint8)
    y = sim.DeviceArray.empty(x.shape, F32)
    sim.check(sim.run_aclop("DropOutDoMask", [op_in(sim.DeviceArray.from_numpy(x)),
                                              op_in(sim.DeviceArray.from_numpy(mask)), const(0.6, F32)],
                            [op_in(y)]), "DropOutDoMask")
    kept = np.unpackbits(mask, bitorder="little")[:x.size].reshape(x.shape)
    np.testing.assert_allclose(y.to_numpy(), x * kept / np.float32(0.6), rtol=1e-6, atol=0)


@pytest.mark.parametrize("dtype", [sim.ACL_FLOAT, sim.ACL_FLOAT16, sim.ACL_BF16])
@pytest.mark.parametrize("mask_type", [U8, sim.ACL_INT8, sim.ACL_FLOAT16, F32])
def test_masked_scale_multiplies_by_mask_then_value(acl, dtype, mask_type):
    x = sim.random_values((5, 37), dtype, RNG, low=-3, high=3)
    mask = RNG.integers(0, 2, size=x.shape)
    y = sim.DeviceArray.empty(x.shape, dtype)
    md = sim.DeviceArray.from_numpy(mask.astype(sim.numpy_dtype(mask_type)))
    sim.check(sim.run_aclop("MaskedScale", [op_in(sim.to_device(x, dtype)), op_in(md)], [op_in(y)], {"value": 1.3}),
              "MaskedScale")
    expected = sim.round_to(x * mask * np.float32(1.3), dtype)  # x * mask is exact
    np.testing.assert_array_equal(sim.from_device(y), expected)


def test_unsupported_or_bad_inputs_are_refused(acl):
    out = sim.DeviceArray.empty((16,), U8)
    assert sim.run_aclop("StatelessDropOutGenMask", gen_mask_inputs((10,), 0.5, seed1=1),
                         [op_in(out)]) == sim.ACL_ERROR_FEATURE_UNSUPPORTED
    assert "only 64-bit seeds and offsets" in sim.recent_error()
    assert sim.run_aclop("StatelessDropOutGenMask", gen_mask_inputs((10,), 1.5), [op_in(out)]) \
        == sim.ACL_ERROR_INVALID_PARAM
    assert "prob 1.5 is not in [0, 1]" in sim.recent_error()
    assert sim.run_aclop("StatelessDropOutGenMask", gen_mask_inputs((200,), 0.5), [op_in(out)]) \
        == sim.ACL_ERROR_INVALID_PARAM
    assert "y has 16 elements, expected 32" in sim.recent_error()
    x = sim.DeviceArray.from_numpy(np.ones((200,), np.float32))
    assert sim.run_aclop("DropOutDoMask", [op_in(x), op_in(out), const(0.5, F32)],
                         [op_in(sim.DeviceArray.empty((200,), F32))]) == sim.ACL_ERROR_INVALID_PARAM
    assert "mask has 16 bytes, fewer than the 200 bits x needs" in sim.recent_error()
    assert sim.run_aclop("MaskedScale", [op_in(x), op_in(sim.DeviceArray.from_numpy(np.ones((100,), np.uint8)))],
                         [op_in(sim.DeviceArray.empty((200,), F32))], {"value": 2.0}) == sim.ACL_ERROR_INVALID_PARAM
    assert "mask" in sim.recent_error() and "[100]" in sim.recent_error()
