#define TORCH_ASSERT_ONLY_METHOD_OPERATORS
#include "op_plugin/utils/UpsampleUtils.h"

namespace op_plugin::utils {
namespace {

// The source-position scale an explicit factor and the sizes give, in the kernels' compute type C.
template <typename C>
bool same_scale(int64_t in, int64_t out, double scale) {
  return static_cast<C>(1.0 / scale) == static_cast<C>(in) / static_cast<C>(out);
}

}  // namespace

void check_upsample_dtype(const char* op, const char* arg, const at::Tensor& self, bool nearest) {
  const at::ScalarType dtype = self.scalar_type();
  const bool floating = dtype == at::kFloat || dtype == at::kHalf || dtype == at::kBFloat16 || dtype == at::kDouble;
  TORCH_CHECK(floating || (nearest && dtype == at::kByte), op, ": ", arg, " of dtype ", dtype,
              " is not supported on npu (float32, float16, bfloat16, float64", nearest ? ", uint8)" : ")");
}

void check_size_derived_scale(const char* op, const char* type, const char* arg, int64_t in, int64_t out,
                              c10::optional<double> scale, bool align_corners, bool exact_sizes,
                              at::ScalarType dtype) {
  if (align_corners || !scale.has_value() || *scale <= 0.0 || in <= 0 || out <= 0) return;
  if (exact_sizes && (out == in || out == 2 * in)) return;
  const bool same = dtype == at::kDouble ? same_scale<double>(in, out, *scale) : same_scale<float>(in, out, *scale);
  TORCH_CHECK(same, op, ": ", arg, "=", *scale, " places the source positions other than the sizes (", in, " -> ",
              out, ") do, and the acl_op path's ", type,
              " derives them from the sizes alone; run it on the op_api path (jit_compile=False)");
}

}  // namespace op_plugin::utils
