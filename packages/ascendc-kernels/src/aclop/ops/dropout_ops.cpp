// acl_op types StatelessDropOutGenMask, DropOutDoMask and MaskedScale (declared in abi/aclop/dropout.decl) on the
// Bernoulli Philox kernel, the view copy and the elementwise kernel: the bits are drawn one per byte, then packed
// into (or unpacked from) CANN's bit mask one bit position at a time; MaskedScale takes an element mask.
#include "aclop/declared_ops.h"
#include "aclop/ops/elementwise_run.h"
#include "common/dtype.h"
#include "common/error.h"
#include "kernels/elementwise_api.h"
#include "kernels/kernel_api.h"

namespace ascendc_sim {
namespace aclop {
namespace {

constexpr uint64_t kMaskAlignBits = 128;  // CANN pads the mask to whole 128-bit blocks

// Copies `m` bytes between a dense [m] buffer and column `bit` of a dense [m, 8] one (toColumn: into it).
aclError CopyBitColumn(OpContext& ctx, void* bytes, void* columns, uint64_t m, int bit, bool toColumn) {
  kernels::ViewCopyArgs args;
  args.ndim = 1;
  args.shape[0] = static_cast<int64_t>(m);
  kernels::ViewLayout dense, column;
  dense.data = bytes;
  dense.dtype = ACL_UINT8;
  dense.strides[0] = 1;
  column.data = columns;
  column.dtype = ACL_UINT8;
  column.offset = bit;
  column.strides[0] = 8;
  args.src = toColumn ? dense : column;
  args.dst = toColumn ? column : dense;
  return kernels::LaunchViewCopy(args, ctx.stream());
}

aclError Uint8Op(OpContext& ctx, kernels::EwOp op, const void* x0, const void* x1, void* y, uint64_t n,
                 int64_t s) {
  return kernels::LaunchElementwise(op, ACL_UINT8, x0, x1, y, n, ScalarFor(ACL_UINT8, static_cast<double>(s)),
                                    ctx.stream());
}

}  // namespace

aclError RunStatelessDropOutGenMask(OpContext& ctx, const StatelessDropOutGenMaskAttrs& /*attrs*/) {
  std::vector<int64_t> shape, seed, seed1, offset;
  aclError rc = ConstantInts(ctx, 0, "shape", &shape);
  if (rc == ACL_SUCCESS) rc = ConstantInts(ctx, 2, "seed", &seed);
  if (rc == ACL_SUCCESS) rc = ConstantInts(ctx, 3, "seed1", &seed1);
  if (rc == ACL_SUCCESS) rc = ConstantInts(ctx, 4, "offset", &offset);
  kernels::ScalarValue prob;
  if (rc == ACL_SUCCESS) rc = ConstantScalarInput(ctx, 1, "prob", &prob);
  if (rc != ACL_SUCCESS) return rc;
  if (seed.size() != 1 || seed1.size() != 1 || offset.size() != 2) {
    return ctx.Fail(ACL_ERROR_INVALID_PARAM, "seed and seed1 must hold one value, offset two");
  }
  if (seed1[0] != 0 || offset[0] != 0) {
    return ctx.Fail(ACL_ERROR_FEATURE_UNSUPPORTED, "seed1 %lld and offset[0] %lld: only 64-bit seeds and offsets",
                    static_cast<long long>(seed1[0]), static_cast<long long>(offset[0]));
  }
  if (!(prob.f >= 0.0 && prob.f <= 1.0)) {
    return ctx.Fail(ACL_ERROR_INVALID_PARAM, "prob %g is not in [0, 1]", prob.f);
  }
  uint64_t numel = 1;
  for (int64_t d : shape) {
    if (d < 0) return ctx.Fail(ACL_ERROR_INVALID_PARAM, "shape %s has a negative size", ShapeToString(shape).c_str());
    numel *= static_cast<uint64_t>(d);
  }
  const uint64_t bits = (numel + kMaskAlignBits - 1) / kMaskAlignBits * kMaskAlignBits;
  const uint64_t m = bits / 8;
  const OpOperand& y = ctx.outputs[0];
  if (static_cast<uint64_t>(y.Numel()) != m) {
    return ctx.Fail(ACL_ERROR_INVALID_PARAM, "y has %lld elements, expected %llu (the mask of %llu elements)",
                    static_cast<long long>(y.Numel()), static_cast<unsigned long long>(m),
                    static_cast<unsigned long long>(numel));
  }
  if (m == 0) return ACL_SUCCESS;
  void *drawn = nullptr, *column = nullptr;
  rc = ctx.AllocTemp(bits, &drawn);
  if (rc == ACL_SUCCESS) rc = ctx.AllocTemp(m, &column);
  if (rc != ACL_SUCCESS) return rc;
  kernels::PhiloxArgs rng;
  rng.seed = static_cast<uint64_t>(seed[0]);
  rng.offset = static_cast<uint64_t>(offset[1]);
  rc = kernels::LaunchBernoulli(ACL_UINT8, drawn, bits, prob.f, rng, ctx.stream());
  if (rc == ACL_SUCCESS) rc = kernels::LaunchFill(ACL_UINT8, y.data, m, ScalarFor(ACL_UINT8, 0.0), ctx.stream());
  for (int bit = 0; bit < 8 && rc == ACL_SUCCESS; ++bit) {  // y += drawn[:, bit] << bit
    rc = CopyBitColumn(ctx, column, drawn, m, bit, false);
    if (rc == ACL_SUCCESS) rc = Uint8Op(ctx, kernels::EwOp::kMulScalar, column, nullptr, column, m, 1 << bit);
    if (rc == ACL_SUCCESS) rc = Uint8Op(ctx, kernels::EwOp::kAdd, y.data, column, y.data, m, 1);
  }
  return rc;
}

aclError RunDropOutDoMask(OpContext& ctx, const DropOutDoMaskAttrs& /*attrs*/) {
  const OpOperand& x = ctx.inputs[0];
  const OpOperand& mask = ctx.inputs[1];
  const OpOperand& y = ctx.outputs[0];
  aclError rc = ctx.RequireSameShape(y, "y", x, "x");
  kernels::ScalarValue keep;
  if (rc == ACL_SUCCESS) rc = ConstantScalarInput(ctx, 2, "keep_prob", &keep);
  if (rc != ACL_SUCCESS) return rc;
  const uint64_t n = static_cast<uint64_t>(x.Numel());
  const uint64_t m = static_cast<uint64_t>(mask.Numel());
  if (m * 8 < n) {
    return ctx.Fail(ACL_ERROR_INVALID_PARAM, "mask has %llu bytes, fewer than the %llu bits x needs",
                    static_cast<unsigned long long>(m), static_cast<unsigned long long>(n));
  }
  if (n == 0) return ACL_SUCCESS;
  void *rest = nullptr, *bit = nullptr, *set = nullptr, *unpacked = nullptr, *kept = nullptr;
  rc = ctx.AllocTemp(m, &rest);
  if (rc == ACL_SUCCESS) rc = ctx.AllocTemp(m, &bit);
  if (rc == ACL_SUCCESS) rc = ctx.AllocTemp(m, &set);
  if (rc == ACL_SUCCESS) rc = ctx.AllocTemp(m * 8, &unpacked);
  if (rc == ACL_SUCCESS) rc = ctx.AllocTemp(n * DataTypeSize(x.dtype()), &kept);
  if (rc == ACL_SUCCESS) rc = kernels::LaunchCast(ACL_UINT8, mask.data, ACL_UINT8, rest, m, ctx.stream());
  for (int b = 7; b >= 0 && rc == ACL_SUCCESS; --b) {  // from the high bit: set = rest >= 2^b, rest -= set << b
    rc = Uint8Op(ctx, kernels::EwOp::kGeScalar, rest, nullptr, set, m, 1 << b);
    if (rc == ACL_SUCCESS) rc = kernels::LaunchCast(ACL_BOOL, set, ACL_UINT8, bit, m, ctx.stream());
    if (rc == ACL_SUCCESS) rc = CopyBitColumn(ctx, bit, unpacked, m, b, true);
    if (rc == ACL_SUCCESS) rc = Uint8Op(ctx, kernels::EwOp::kMulScalar, bit, nullptr, bit, m, 1 << b);
    if (rc == ACL_SUCCESS) rc = Uint8Op(ctx, kernels::EwOp::kSub, rest, bit, rest, m, 1);
  }
  if (rc == ACL_SUCCESS) rc = kernels::LaunchCast(ACL_UINT8, unpacked, x.dtype(), kept, n, ctx.stream());
  if (rc == ACL_SUCCESS) {
    rc = kernels::LaunchElementwise(kernels::EwOp::kMul, x.dtype(), x.data, kept, y.data, n, kernels::ScalarValue(),
                                    ctx.stream());
  }
  if (rc != ACL_SUCCESS) return rc;
  return kernels::LaunchElementwise(kernels::EwOp::kDivScalar, x.dtype(), y.data, nullptr, y.data, n,
                                    kernels::ScalarValue::Floating(keep.f), ctx.stream());
}

aclError RunMaskedScale(OpContext& ctx, const MaskedScaleAttrs& attrs) {
  const OpOperand& x = ctx.inputs[0];
  const OpOperand& mask = ctx.inputs[1];
  const OpOperand& y = ctx.outputs[0];
  aclError rc = ctx.RequireSameShape(mask, "mask", x, "x");
  if (rc == ACL_SUCCESS) rc = ctx.RequireSameShape(y, "y", x, "x");
  if (rc != ACL_SUCCESS) return rc;
  const uint64_t n = static_cast<uint64_t>(x.Numel());
  if (n == 0) return ACL_SUCCESS;
  void* kept = nullptr;
  rc = ctx.AllocTemp(n * DataTypeSize(x.dtype()), &kept);
  if (rc == ACL_SUCCESS) rc = kernels::LaunchCast(mask.dtype(), mask.data, x.dtype(), kept, n, ctx.stream());
  if (rc == ACL_SUCCESS) {
    rc = kernels::LaunchElementwise(kernels::EwOp::kMul, x.dtype(), x.data, kept, y.data, n, kernels::ScalarValue(),
                                    ctx.stream());
  }
  if (rc != ACL_SUCCESS) return rc;
  return kernels::LaunchElementwise(kernels::EwOp::kMulScalar, x.dtype(), y.data, nullptr, y.data, n,
                                    kernels::ScalarValue::Floating(attrs.value), ctx.stream());
}

}  // namespace aclop
}  // namespace ascendc_sim
