// acl_op random types StatelessRandomUniformV2, StatelessRandomNormalV2 and StatelessBernoulli (declared in
// abi/aclop/random.decl) on the Philox kernels the aclnn random entry points use.
#include <string.h>

#include "aclop/declared_ops.h"
#include "aclop/ops/elementwise_run.h"
#include "common/dtype.h"
#include "common/error.h"
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
  std::vector<int64_t> seed, offset;
  if ((rc = ConstantInts(ctx, 2, "seed", &seed)) != ACL_SUCCESS) return rc;
  if ((rc = ConstantInts(ctx, 3, "offset", &offset)) != ACL_SUCCESS) return rc;
  if (seed.size() != 1 || offset.size() != 1) {
    return ctx.Fail(ACL_ERROR_INVALID_PARAM, "seed and offset must hold one value each");
  }
  kernels::PhiloxArgs rng;
  rng.seed = static_cast<uint64_t>(seed[0]);
  rng.offset = static_cast<uint64_t>(offset[0]);
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

}  // namespace aclop
}  // namespace ascendc_sim
