// What the two paths of multinomial and randperm share: CPU's checks and messages.
#pragma once

#include <ATen/core/Generator.h>
#include <ATen/core/Tensor.h>
#include <c10/util/Optional.h>

#include <functional>
#include <vector>

namespace op_plugin::utils {

// multinomial's arguments; the shape of its result.
std::vector<int64_t> multinomial_shape(const at::Tensor& self, int64_t num_samples, bool replacement);

// multinomial.out's out: Long.
void check_multinomial_out(const at::Tensor& out);

// randperm.generator_out's n and out.
void check_randperm_out(int64_t n, const at::Tensor& out);

// How a path draws: into `out` (dense, base format, of the op's shape) from Philox (seed, offset).
using SamplingLaunch = std::function<void(at::Tensor& out, int64_t seed, int64_t offset)>;

// multinomial and multinomial.out: the checks, the result (out resized to its shape), and `launch` with
// a (seed, offset) reserved from the generator unless there is nothing to draw.
at::Tensor multinomial(const at::Tensor& self, int64_t num_samples, bool replacement,
                       c10::optional<at::Generator> generator, const SamplingLaunch& launch);
at::Tensor& multinomial_out(const at::Tensor& self, int64_t num_samples, bool replacement,
                            c10::optional<at::Generator> generator, at::Tensor& out, const SamplingLaunch& launch);

// randperm.generator_out the same way.
at::Tensor& randperm_out(int64_t n, c10::optional<at::Generator> generator, at::Tensor& out,
                         const SamplingLaunch& launch);

}  // namespace op_plugin::utils
