// Host-side tiling of elementwise kernels.
#include "kernels/tiling.h"

#include <algorithm>

#include "ascendc_sim/launch.h"

namespace ascendc_sim {
namespace kernels {
namespace {

constexpr uint64_t kMinBlockBytes = 64 * 1024;
// Tiles of at most 8 KiB per buffer keep a double-buffered binary kernel's six
// buffers in a 48 KiB L1 data cache: measured fastest on the simulator's hosts
// (larger tiles spill the staging copies to L2).
constexpr uint64_t kMaxTileBytes = 8 * 1024;

uint64_t AlignUp(uint64_t v, uint64_t a) { return (v + a - 1) / a * a; }

}  // namespace

ElementwiseTiling ComputeElementwiseTiling(uint64_t totalLength, uint32_t ubBytesPerElement, uint32_t maxItemBytes) {
  ElementwiseTiling t;
  t.totalLength = totalLength;
  if (totalLength == 0) return t;
  const uint64_t cores = std::max<uint32_t>(1, aclsimGetCoreNumAiv());
  const uint64_t bytes = totalLength * std::max<uint32_t>(1, maxItemBytes);
  const uint64_t wanted = std::max<uint64_t>(1, std::min<uint64_t>(cores, bytes / kMinBlockBytes));
  t.blockLength = AlignUp((totalLength + wanted - 1) / wanted, kAlignElements);
  t.blockDim = static_cast<uint32_t>((totalLength + t.blockLength - 1) / t.blockLength);
  const uint64_t fit = aclsimGetUbSize() / std::max<uint32_t>(1, ubBytesPerElement) / kAlignElements * kAlignElements;
  // A unified buffer too small even for one aligned tile fails in TPipe::InitBuffer with the sizes.
  const uint64_t cap = std::max<uint64_t>(kAlignElements, kMaxTileBytes / std::max<uint32_t>(1, maxItemBytes));
  const uint64_t tile = std::min<uint64_t>({std::max<uint64_t>(fit, kAlignElements), cap,
                                            AlignUp(t.blockLength, kAlignElements)});
  t.tileLength = static_cast<uint32_t>(tile);
  return t;
}

}  // namespace kernels
}  // namespace ascendc_sim
