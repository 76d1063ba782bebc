#include "op_plugin/utils/NormalUtils.h"

#include <ATen/ExpandUtils.h>
#include <ATen/ops/amin.h>
#include <c10/util/Exception.h>

#include <vector>

#include "npu/op_common/OpPreparation.h"

namespace op_plugin::utils {
namespace {

void check_std_value(double std) { TORCH_CHECK(std >= 0.0, "normal expects std >= 0.0, but found std ", std); }

void check_std_tensor(const at::Tensor& std) {
  TORCH_CHECK(!std.is_complex(), "normal expects standard deviation to be non-complex");
  if (std.numel() > 0) {
    TORCH_CHECK(at::amin(std).item<double>() >= 0.0, "normal expects all elements of std >= 0.0");
  }
}

at::Tensor new_result(c10::IntArrayRef sizes, const at::Tensor& like) {
  return at_npu::native::OpPreparation::apply_tensor_without_format(sizes, like.options());
}

void resize_for(at::Tensor& out, at::IntArrayRef shape) {
  if (!out.sizes().equals(shape)) out.resize_(shape);
}

}  // namespace

void check_normal_out(const at::Tensor& out) {
  TORCH_CHECK(at::isFloatingType(out.scalar_type()), "normal: out has dtype ", out.scalar_type(),
              "; expected a floating point dtype");
}

at::Tensor normal_tensor_float(const at::Tensor& mean, double std, c10::optional<at::Generator> generator,
                               NormalDraw draw) {
  check_std_value(std);
  at::Tensor out = new_result(mean.sizes(), mean);
  return draw(mean, 0.0, c10::nullopt, std, generator, out);
}

at::Tensor& normal_tensor_float_out(const at::Tensor& mean, double std, c10::optional<at::Generator> generator,
                                    at::Tensor& out, NormalDraw draw) {
  check_std_value(std);
  resize_for(out, mean.sizes());
  return draw(mean, 0.0, c10::nullopt, std, generator, out);
}

at::Tensor normal_float_tensor(double mean, const at::Tensor& std, c10::optional<at::Generator> generator,
                               NormalDraw draw) {
  check_std_tensor(std);
  at::Tensor out = new_result(std.sizes(), std);
  return draw(c10::nullopt, mean, std, 0.0, generator, out);
}

at::Tensor& normal_float_tensor_out(double mean, const at::Tensor& std, c10::optional<at::Generator> generator,
                                    at::Tensor& out, NormalDraw draw) {
  check_std_tensor(std);
  resize_for(out, std.sizes());
  return draw(c10::nullopt, mean, std, 0.0, generator, out);
}

at::Tensor normal_tensor_tensor(const at::Tensor& mean, const at::Tensor& std, c10::optional<at::Generator> generator,
                                NormalDraw draw) {
  check_std_tensor(std);
  const std::vector<int64_t> shape = at::infer_size(mean.sizes(), std.sizes());
  at::Tensor out = new_result(shape, mean);
  return draw(mean, 0.0, std, 0.0, generator, out);
}

at::Tensor& normal_tensor_tensor_out(const at::Tensor& mean, const at::Tensor& std,
                                     c10::optional<at::Generator> generator, at::Tensor& out, NormalDraw draw) {
  check_std_tensor(std);
  const std::vector<int64_t> shape = at::infer_size(mean.sizes(), std.sizes());
  resize_for(out, shape);
  return draw(mean, 0.0, std, 0.0, generator, out);
}

}  // namespace op_plugin::utils
