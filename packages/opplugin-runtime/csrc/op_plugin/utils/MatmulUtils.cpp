#include "op_plugin/utils/MatmulUtils.h"

#include <ATen/ops/complex.h>
#include <ATen/ops/view_as_real.h>
#include <c10/util/Exception.h>

#include <cstring>
#include <string>

#include "npu/op_common/OpPreparation.h"

namespace op_plugin::utils {
namespace {

bool supported_dtype(at::ScalarType dtype) {
  return dtype == at::kFloat || dtype == at::kHalf || dtype == at::kBFloat16;
}

bool expandable(c10::IntArrayRef from, c10::IntArrayRef to) {
  if (from.size() > to.size()) return false;
  for (size_t i = 0; i < from.size(); ++i) {
    const int64_t f = from[from.size() - 1 - i];
    const int64_t t = to[to.size() - 1 - i];
    if (f != t && f != 1) return false;
  }
  return true;
}

}  // namespace

std::vector<int64_t> matmul_output_size(const char* op, const at::Tensor& self, const char* self_name,
                                        const at::Tensor& mat2, const char* mat2_name, int64_t rank) {
  // The messages end with CPU's text for the same mistake.
  if (rank == 2) {
    TORCH_CHECK(self.dim() == 2, op, ": ", self_name, " must be a matrix, got ", self.dim(), "-D tensor");
    TORCH_CHECK(mat2.dim() == 2, op, ": ", mat2_name, " must be a matrix, got ", mat2.dim(), "-D tensor");
  } else {
    TORCH_CHECK(self.dim() == 3, op, ": ", self_name, " must be 3-D: batch1 must be a 3D tensor, got ", self.dim(),
                "-D");
    TORCH_CHECK(mat2.dim() == 3, op, ": ", mat2_name, " must be 3-D: batch2 must be a 3D tensor, got ", mat2.dim(),
                "-D");
  }
  TORCH_CHECK(self.device() == mat2.device(), op, ": ", self_name, " and ", mat2_name,
              " must be on the same device, got ", self.device(), " and ", mat2.device());
  TORCH_CHECK(self.scalar_type() == mat2.scalar_type(), op, ": ", self_name, " and ", mat2_name,
              " must have the same dtype, got ", self.scalar_type(), " and ", mat2.scalar_type());
  TORCH_CHECK(supported_dtype(self.scalar_type()), op, ": ", self_name, " has dtype ", self.scalar_type(),
              ", which the npu matmul kernels do not support (float32, float16, bfloat16)");
  if (rank == 3) {
    TORCH_CHECK(self.size(0) == mat2.size(0) && self.size(2) == mat2.size(1), op, ": ", self_name, " ",
                self.sizes(), " and ", mat2_name, " ", mat2.sizes(),
                " cannot be multiplied: Expected size for first two dimensions of batch2 tensor to be: [",
                self.size(0), ", ", self.size(2), "] but got: [", mat2.size(0), ", ", mat2.size(1), "].");
  } else {
    // CPU's words, prefixed as torch 2.15 prefixes them with the aten op ("mm" for mm_out, "addmm" for
    // addmm_ too), then the kernel and its arguments.
    size_t length = std::strlen(op);
    if (length > 4 && std::strcmp(op + length - 4, "_out") == 0) length -= 4;
    if (length > 1 && op[length - 1] == '_') length -= 1;
    const std::string aten_op(op, length);
    TORCH_CHECK(self.size(1) == mat2.size(0), aten_op, ": mat1 and mat2 shapes cannot be multiplied (", self.size(0),
                "x", self.size(1), " and ", mat2.size(0), "x", mat2.size(1), ") (", op, ": ", self_name, " and ",
                mat2_name, ")");
  }
  std::vector<int64_t> sizes;
  if (rank == 3) sizes.push_back(self.size(0));
  sizes.push_back(self.size(rank - 2));
  sizes.push_back(mat2.size(rank - 1));
  return sizes;
}

void check_bias(const char* op, const at::Tensor& self, const at::Tensor& mat, c10::IntArrayRef sizes) {
  TORCH_CHECK(self.device() == mat.device(), op, ": self must be on ", mat.device(), ", got ", self.device());
  TORCH_CHECK(self.scalar_type() == mat.scalar_type(), op, ": self and the matrices must have the same dtype, got ",
              self.scalar_type(), " and ", mat.scalar_type());
  TORCH_CHECK(expandable(self.sizes(), sizes), op, ": self of shape ", self.sizes(),
              " cannot be broadcast to the result shape ", sizes);
}

void check_matmul_out(const char* op, const at::Tensor& input, at::Tensor& out, c10::IntArrayRef sizes) {
  TORCH_CHECK(out.device() == input.device(), op, ": out must be on ", input.device(), ", got ", out.device());
  TORCH_CHECK(out.scalar_type() == input.scalar_type(), op, ": out has dtype ", out.scalar_type(),
              ", expected the inputs' dtype ", input.scalar_type());
  at_npu::native::OpPreparation::check_tensor({input}, out, input.scalar_type(), sizes);
}

bool is_transposed_matrix(const at::Tensor& t) {
  const int64_t d = t.dim();
  if (d < 2 || t.size(d - 1) < 2 || t.size(d - 2) < 2) return false;
  if (t.stride(d - 2) != 1 || t.stride(d - 1) != t.size(d - 2)) return false;
  int64_t expected = t.size(d - 1) * t.size(d - 2);
  for (int64_t i = d - 3; i >= 0; --i) {
    if (t.size(i) != 1 && t.stride(i) != expected) return false;
    expected *= t.size(i);
  }
  return true;
}

bool shares_storage(const at::Tensor& a, const at::Tensor& b) {
  return a.numel() > 0 && b.numel() > 0 && a.storage().is_alias_of(b.storage());
}

at::Tensor vdot_by_dots(const at::Tensor& self, const at::Tensor& other, DotKernel dot) {
  TORCH_CHECK(self.dim() == 1 && other.dim() == 1, "vdot: 1D tensors expected, but got ", self.dim(), "D and ",
              other.dim(), "D tensors");
  TORCH_CHECK(self.scalar_type() == other.scalar_type(), "vdot: expected both vectors to have same dtype, but found ",
              self.scalar_type(), " and ", other.scalar_type());
  TORCH_CHECK(self.numel() == other.numel(), "vdot: inconsistent tensor size, expected tensor [", self.numel(),
              "] and src [", other.numel(), "] to have the same number of elements, but got ", self.numel(), " and ",
              other.numel(), " elements respectively");
  if (!self.is_complex()) return dot(self, other);
  const at::Tensor a = at::view_as_real(self.resolve_conj()), b = at::view_as_real(other.resolve_conj());
  const at::Tensor ar = a.select(1, 0), ai = a.select(1, 1), br = b.select(1, 0), bi = b.select(1, 1);
  const at::Tensor real = dot(ar, br).add_(dot(ai, bi));
  const at::Tensor imag = dot(ar, bi).sub_(dot(ai, br));
  return at::complex(real, imag);
}

at::Tensor& addmv_by_addmm(const at::Tensor& self, const at::Tensor& mat, const at::Tensor& vec,
                           const at::Scalar& beta, const at::Scalar& alpha, at::Tensor& out, AddmmOutKernel addmm_out) {
  const at::Tensor bias = self.dim() == 1 ? self.unsqueeze(1) : self;
  if (shares_storage(out, mat) || shares_storage(out, vec)) {
    at::Tensor result = at_npu::native::OpPreparation::apply_tensor_without_format({mat.size(0), 1}, mat.options());
    out.copy_(addmm_out(bias, mat, vec.unsqueeze(1), beta, alpha, result).squeeze(1));
    return out;
  }
  at::Tensor column = out.unsqueeze(1);
  addmm_out(bias, mat, vec.unsqueeze(1), beta, alpha, column);
  return out;
}

std::pair<at::Tensor, at::Tensor> batches_side_by_side(const char* op, const at::Tensor& batch1,
                                                      const at::Tensor& batch2) {
  TORCH_CHECK(batch1.dim() == 3, op, ": batch1 must be a 3D tensor");
  TORCH_CHECK(batch2.dim() == 3, op, ": batch2 must be a 3D tensor");
  TORCH_CHECK(batch1.size(0) == batch2.size(0), op, ": batch1 and batch2 must have same number of batches, got ",
              batch1.size(0), " and ", batch2.size(0));
  TORCH_CHECK(batch1.size(2) == batch2.size(1), op, ": Incompatible matrix sizes for bmm (", batch1.size(1), "x",
              batch1.size(2), " and ", batch2.size(1), "x", batch2.size(2), ")");
  const int64_t b = batch1.size(0), n = batch1.size(1), m = batch1.size(2), p = batch2.size(2);
  return {batch1.transpose(0, 1).reshape({n, b * m}), batch2.reshape({b * m, p})};
}

void resize_addbmm_self(at::Tensor& self, c10::IntArrayRef sizes) {
  if (self.sizes() == sizes) return;
  const at::Tensor expanded = self.expand(sizes).clone();
  self.resize_(sizes);
  self.copy_(expanded);
}

}  // namespace op_plugin::utils
