// acl_op random types StatelessRandomUniformV2, StatelessRandomNormalV2, StatelessBernoulli, StatelessRandperm
// and MultinomialWithReplacement (declared in abi/aclop/random.decl) on the Philox and sampling kernels the
// aclnn random entry points use.
#include <string.h>

#include "aclop/declared_ops.h"
#include "aclop/ops/elementwise_run.h"
#include "common/dtype.h"
#include "common/error.h"
#include "kernels/index_kernel_api.h"
#include "kernels/kernel_api.h"

namespace ascendc_sim {
namespace aclop {
namespace {

aclError RequireShapeInput(OpContext& ctx) {
  std::vector<int64_t> shape;
  const aclError rc = ConstantInts(ctx, 0, "shape", &shape);
  if (rc != ACL_SUCCESS) return rc;
  if (shape != ctx.outputs[0].shape()) {
    return ctx.Fail(ACL_ERROR_INVALID_PARAM, "input shape is %s but output y has shape %s",
                    ShapeToString(shape).c_str(), ShapeToString(ctx.outputs[0].shape()).c_str());
  }
  return ACL_SUCCESS;
}

// (seed, offset) from key [seed] and counter [offset, ...]; alg must be 1 (Philox).
aclError PhiloxOf(OpContext& ctx, kernels::PhiloxArgs* rng) {
  std::vector<int64_t> key, counter, alg;
  aclError rc = ConstantInts(ctx, 1, "key", &key);
  if (rc == ACL_SUCCESS) rc = ConstantInts(ctx, 2, "counter", &counter);
  if (rc == ACL_SUCCESS) rc = ConstantInts(ctx, 3, "alg", &alg);
  if (rc != ACL_SUCCESS) return rc;
  if (key.size() != 1 || counter.empty() || alg.size() != 1) {
    return ctx.Fail(ACL_ERROR_INVALID_PARAM, "key must hold 1 value, counter at least 1 and alg 1 (got %zu, %zu, %zu)",
                    key.size(), counter.size(), alg.size());
  }
  if (alg[0] != 1) {
    return ctx.Fail(ACL_ERROR_FEATURE_UNSUPPORTED, "alg %lld: only 1 (Philox) is supported",
                    static_cast<long long>(alg[0]));
  }
  rng->seed = static_cast<uint64_t>(key[0]);
  rng->offset = static_cast<uint64_t>(counter[0]);
  return ACL_SUCCESS;
}

// (seed, offset) from the one-element constant inputs `seedInput` and `seedInput + 1`.
aclError SeedAndOffset(OpContext& ctx, size_t seedInput, kernels::PhiloxArgs* rng) {
  std::vector<int64_t> seed, offset;
  aclError rc = ConstantInts(ctx, seedInput, "seed", &seed);
  if (rc == ACL_SUCCESS) rc = ConstantInts(ctx, seedInput + 1, "offset", &offset);
  if (rc != ACL_SUCCESS) return rc;
  if (seed.size() != 1 || offset.size() != 1) {
    return ctx.Fail(ACL_ERROR_INVALID_PARAM, "seed and offset must hold one value each");
  }
  rng->seed = static_cast<uint64_t>(seed[0]);
  rng->offset = static_cast<uint64_t>(offset[0]);
  return ACL_SUCCESS;
}

template <typename Launch>
aclError RunStateless(OpContext& ctx, Launch launch) {
  aclError rc = RequireShapeInput(ctx);
  if (rc != ACL_SUCCESS) return rc;
  kernels::PhiloxArgs rng;
  if ((rc = PhiloxOf(ctx, &rng)) != ACL_SUCCESS) return rc;
  const OpOperand& y = ctx.outputs[0];
  if (y.Numel() == 0) return ACL_SUCCESS;
  return launch(y, rng);
}

}  // namespace

aclError RunStatelessRandomUniformV2(OpContext& ctx, const StatelessRandomUniformV2Attrs&) {
  return RunStateless(ctx, [&](const OpOperand& y, kernels::PhiloxArgs rng) {
    return kernels::LaunchUniform(y.dtype(), y.data, static_cast<uint64_t>(y.Numel()), 0.0, 1.0, rng, ctx.stream());
  });
}

aclError RunStatelessRandomNormalV2(OpContext& ctx, const StatelessRandomNormalV2Attrs&) {
  return RunStateless(ctx, [&](const OpOperand& y, kernels::PhiloxArgs rng) {
    return kernels::LaunchNormal(y.dtype(), y.data, static_cast<uint64_t>(y.Numel()), 0.0, 1.0, rng, ctx.stream());
  });
}

aclError RunStatelessBernoulli(OpContext& ctx, const StatelessBernoulliAttrs&) {
  aclError rc = RequireShapeInput(ctx);
  if (rc != ACL_SUCCESS) return rc;
  kernels::PhiloxArgs rng;
  if ((rc = SeedAndOffset(ctx, 2, &rng)) != ACL_SUCCESS) return rc;
  const OpOperand& prob = ctx.inputs[1];
  const OpOperand& y = ctx.outputs[0];
  const uint64_t n = static_cast<uint64_t>(y.Numel());
  if (n == 0) return ACL_SUCCESS;
  if (prob.desc->isConst && prob.Numel() == 1) {
    kernels::ScalarValue p;
    if ((rc = ConstantScalarInput(ctx, 1, "prob", &p)) != ACL_SUCCESS) return rc;
    return kernels::LaunchBernoulli(y.dtype(), y.data, n, p.f, rng, ctx.stream());
  }
  if ((rc = ctx.RequireSameShape(prob, "input prob", y, "output y")) != ACL_SUCCESS) return rc;
  return kernels::LaunchBernoulliTensor(y.dtype(), y.data, prob.dtype(), prob.data, n, rng, ctx.stream());
}

aclError RunStatelessRandperm(OpContext& ctx, const StatelessRandpermAttrs& attrs) {
  const OpOperand& y = ctx.outputs[0];
  if (attrs.layout != 1) {
    return ctx.Fail(ACL_ERROR_FEATURE_UNSUPPORTED, "layout %lld: only 1 is supported",
                    static_cast<long long>(attrs.layout));
  }
  if (attrs.dtype != y.dtype()) {
    return ctx.Fail(ACL_ERROR_INVALID_PARAM, "attribute dtype is %s but output y is %s", DataTypeName(attrs.dtype),
                    DataTypeName(y.dtype()));
  }
  std::vector<int64_t> n;
  aclError rc = ConstantInts(ctx, 0, "n", &n);
  if (rc != ACL_SUCCESS) return rc;
  if (n.size() != 1 || n[0] < 0 || y.shape() != std::vector<int64_t>{n[0]}) {
    return ctx.Fail(ACL_ERROR_INVALID_PARAM, "input n must be one value >= 0 and output y [n], got y %s",
                    ShapeToString(y.shape()).c_str());
  }
  kernels::PhiloxArgs rng;
  if ((rc = SeedAndOffset(ctx, 1, &rng)) != ACL_SUCCESS) return rc;
  if (n[0] == 0) return ACL_SUCCESS;
  void* scratch = nullptr;
  if ((rc = ctx.AllocTemp(static_cast<size_t>(2 * n[0]) * sizeof(int64_t), &scratch)) != ACL_SUCCESS) return rc;
  return kernels::LaunchRandperm(y.dtype(), y.data, scratch, n[0], rng, ctx.stream());
}

aclError RunMultinomialWithReplacement(OpContext& ctx, const MultinomialWithReplacementAttrs& attrs) {
  const OpOperand& x = ctx.inputs[0];
  const OpOperand& y = ctx.outputs[0];
  const size_t rank = x.shape().size();
  if (rank != 1 && rank != 2) return ctx.Fail(ACL_ERROR_INVALID_PARAM, "x must be 1-D or 2-D, got %zu-D", rank);
  const int64_t n = x.shape().back();
  const int64_t rows = rank == 2 ? x.shape()[0] : 1;
  if (attrs.numsamples <= 0 || (!attrs.replacement && attrs.numsamples > n)) {
    return ctx.Fail(ACL_ERROR_INVALID_PARAM, "cannot draw %lld samples from %lld categories%s",
                    static_cast<long long>(attrs.numsamples), static_cast<long long>(n),
                    attrs.replacement ? "" : " without replacement");
  }
  const std::vector<int64_t> expected =
      rank == 2 ? std::vector<int64_t>{rows, attrs.numsamples} : std::vector<int64_t>{attrs.numsamples};
  if (y.shape() != expected) {
    return ctx.Fail(ACL_ERROR_INVALID_PARAM, "output y has shape %s, expected %s", ShapeToString(y.shape()).c_str(),
                    ShapeToString(expected).c_str());
  }
  kernels::MultinomialArgs args;
  aclError rc = SeedAndOffset(ctx, 1, &args.rng);
  if (rc != ACL_SUCCESS || rows == 0) return rc;
  if (n == 0) return ctx.Fail(ACL_ERROR_INVALID_PARAM, "x has no categories");
  // The kernel reads float32 (double stays double) weights.
  args.probType = x.dtype() == ACL_DOUBLE ? ACL_DOUBLE : ACL_FLOAT;
  void* prob = x.data;
  if (x.dtype() != args.probType) {
    if ((rc = ctx.AllocTemp(static_cast<size_t>(x.Numel()) * sizeof(float), &prob)) != ACL_SUCCESS) return rc;
    if ((rc = kernels::LaunchCast(x.dtype(), x.data, ACL_FLOAT, prob, x.Numel(), ctx.stream())) != ACL_SUCCESS) {
      return rc;
    }
  }
  args.rows = rows;
  args.n = n;
  args.samples = attrs.numsamples;
  args.replacement = attrs.replacement;
  args.prob = prob;
  args.out = y.data;
  void* scratch = nullptr;
  if ((rc = ctx.AllocTemp(static_cast<size_t>(kernels::MultinomialBlocks(rows) * n) * sizeof(double), &scratch)) !=
      ACL_SUCCESS) {
    return rc;
  }
  args.scratch = scratch;
  return kernels::LaunchMultinomial(args, ctx.stream());
}

}  // namespace aclop
}  // namespace ascendc_sim
