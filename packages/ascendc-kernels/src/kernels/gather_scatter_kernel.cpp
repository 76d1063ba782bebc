// gather_scatter_custom: torch.gather / scatter / scatter_add along `dim` over
// dense row-major tensors of up to 8 dimensions, and index_add_custom.
//
// gather_scatter_custom walks "lines": the positions of index with every
// coordinate but `dim` fixed. Blocks take ranges of lines; within a line the
// index entries are visited in order. Scatter writes of different lines never
// meet (they differ outside `dim`), so every block owns what it writes and the
// result does not depend on the schedule. An index outside [0, self.size(dim))
// fails the kernel (a device-side assertion).
// index_add_custom: self [outer, dimSize, inner] += alpha * source [outer, count,
// inner] at rows index[k]; blocks take (outer, column chunk) units and stage the
// rows in the unified buffer.
#include <algorithm>
#include <limits>
#include <type_traits>

#include "ascendc_sim/kernel/trap.h"
#include "ascendc_sim/launch.h"
#include "common/dtype.h"
#include "kernels/dtype_dispatch.h"
#include "kernels/index_kernel_api.h"
#include "kernels/kernel_helpers.h"

namespace ascendc_sim {
namespace kernels {
namespace {

struct GatherScatterTiling {
  GatherScatterMode mode = GatherScatterMode::kGather;
  int32_t ndim = 1;
  int32_t dim = 0;
  int64_t indexShape[kMaxViewDims] = {};
  int64_t indexStrides[kMaxViewDims] = {};
  int64_t selfStrides[kMaxViewDims] = {};
  int64_t srcStrides[kMaxViewDims] = {};
  int64_t dimSize = 0;  // self.size(dim)
  int64_t lines = 0, linesPerBlock = 0;
  bool index64 = true;
  ScalarValue value;
  const char* op = "gather";
  ScatterReduceOp reduce = ScatterReduceOp::kSum;
  bool includeSelf = true;
  bool indexAlongDim = false;
  bool wrapNegative = false;
  bool hasSrc = true;
};

template <typename T>
using ComputeOf = typename std::conditional<
    std::is_same<T, bool>::value, bool,
    typename std::conditional<std::is_integral<T>::value, int64_t,
                              typename std::conditional<std::is_same<T, double>::value, double, float>::type>::type>::type;

template <typename C>
__aicore__ inline bool IsNan(C v) {
  if constexpr (std::is_floating_point<C>::value) {
    return v != v;
  } else {
    return false;
  }
}

// The reduction's starting value where self is not included.
template <typename C>
__aicore__ inline C ReduceIdentity(ScatterReduceOp op) {
  switch (op) {
    case ScatterReduceOp::kProd: return C(1);
    case ScatterReduceOp::kMax:
      if constexpr (std::is_floating_point<C>::value) return -std::numeric_limits<C>::infinity();
      else return std::numeric_limits<C>::lowest();
    case ScatterReduceOp::kMin:
      if constexpr (std::is_floating_point<C>::value) return std::numeric_limits<C>::infinity();
      else return std::numeric_limits<C>::max();
    default: return C(0);
  }
}

// acc (op)= v as CPU's scatter_reduce does (NaN propagates through amax/amin).
template <typename C>
__aicore__ inline C ReduceStep(ScatterReduceOp op, C acc, C v) {
  switch (op) {
    case ScatterReduceOp::kReplace:
      return v;
    case ScatterReduceOp::kProd:
      if constexpr (std::is_same<C, bool>::value) return acc && v;
      else return static_cast<C>(acc * v);
    case ScatterReduceOp::kMax:
      if (IsNan(v)) return v;
      return acc < v ? v : acc;
    case ScatterReduceOp::kMin:
      if (IsNan(v)) return v;
      return v < acc ? v : acc;
    default:
      if constexpr (std::is_same<C, bool>::value) return acc || v;
      else return static_cast<C>(acc + v);
  }
}

template <typename T>
__aicore__ inline T AddValues(T a, T b) {
  if constexpr (std::is_same<T, bool>::value) {
    return a || b;
  } else if constexpr (std::is_integral<T>::value) {
    return static_cast<T>(a + b);
  } else if constexpr (std::is_same<T, double>::value) {
    return a + b;
  } else {
    return static_cast<T>(static_cast<float>(a) + static_cast<float>(b));
  }
}

// gather: out (index's shape) = self at the index; scatter*: self at the index (op)= src (or value).
// scatter_reduce over one line (the self positions along dim at selfBase, owned by
// this block): the positions the index hits start from the identity unless self is
// included, then take each value in index order; mean counts the values per
// position in `counts` (zero before and after) and divides at the end.
template <typename T>
__aicore__ inline void ScatterReduceLine(T* selfData, int64_t* counts, const T* srcData, const GatherScatterTiling& t,
                                         int64_t indexBase, int64_t selfBase, int64_t srcBase, GM_ADDR index) {
  using A = AscendC::detail::Arith<T>;
  using S = typename A::Storage;
  using AC = typename A::Compute;
  using C = ComputeOf<T>;
  S* self = reinterpret_cast<S*>(selfData);
  const S* src = reinterpret_cast<const S*>(srcData);
  const C value = t.value.isFloating ? static_cast<C>(t.value.f) : static_cast<C>(t.value.i);
  const bool mean = t.reduce == ScatterReduceOp::kMean;
  const ScatterReduceOp step = mean ? ScatterReduceOp::kSum : t.reduce;
  auto targetOf = [&](int64_t k) -> int64_t {
    const int64_t at = t.indexAlongDim ? k : indexBase + k * t.indexStrides[t.dim];
    int64_t i = t.index64 ? reinterpret_cast<const int64_t*>(index)[at]
                          : static_cast<int64_t>(reinterpret_cast<const int32_t*>(index)[at]);
    if (t.wrapNegative && i < 0 && i >= -t.dimSize) i += t.dimSize;
    if (i < 0 || i >= t.dimSize) {
      KernelFail("%s: index %lld is out of bounds for dimension %d with size %lld", t.op, static_cast<long long>(i),
                 t.dim, static_cast<long long>(t.dimSize));
    }
    return selfBase + i * t.selfStrides[t.dim];
  };
  const int64_t n = t.indexShape[t.dim];
  if (!t.includeSelf) {
    for (int64_t k = 0; k < n; ++k) self[targetOf(k)] = A::Store(static_cast<AC>(ReduceIdentity<C>(step)));
  }
  for (int64_t k = 0; k < n; ++k) {
    const int64_t at = targetOf(k);
    const C v = t.hasSrc ? static_cast<C>(A::Load(src[srcBase + k * t.srcStrides[t.dim]])) : value;
    self[at] = A::Store(static_cast<AC>(ReduceStep<C>(step, static_cast<C>(A::Load(self[at])), v)));
    if (mean) ++counts[at];
  }
  if (!mean) return;
  for (int64_t k = 0; k < n; ++k) {
    const int64_t at = targetOf(k);
    if (counts[at] == 0) continue;  // divided already
    const int64_t count = counts[at] + (t.includeSelf ? 1 : 0);
    counts[at] = 0;
    const C acc = static_cast<C>(A::Load(self[at]));
    C r;
    if constexpr (std::is_same<C, bool>::value) {
      r = acc;
    } else if constexpr (std::is_integral<C>::value) {
      r = acc / count - ((acc % count != 0) && (acc < 0) ? 1 : 0);  // floor division (count > 0)
    } else {
      r = acc / static_cast<C>(count);
    }
    self[at] = A::Store(static_cast<AC>(r));
  }
}

template <typename T>
__global__ __aicore__ void gather_scatter_custom(GM_ADDR self, GM_ADDR index, GM_ADDR src, GM_ADDR out,
                                                 GatherScatterTiling t) {
  const int64_t first = static_cast<int64_t>(AscendC::GetBlockIdx()) * t.linesPerBlock;
  const int64_t last = std::min(t.lines, first + t.linesPerBlock);
  T* selfData = reinterpret_cast<T*>(self);
  const T* srcData = reinterpret_cast<const T*>(src);
  T* outData = reinterpret_cast<T*>(out);
  const T value = ScalarAs<T>(t.value);
  for (int64_t line = first; line < last; ++line) {
    // Coordinates of the line (dim's coordinate is 0).
    int64_t rest = line, indexBase = 0, selfBase = 0, srcBase = 0;
    for (int32_t d = t.ndim - 1; d >= 0; --d) {
      if (d == t.dim) continue;
      const int64_t c = rest % t.indexShape[d];
      rest /= t.indexShape[d];
      indexBase += c * t.indexStrides[d];
      selfBase += c * t.selfStrides[d];
      srcBase += c * t.srcStrides[d];
    }
    if (t.mode == GatherScatterMode::kScatterReduce) {
      ScatterReduceLine<T>(selfData, reinterpret_cast<int64_t*>(out), srcData, t, indexBase, selfBase, srcBase,
                           index);
      continue;
    }
    for (int64_t k = 0; k < t.indexShape[t.dim]; ++k) {
      const int64_t at = indexBase + k * t.indexStrides[t.dim];
      const int64_t i = t.index64 ? reinterpret_cast<const int64_t*>(index)[at]
                                  : static_cast<int64_t>(reinterpret_cast<const int32_t*>(index)[at]);
      if (i < 0 || i >= t.dimSize) {
        KernelFail("%s: index %lld is out of bounds for dimension %d with size %lld", t.op,
                   static_cast<long long>(i), t.dim, static_cast<long long>(t.dimSize));
      }
      const int64_t selfAt = selfBase + i * t.selfStrides[t.dim];
      switch (t.mode) {
        case GatherScatterMode::kGather:
          outData[at] = selfData[selfAt];  // out has index's dense layout
          break;
        case GatherScatterMode::kScatter:
          selfData[selfAt] = srcData[srcBase + k * t.srcStrides[t.dim]];
          break;
        case GatherScatterMode::kScatterValue:
          selfData[selfAt] = value;
          break;
        case GatherScatterMode::kScatterAdd:
          selfData[selfAt] = AddValues(selfData[selfAt], srcData[srcBase + k * t.srcStrides[t.dim]]);
          break;
        case GatherScatterMode::kScatterReduce:
          break;
      }
    }
  }
}

struct IndexAddTiling {
  int64_t outer = 0, dimSize = 0, inner = 0, count = 0;
  int64_t chunksPerRow = 0, units = 0, unitsPerBlock = 0;
  uint32_t chunk = 0;
  bool index64 = true;
  ScalarValue alpha;
};

template <typename T>
__global__ __aicore__ void index_add_custom(GM_ADDR self, GM_ADDR index, GM_ADDR source, IndexAddTiling t) {
  using C = typename std::conditional<std::is_integral<T>::value, int64_t,
                                      typename std::conditional<std::is_same<T, double>::value, double,
                                                                float>::type>::type;
  const int64_t first = static_cast<int64_t>(AscendC::GetBlockIdx()) * t.unitsPerBlock;
  const int64_t last = std::min(t.units, first + t.unitsPerBlock);
  AscendC::GlobalTensor<T> selfGm, srcGm;
  selfGm.SetGlobalBuffer(reinterpret_cast<__gm__ T*>(self), static_cast<uint64_t>(t.outer * t.dimSize * t.inner));
  srcGm.SetGlobalBuffer(reinterpret_cast<__gm__ T*>(source), static_cast<uint64_t>(t.outer * t.count * t.inner));
  AscendC::TPipe pipe;
  AscendC::TQue<AscendC::TPosition::VECIN, BUFFER_NUM> srcQueue;
  AscendC::TBuf<AscendC::TPosition::VECCALC> rowBuf;
  pipe.InitBuffer(srcQueue, BUFFER_NUM, t.chunk * sizeof(T));
  pipe.InitBuffer(rowBuf, t.chunk * sizeof(T));
  AscendC::LocalTensor<T> row = rowBuf.Get<T>();
  C alpha;
  if constexpr (std::is_integral<T>::value) {
    alpha = t.alpha.isFloating ? static_cast<C>(t.alpha.f) : static_cast<C>(t.alpha.i);
  } else {
    alpha = static_cast<C>(t.alpha.isFloating ? t.alpha.f : static_cast<double>(t.alpha.i));
  }
  for (int64_t u = first; u < last; ++u) {
    const int64_t o = u / t.chunksPerRow;
    const int64_t c0 = (u % t.chunksPerRow) * t.chunk;
    const uint32_t n = static_cast<uint32_t>(std::min<int64_t>(t.chunk, t.inner - c0));
    for (int64_t k = 0; k < t.count; ++k) {
      const int64_t i = t.index64 ? reinterpret_cast<const int64_t*>(index)[k]
                                  : static_cast<int64_t>(reinterpret_cast<const int32_t*>(index)[k]);
      if (i < 0 || i >= t.dimSize) {
        KernelFail("index_add: index %lld is out of bounds for a dimension of size %lld", static_cast<long long>(i),
                   static_cast<long long>(t.dimSize));
      }
      AscendC::LocalTensor<T> s = srcQueue.AllocTensor<T>();
      CopyTileIn(s, srcGm[static_cast<uint64_t>((o * t.count + k) * t.inner + c0)], n);
      srcQueue.EnQue(s);
      AscendC::LocalTensor<T> sIn = srcQueue.DeQue<T>();
      const AscendC::GlobalTensor<T> target = selfGm[static_cast<uint64_t>((o * t.dimSize + i) * t.inner + c0)];
      CopyTileIn(row, target, n);
      for (uint32_t j = 0; j < n; ++j) {
        if constexpr (std::is_same<T, bool>::value) {
          row.SetValue(j, row.GetValue(j) || (alpha != 0 && sIn.GetValue(j)));
        } else {
          row.SetValue(j, static_cast<T>(static_cast<C>(row.GetValue(j)) + alpha * static_cast<C>(sIn.GetValue(j))));
        }
      }
      srcQueue.FreeTensor(sIn);
      CopyTileOut(target, row, n);
    }
  }
}

}  // namespace

aclError LaunchGatherScatter(const GatherScatterArgs& args, aclrtStream stream) {
  if (args.indexDtype != ACL_INT64 && args.indexDtype != ACL_INT32) {
    return RaiseError(ACL_ERROR_UNSUPPORTED_DATA_TYPE, "kernel 'gather_scatter_custom': index must be int32 or int64");
  }
  if (args.ndim < 1 || args.ndim > kMaxViewDims || args.dim < 0 || args.dim >= args.ndim) {
    return RaiseError(ACL_ERROR_INVALID_PARAM, "kernel 'gather_scatter_custom': dim %d of %d dimensions", args.dim,
                      args.ndim);
  }
  GatherScatterTiling t;
  t.mode = args.mode;
  t.ndim = args.ndim;
  t.dim = args.dim;
  t.dimSize = args.selfShape[args.dim];
  t.index64 = args.indexDtype == ACL_INT64;
  t.value = args.value;
  t.op = args.op;
  t.reduce = args.reduce;
  t.includeSelf = args.includeSelf;
  t.indexAlongDim = args.indexAlongDim;
  t.wrapNegative = args.wrapNegative;
  t.hasSrc = args.src != nullptr;
  if (args.mode == GatherScatterMode::kScatterReduce && args.reduce == ScatterReduceOp::kMean &&
      args.counts == nullptr) {
    return RaiseError(ACL_ERROR_INVALID_PARAM, "kernel 'gather_scatter_custom': %s: mean needs a counts buffer",
                      args.op);
  }
  int64_t si = 1, ss = 1, sr = 1, numel = 1;
  for (int32_t d = args.ndim - 1; d >= 0; --d) {
    t.indexShape[d] = args.indexShape[d];
    t.indexStrides[d] = si;
    t.selfStrides[d] = ss;
    t.srcStrides[d] = sr;
    si *= args.indexShape[d];
    ss *= args.selfShape[d];
    sr *= args.srcShape[d];
    numel *= args.indexShape[d];
  }
  if (numel == 0) return ACL_SUCCESS;
  t.lines = numel / args.indexShape[args.dim];
  const int64_t cores = std::max<uint32_t>(1, aclsimGetCoreNumAiv());
  const int64_t blocks = std::max<int64_t>(1, std::min<int64_t>({cores, t.lines, numel / 4096}));
  t.linesPerBlock = (t.lines + blocks - 1) / blocks;
  const uint32_t blockDim = static_cast<uint32_t>((t.lines + t.linesPerBlock - 1) / t.linesPerBlock);
  const void* self = args.self;
  const void* index = args.index;
  const void* src = args.src;
  // A reduction's counts travel in the `out` slot (a scatter has no out).
  void* out = args.mode == GatherScatterMode::kScatterReduce ? args.counts : args.out;
  return DispatchKernelType(args.dtype, "gather_scatter_custom", [&](auto tag) -> aclError {
    using T = typename decltype(tag)::type;
    return LaunchKernel("gather_scatter_custom", blockDim, stream, gather_scatter_custom<T>, self, index, src, out, t);
  });
}

aclError LaunchIndexAdd(const IndexAddArgs& args, aclrtStream stream) {
  if (args.indexDtype != ACL_INT64 && args.indexDtype != ACL_INT32) {
    return RaiseError(ACL_ERROR_UNSUPPORTED_DATA_TYPE, "kernel 'index_add_custom': index must be int32 or int64");
  }
  IndexAddTiling t;
  t.outer = args.outer;
  t.dimSize = args.dimSize;
  t.inner = args.inner;
  t.count = args.count;
  t.index64 = args.indexDtype == ACL_INT64;
  t.alpha = args.alpha;
  if (t.outer * t.inner == 0 || t.count == 0) return ACL_SUCCESS;
  t.chunk = static_cast<uint32_t>(std::min<int64_t>(4096, (t.inner + 31) / 32 * 32));
  t.chunksPerRow = (t.inner + t.chunk - 1) / t.chunk;
  t.units = t.outer * t.chunksPerRow;
  const int64_t cores = std::max<uint32_t>(1, aclsimGetCoreNumAiv());
  const int64_t blocks = std::max<int64_t>(1, std::min<int64_t>({cores, t.units, t.count * t.inner * t.outer / 8192}));
  t.unitsPerBlock = (t.units + blocks - 1) / blocks;
  const uint32_t blockDim = static_cast<uint32_t>((t.units + t.unitsPerBlock - 1) / t.unitsPerBlock);
  void* self = args.self;
  const void* index = args.index;
  const void* source = args.source;
  return DispatchKernelType(args.dtype, "index_add_custom", [&](auto tag) -> aclError {
    using T = typename decltype(tag)::type;
    return LaunchKernel("index_add_custom", blockDim, stream, index_add_custom<T>, self, index, source, t);
  });
}

}  // namespace kernels
}  // namespace ascendc_sim
