// compress_custom: stream compaction over a dense bool mask of n elements, the
// kernel of nonzero (the coordinates of the true elements), masked_select (their
// values) and masked_scatter (the true elements take the next source values).
//
// Two launches: in the count phase each block counts the true elements of its
// range of the mask (a tile at a time through the unified buffer) into counts[block];
// in the write phase each block starts at the sum of the counts of the blocks
// before it, so every output position has one writer and the result does not
// depend on the schedule. Block 0 also stores the total in counts[blocks].
#include <algorithm>
#include <type_traits>

#include "ascendc_sim/kernel/trap.h"
#include "ascendc_sim/launch.h"
#include "kernels/dtype_dispatch.h"
#include "kernels/index_kernel_api.h"
#include "kernels/kernel_helpers.h"

namespace ascendc_sim {
namespace kernels {
namespace {

struct CompressTiling {
  CompressMode mode = CompressMode::kCoordinates;
  bool countPhase = true;
  int64_t n = 0, perBlock = 0, limit = 0;
  uint32_t blocks = 0, tile = 0;
  int32_t ndim = 0;
  int64_t shape[kMaxViewDims] = {};
  const char* op = "nonzero";
};

template <typename T>
__global__ __aicore__ void compress_custom(GM_ADDR mask, GM_ADDR values, GM_ADDR out, GM_ADDR counts,
                                           CompressTiling t) {
  const uint32_t block = static_cast<uint32_t>(AscendC::GetBlockIdx());
  const int64_t first = static_cast<int64_t>(block) * t.perBlock;
  const int64_t last = std::min(t.n, first + t.perBlock);
  int64_t* count = reinterpret_cast<int64_t*>(counts);
  AscendC::GlobalTensor<bool> maskGm;
  maskGm.SetGlobalBuffer(reinterpret_cast<__gm__ bool*>(mask), static_cast<uint64_t>(t.n));
  AscendC::TPipe pipe;
  AscendC::TQue<AscendC::TPosition::VECIN, BUFFER_NUM> queue;
  pipe.InitBuffer(queue, BUFFER_NUM, t.tile);
  int64_t position = 0;
  if (!t.countPhase) {
    for (uint32_t b = 0; b < block; ++b) position += count[b];
    if (block == 0) {
      int64_t total = 0;
      for (uint32_t b = 0; b < t.blocks; ++b) total += count[b];
      count[t.blocks] = total;
    }
  }
  int64_t found = 0;
  for (int64_t start = first; start < last; start += t.tile) {
    const uint32_t len = static_cast<uint32_t>(std::min<int64_t>(t.tile, last - start));
    AscendC::LocalTensor<bool> in = queue.AllocTensor<bool>();
    CopyTileIn(in, maskGm[static_cast<uint64_t>(start)], len);
    queue.EnQue(in);
    AscendC::LocalTensor<bool> m = queue.DeQue<bool>();
    for (uint32_t j = 0; j < len; ++j) {
      if (!m.GetValue(j)) continue;
      if (t.countPhase) {
        ++found;
        continue;
      }
      const int64_t i = start + j;
      if (t.mode == CompressMode::kExpand) {
        if (position >= t.limit) {
          KernelFail("%s: expected source to have at least as many elements as ones in mask (%lld)", t.op,
                     static_cast<long long>(t.limit));
        }
        reinterpret_cast<T*>(out)[i] = reinterpret_cast<const T*>(values)[position];
      } else if (position < t.limit) {
        if (t.mode == CompressMode::kValues) {
          reinterpret_cast<T*>(out)[position] = reinterpret_cast<const T*>(values)[i];
        } else {
          int64_t* row = reinterpret_cast<int64_t*>(out) + position * t.ndim;
          int64_t rest = i;
          for (int32_t d = t.ndim - 1; d >= 0; --d) {
            row[d] = rest % t.shape[d];
            rest /= t.shape[d];
          }
        }
      }
      ++position;
    }
    queue.FreeTensor(m);
  }
  if (t.countPhase) count[block] = found;
}

uint32_t CompressBlocks(int64_t n, int64_t* perBlock) {
  const int64_t cores = std::max<uint32_t>(1, aclsimGetCoreNumAiv());
  const int64_t blocks = std::max<int64_t>(1, std::min<int64_t>({cores, kCompressMaxBlocks, n / 65536}));
  *perBlock = std::max<int64_t>(1, (n + blocks - 1) / blocks);
  return static_cast<uint32_t>(n == 0 ? 1 : (n + *perBlock - 1) / *perBlock);
}

}  // namespace

int64_t CompressTotalSlot(int64_t n) {
  int64_t perBlock = 0;
  return CompressBlocks(n, &perBlock);
}

aclError LaunchCompress(const CompressArgs& args, aclrtStream stream) {
  if (args.ndim < 0 || args.ndim > kMaxViewDims) {
    return RaiseError(ACL_ERROR_INVALID_PARAM, "kernel 'compress_custom': %d dimensions", args.ndim);
  }
  CompressTiling t;
  t.mode = args.mode;
  t.n = args.n;
  t.limit = args.limit;
  t.ndim = args.ndim;
  t.op = args.op;
  for (int32_t d = 0; d < args.ndim; ++d) t.shape[d] = args.shape[d];
  t.blocks = CompressBlocks(args.n, &t.perBlock);
  t.tile = 4096;
  const void* mask = args.mask;
  const void* values = args.values;
  void* out = args.out;
  void* counts = args.counts;
  const aclDataType dtype = args.mode == CompressMode::kCoordinates ? ACL_INT64 : args.dtype;
  return DispatchKernelType(dtype, "compress_custom", [&](auto tag) -> aclError {
    using T = typename decltype(tag)::type;
    aclError err = LaunchKernel("compress_custom", t.blocks, stream, compress_custom<T>, mask, values, out, counts, t);
    if (err != ACL_SUCCESS) return err;
    CompressTiling write = t;
    write.countPhase = false;
    return LaunchKernel("compress_custom", t.blocks, stream, compress_custom<T>, mask, values, out, counts, write);
  });
}

}  // namespace kernels
}  // namespace ascendc_sim
