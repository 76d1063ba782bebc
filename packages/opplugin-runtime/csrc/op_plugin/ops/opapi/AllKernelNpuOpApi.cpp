// all.dim / all.out (one dimension), all.dims / all.dims_out (several, torch 2.2 on) and
// all / all.all_out (every dimension) on the op_api path (aclnnAll). The result is bool, or uint8 for a uint8 self, as
// ATen's CPU kernels; out= accepts bool (or uint8 for a uint8 self) and is
// resized to the result's shape.
#define TORCH_ASSERT_ONLY_METHOD_OPERATORS
#include <ATen/core/Tensor.h>
#include <ATen/WrapDimUtilsMulti.h>
#include <c10/core/WrapDimMinimal.h>

#include <algorithm>
#include <vector>

#include "npu/core/NPUGuard.h"
#include "npu/op_common/OpPreparation.h"
#include "npu/op_api/op_api_common.h"
#include "npu/version.h"
#include "op_plugin/ops/all.h"

namespace op_api {
namespace {

using at_npu::native::OpPreparation;

at::ScalarType all_result_type(const at::Tensor& self) {
  return self.scalar_type() == at::kByte ? at::kByte : at::kBool;
}

void check_all_self(const at::Tensor& self) {
  TORCH_CHECK(!at::isComplexType(self.scalar_type()), "all: complex self (", self.scalar_type(),
              ") is not supported on npu");
}

void check_all_out(const at::Tensor& self, const at::Tensor& out) {
  const at::ScalarType t = out.scalar_type();
  TORCH_CHECK(t == at::kBool || (t == at::kByte && self.scalar_type() == at::kByte),
              "all: out must be bool (or uint8 for a uint8 self), got ", t);
}

// The shape of all over dimension `dim` (already wrapped); a 0-d self stays 0-d.
c10::SmallVector<int64_t, 8> all_dim_size(const at::Tensor& self, int64_t dim, bool keepdim) {
  c10::SmallVector<int64_t, 8> size;
  for (int64_t d = 0; d < self.dim(); ++d) {
    if (d != dim) {
      size.push_back(self.size(d));
    } else if (keepdim) {
      size.push_back(1);
    }
  }
  return size;
}

void run_all(const at::Tensor& self, at::IntArrayRef dims, bool keepdim, at::Tensor& out) {
  EXEC_NPU_CMD(aclnnAll, self, dims, keepdim, out);
}

#if OP_API_LIVE(all_dims)
// The dimensions all.dims reduces, wrapped and in order: none given means every dimension,
// an empty list none at all (the result is self != 0), as on CPU; a repeated dimension is
// refused with CPU's message.
std::vector<int64_t> all_dims_reduced(const at::Tensor& self, at::OptionalIntArrayRef dim) {
  std::vector<int64_t> dims;
  if (!dim.has_value()) {
    for (int64_t d = 0; d < self.dim(); ++d) {
      dims.push_back(d);
    }
    return dims;
  }
  const auto mask = at::dim_list_to_bitset(*dim, self.dim());
  for (int64_t d = 0; d < self.dim(); ++d) {
    if (mask[d]) {
      dims.push_back(d);
    }
  }
  return dims;
}

// aclnnAll reads an empty dimension list as every dimension: a reduction over none runs over
// a trailing dimension of size 1 instead.
void run_all_dims(const at::Tensor& self, const std::vector<int64_t>& dims, bool keepdim, at::Tensor& out) {
  if (dims.empty() && self.dim() > 0) {
    const std::vector<int64_t> last = {self.dim()};
    run_all(self.unsqueeze(-1), last, false, out);
  } else {
    run_all(self, dims, keepdim, out);
  }
}

c10::SmallVector<int64_t, 8> all_dims_size(const at::Tensor& self, const std::vector<int64_t>& dims, bool keepdim) {
  c10::SmallVector<int64_t, 8> size;
  for (int64_t d = 0; d < self.dim(); ++d) {
    if (std::find(dims.begin(), dims.end(), d) == dims.end()) {
      size.push_back(self.size(d));
    } else if (keepdim) {
      size.push_back(1);
    }
  }
  return size;
}
#endif

}  // namespace

at::Tensor& all_out(const at::Tensor& self, int64_t dim, bool keepdim, at::Tensor& out) {
  c10_npu::NPUGuard guard(self.device());
  check_all_self(self);
  check_all_out(self, out);
  const int64_t wrapped = c10::maybe_wrap_dim(dim, self.dim());
  OpPreparation::check_tensor({self}, out, out.scalar_type(), all_dim_size(self, wrapped, keepdim));
  const std::vector<int64_t> dims = {wrapped};
  run_all(self, self.dim() == 0 ? at::IntArrayRef() : at::IntArrayRef(dims), keepdim, out);
  return out;
}

at::Tensor all(const at::Tensor& self, int64_t dim, bool keepdim) {
  c10_npu::NPUGuard guard(self.device());
  check_all_self(self);
  const int64_t wrapped = c10::maybe_wrap_dim(dim, self.dim());
  at::Tensor out = OpPreparation::apply_tensor_without_format(all_dim_size(self, wrapped, keepdim),
                                                              self.options().dtype(all_result_type(self)));
  const std::vector<int64_t> dims = {wrapped};
  run_all(self, self.dim() == 0 ? at::IntArrayRef() : at::IntArrayRef(dims), keepdim, out);
  return out;
}

#if OP_API_LIVE(all_dims)
at::Tensor& all_out(const at::Tensor& self, at::OptionalIntArrayRef dim, bool keepdim, at::Tensor& out) {
  c10_npu::NPUGuard guard(self.device());
  check_all_self(self);
  check_all_out(self, out);
  const std::vector<int64_t> dims = all_dims_reduced(self, dim);
  OpPreparation::check_tensor({self}, out, out.scalar_type(), all_dims_size(self, dims, keepdim));
  run_all_dims(self, dims, keepdim, out);
  return out;
}

at::Tensor all(const at::Tensor& self, at::OptionalIntArrayRef dim, bool keepdim) {
  c10_npu::NPUGuard guard(self.device());
  check_all_self(self);
  const std::vector<int64_t> dims = all_dims_reduced(self, dim);
  at::Tensor out = OpPreparation::apply_tensor_without_format(all_dims_size(self, dims, keepdim),
                                                              self.options().dtype(all_result_type(self)));
  run_all_dims(self, dims, keepdim, out);
  return out;
}
#endif

at::Tensor& all_out(const at::Tensor& self, at::Tensor& out) {
  c10_npu::NPUGuard guard(self.device());
  check_all_self(self);
  check_all_out(self, out);
  OpPreparation::check_tensor({self}, out, out.scalar_type(), c10::IntArrayRef());
  run_all(self, at::IntArrayRef(), false, out);
  return out;
}

at::Tensor all(const at::Tensor& self) {
  c10_npu::NPUGuard guard(self.device());
  check_all_self(self);
  at::Tensor out =
      OpPreparation::apply_tensor_without_format(c10::IntArrayRef(), self.options().dtype(all_result_type(self)));
  run_all(self, at::IntArrayRef(), false, out);
  return out;
}

}  // namespace op_api
