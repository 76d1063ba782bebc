// uniform_, normal_, normal with tensor moments (Tensor_float, float_Tensor, Tensor_Tensor, + out=),
// bernoulli_.float, bernoulli_.Tensor and random_ (from/to, to, none) on the acl_op path: "StatelessRandomUniformV2" /
// "StatelessRandomNormalV2" (key = [seed], counter = [offset, 0], alg 1: Philox) scaled into place by "Muls"
// and "Add" (tensor moments: "Mul" and "Add", broadcasting), and "StatelessBernoulli", with a (seed, offset)
// pair reserved from the npu generator as the op_api kernels do. random_ maps a double uniform draw onto
// its integers (see random_inclusive). Checks and messages are the op_api kernels' (the normal wrappers and
// random_'s ranges are op_plugin::utils', NormalUtils.h and RandomUtils.h).
#define TORCH_ASSERT_ONLY_METHOD_OPERATORS
#include <cmath>
#include <cstdint>
#include <limits>

#include <ATen/core/Tensor.h>

#include "npu/acl_op/OpCommand.h"
#include "npu/core/NPUGenerator.h"
#include "npu/core/NPUGuard.h"
#include "npu/format/FormatHelper.h"
#include "npu/op_common/OpPreparation.h"
#include "op_plugin/ops/bernoulli.h"
#include "op_plugin/ops/normal.h"
#include "op_plugin/ops/random.h"
#include "op_plugin/ops/uniform.h"
#include "op_plugin/utils/AclOpUtils.h"
#include "op_plugin/utils/NormalUtils.h"
#include "op_plugin/utils/RandomUtils.h"

namespace acl_op {
namespace {

using at_npu::native::OpCommand;
using at_npu::native::OpPreparation;

void check_floating(const char* op, const at::Tensor& self) {
  TORCH_CHECK(at::isFloatingType(self.scalar_type()), op, ": self has dtype ", self.scalar_type(),
              "; expected a floating point dtype (float, half, bfloat16, double)");
}

// self <- fill(result) where `fill` writes a dense base-format tensor of self's shape and dtype.
template <typename Fill>
at::Tensor& fill_self(at::Tensor& self, Fill fill) {
  const bool direct = self.is_contiguous() && at_npu::native::FormatHelper::IsOpInputBaseFormat(self);
  at::Tensor result = direct ? self : OpPreparation::apply_tensor_without_format(self.sizes(), self.options());
  fill(result);
  if (!direct) {
    self.copy_(result);
  }
  return self;
}

// result <- the stateless standard draw `type` (uniform [0, 1) or normal), then result * scale + shift.
void stateless_draw(const char* type, at::Tensor& result, uint64_t seed, uint64_t offset, double scale,
                    double shift) {
  const int64_t key[] = {static_cast<int64_t>(seed)};
  const int64_t counter[] = {static_cast<int64_t>(offset), 0};
  OpCommand cmd;
  cmd.Name(type)
      .Input(result.sizes(), at::kLong)
      .Input(at::IntArrayRef(key), at::kLong)
      .Input(at::IntArrayRef(counter), at::kLong)
      .Input(at::Scalar(1), at::kInt)
      .Output(result)
      .Run();
  if (scale != 1.0) {
    OpCommand muls;
    muls.Name("Muls").Input(result).Output(result).Attr("value", static_cast<float>(scale)).Run();
  }
  if (shift != 0.0) {
    OpCommand add;
    add.Name("Add").Input(result).Input(at::Scalar(shift), result.scalar_type()).Output(result).Run();
  }
}

// out = mean + std * z (z standard normal, drawn into out), each moment a tensor or a host constant.
at::Tensor& normal_into(const c10::optional<at::Tensor>& mean, double mean_value, const c10::optional<at::Tensor>& std,
                        double std_value, c10::optional<at::Generator> generator, at::Tensor& out) {
  op_plugin::utils::check_normal_out(out);
  c10_npu::NPUGuard guard(out.device());
  if (out.numel() == 0) return out;
  const auto [seed, offset] = c10_npu::philoxInputsFor(generator, out.device(), "normal");
  return fill_self(out, [&, s = seed, o = offset](at::Tensor& result) {
    stateless_draw("StatelessRandomNormalV2", result, s, o, 1.0, 0.0);
    const at::ScalarType dtype = result.scalar_type();
    const at::Tensor scale = std.has_value() ? *std : op_plugin::utils::scalar_operand(std_value);
    op_plugin::utils::elementwise_acl_op_out("Mul", {result, scale}, dtype, dtype, result);
    const at::Tensor shift = mean.has_value() ? *mean : op_plugin::utils::scalar_operand(mean_value);
    op_plugin::utils::elementwise_acl_op_out("Add", {result, shift}, dtype, dtype, result);
  });
}

// self <- integers of [from, last], each from + floor(u * n) for a uniform draw u of [0, 1) in double and the n
// values of the range: in int64 ("Mul", "Floor", "Cast", then "Minimum" with n - 1, which u * n rounded up to
// n would pass, and "Add"), so every value of a range narrower than 2^62 is reached exactly; a wider range
// is placed in double and clamped to [from, last]. The integers reach self's dtype as CPU's do, by a cast.
at::Tensor& random_inclusive(at::Tensor& self, int64_t from, int64_t last, c10::optional<at::Generator> generator) {
  using op_plugin::utils::elementwise_acl_op_out;
  using op_plugin::utils::scalar_operand;
  c10_npu::NPUGuard guard(self.device());
  if (self.numel() == 0) return self;
  const auto [seed, offset] = c10_npu::philoxInputsFor(generator, self.device(), "random_");
  const uint64_t span = static_cast<uint64_t>(last) - static_cast<uint64_t>(from);  // n - 1, exact
  return fill_self(self, [&, s = seed, o = offset](at::Tensor& result) {
    at::Tensor u = OpPreparation::apply_tensor_without_format(result.sizes(), result.options().dtype(at::kDouble));
    stateless_draw("StatelessRandomUniformV2", u, s, o, 1.0, 0.0);
    const double n = static_cast<double>(span) + 1.0;
    elementwise_acl_op_out("Mul", {u, scalar_operand(n)}, at::kDouble, at::kDouble, u);
    at::Tensor drawn;
    if (span < (uint64_t{1} << 62)) {
      elementwise_acl_op_out("Floor", {u}, at::kDouble, at::kDouble, u);
      drawn = op_plugin::utils::cast_for_acl_op(u, at::kLong);
      elementwise_acl_op_out("Minimum", {drawn, scalar_operand(static_cast<int64_t>(span))}, at::kLong, at::kLong,
                             drawn);
      elementwise_acl_op_out("Add", {drawn, scalar_operand(from)}, at::kLong, at::kLong, drawn);
    } else {
      // The doubles nearest inside [from, last] (long double holds every int64 exactly).
      double low = static_cast<double>(from);
      if (static_cast<long double>(low) < static_cast<long double>(from)) low = std::nextafter(low, HUGE_VAL);
      double high = static_cast<double>(last);
      if (static_cast<long double>(high) > static_cast<long double>(last)) high = std::nextafter(high, -HUGE_VAL);
      elementwise_acl_op_out("Add", {u, scalar_operand(static_cast<double>(from))}, at::kDouble, at::kDouble, u);
      elementwise_acl_op_out("Floor", {u}, at::kDouble, at::kDouble, u);
      elementwise_acl_op_out("Maximum", {u, scalar_operand(low)}, at::kDouble, at::kDouble, u);
      elementwise_acl_op_out("Minimum", {u, scalar_operand(high)}, at::kDouble, at::kDouble, u);
      drawn = op_plugin::utils::cast_for_acl_op(u, at::kLong);
    }
    result.copy_(drawn);
  });
}

}  // namespace

at::Tensor normal(const at::Tensor& mean, double std, c10::optional<at::Generator> generator) {
  return op_plugin::utils::normal_tensor_float(mean, std, generator, &normal_into);
}

at::Tensor& normal_out(const at::Tensor& mean, double std, c10::optional<at::Generator> generator, at::Tensor& out) {
  return op_plugin::utils::normal_tensor_float_out(mean, std, generator, out, &normal_into);
}

at::Tensor normal(double mean, const at::Tensor& std, c10::optional<at::Generator> generator) {
  return op_plugin::utils::normal_float_tensor(mean, std, generator, &normal_into);
}

at::Tensor& normal_out(double mean, const at::Tensor& std, c10::optional<at::Generator> generator, at::Tensor& out) {
  return op_plugin::utils::normal_float_tensor_out(mean, std, generator, out, &normal_into);
}

at::Tensor normal(const at::Tensor& mean, const at::Tensor& std, c10::optional<at::Generator> generator) {
  return op_plugin::utils::normal_tensor_tensor(mean, std, generator, &normal_into);
}

at::Tensor& normal_out(const at::Tensor& mean, const at::Tensor& std, c10::optional<at::Generator> generator,
                       at::Tensor& out) {
  return op_plugin::utils::normal_tensor_tensor_out(mean, std, generator, out, &normal_into);
}

at::Tensor& uniform_(at::Tensor& self, double from, double to, c10::optional<at::Generator> generator) {
  check_floating("uniform_", self);
  TORCH_CHECK(from <= to, "uniform_ expects to return a [from, to) range, but found from=", from, " > to=", to);
  TORCH_CHECK(to - from <= std::numeric_limits<double>::max(), "uniform_ expects to-from to be finite, but found to=",
              to, " and from=", from);
  c10_npu::NPUGuard guard(self.device());
  if (self.numel() == 0) return self;
  const auto [seed, offset] = c10_npu::philoxInputsFor(generator, self.device(), "uniform_");
  return fill_self(self, [&, s = seed, o = offset](at::Tensor& result) {
    stateless_draw("StatelessRandomUniformV2", result, s, o, to - from, from);
  });
}

at::Tensor& normal_(at::Tensor& self, double mean, double std, c10::optional<at::Generator> generator) {
  check_floating("normal_", self);
  TORCH_CHECK(std >= 0.0, "normal expects std >= 0.0, but found std ", std);
  c10_npu::NPUGuard guard(self.device());
  if (self.numel() == 0) return self;
  const auto [seed, offset] = c10_npu::philoxInputsFor(generator, self.device(), "normal_");
  return fill_self(self, [&, s = seed, o = offset](at::Tensor& result) {
    stateless_draw("StatelessRandomNormalV2", result, s, o, std, mean);
  });
}

at::Tensor& bernoulli_(at::Tensor& self, double p, c10::optional<at::Generator> generator) {
  TORCH_CHECK(0 <= p && p <= 1, "bernoulli_ expects p to be in [0, 1], but got p=", p);
  c10_npu::NPUGuard guard(self.device());
  if (self.numel() == 0) return self;
  const auto [seed, offset] = c10_npu::philoxInputsFor(generator, self.device(), "bernoulli_");
  return fill_self(self, [&, s = seed, o = offset](at::Tensor& result) {
    OpCommand cmd;
    cmd.Name("StatelessBernoulli")
        .Input(result.sizes(), at::kLong)
        .Input(at::Scalar(p), at::kDouble)
        .Input(at::Scalar(static_cast<int64_t>(s)), at::kLong)
        .Input(at::Scalar(static_cast<int64_t>(o)), at::kLong)
        .Output(result)
        .Run();
  });
}

at::Tensor& bernoulli_(at::Tensor& self, const at::Tensor& p, c10::optional<at::Generator> generator) {
  TORCH_CHECK(at::isFloatingType(p.scalar_type()), "bernoulli_: p has dtype ", p.scalar_type(),
              "; expected a floating point dtype");
  c10_npu::NPUGuard guard(self.device());
  const at::Tensor p_npu = p.device() == self.device() ? p : p.to(self.device());
  const at::Tensor p_expanded = p_npu.expand(self.sizes());  // raises like CPU when p does not broadcast
  if (self.numel() == 0) return self;
  const auto [seed, offset] = c10_npu::philoxInputsFor(generator, self.device(), "bernoulli_");
  // The kernel reads float or double probabilities.
  const at::ScalarType prob_dtype = p.scalar_type() == at::kDouble ? at::kDouble : at::kFloat;
  return fill_self(self, [&, s = seed, o = offset](at::Tensor& result) {
    OpCommand cmd;
    cmd.Name("StatelessBernoulli").Input(result.sizes(), at::kLong);
    op_plugin::utils::AddInputAs(cmd, p_expanded.contiguous(), prob_dtype);
    cmd.Input(at::Scalar(static_cast<int64_t>(s)), at::kLong)
        .Input(at::Scalar(static_cast<int64_t>(o)), at::kLong)
        .Output(result)
        .Run();
  });
}

at::Tensor& random_(at::Tensor& self, int64_t from, c10::optional<int64_t> to, c10::optional<at::Generator> generator) {
  const auto [first, last] = op_plugin::utils::random_range(self, from, to);
  return random_inclusive(self, first, last, generator);
}

at::Tensor& random_(at::Tensor& self, int64_t to, c10::optional<at::Generator> generator) {
  return acl_op::random_(self, 0, to, generator);
}

at::Tensor& random_(at::Tensor& self, c10::optional<at::Generator> generator) {
  const auto [first, last] = op_plugin::utils::random_full_range(self);
  return random_inclusive(self, first, last, generator);
}

}  // namespace acl_op
