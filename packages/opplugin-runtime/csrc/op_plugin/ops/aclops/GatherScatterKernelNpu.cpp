// gather, scatter (.src/.value), scatter_add (structured: PyTorch's meta functions check and allocate out)
// and index_add on the acl_op path: "GatherElements" (attr dim), "ScatterElements" (attrs axis, reduction
// "none"/"add"; a value is a one-element constant updates), "InplaceIndexAdd" (attr axis, constant alpha).
// Checks and messages are the op_api kernels'; out-of-range indices fail the device kernel, naming it.
#define TORCH_ASSERT_ONLY_METHOD_OPERATORS
#include <ATen/core/Tensor.h>
#include <c10/core/WrapDimMinimal.h>

#include "npu/acl_op/OpCommand.h"
#include "npu/core/NPUGuard.h"
#include "npu/format/FormatHelper.h"
#include "npu/op_common/OpPreparation.h"
#include "op_plugin/ops/gather.h"
#include "op_plugin/ops/index_add.h"
#include "op_plugin/ops/scatter.h"
#include "op_plugin/ops/scatter_add.h"
#include "op_plugin/utils/AclOpUtils.h"

namespace acl_op {
namespace {

using at_npu::native::OpCommand;
using at_npu::native::OpPreparation;

void check_not_complex(const char* op, const at::Tensor& self) {
  TORCH_CHECK(!self.is_complex(), op, ": complex tensors are not supported on npu");
}

void check_index_add(const at::Tensor& self, int64_t dim, const at::Tensor& index, const at::Tensor& source) {
  const char* op = "index_add";
  check_not_complex(op, self);
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

// out <- run(result) where run writes a dense base-format result of out's shape and dtype.
template <typename Run>
at::Tensor& into_out(at::Tensor& out, Run run) {
  if (out.numel() == 0) {
    return out;
  }
  const bool direct = out.is_contiguous() && at_npu::native::FormatHelper::IsOpInputBaseFormat(out);
  at::Tensor result = direct ? out : OpPreparation::apply_tensor_without_format(out.sizes(), out.options());
  run(result);
  if (!direct) {
    out.copy_(result);
  }
  return out;
}

// out <- self scattered: updates a tensor (of self's dtype) or a one-element constant.
at::Tensor& scatter_elements(const at::Tensor& self, int64_t dim, const at::Tensor& index, const at::Tensor& updates,
                             const char* reduction, at::Tensor& out) {
  return into_out(out, [&](at::Tensor& result) {
    OpCommand cmd;
    cmd.Name("ScatterElements");
    op_plugin::utils::AddInputAs(cmd, self, self.scalar_type());
    cmd.Input(index);
    op_plugin::utils::AddInputAs(cmd, updates, self.scalar_type());
    cmd.Output(result).Attr("axis", dim).Attr("reduction", reduction).Run();
  });
}

}  // namespace

at::Tensor& gather_out(const at::Tensor& self, int64_t dim, const at::Tensor& index, bool sparse_grad,
                       at::Tensor& out) {
  (void)sparse_grad;  // only selects the backward formula
  check_not_complex("gather", self);
  c10_npu::NPUGuard guard(self.device());
  return into_out(out, [&](at::Tensor& result) {
    OpCommand cmd;
    cmd.Name("GatherElements");
    op_plugin::utils::AddInputAs(cmd, self, self.scalar_type());
    cmd.Input(index).Output(result).Attr("dim", dim).Run();
  });
}

at::Tensor& scatter_out(const at::Tensor& self, int64_t dim, const at::Tensor& index, const at::Tensor& src,
                        at::Tensor& out) {
  check_not_complex("scatter", self);
  c10_npu::NPUGuard guard(self.device());
  return scatter_elements(self, dim, index, src, "none", out);
}

at::Tensor& scatter_value_out(const at::Tensor& self, int64_t dim, const at::Tensor& index, const at::Scalar& value,
                              at::Tensor& out) {
  check_not_complex("scatter", self);
  c10_npu::NPUGuard guard(self.device());
  return scatter_elements(self, dim, index, op_plugin::utils::scalar_operand(value), "none", out);
}

at::Tensor& scatter_add_out(const at::Tensor& self, int64_t dim, const at::Tensor& index, const at::Tensor& src,
                            at::Tensor& out) {
  check_not_complex("scatter_add", self);
  c10_npu::NPUGuard guard(self.device());
  return scatter_elements(self, dim, index, src, "add", out);
}

at::Tensor& index_add_out(const at::Tensor& self, int64_t dim, const at::Tensor& index, const at::Tensor& source,
                          const at::Scalar& alpha, at::Tensor& out) {
  check_index_add(self, dim, index, source);
  TORCH_CHECK(out.scalar_type() == self.scalar_type(), "index_add.out: out (", out.scalar_type(),
              ") must have self's scalar type (", self.scalar_type(), ")");
  c10_npu::NPUGuard guard(self.device());
  OpPreparation::check_tensor({self, index, source}, out, self.scalar_type(), self.sizes());
  const int64_t wrapped = c10::maybe_wrap_dim(dim, self.dim());
  return into_out(out, [&](at::Tensor& result) {
    OpCommand cmd;
    cmd.Name("InplaceIndexAdd");
    op_plugin::utils::AddInputAs(cmd, self, self.scalar_type());
    cmd.Input(index.reshape({index.numel()}));
    op_plugin::utils::AddInputAs(cmd, source, self.scalar_type());
    cmd.Input(alpha, self.scalar_type()).Output(result).Attr("axis", wrapped).Run();
  });
}

at::Tensor index_add(const at::Tensor& self, int64_t dim, const at::Tensor& index, const at::Tensor& source,
                     const at::Scalar& alpha) {
  check_index_add(self, dim, index, source);
  c10_npu::NPUGuard guard(self.device());
  at::Tensor out = OpPreparation::apply_tensor_without_format(self.sizes(), self.options());
  return index_add_out(self, dim, index, source, alpha, out);
}

}  // namespace acl_op
