// advanced_index_custom: PyTorch's advanced indexing over a dense self. The result
// ("out", ndim dimensions) walks self through per-dimension strides, except its
// broadcast-index dimensions [bStart, bStart + bRank), where each index tensor (dense
// int64 of the broadcast shape) gives the position along the self dimension it
// indexes. Gather (index): blocks take ranges of out's elements. Put (index_put):
// self at those positions = (or += with accumulate) values (dense, out's shape), in
// out's row-major order (blocks split the columns of the contiguous runs), so duplicates
// resolve as on CPU (the last value wins, or all are summed). A negative index counts from the end; one outside the
// dimension fails the kernel (a device-side assertion).
#include <algorithm>
#include <cstdint>
#include <type_traits>

#include "ascendc_sim/kernel/trap.h"
#include "ascendc_sim/launch.h"
#include "kernels/dtype_dispatch.h"
#include "kernels/index_kernel_api.h"
#include "kernels/kernel_helpers.h"

namespace ascendc_sim {
namespace kernels {
namespace {

struct AdvancedIndexTiling {
  AdvancedIndexArgs a;
  int64_t numel = 0, perBlock = 0;
  // out's trailing self dimensions that are contiguous in self: a run of `run` elements of out
  // (from a multiple of run) reads consecutive elements of self, so its offset is found once.
  int64_t run = 1;
  int64_t colsPerBlock = 0;  // put: each block updates columns [b * colsPerBlock, ...) of every run
};

// The offset in self of out's element `linear`.
__aicore__ inline int64_t SelfOffset(const AdvancedIndexArgs& a, int64_t linear) {
  int64_t rest = linear, offset = 0, bLinear = 0, bScale = 1;
  for (int32_t d = a.ndim - 1; d >= 0; --d) {
    const int64_t c = rest % a.shape[d];
    rest /= a.shape[d];
    offset += c * a.selfStrides[d];
    if (d >= a.bStart && d < a.bStart + a.bRank) {
      bLinear += c * bScale;
      bScale *= a.shape[d];
    }
  }
  for (int32_t j = 0; j < a.count; ++j) {
    int64_t i = reinterpret_cast<const int64_t*>(a.indices[j])[bLinear];
    const int64_t size = a.indexDimSize[j];
    if (i < 0) i += size;
    if (i < 0 || i >= size) {
      KernelFail("%s: index %lld is out of bounds for dimension %d with size %lld", a.op,
                 static_cast<long long>(i < 0 ? i - size : i), a.indexDim[j], static_cast<long long>(size));
    }
    offset += i * a.indexSelfStride[j];
  }
  return offset;
}

// to[e] += v[e] for a run of floating elements on the vector unit: float32 sums, rounded once to
// float16/bfloat16 (the elements of a run are distinct, so their order does not matter).
template <typename T, typename S>
__aicore__ inline void AccumulateRun(S* to, const S* v, int64_t n) {
  if constexpr (std::is_same<T, float>::value) {
    for (int64_t e = 0; e < n; e += UINT32_MAX) {
      const uint32_t len = static_cast<uint32_t>(std::min<int64_t>(UINT32_MAX, n - e));
      aclsimVectorBinaryF32(ACLSIM_VEC_ADD, to + e, to + e, v + e, len);
    }
  } else {
    constexpr aclDataType type = std::is_same<T, half>::value ? ACL_FLOAT16 : ACL_BF16;
    constexpr uint32_t kChunk = 1024;
    float a[kChunk], b[kChunk];
    for (int64_t e = 0; e < n; e += kChunk) {
      const uint32_t len = static_cast<uint32_t>(std::min<int64_t>(kChunk, n - e));
      aclsimVectorCastToF32(type, a, to + e, len);
      aclsimVectorCastToF32(type, b, v + e, len);
      aclsimVectorBinaryF32(ACLSIM_VEC_ADD, a, a, b, len);
      aclsimVectorCastFromF32(type, to + e, a, len);
    }
  }
}

template <typename T>
__global__ __aicore__ void advanced_index_custom(AdvancedIndexTiling t) {
  const AdvancedIndexArgs& a = t.a;
  const int64_t first = static_cast<int64_t>(AscendC::GetBlockIdx()) * t.perBlock;
  const int64_t last = std::min(t.numel, first + t.perBlock);
  using A = AscendC::detail::Arith<T>;
  using S = typename A::Storage;
  S* self = reinterpret_cast<S*>(a.self);
  if (!a.put) {
    S* out = reinterpret_cast<S*>(a.out);
    for (int64_t k = first; k < last;) {
      const int64_t n = std::min(last - k, t.run - k % t.run);
      const S* from = self + SelfOffset(a, k);
      std::copy(from, from + n, out + k);
      k += n;
    }
    return;
  }
  // Put: every block walks all runs in out's row-major order over its own columns, so each
  // element of self sees its updates in the order CPU applies them.
  const int64_t c0 = static_cast<int64_t>(AscendC::GetBlockIdx()) * t.colsPerBlock;
  const int64_t c1 = std::min(t.run, c0 + t.colsPerBlock);
  const S* values = reinterpret_cast<const S*>(a.values);
  for (int64_t k = 0; k < t.numel; k += t.run) {
    S* to = self + SelfOffset(a, k + c0);
    const S* v = values + k + c0;
    if constexpr (std::is_same<T, float>::value || std::is_same<T, half>::value ||
                  std::is_same<T, bfloat16_t>::value) {
      if (a.accumulate) {
        AccumulateRun<T>(to, v, c1 - c0);
        continue;
      }
    }
    for (int64_t e = 0; e < c1 - c0; ++e) {
      if (!a.accumulate) {
        to[e] = v[e];
      } else if constexpr (std::is_same<T, bool>::value) {
        to[e] = to[e] || v[e];
      } else if constexpr (std::is_integral<T>::value) {
        to[e] = static_cast<T>(static_cast<int64_t>(to[e]) + static_cast<int64_t>(v[e]));
      } else {
        to[e] = A::Store(A::Load(to[e]) + A::Load(v[e]));
      }
    }
  }
}

}  // namespace

bool PlanAdvancedIndex(const std::vector<int64_t>& shape, const std::vector<int32_t>& positions,
                       const std::vector<int64_t>& broadcast, AdvancedIndexArgs* args, std::vector<int64_t>* outShape) {
  const size_t rank = shape.size();
  std::vector<int64_t> selfStrides(rank, 1);
  for (size_t d = rank; d-- > 1;) selfStrides[d - 1] = selfStrides[d] * shape[d];
  bool adjacent = true;
  for (size_t j = 1; j < positions.size(); ++j) adjacent = adjacent && positions[j] == positions[j - 1] + 1;
  std::vector<int64_t> out, strides;
  auto addSelfDim = [&](size_t d) {
    out.push_back(shape[d]);
    strides.push_back(selfStrides[d]);
  };
  auto addBroadcast = [&]() {
    args->bStart = static_cast<int32_t>(out.size());
    args->bRank = static_cast<int32_t>(broadcast.size());
    for (int64_t s : broadcast) {
      out.push_back(s);
      strides.push_back(0);
    }
  };
  if (adjacent) {
    for (size_t d = 0; d < static_cast<size_t>(positions.front()); ++d) addSelfDim(d);
    addBroadcast();
    for (size_t d = static_cast<size_t>(positions.back()) + 1; d < rank; ++d) addSelfDim(d);
  } else {
    addBroadcast();
    for (size_t d = 0; d < rank; ++d) {
      if (std::find(positions.begin(), positions.end(), static_cast<int32_t>(d)) == positions.end()) addSelfDim(d);
    }
  }
  if (out.size() > static_cast<size_t>(kMaxViewDims) || positions.size() > static_cast<size_t>(kMaxViewDims)) {
    return false;
  }
  args->count = static_cast<int32_t>(positions.size());
  args->ndim = static_cast<int32_t>(out.size());
  for (size_t d = 0; d < out.size(); ++d) {
    args->shape[d] = out[d];
    args->selfStrides[d] = strides[d];
  }
  for (size_t j = 0; j < positions.size(); ++j) {
    args->indexDim[j] = positions[j];
    args->indexDimSize[j] = shape[static_cast<size_t>(positions[j])];
    args->indexSelfStride[j] = selfStrides[static_cast<size_t>(positions[j])];
  }
  *outShape = out;
  return true;
}

aclError LaunchAdvancedIndex(const AdvancedIndexArgs& args, aclrtStream stream) {
  if (args.ndim < 0 || args.ndim > kMaxViewDims || args.count < 1 || args.count > kMaxViewDims ||
      args.bStart < 0 || args.bStart + args.bRank > args.ndim) {
    return RaiseError(ACL_ERROR_INVALID_PARAM, "kernel 'advanced_index_custom': %d dimensions, %d indices", args.ndim,
                      args.count);
  }
  AdvancedIndexTiling t;
  t.a = args;
  t.numel = 1;
  for (int32_t d = 0; d < args.ndim; ++d) t.numel *= args.shape[d];
  if (t.numel == 0) return ACL_SUCCESS;
  int64_t expected = 1;
  for (int32_t d = args.ndim - 1; d >= args.bStart + args.bRank && args.selfStrides[d] == expected; --d) {
    expected *= args.shape[d];
  }
  t.run = expected;
  const int64_t cores = std::max<uint32_t>(1, aclsimGetCoreNumAiv());
  uint32_t blockDim = 1;
  if (args.put) {
    const int64_t blocks = std::max<int64_t>(1, std::min<int64_t>(cores, t.numel / 16384 > 0 ? t.run / 64 : 1));
    t.colsPerBlock = (t.run + blocks - 1) / blocks;
    blockDim = static_cast<uint32_t>((t.run + t.colsPerBlock - 1) / t.colsPerBlock);
  } else {
    const int64_t blocks = std::max<int64_t>(1, std::min<int64_t>(cores, t.numel / 16384));
    t.perBlock = (t.numel + blocks - 1) / blocks;
    blockDim = static_cast<uint32_t>((t.numel + t.perBlock - 1) / t.perBlock);
  }
  return DispatchKernelType(args.dtype, "advanced_index_custom", [&](auto tag) -> aclError {
    using T = typename decltype(tag)::type;
    return LaunchKernel("advanced_index_custom", blockDim, stream, advanced_index_custom<T>, t);
  });
}

}  // namespace kernels
}  // namespace ascendc_sim
