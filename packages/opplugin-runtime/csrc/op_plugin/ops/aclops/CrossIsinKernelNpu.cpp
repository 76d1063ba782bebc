// linalg_cross ("Cross" along the wrapped dim) and isin with a scalar test element (eq / ne on this path)
// on the acl_op path; both are the out= kernels of structured groups (ATen's meta functions checked the
// shapes and sized out). The dtype check is op_plugin::utils::check_cross_dtypes, shared with op_api.
#define TORCH_ASSERT_ONLY_METHOD_OPERATORS
#include <ATen/WrapDimUtils.h>
#include <ATen/core/Tensor.h>

#include "npu/acl_op/OpCommand.h"
#include "npu/core/NPUGuard.h"
#include "op_plugin/ops/isin.h"
#include "op_plugin/ops/linalg_cross.h"
#include "op_plugin/utils/AclOpUtils.h"
#include "op_plugin/utils/RearrangeUtils.h"

namespace acl_op {

at::Tensor& linalg_cross_out(const at::Tensor& self, const at::Tensor& other, int64_t dim, at::Tensor& out) {
  op_plugin::utils::check_cross_dtypes(self, other);
  c10_npu::NPUGuard guard(self.device());
  const int64_t wrapped = at::maybe_wrap_dim(dim, out.dim());
  const at::ScalarType dtype = self.scalar_type();
  return op_plugin::utils::elementwise_acl_op_out(
      "Cross", {self, other}, dtype, dtype, out,
      [wrapped](at_npu::native::OpCommand& cmd) { cmd.Attr("dim", wrapped); }, false);
}

at::Tensor& isin_out(const at::Tensor& elements, const at::Scalar& test_element, bool assume_unique, bool invert,
                     at::Tensor& out) {
  (void)assume_unique;  // the result does not depend on it
  c10_npu::NPUGuard guard(elements.device());
  out.copy_(invert ? elements.ne(test_element) : elements.eq(test_element));
  return out;
}

}  // namespace acl_op
