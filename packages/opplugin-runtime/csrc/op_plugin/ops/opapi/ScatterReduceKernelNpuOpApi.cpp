// scatter.reduce / scatter.value_reduce (reduce "add" / "multiply": aclnnScatter /
// aclnnScatterValue with CANN's reduce codes 1 / 2) and scatter_reduce.two (sum, prod,
// mean, amax, amin, include_self: aclnnScatterReduce) are structured: PyTorch's meta
// functions check the arguments and allocate out. index_reduce's meta function
// precomputes `dim`, so its group is unstructured and checked like CPU here
// (aclnnIndexReduce). Out-of-range indices fail the device kernel, naming it.
#define TORCH_ASSERT_ONLY_METHOD_OPERATORS
#include <ATen/core/Tensor.h>
#include <c10/core/WrapDimMinimal.h>

#include "npu/core/NPUGuard.h"
#include "npu/op_common/OpPreparation.h"
#include "npu/op_api/op_api_common.h"
#include "op_plugin/ops/index_reduce.h"
#include "op_plugin/ops/scatter.h"
#include "op_plugin/ops/scatter_reduce.h"

namespace op_api {
namespace {

using at_npu::native::OpPreparation;

// CANN's reduce codes of aclnnScatter/aclnnScatterValue (1 add, 2 multiply) and of
// aclnnScatterReduce/aclnnIndexReduce (1 sum, 2 prod, 3 amax, 4 amin, 5 mean).
int64_t scatter_mode_code(c10::string_view reduce) { return reduce == "multiply" ? 2 : 1; }

int64_t reduce_code(const char* op, c10::string_view reduce) {
  if (reduce == "sum") return 1;
  if (reduce == "prod") return 2;
  if (reduce == "amax") return 3;
  if (reduce == "amin") return 4;
  if (reduce == "mean") return 5;
  TORCH_CHECK(false, op, ": reduce argument must be either sum, prod, mean, amax or amin, got ", reduce);
}

void check_not_complex(const char* op, const at::Tensor& self) {
  TORCH_CHECK(!self.is_complex(), op, ": complex tensors are not supported on npu");
}

void check_index_reduce(const at::Tensor& self, int64_t dim, const at::Tensor& index, const at::Tensor& source,
                        c10::string_view reduce) {
  const char* op = "index_reduce_()";
  check_not_complex(op, self);
  TORCH_CHECK(reduce == "prod" || reduce == "mean" || reduce == "amax" || reduce == "amin",
              "index_reduce(): Expected reduce to be one of prod, mean, amax or amin but got ", reduce, ".");
  dim = c10::maybe_wrap_dim(dim, self.dim());
  TORCH_CHECK(index.dim() <= 1, op, ": Index is supposed to be a vector");
  TORCH_CHECK(index.scalar_type() == at::kLong || index.scalar_type() == at::kInt, op,
              ": Expected dtype int32/int64 for index but got: ", index.scalar_type());
  TORCH_CHECK(self.scalar_type() == source.scalar_type(), op, ": self (", self.scalar_type(), ") and source (",
              source.scalar_type(), ") must have the same scalar type");
  TORCH_CHECK(dim == 0 || dim < source.dim(), op, ": Indexing dim ", dim,
              " is out of bounds of the source tensor with dim ", source.dim());
  const int64_t count = source.dim() > 0 ? source.size(dim) : 1;
  TORCH_CHECK(index.numel() == count, op, ": Number of indices (", index.numel(),
              ") should be equal to source.size(dim) (", count, ")");
  bool same = self.dim() == source.dim() || (self.dim() <= 1 && source.dim() <= 1);
  for (int64_t d = 0; same && d < self.dim(); ++d) same = d == dim || self.size(d) == source.size(d);
  TORCH_CHECK(same, op, ": source tensor shape ", source.sizes(), " must match self tensor shape ", self.sizes(),
              ", excluding the specified dimension ", dim);
}

}  // namespace

at::Tensor& scatter_with_reduce_out(const at::Tensor& self, int64_t dim, const at::Tensor& index,
                                    const at::Tensor& src, c10::string_view reduce, at::Tensor& out) {
  check_not_complex("scatter", self);
  c10_npu::NPUGuard guard(self.device());
  if (out.numel() > 0) EXEC_NPU_CMD(aclnnScatter, self, dim, index, src, scatter_mode_code(reduce), out);
  return out;
}

at::Tensor& scatter_value_with_reduce_out(const at::Tensor& self, int64_t dim, const at::Tensor& index,
                                          const at::Scalar& value, c10::string_view reduce, at::Tensor& out) {
  check_not_complex("scatter", self);
  c10_npu::NPUGuard guard(self.device());
  if (out.numel() > 0) EXEC_NPU_CMD(aclnnScatterValue, self, dim, index, value, scatter_mode_code(reduce), out);
  return out;
}

at::Tensor& scatter_reduce_two_out(const at::Tensor& self, int64_t dim, const at::Tensor& index,
                                   const at::Tensor& src, c10::string_view reduce, bool include_self,
                                   at::Tensor& out) {
  check_not_complex("scatter_reduce", self);
  const int64_t code = reduce_code("scatter_reduce", reduce);
  c10_npu::NPUGuard guard(self.device());
  if (out.numel() > 0) EXEC_NPU_CMD(aclnnScatterReduce, self, dim, index, src, code, include_self, out);
  return out;
}

at::Tensor& index_reduce_out(const at::Tensor& self, int64_t dim, const at::Tensor& index, const at::Tensor& source,
                             c10::string_view reduce, bool include_self, at::Tensor& out) {
  check_index_reduce(self, dim, index, source, reduce);
  TORCH_CHECK(out.scalar_type() == self.scalar_type(), "index_reduce.out: out (", out.scalar_type(),
              ") must have self's scalar type (", self.scalar_type(), ")");
  c10_npu::NPUGuard guard(self.device());
  OpPreparation::check_tensor({self, index, source}, out, self.scalar_type(), self.sizes());
  if (out.numel() > 0) {
    EXEC_NPU_CMD(aclnnIndexReduce, self, dim, index, source, reduce_code("index_reduce", reduce), include_self, out);
  }
  return out;
}

at::Tensor index_reduce(const at::Tensor& self, int64_t dim, const at::Tensor& index, const at::Tensor& source,
                        c10::string_view reduce, bool include_self) {
  check_index_reduce(self, dim, index, source, reduce);
  c10_npu::NPUGuard guard(self.device());
  at::Tensor out = OpPreparation::apply_tensor_without_format(self.sizes(), self.options());
  if (out.numel() > 0) {
    EXEC_NPU_CMD(aclnnIndexReduce, self, dim, index, source, reduce_code("index_reduce", reduce), include_self, out);
  }
  return out;
}

at::Tensor& index_reduce_(at::Tensor& self, int64_t dim, const at::Tensor& index, const at::Tensor& source,
                          c10::string_view reduce, bool include_self) {
  check_index_reduce(self, dim, index, source, reduce);
  c10_npu::NPUGuard guard(self.device());
  if (self.numel() > 0) {
    EXEC_NPU_CMD(aclnnIndexReduce, self, dim, index, source, reduce_code("index_reduce", reduce), include_self, self);
  }
  return self;
}

}  // namespace op_api
