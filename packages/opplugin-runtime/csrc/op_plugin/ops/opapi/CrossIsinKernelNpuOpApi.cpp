// linalg_cross and isin on npu, composed from npu kernels after ATen's meta functions checked
// the arguments and sized out:
// - linalg_cross: with a' = roll(a, -1) and a'' = roll(a, -2) along dim (a of length 3 there),
//   a x b = a' b'' - a'' b' (the three components at once, each in the operands' dtype as on CPU);
// - isin: the test elements sorted once, each element binary-searched among them
//   (searchsorted) and compared with the value found, O((n + m) log m) rather than n * m.
#define TORCH_ASSERT_ONLY_METHOD_OPERATORS
#include <ATen/WrapDimUtils.h>
#include <ATen/core/Tensor.h>
#include <ATen/ops/result_type.h>
#include <ATen/ops/searchsorted.h>
#include <ATen/ops/sort.h>

#include "npu/core/NPUGuard.h"
#include "op_plugin/ops/isin.h"
#include "op_plugin/ops/linalg_cross.h"
#include "op_plugin/utils/RearrangeUtils.h"

namespace op_api {

at::Tensor& linalg_cross_out(const at::Tensor& self, const at::Tensor& other, int64_t dim, at::Tensor& out) {
  op_plugin::utils::check_cross_dtypes(self, other);
  c10_npu::NPUGuard guard(self.device());
  const int64_t d = at::maybe_wrap_dim(dim, self.dim());
  const at::Tensor a1 = self.roll({-1}, {d}), a2 = self.roll({-2}, {d});
  const at::Tensor b1 = other.roll({-1}, {d}), b2 = other.roll({-2}, {d});
  out.copy_(a1.mul(b2).sub_(a2.mul(b1)));
  return out;
}

namespace {

// Whether each element of `elements` occurs in `test` (a flat, sorted, non-empty tensor of the same dtype).
at::Tensor contained_in_sorted(const at::Tensor& elements, const at::Tensor& sorted) {
  const int64_t last = sorted.numel() - 1;
  const at::Tensor position = at::searchsorted(sorted, elements.contiguous()).clamp_max_(last);
  return sorted.index_select(0, position.reshape({-1})).view(elements.sizes()).eq(elements);
}

}  // namespace

at::Tensor& isin_out(const at::Tensor& elements, const at::Tensor& test_elements, bool assume_unique, bool invert,
                     at::Tensor& out) {
  (void)assume_unique;  // the result does not depend on it
  c10_npu::NPUGuard guard(elements.device());
  if (test_elements.numel() == 0 || elements.numel() == 0) {
    out.fill_(invert);
    return out;
  }
  const auto common = at::result_type(elements, test_elements);
  const at::Tensor values = elements.to(common);
  const at::Tensor sorted = std::get<0>(at::sort(test_elements.to(common).reshape({-1})));
  at::Tensor found = contained_in_sorted(values, sorted);
  out.copy_(invert ? found.logical_not_() : found);
  return out;
}

at::Tensor& isin_out(const at::Tensor& elements, const at::Scalar& test_element, bool assume_unique, bool invert,
                     at::Tensor& out) {
  (void)assume_unique;
  c10_npu::NPUGuard guard(elements.device());
  out.copy_(invert ? elements.ne(test_element) : elements.eq(test_element));
  return out;
}

}  // namespace op_api
