// embedding_bag_bounds_custom + embedding_bag_custom: torch's embedding_bag forward.
//
// The bounds kernel (one block) checks the offsets, finds where each bag starts (the offsets sorted: bag b
// runs from its b-th smallest offset to the next, as torch's offset2bag assigns them) and writes offset2bag,
// bag_size and the non-max max_indices. The bag kernel splits the embedding dimension into column ranges,
// one per block; per bag and column chunk it stages each row segment in the unified buffer and accumulates
// it in float32 (double for double) in index order, as torch's CPU kernel does, or keeps the first maximum.
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

constexpr int64_t kModeSum = 0, kModeMean = 1, kModeMax = 2;

struct EmbeddingBagTiling {
  int64_t numIndices = 0, numWeights = 0, dim = 0, numBags = 0, numOffsets = 0, bagSizeCount = 0;
  int64_t mode = 0, paddingIdx = -1;
  int64_t colsPerBlock = 0;
  uint32_t chunk = 0;
  bool index64 = true;
};

__aicore__ inline int64_t ReadInt(const void* data, bool index64, int64_t i) {
  return index64 ? reinterpret_cast<const int64_t*>(data)[i]
                 : static_cast<int64_t>(reinterpret_cast<const int32_t*>(data)[i]);
}

__aicore__ inline void WriteInt(void* data, bool index64, int64_t i, int64_t v) {
  if (index64) {
    reinterpret_cast<int64_t*>(data)[i] = v;
  } else {
    reinterpret_cast<int32_t*>(data)[i] = static_cast<int32_t>(v);
  }
}

__aicore__ inline int64_t WordAt(const void* indices, const EmbeddingBagTiling& t, int64_t i) {
  const int64_t w = ReadInt(indices, t.index64, i);
  if (w < 0 || w >= t.numWeights) {
    KernelFail("embedding_bag: Expected idx >= 0 && idx < num_embeddings but found idx to be %lld",
               static_cast<long long>(w));
  }
  return w;
}

__global__ __aicore__ void embedding_bag_bounds_custom(GM_ADDR indices, GM_ADDR offsets, GM_ADDR offset2bag,
                                                       GM_ADDR bagSize, GM_ADDR maxIndices, GM_ADDR starts,
                                                       EmbeddingBagTiling t) {
  if (t.numOffsets > 0) {
    const int64_t first = ReadInt(offsets, t.index64, 0), last = ReadInt(offsets, t.index64, t.numOffsets - 1);
    if (first != 0) {
      KernelFail("embedding_bag: offsets[0] has to be 0, i.e., the first sequence in the mini-batch has to start "
                 "from position 0. However, got %lld", static_cast<long long>(first));
    }
    if (last > t.numIndices) {
      KernelFail("embedding_bag: offsets[-1] can not be greater than input's length %lld but got offsets[-1] of %lld",
                 static_cast<long long>(t.numIndices), static_cast<long long>(last));
    }
  }
  int64_t* start = reinterpret_cast<int64_t*>(starts);
  for (int64_t b = 0; b < t.numBags; ++b) {
    const int64_t v = ReadInt(offsets, t.index64, b);
    if (v < 0 || v > t.numIndices) {
      KernelFail("embedding_bag: offsets[%lld] = %lld is outside [0, %lld]", static_cast<long long>(b),
                 static_cast<long long>(v), static_cast<long long>(t.numIndices));
    }
    start[b] = v;
  }
  std::sort(start, start + t.numBags);
  start[t.numBags] = t.numIndices;
  if (offset2bag != nullptr) {
    int64_t b = 0;
    for (int64_t i = 0; i < t.numIndices; ++i) {
      while (b + 1 < t.numBags && start[b + 1] <= i) ++b;
      WriteInt(offset2bag, t.index64, i, b);
    }
  }
  if (bagSize == nullptr) return;
  for (int64_t b = 0; b < t.bagSizeCount; ++b) {
    int64_t size = 0;
    if (t.mode != kModeSum) {
      const int64_t end = b + 1 < t.numBags ? ReadInt(offsets, t.index64, b + 1) : t.numIndices;
      size = end - ReadInt(offsets, t.index64, b);
      for (int64_t i = start[b]; i < start[b + 1]; ++i) size -= WordAt(indices, t, i) == t.paddingIdx ? 1 : 0;
    }
    WriteInt(bagSize, t.index64, b, size);
    if (maxIndices != nullptr && t.mode != kModeMax) WriteInt(maxIndices, t.index64, b, size);
  }
}

template <typename T>
using AccOf = typename std::conditional<std::is_same<T, double>::value, double, float>::type;

template <typename T>
__global__ __aicore__ void embedding_bag_custom(GM_ADDR weight, GM_ADDR indices, GM_ADDR perSampleWeights, GM_ADDR output, GM_ADDR bagSize,
                                                GM_ADDR maxIndices, GM_ADDR starts, EmbeddingBagTiling t) {
  using Acc = AccOf<T>;
  const int64_t c0 = static_cast<int64_t>(AscendC::GetBlockIdx()) * t.colsPerBlock;
  const int64_t c1 = std::min(t.dim, c0 + t.colsPerBlock);
  if (c0 >= c1) return;
  AscendC::GlobalTensor<T> weightGm, outGm;
  weightGm.SetGlobalBuffer(reinterpret_cast<__gm__ T*>(weight), static_cast<uint64_t>(t.numWeights * t.dim));
  outGm.SetGlobalBuffer(reinterpret_cast<__gm__ T*>(output), static_cast<uint64_t>(t.numBags * t.dim));
  AscendC::TPipe pipe;
  AscendC::TQue<AscendC::TPosition::VECIN, BUFFER_NUM> inQueue;
  AscendC::TBuf<AscendC::TPosition::VECCALC> accBuf, outBuf, argBuf;
  pipe.InitBuffer(inQueue, BUFFER_NUM, t.chunk * sizeof(T));
  pipe.InitBuffer(accBuf, t.chunk * sizeof(Acc));
  pipe.InitBuffer(outBuf, t.chunk * sizeof(T));
  pipe.InitBuffer(argBuf, t.chunk * sizeof(int64_t));
  AscendC::LocalTensor<Acc> acc = accBuf.Get<Acc>();
  AscendC::LocalTensor<T> out = outBuf.Get<T>();
  AscendC::LocalTensor<int64_t> arg = argBuf.Get<int64_t>();
  const int64_t* start = reinterpret_cast<const int64_t*>(starts);
  for (int64_t b = 0; b < t.numBags; ++b) {
    // the bounds kernel's starts (sorted, within the indices) unless it failed, leaving them unwritten
    if (start[b] < 0 || start[b] > start[b + 1] || start[b + 1] > t.numIndices) {
      KernelFail("embedding_bag: the bounds of bag %lld were not found (the offsets were refused)",
                 static_cast<long long>(b));
    }
    for (int64_t c = c0; c < c1; c += t.chunk) {
      const uint32_t n = static_cast<uint32_t>(std::min<int64_t>(t.chunk, c1 - c));
      bool empty = true;
      for (uint32_t k = 0; k < n; ++k) {
        acc.SetValue(k, Acc(0));
        arg.SetValue(k, 0);
      }
      for (int64_t i = start[b]; i < start[b + 1]; ++i) {
        const int64_t w = WordAt(indices, t, i);
        if (w == t.paddingIdx) continue;
        AscendC::LocalTensor<T> row = inQueue.AllocTensor<T>();
        CopyTileIn(row, weightGm[static_cast<uint64_t>(w * t.dim + c)], n);
        inQueue.EnQue(row);
        AscendC::LocalTensor<T> r = inQueue.DeQue<T>();
        if (t.mode == kModeMax) {
          for (uint32_t k = 0; k < n; ++k) {
            const Acc v = static_cast<Acc>(r.GetValue(k));
            if (empty || v > acc.GetValue(k)) {
              acc.SetValue(k, v);
              arg.SetValue(k, w);
            }
          }
        } else {
          const Acc scale = perSampleWeights != nullptr
                                ? static_cast<Acc>(reinterpret_cast<const T*>(perSampleWeights)[i]) : Acc(1);
          for (uint32_t k = 0; k < n; ++k) {
            const Acc v = static_cast<Acc>(r.GetValue(k));
            acc.SetValue(k, acc.GetValue(k) + (perSampleWeights != nullptr ? v * scale : v));
          }
        }
        inQueue.FreeTensor(r);
        empty = false;
      }
      // mean: the sum rounded to T, then divided by max(bag size, 1) in T, as CPU's `output /= bag_size`
      const int64_t count = t.mode == kModeMean ? std::max<int64_t>(ReadInt(bagSize, t.index64, b), 1) : 1;
      const Acc divisor = static_cast<Acc>(static_cast<T>(static_cast<Acc>(count)));
      for (uint32_t k = 0; k < n; ++k) {
        const T sum = static_cast<T>(acc.GetValue(k));
        out.SetValue(k, t.mode == kModeMean ? static_cast<T>(static_cast<Acc>(sum) / divisor) : sum);
        if (t.mode == kModeMax && maxIndices != nullptr) WriteInt(maxIndices, t.index64, b * t.dim + c + k, arg.GetValue(k));
      }
      CopyTileOut(outGm[static_cast<uint64_t>(b * t.dim + c)], out, n);
    }
  }
}

}  // namespace

aclError LaunchEmbeddingBag(const EmbeddingBagArgs& args, aclrtStream stream) {
  const char* kernel = "embedding_bag_custom";
  if (args.indexDtype != ACL_INT64 && args.indexDtype != ACL_INT32) {
    return RaiseError(ACL_ERROR_UNSUPPORTED_DATA_TYPE, "kernel '%s': indices must be int32 or int64, got %s", kernel,
                      DataTypeName(args.indexDtype));
  }
  if (args.mode < kModeSum || args.mode > kModeMax) {
    return RaiseError(ACL_ERROR_INVALID_PARAM, "kernel '%s': mode %lld is not 0 (sum), 1 (mean) or 2 (max)", kernel,
                      static_cast<long long>(args.mode));
  }
  if (args.mode == kModeMean && args.bagSize == nullptr) {
    return RaiseError(ACL_ERROR_INVALID_PARAM, "kernel '%s': mean mode needs bagSize", kernel);
  }
  EmbeddingBagTiling t;
  t.numIndices = args.numIndices;
  t.numWeights = args.numWeights;
  t.dim = args.dim;
  t.numBags = args.numBags;
  t.numOffsets = args.numOffsets;
  t.bagSizeCount = args.bagSizeCount;
  t.mode = args.mode;
  t.paddingIdx = args.paddingIdx;
  t.index64 = args.indexDtype == ACL_INT64;
  aclError rc = LaunchKernel("embedding_bag_bounds_custom", 1, stream, embedding_bag_bounds_custom, args.indices,
                             args.offsets, args.offset2bag, args.bagSize, args.maxIndices, args.starts, t);
  if (rc != ACL_SUCCESS || args.numBags == 0 || args.dim == 0) return rc;
  // Column blocks of at least 64 columns, at most one per core.
  const int64_t cores = std::max<uint32_t>(1, aclsimGetCoreNumAiv());
  const int64_t blocks = std::max<int64_t>(1, std::min<int64_t>(cores, args.dim / 64));
  t.colsPerBlock = (args.dim + blocks - 1) / blocks;
  t.chunk = static_cast<uint32_t>(std::min<int64_t>(2048, (t.colsPerBlock + 31) / 32 * 32));
  const uint32_t blockDim = static_cast<uint32_t>((args.dim + t.colsPerBlock - 1) / t.colsPerBlock);
  return DispatchKernelType(args.dtype, kernel, [&](auto tag) -> aclError {
    using T = typename decltype(tag)::type;
    if constexpr (std::is_same<T, float>::value || std::is_same<T, half>::value ||
                  std::is_same<T, bfloat16_t>::value || std::is_same<T, double>::value) {
      return LaunchKernel(kernel, blockDim, stream, embedding_bag_custom<T>, args.weight, args.indices,
                          args.perSampleWeights, args.output, args.bagSize, args.maxIndices, args.starts, t);
    } else {
      return RaiseError(ACL_ERROR_UNSUPPORTED_DATA_TYPE, "kernel '%s' does not support data type %s", kernel,
                        DataTypeName(args.dtype));
    }
  });
}

}  // namespace kernels
}  // namespace ascendc_sim
