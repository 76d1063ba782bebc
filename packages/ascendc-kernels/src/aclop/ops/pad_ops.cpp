// acl_op types MirrorPad, PadV3 and PadV3Grad (declared in abi/aclop/pad.decl) on the resampling kernels
// resample_custom / resample_backward_custom (the reflect and replicate axis rules of the aclnn padding
// entry points): the padded trailing dimensions are the kernel's axes, the others its planes.
#include <string>
#include <vector>

#include "aclop/declared_ops.h"
#include "aclop/ops/elementwise_run.h"
#include "aclop/ops/resample_run.h"
#include "common/error.h"
#include "kernels/resample_api.h"

namespace ascendc_sim {
namespace aclop {
namespace {

namespace k = kernels;

// The axis rule of a padding mode; `type` names the op in the message of a mode it does not simulate.
aclError PadRule(OpContext& ctx, const std::string& mode, k::AxisRule* rule) {
  if (mode == "reflect" || mode == "REFLECT") {
    *rule = k::AxisRule::kReflect;
  } else if (mode == "edge") {
    *rule = k::AxisRule::kReplicate;
  } else {
    return ctx.Fail(ACL_ERROR_FEATURE_UNSUPPORTED, "mode '%s' is not supported (reflect and edge are)", mode.c_str());
  }
  return ACL_SUCCESS;
}

// The resampling problem of padding `shape` (the unpadded one) by constant input 1 with `rule`.
aclError PadProblem(OpContext& ctx, const std::vector<int64_t>& shape, bool contiguous, k::AxisRule rule,
                    k::ResampleArgs* args, std::vector<int64_t>* padded) {
  std::vector<int64_t> paddings;
  aclError rc = ConstantInts(ctx, 1, "paddings", &paddings);
  if (rc != ACL_SUCCESS) return rc;
  const size_t rank = shape.size();
  if (paddings.size() != 2 * rank) {
    return ctx.Fail(ACL_ERROR_INVALID_PARAM, "input paddings has %zu values, expected two per dimension of %s",
                    paddings.size(), ShapeToString(shape).c_str());
  }
  std::vector<int64_t> before(rank), after(rank);
  for (size_t d = 0; d < rank; ++d) {
    before[d] = contiguous ? paddings[2 * d] : paddings[d];
    after[d] = contiguous ? paddings[2 * d + 1] : paddings[rank + d];
  }
  size_t first = rank;  // the first padded dimension
  for (size_t d = 0; d < rank && first == rank; ++d) {
    if (before[d] != 0 || after[d] != 0) first = d;
  }
  const size_t lead = rank - std::min<size_t>(rank, std::max<size_t>(rank - first, 1));
  if (rank - lead > static_cast<size_t>(k::kResampleAxes)) {
    return ctx.Fail(ACL_ERROR_FEATURE_UNSUPPORTED, "padding %zu dimensions is not supported (up to %d trailing ones)",
                    rank - lead, k::kResampleAxes);
  }
  args->planes = 1;
  for (size_t d = 0; d < lead; ++d) args->planes *= shape[d];
  *padded = shape;
  for (int a = 0; a < k::kResampleAxes; ++a) {
    args->axis[a] = k::ResampleAxis();
    const int64_t d = static_cast<int64_t>(lead) + a - (k::kResampleAxes - static_cast<int64_t>(rank - lead));
    if (d < static_cast<int64_t>(lead)) continue;
    const size_t i = static_cast<size_t>(d);
    k::ResampleAxis& ax = args->axis[a];
    ax.in = shape[i];
    ax.out = shape[i] + before[i] + after[i];
    ax.rule = rule;
    ax.pad = before[i];
    if (rule == k::AxisRule::kReflect && (before[i] >= ax.in || after[i] >= ax.in)) {
      return ctx.Fail(ACL_ERROR_INVALID_PARAM, "reflection padding (%lld, %lld) of dimension %zu must be smaller "
                      "than its size %lld", static_cast<long long>(before[i]), static_cast<long long>(after[i]), i,
                      static_cast<long long>(ax.in));
    }
    if (ax.in < 1 || ax.out < 1) {
      return ctx.Fail(ACL_ERROR_INVALID_PARAM, "padding dimension %zu of size %lld by (%lld, %lld) leaves it empty",
                      i, static_cast<long long>(ax.in), static_cast<long long>(before[i]),
                      static_cast<long long>(after[i]));
    }
    (*padded)[i] = ax.out;
  }
  return ACL_SUCCESS;
}

aclError RunPad(OpContext& ctx, const std::string& mode, bool contiguous) {
  k::AxisRule rule = k::AxisRule::kIdentity;
  aclError rc = PadRule(ctx, mode, &rule);
  if (rc != ACL_SUCCESS) return rc;
  const OpOperand& x = ctx.inputs[0];
  const OpOperand& y = ctx.outputs[0];
  k::ResampleArgs args;
  std::vector<int64_t> padded;
  if ((rc = PadProblem(ctx, x.shape(), contiguous, rule, &args, &padded)) != ACL_SUCCESS) return rc;
  if (y.shape() != padded) {
    return ctx.Fail(ACL_ERROR_INVALID_PARAM, "output y has shape %s, expected %s", ShapeToString(y.shape()).c_str(),
                    ShapeToString(padded).c_str());
  }
  return RunResampleForward(ctx, args, x, y);
}

}  // namespace

aclError RunMirrorPad(OpContext& ctx, const MirrorPadAttrs& attrs) { return RunPad(ctx, attrs.mode, true); }

aclError RunPadV3(OpContext& ctx, const PadV3Attrs& attrs) {
  return RunPad(ctx, attrs.mode, attrs.paddings_contiguous);
}

aclError RunPadV3Grad(OpContext& ctx, const PadV3GradAttrs& attrs) {
  k::AxisRule rule = k::AxisRule::kIdentity;
  aclError rc = PadRule(ctx, attrs.mode, &rule);
  if (rc != ACL_SUCCESS) return rc;
  const OpOperand& grad = ctx.inputs[0];
  const OpOperand& y = ctx.outputs[0];
  // The unpadded shape follows from x and the paddings; y may describe it with other dimensions of
  // size 1 (upstream's callers pass a 3-D y for a 4-D x), the elements are the same.
  std::vector<int64_t> paddings;
  if ((rc = ConstantInts(ctx, 1, "paddings", &paddings)) != ACL_SUCCESS) return rc;
  const size_t rank = grad.shape().size();
  if (paddings.size() != 2 * rank) {
    return ctx.Fail(ACL_ERROR_INVALID_PARAM, "input paddings has %zu values, expected two per dimension of x %s",
                    paddings.size(), ShapeToString(grad.shape()).c_str());
  }
  std::vector<int64_t> unpadded = grad.shape();
  for (size_t d = 0; d < rank; ++d) {
    unpadded[d] -= attrs.paddings_contiguous ? paddings[2 * d] + paddings[2 * d + 1] : paddings[d] + paddings[rank + d];
  }
  k::ResampleArgs args;
  std::vector<int64_t> padded;
  if ((rc = PadProblem(ctx, unpadded, attrs.paddings_contiguous, rule, &args, &padded)) != ACL_SUCCESS) return rc;
  int64_t count = 1;
  for (int64_t v : unpadded) count *= v;
  if (y.Numel() != count) {
    return ctx.Fail(ACL_ERROR_INVALID_PARAM, "output y has shape %s, expected %s (x %s unpadded)",
                    ShapeToString(y.shape()).c_str(), ShapeToString(unpadded).c_str(),
                    ShapeToString(grad.shape()).c_str());
  }
  return RunResampleBackward(ctx, args, grad, y);
}

}  // namespace aclop
}  // namespace ascendc_sim
