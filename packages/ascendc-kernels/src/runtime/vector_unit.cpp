// The simulated vector unit's transcendental functions: the kernels' header
// code calls these so that they run with the host's widest SIMD (chosen at run
// time; the library itself is built for baseline x86-64).
#include <stdint.h>

#include "ascendc_sim/kernel/vector_ops.h"
#include "ascendc_sim/launch.h"

namespace ascendc_sim {
namespace {

using ExpFn = void (*)(float*, const float*, uint32_t);

void ExpBaseline(float* d, const float* s, uint32_t n) {
  for (uint32_t i = 0; i < n; ++i) d[i] = AscendC::detail::ExpFloat(s[i]);
}

#if defined(__x86_64__)
__attribute__((target("avx2,fma"))) void ExpAvx2(float* d, const float* s, uint32_t n) {
  for (uint32_t i = 0; i < n; ++i) d[i] = AscendC::detail::ExpFloat(s[i]);
}

__attribute__((target("avx512f"))) void ExpAvx512(float* d, const float* s, uint32_t n) {
  for (uint32_t i = 0; i < n; ++i) d[i] = AscendC::detail::ExpFloat(s[i]);
}
#endif

ExpFn SelectExp() {
#if defined(__x86_64__)
  __builtin_cpu_init();
  if (__builtin_cpu_supports("avx512f")) return ExpAvx512;
  if (__builtin_cpu_supports("avx2") && __builtin_cpu_supports("fma")) return ExpAvx2;
#endif
  return ExpBaseline;
}

}  // namespace
}  // namespace ascendc_sim

extern "C" void aclsimVectorExpF32(float* dst, const float* src, uint32_t n) {
  static const ascendc_sim::ExpFn exp = ascendc_sim::SelectExp();
  exp(dst, src, n);  // dst may be src: element i is read before it is written
}
