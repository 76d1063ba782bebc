// masked_scatter_, put_, index_fill_ (Scalar and Tensor value) and index_copy (+ in-place) on the acl_op
// path, as upstream's acl_op kernels run them: "MaskedScatter"; put_ as "ScatterNdUpdate" ("ScatterNdAdd"
// with accumulate) over self flattened with the indices as one column; index_fill_ as "IndexFillD" with
// the two assist tensors built on the host from the index; index_copy as a copy of each indexed slice
// (the indices read on the host). Checks and messages are op_plugin::utils' (IndexUpdateUtils.h,
// MaskedCompressUtils.h), shared with the op_api kernels.
#define TORCH_ASSERT_ONLY_METHOD_OPERATORS
#include <ATen/core/Tensor.h>
#include <ATen/ops/ones.h>
#include <ATen/ops/zeros.h>
#include <c10/core/WrapDimMinimal.h>

#include <functional>
#include <vector>

#include "npu/acl_op/OpCommand.h"
#include "npu/core/NPUGuard.h"
#include "op_plugin/ops/index_copy.h"
#include "op_plugin/ops/index_fill.h"
#include "op_plugin/ops/masked_scatter.h"
#include "op_plugin/ops/put.h"
#include "op_plugin/utils/AclOpUtils.h"
#include "op_plugin/utils/IndexUpdateUtils.h"
#include "op_plugin/utils/MaskedCompressUtils.h"

namespace acl_op {
namespace {

using at_npu::native::OpCommand;

// The indices of a 0-d or 1-D long tensor, on the host, each checked against `size` (negative ones
// count from the end when `wrap`), with CPU's message for one outside.
std::vector<int64_t> host_indices(const at::Tensor& index, int64_t size, int64_t dim, bool wrap, const char* op) {
  const at::Tensor host = index.reshape({-1}).cpu();
  const int64_t* data = host.const_data_ptr<int64_t>();
  std::vector<int64_t> out(data, data + host.numel());
  for (int64_t& i : out) {
    const bool inside = wrap ? (i >= -size && i < size) : (i >= 0 && i < size);
    TORCH_CHECK_INDEX(inside, op, "index ", i, " is out of bounds for dimension ", dim, " with size ", size);
    if (i < 0) i += size;
  }
  return out;
}

// `self` (any layout) <- `run` on a dense base-format tensor holding self's values.
at::Tensor& update_in_place(at::Tensor& self, const std::function<void(at::Tensor&)>& run) {
  return op_plugin::utils::write_through_base_format(self, [&](at::Tensor& result) {
    if (!result.is_same(self)) result.copy_(self);  // a temporary: the ops update it
    run(result);
  });
}

}  // namespace

at::Tensor& masked_scatter_(at::Tensor& self, const at::Tensor& mask, const at::Tensor& source) {
  op_plugin::utils::check_masked_scatter(self, mask, source);
  c10_npu::NPUGuard guard(self.device());
  return update_in_place(self, [&](at::Tensor& result) {
    OpCommand cmd;
    cmd.Name("MaskedScatter").Input(result);
    op_plugin::utils::AddInputAs(cmd, mask, at::kBool);
    op_plugin::utils::AddInputAs(cmd, source, self.scalar_type());
    cmd.Output(result).Run();
  });
}

at::Tensor& put_(at::Tensor& self, const at::Tensor& index, const at::Tensor& source, bool accumulate) {
  op_plugin::utils::check_put(self, index, source);
  if (index.numel() == 0) return self;
  c10_npu::NPUGuard guard(self.device());
  if (accumulate && self.scalar_type() == at::kBool) {
    // ScatterNdAdd takes no bool: add as int32, then nonzero is true (a logical or, as CPU's bool sum).
    at::Tensor wide = self.to(at::kInt);
    acl_op::put_(wide, index, source.to(at::kInt), true);
    return self.copy_(wide);
  }
  return update_in_place(self, [&](at::Tensor& result) {
    at::Tensor flat = result.view({-1});
    OpCommand cmd;
    cmd.Name(accumulate ? "ScatterNdAdd" : "ScatterNdUpdate").Input(flat);
    op_plugin::utils::AddInputAs(cmd, index.reshape({-1, 1}), at::kLong);
    op_plugin::utils::AddInputAs(cmd, source.reshape({-1}), self.scalar_type());
    cmd.Output(flat).Attr("use_locking", false).Run();
  });
}

at::Tensor& index_fill_(at::Tensor& self, int64_t dim, const at::Tensor& index, const at::Scalar& value) {
  op_plugin::utils::check_index_fill(self, dim, index);
  if (self.numel() == 0 || index.numel() == 0) return self;
  dim = c10::maybe_wrap_dim(dim, self.dim());
  const int64_t size = self.dim() == 0 ? 1 : self.size(dim);
  // The slices along dim to fill, as assist1 (0 there, 1 elsewhere) and assist2 (value there, 0 elsewhere).
  const at::TensorOptions host = at::TensorOptions().dtype(self.scalar_type());
  at::Tensor keep = at::ones({size}, host);
  at::Tensor fill = at::zeros({size}, host);
  for (int64_t i : host_indices(index, size, dim, true, "")) {
    keep[i].fill_(0);
    fill[i].fill_(value);
  }
  std::vector<int64_t> along(static_cast<size_t>(self.dim()), 1);
  if (self.dim() > 0) along[static_cast<size_t>(dim)] = size;
  const at::Tensor assist1 = keep.view(along).expand(self.sizes()).contiguous().to(self.device());
  const at::Tensor assist2 = fill.view(along).expand(self.sizes()).contiguous().to(self.device());
  c10_npu::NPUGuard guard(self.device());
  return update_in_place(self, [&](at::Tensor& result) {
    OpCommand cmd;
    cmd.Name("IndexFillD").Input(result).Input(assist1).Input(assist2).Attr("dim", dim).Output(result).Run();
  });
}

at::Tensor& index_fill_(at::Tensor& self, int64_t dim, const at::Tensor& index, const at::Tensor& value) {
  op_plugin::utils::check_index_fill_value(value);
  return acl_op::index_fill_(self, dim, index, value.item());
}

at::Tensor& index_copy_(at::Tensor& self, int64_t dim, const at::Tensor& index, const at::Tensor& source) {
  op_plugin::utils::check_index_copy(self, dim, index, source);
  if (self.numel() == 0) return self;
  dim = c10::maybe_wrap_dim(dim, self.dim());
  const int64_t size = self.dim() == 0 ? 1 : self.size(dim);
  const std::vector<int64_t> indices = host_indices(index, size, dim, false, "index_copy_(): ");
  c10_npu::NPUGuard guard(self.device());
  for (size_t i = 0; i < indices.size(); ++i) {
    at::Tensor to = self.dim() == 0 ? self : self.select(dim, indices[i]);
    const at::Tensor from = source.dim() == 0 ? source : source.select(dim, static_cast<int64_t>(i));
    to.copy_(from);
  }
  return self;
}

at::Tensor index_copy(const at::Tensor& self, int64_t dim, const at::Tensor& index, const at::Tensor& source) {
  at::Tensor result = self.clone(at::MemoryFormat::Contiguous);
  return acl_op::index_copy_(result, dim, index, source);
}

}  // namespace acl_op
