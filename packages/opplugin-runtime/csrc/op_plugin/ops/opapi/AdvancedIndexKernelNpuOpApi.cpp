// Advanced indexing on the op_api path: index.Tensor (+ out=) with aclnnIndex,
// _index_put_impl_ (index_put/index_put_ are composite over it) with aclnnIndexPutImpl,
// take (+ out=) with aclnnTake and put_ with aclnnInplacePut. As ATen does, bool (and
// uint8) masks become long indices first (nonzero on the npu), the index tensors must
// broadcast together, and the errors are CPU's (IndexError where CPU raises one). An
// index outside its dimension fails the device kernel, naming it. unfold_backward
// (Tensor.unfold's gradient) sums the windows back with put_(accumulate) at the
// positions the unfolded view reads.
#define TORCH_ASSERT_ONLY_METHOD_OPERATORS
#include <ATen/ExpandUtils.h>
#include <c10/util/accumulate.h>
#include <ATen/core/List.h>
#include <ATen/core/Tensor.h>
#include <ATen/ops/empty.h>
#include <ATen/ops/arange.h>
#include <ATen/ops/nonzero.h>
#include <ATen/ops/zeros.h>
#include <c10/core/WrapDimMinimal.h>

#include <sstream>
#include <string>
#include <vector>

#include "npu/core/NPUGuard.h"
#include "npu/op_common/OpPreparation.h"
#include "npu/op_api/op_api_common.h"
#include "op_plugin/ops/_index_put_impl.h"
#include "op_plugin/ops/index.h"
#include "op_plugin/ops/put.h"
#include "op_plugin/ops/take.h"
#include "op_plugin/utils/AdvancedIndexUtils.h"
#include "op_plugin/utils/IndexUpdateUtils.h"
#include "op_plugin/utils/RearrangeUtils.h"
#include "op_plugin/ops/unfold_backward.h"

namespace op_api {
namespace {

using at_npu::native::OpPreparation;

using op_plugin::utils::check_not_complex;
using op_plugin::utils::expand_indices;
using op_plugin::utils::indexing_shape;

// The aclnn index list: None as an empty bool tensor (aclnnIndex's placeholder).
std::vector<at::Tensor> aclnn_index_list(const at::Tensor& self, const std::vector<at::Tensor>& indices) {
  std::vector<at::Tensor> list;
  at::Tensor none;
  for (const at::Tensor& t : indices) {
    if (t.defined()) {
      list.push_back(t);
      continue;
    }
    if (!none.defined()) none = at::empty({0}, self.options().dtype(at::kBool));
    list.push_back(none);
  }
  return list;
}

at::Tensor& index_into(const at::Tensor& self, const std::vector<at::Tensor>& indices,
                       const std::vector<int64_t>& shape, at::Tensor& out) {
  int64_t numel = 1;
  for (int64_t d : shape) numel *= d;
  if (numel > 0) {
    TORCH_CHECK_INDEX(self.numel() > 0, "index is out of bounds for dimension with size 0");
    const std::vector<at::Tensor> list = aclnn_index_list(self, indices);
    EXEC_NPU_CMD(aclnnIndex, self, list, out);
  }
  return out;
}

}  // namespace

at::Tensor index(const at::Tensor& self, const c10::List<c10::optional<at::Tensor>>& indices) {
  check_not_complex("index", self);
  c10_npu::NPUGuard guard(self.device());
  const std::vector<at::Tensor> expanded = expand_indices(self, indices);
  const bool any = op_plugin::utils::any_index(expanded);
  if (!any) return self.clone();
  const std::vector<int64_t> shape = indexing_shape(self, expanded);
  at::Tensor out = OpPreparation::apply_tensor_without_format(shape, self.options());
  return index_into(self, expanded, shape, out);
}

at::Tensor& index_out(const at::Tensor& self, const c10::List<c10::optional<at::Tensor>>& indices, at::Tensor& out) {
  check_not_complex("index", self);
  TORCH_CHECK(out.scalar_type() == self.scalar_type(), "index_out: self (", self.scalar_type(), ") and result (",
              out.scalar_type(), ") must have the same scalar type");
  c10_npu::NPUGuard guard(self.device());
  const std::vector<at::Tensor> expanded = expand_indices(self, indices);
  const bool any = op_plugin::utils::any_index(expanded);
  if (!any) {
    if (!out.sizes().equals(self.sizes())) out.resize_(self.sizes());
    out.copy_(self);
    return out;
  }
  const std::vector<int64_t> shape = indexing_shape(self, expanded);
  if (!out.sizes().equals(shape)) out.resize_(shape);
  if (out.is_contiguous()) return index_into(self, expanded, shape, out);
  at::Tensor dense = OpPreparation::apply_tensor_without_format(shape, self.options());
  index_into(self, expanded, shape, dense);
  out.copy_(dense);
  return out;
}

at::Tensor& _index_put_impl_(at::Tensor& self, const c10::List<c10::optional<at::Tensor>>& indices,
                             const at::Tensor& values, bool accumulate, bool unsafe) {
  check_not_complex("index_put_", self);
  op_plugin::utils::check_index_put_dtypes(self, values);
  c10_npu::NPUGuard guard(self.device());
  const std::vector<at::Tensor> expanded = expand_indices(self, indices);
  const bool any = op_plugin::utils::any_index(expanded);
  const at::Tensor v = values.device() == self.device() ? values : values.to(self.device());
  if (!any) {  // self[...] = values
    if (accumulate) {
      self.add_(v);
    } else {
      self.copy_(v);
    }
    return self;
  }
  const std::vector<int64_t> shape = op_plugin::utils::index_put_shape(self, expanded, v);
  if (c10::multiply_integers(shape) == 0) return self;
  const std::vector<at::Tensor> list = aclnn_index_list(self, expanded);
  EXEC_NPU_CMD(aclnnIndexPutImpl, self, list, v, accumulate, unsafe);
  return self;
}

at::Tensor take(const at::Tensor& self, const at::Tensor& index) {
  op_plugin::utils::check_take_args(self, index);
  c10_npu::NPUGuard guard(self.device());
  at::Tensor out = OpPreparation::apply_tensor_without_format(index.sizes(), self.options());
  if (out.numel() > 0) EXEC_NPU_CMD(aclnnTake, self, index, out);
  return out;
}

at::Tensor& take_out(const at::Tensor& self, const at::Tensor& index, at::Tensor& out) {
  op_plugin::utils::check_take_out(self, out);
  at::Tensor result = op_api::take(self, index);
  if (!out.sizes().equals(result.sizes())) out.resize_(result.sizes());
  out.copy_(result);
  return out;
}

at::Tensor& put_(at::Tensor& self, const at::Tensor& index, const at::Tensor& source, bool accumulate) {
  op_plugin::utils::check_put(self, index, source);
  c10_npu::NPUGuard guard(self.device());
  if (index.numel() > 0) EXEC_NPU_CMD(aclnnInplacePut, self, index, source, accumulate);
  return self;
}

at::Tensor unfold_backward(const at::Tensor& grad_in, at::IntArrayRef input_sizes, int64_t dim, int64_t size,
                           int64_t step) {
  check_not_complex("unfold_backward", grad_in);
  dim = c10::maybe_wrap_dim(dim, static_cast<int64_t>(input_sizes.size()));
  c10_npu::NPUGuard guard(grad_in.device());
  at::Tensor result = at::zeros(input_sizes, grad_in.options());
  if (grad_in.numel() == 0 || result.numel() == 0) return result;
  // The input position every element of the unfolded view reads (windows overlap when step < size).
  const at::Tensor positions = at::arange(result.numel(), grad_in.options().dtype(at::kLong))
                                   .view(input_sizes)
                                   .unfold(dim, size, step)
                                   .contiguous();
  TORCH_CHECK(positions.sizes().equals(grad_in.sizes()), "unfold_backward: grad_in has shape ", grad_in.sizes(),
              ", expected ", positions.sizes());
  return op_api::put_(result, positions, grad_in, /*accumulate=*/true);
}

}  // namespace op_api
