// Host-side tiling of elementwise kernels.
#include "kernels/tiling.h"

#include <unistd.h>

#include <algorithm>

#include "ascendc_sim/launch.h"

namespace ascendc_sim {
namespace kernels {
namespace {

constexpr uint64_t kMinBlockBytes = 64 * 1024;
// Tiles of at most 8 KiB per buffer, and all of a kernel's buffers together within
// three quarters of the host core's L1 data cache: the staging copies into and out of
// the unified buffer then stay in L1 (spilled to L2, a binary float32 add over 4M
// elements took 1.5x as long on a 32 KiB-L1 host). The tile size never changes a
// result: these kernels compute each element on its own.
constexpr uint64_t kMaxTileBytes = 8 * 1024;
constexpr uint64_t kFallbackL1DataBytes = 32 * 1024;

uint64_t HostL1DataBytes() {
  static const uint64_t bytes = [] {
    const long reported = sysconf(_SC_LEVEL1_DCACHE_SIZE);
    return reported > 0 ? static_cast<uint64_t>(reported) : kFallbackL1DataBytes;
  }();
  return bytes;
}

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
  const uint64_t inL1 =
      HostL1DataBytes() * 3 / 4 / std::max<uint32_t>(1, ubBytesPerElement) / kAlignElements * kAlignElements;
  const uint64_t cap = std::max<uint64_t>(
      kAlignElements, std::min<uint64_t>(kMaxTileBytes / std::max<uint32_t>(1, maxItemBytes), inL1));
  const uint64_t tile = std::min<uint64_t>({std::max<uint64_t>(fit, kAlignElements), cap,
                                            AlignUp(t.blockLength, kAlignElements)});
  t.tileLength = static_cast<uint32_t>(tile);
  return t;
}

}  // namespace kernels
}  // namespace ascendc_sim
