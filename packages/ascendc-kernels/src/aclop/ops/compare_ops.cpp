// acl_op compares Equal, NotEqual, Less, LessEqual, Greater, GreaterEqual (declared in abi/aclop/compare.decl):
// the inputs broadcast to y's shape, the elementwise kernel's compare operators write bool.
#include "aclop/declared_ops.h"
#include "aclop/ops/elementwise_run.h"

namespace ascendc_sim {
namespace aclop {

aclError RunEqual(OpContext& ctx, const EqualAttrs&) {
  return RunElementwiseBroadcast(ctx, kernels::EwOp::kEq, 2, {});
}
aclError RunNotEqual(OpContext& ctx, const NotEqualAttrs&) {
  return RunElementwiseBroadcast(ctx, kernels::EwOp::kNe, 2, {});
}
aclError RunLess(OpContext& ctx, const LessAttrs&) { return RunElementwiseBroadcast(ctx, kernels::EwOp::kLt, 2, {}); }
aclError RunLessEqual(OpContext& ctx, const LessEqualAttrs&) {
  return RunElementwiseBroadcast(ctx, kernels::EwOp::kLe, 2, {});
}
aclError RunGreater(OpContext& ctx, const GreaterAttrs&) {
  return RunElementwiseBroadcast(ctx, kernels::EwOp::kGt, 2, {});
}
aclError RunGreaterEqual(OpContext& ctx, const GreaterEqualAttrs&) {
  return RunElementwiseBroadcast(ctx, kernels::EwOp::kGe, 2, {});
}

}  // namespace aclop
}  // namespace ascendc_sim
