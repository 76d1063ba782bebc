// acl_op types GroupNorm, GroupNormSwish and GroupNormGrad (declared in abi/aclop/group_norm.decl) on the
// group norm kernels group_norm_custom / group_norm_grad_custom, which aclnnGroupNorm and
// aclnnGroupNormBackward run too: x is read as (N, C, HxW) with N and C its first two dimensions.
#include <string>
#include <vector>

#include "aclop/declared_ops.h"
#include "common/dtype.h"
#include "common/error.h"
#include "kernels/kernel_api.h"

namespace ascendc_sim {
namespace aclop {
namespace {

struct GroupShape {
  uint64_t n = 0, c = 0, hw = 1, groups = 1;
};

// x's (N, C, HxW) for num_groups groups, channels the second dimension.
aclError ReadGroupShape(OpContext& ctx, const OpOperand& x, const char* xName, const std::string& dataFormat,
                        int64_t numGroups, GroupShape* out) {
  if (dataFormat != "NCHW" && dataFormat != "ND" && dataFormat != "NCDHW") {
    return ctx.Fail(ACL_ERROR_FEATURE_UNSUPPORTED, "data_format \"%s\" is not simulated (channels second: NCHW)",
                    dataFormat.c_str());
  }
  const std::vector<int64_t>& shape = x.shape();
  if (shape.size() < 2) {
    return ctx.Fail(ACL_ERROR_INVALID_PARAM, "%s has shape %s, expected (N, C, ...)", xName,
                    ShapeToString(shape).c_str());
  }
  if (numGroups <= 0 || shape[1] % numGroups != 0) {
    return ctx.Fail(ACL_ERROR_INVALID_PARAM, "num_groups %lld must be positive and divide C = %lld",
                    static_cast<long long>(numGroups), static_cast<long long>(shape[1]));
  }
  out->n = static_cast<uint64_t>(shape[0]);
  out->c = static_cast<uint64_t>(shape[1]);
  out->hw = 1;
  for (size_t i = 2; i < shape.size(); ++i) out->hw *= static_cast<uint64_t>(shape[i]);
  out->groups = static_cast<uint64_t>(numGroups);
  return ACL_SUCCESS;
}

aclError RequireCount(OpContext& ctx, const OpOperand& t, const char* name, uint64_t count, const char* what) {
  if (static_cast<uint64_t>(t.Numel()) != count) {
    return ctx.Fail(ACL_ERROR_INVALID_PARAM, "%s has %lld elements, expected %s (%llu)", name,
                    static_cast<long long>(t.Numel()), what, static_cast<unsigned long long>(count));
  }
  return ACL_SUCCESS;
}

// The checks and the launch shared by GroupNorm (variance out) and GroupNormSwish (rstd out).
aclError RunForward(OpContext& ctx, int64_t numGroups, const std::string& dataFormat, float eps, bool rstdOut) {
  const OpOperand& x = ctx.inputs[0];
  GroupShape s;
  aclError rc = ReadGroupShape(ctx, x, "x", dataFormat, numGroups, &s);
  if (rc == ACL_SUCCESS) rc = RequireCount(ctx, ctx.inputs[1], "gamma", s.c, "one per channel");
  if (rc == ACL_SUCCESS) rc = RequireCount(ctx, ctx.inputs[2], "beta", s.c, "one per channel");
  if (rc == ACL_SUCCESS) rc = ctx.RequireSameShape(ctx.outputs[0], "y", x, "x");
  if (rc == ACL_SUCCESS) rc = RequireCount(ctx, ctx.outputs[1], "mean", s.n * s.groups, "N * num_groups");
  if (rc == ACL_SUCCESS) {
    rc = RequireCount(ctx, ctx.outputs[2], rstdOut ? "rstd" : "variance", s.n * s.groups, "N * num_groups");
  }
  if (rc != ACL_SUCCESS) return rc;
  kernels::GroupNormArgs a;
  a.dtype = x.dtype();
  a.statsDtype = x.dtype();
  a.n = s.n;
  a.c = s.c;
  a.hw = s.hw;
  a.groups = s.groups;
  a.eps = eps;
  a.x = x.data;
  a.gamma = ctx.inputs[1].data;
  a.beta = ctx.inputs[2].data;
  a.y = ctx.outputs[0].data;
  a.mean = ctx.outputs[1].data;
  (rstdOut ? a.rstd : a.variance) = ctx.outputs[2].data;
  return kernels::LaunchGroupNorm(a, ctx.stream());
}

}  // namespace

aclError RunGroupNorm(OpContext& ctx, const GroupNormAttrs& attrs) {
  if (!attrs.is_training) {
    return ctx.Fail(ACL_ERROR_FEATURE_UNSUPPORTED, "is_training false is not simulated (the batch's moments only)");
  }
  return RunForward(ctx, attrs.num_groups, attrs.data_format, attrs.eps, false);
}

aclError RunGroupNormSwish(OpContext& ctx, const GroupNormSwishAttrs& attrs) {
  if (attrs.activate_swish) {
    return ctx.Fail(ACL_ERROR_FEATURE_UNSUPPORTED, "activate_swish true is not simulated");
  }
  return RunForward(ctx, attrs.num_groups, attrs.data_format, attrs.eps, true);
}

aclError RunGroupNormGrad(OpContext& ctx, const GroupNormGradAttrs& attrs) {
  const OpOperand& dy = ctx.inputs[0];
  const OpOperand& x = ctx.inputs[3];
  GroupShape s;
  aclError rc = ReadGroupShape(ctx, x, "x", attrs.data_format, attrs.num_groups, &s);
  if (rc == ACL_SUCCESS) rc = ctx.RequireSameShape(dy, "dy", x, "x");
  if (rc == ACL_SUCCESS) rc = RequireCount(ctx, ctx.inputs[1], "mean", s.n * s.groups, "N * num_groups");
  if (rc == ACL_SUCCESS) rc = RequireCount(ctx, ctx.inputs[2], "rstd", s.n * s.groups, "N * num_groups");
  if (rc == ACL_SUCCESS) rc = RequireCount(ctx, ctx.inputs[4], "gamma", s.c, "one per channel");
  if (rc == ACL_SUCCESS && attrs.dx_is_require) rc = ctx.RequireSameShape(ctx.outputs[0], "dx", x, "x");
  if (rc == ACL_SUCCESS && attrs.dgamma_is_require) {
    rc = RequireCount(ctx, ctx.outputs[1], "dgamma", s.c, "one per channel");
  }
  if (rc == ACL_SUCCESS && attrs.dbeta_is_require) {
    rc = RequireCount(ctx, ctx.outputs[2], "dbeta", s.c, "one per channel");
  }
  if (rc != ACL_SUCCESS) return rc;
  const bool sums = (attrs.dgamma_is_require || attrs.dbeta_is_require) && s.n > 0;
  kernels::GroupNormGradArgs a;
  if (sums) {
    rc = ctx.AllocTemp(s.n * s.c * sizeof(float), &a.ds);
    if (rc == ACL_SUCCESS) rc = ctx.AllocTemp(s.n * s.c * sizeof(float), &a.db);
    if (rc != ACL_SUCCESS) return rc;
  }
  const bool hasData = s.n * s.c * s.hw > 0;
  a.dtype = dy.dtype();
  a.statsDtype = dy.dtype();
  a.n = s.n;
  a.c = s.c;
  a.hw = s.hw;
  a.groups = s.groups;
  a.dy = hasData ? dy.data : nullptr;
  a.x = hasData ? x.data : nullptr;
  a.mean = ctx.inputs[1].data;
  a.rstd = ctx.inputs[2].data;
  a.gamma = ctx.inputs[4].data;
  a.dx = attrs.dx_is_require && hasData ? ctx.outputs[0].data : nullptr;
  a.dgamma = attrs.dgamma_is_require ? ctx.outputs[1].data : nullptr;
  a.dbeta = attrs.dbeta_is_require ? ctx.outputs[2].data : nullptr;
  if (a.dx == nullptr && !sums && a.dgamma == nullptr && a.dbeta == nullptr) return ACL_SUCCESS;
  return kernels::LaunchGroupNormGrad(a, ctx.stream());
}

}  // namespace aclop
}  // namespace ascendc_sim
