// Tiling of elementwise kernels, computed on the host from the element count,
// the number of simulated vector cores and the unified-buffer size, and passed
// to the kernel by value (as a tiling struct is on hardware).
#ifndef ASCENDC_SIM_KERNELS_TILING_H
#define ASCENDC_SIM_KERNELS_TILING_H

#include <stdint.h>

namespace ascendc_sim {
namespace kernels {

struct ElementwiseTiling {
  uint64_t totalLength = 0;  // elements
  uint64_t blockLength = 0;  // elements per block (the last block takes the rest)
  uint32_t tileLength = 0;   // elements per unified-buffer tile
  uint32_t blockDim = 0;

  uint64_t BlockOffset(uint64_t block) const { return block * blockLength; }
  uint64_t BlockElements(uint64_t block) const {
    const uint64_t start = block * blockLength;
    if (start >= totalLength) return 0;
    return totalLength - start < blockLength ? totalLength - start : blockLength;
  }
};

// Elements per block and per tile are multiples of this, so every block and
// tile starts on a 32-byte data block for any element size.
constexpr uint32_t kAlignElements = 32;

// `ubBytesPerElement`: unified-buffer bytes the kernel needs per element of a
// tile, summed over all its buffers (e.g. add, double-buffered, three queues of
// float: 2 * 3 * 4 = 24). Blocks: as many as there are cores, but none with
// less than ~64 KiB of data (small launches run as one block, which starts
// fastest); tiles: the largest that fit the unified buffer, up to 8 KiB of the
// widest element type per buffer.
ElementwiseTiling ComputeElementwiseTiling(uint64_t totalLength, uint32_t ubBytesPerElement,
                                           uint32_t maxItemBytes);

}  // namespace kernels
}  // namespace ascendc_sim

#endif  // ASCENDC_SIM_KERNELS_TILING_H
