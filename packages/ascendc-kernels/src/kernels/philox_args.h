// (seed, offset) of one random-kernel launch, passed to the kernel by value.
#ifndef ASCENDC_SIM_KERNELS_PHILOX_ARGS_H
#define ASCENDC_SIM_KERNELS_PHILOX_ARGS_H

#include <stdint.h>

namespace ascendc_sim {
namespace kernels {

struct PhiloxArgs {
  uint64_t seed = 0;
  uint64_t offset = 0;
};

}  // namespace kernels
}  // namespace ascendc_sim

#endif  // ASCENDC_SIM_KERNELS_PHILOX_ARGS_H
