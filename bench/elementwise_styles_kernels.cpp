// The two ways of writing the simulator's elementwise kernels, side by side on the same ops,
// for bench/elementwise_styles_speed.py (built by it against the installed ascendc_kernels'
// kernel_operator.h, with the package's compiler flags):
//
// - functor: one kernel per operator, the operator a compile-time functor run on the
//   storage-type tiles (a float16 add loads, adds and stores each element in one loop);
// - opcode: one kernel per element type, the operator an op code chosen by a switch per
//   tile, run on compute-type tiles (float16/bfloat16 cast to float32 on the way in and
//   back on the way out), with scratch tiles and a compare mask in the unified buffer;
//   an operator exact on the stored values (abs: the sign bit) skips the casts, as the
//   package's elementwise kernel does (its kStorageType rows).
//
// Both use the package's tiling rule (blocks of at least 64 KiB, at most one per core;
// tiles of at most 8 KiB of the widest type, all buffers within 3/4 of the host's L1 data
// cache) and the same double-buffered queues.
#include <stdint.h>
#include <unistd.h>

#include <algorithm>
#include <type_traits>

#include "ascendc_sim/launch_kernel.h"
#include "kernel_operator.h"

namespace {

using AscendC::LocalTensor;

constexpr int32_t kBufferNum = 2;
constexpr int kMaxInputs = 2;
constexpr int kScratchTiles = 3;

struct Tiling {
  uint64_t total = 0;
  uint64_t blockLength = 0;
  uint32_t tileLength = 0;
  uint32_t blockDim = 0;

  uint64_t BlockElements(uint64_t block) const {
    const uint64_t start = block * blockLength;
    return start >= total ? 0 : std::min<uint64_t>(blockLength, total - start);
  }
};

Tiling MakeTiling(uint64_t n, uint32_t ubBytesPerElement, uint32_t itemBytes) {
  constexpr uint64_t kAlign = 32, kMinBlockBytes = 64 * 1024, kMaxTileBytes = 8 * 1024;
  auto alignUp = [](uint64_t v, uint64_t a) { return (v + a - 1) / a * a; };
  Tiling t;
  t.total = n;
  const uint64_t cores = std::max<uint32_t>(1, aclsimGetCoreNumAiv());
  const uint64_t wanted = std::max<uint64_t>(1, std::min<uint64_t>(cores, n * itemBytes / kMinBlockBytes));
  t.blockLength = alignUp((n + wanted - 1) / wanted, kAlign);
  t.blockDim = static_cast<uint32_t>((n + t.blockLength - 1) / t.blockLength);
  const uint64_t fit = aclsimGetUbSize() / ubBytesPerElement / kAlign * kAlign;
  const long l1 = sysconf(_SC_LEVEL1_DCACHE_SIZE);
  const uint64_t inL1 = static_cast<uint64_t>(l1 > 0 ? l1 : 32 * 1024) * 3 / 4 / ubBytesPerElement / kAlign * kAlign;
  const uint64_t cap = std::max<uint64_t>(kAlign, std::min<uint64_t>(kMaxTileBytes / itemBytes, inL1));
  t.tileLength = static_cast<uint32_t>(
      std::min<uint64_t>({std::max<uint64_t>(fit, kAlign), cap, alignUp(t.blockLength, kAlign)}));
  return t;
}

template <typename T>
__aicore__ inline void CopyIn(const LocalTensor<T>& dst, const AscendC::GlobalTensor<T>& src, uint32_t count) {
  if ((count * sizeof(T)) % AscendC::ONE_BLK_SIZE == 0) {
    AscendC::DataCopy(dst, src, count);
  } else {
    AscendC::DataCopyExtParams params{1, static_cast<uint32_t>(count * sizeof(T)), 0, 0, 0};
    AscendC::DataCopyPad(dst, src, params, AscendC::DataCopyPadExtParams<T>{false, 0, 0, T()});
  }
}

template <typename T>
__aicore__ inline void CopyOut(const AscendC::GlobalTensor<T>& dst, const LocalTensor<T>& src, uint32_t count) {
  if ((count * sizeof(T)) % AscendC::ONE_BLK_SIZE == 0) {
    AscendC::DataCopy(dst, src, count);
  } else {
    AscendC::DataCopyExtParams params{1, static_cast<uint32_t>(count * sizeof(T)), 0, 0, 0};
    AscendC::DataCopyPad(dst, src, params);
  }
}

enum Op : int32_t { kAdd = 0, kMuls = 1, kAbs = 2 };
constexpr float kMulsValue = 2.5f;

int Arity(Op op) { return op == kAdd ? 2 : 1; }

// ---- functor style ----

struct AddFn {
  template <typename T>
  __aicore__ inline void operator()(const LocalTensor<T>& y, const LocalTensor<T>* x, uint32_t n) const {
    AscendC::Add(y, x[0], x[1], n);
  }
};
struct MulsFn {
  template <typename T>
  __aicore__ inline void operator()(const LocalTensor<T>& y, const LocalTensor<T>* x, uint32_t n) const {
    AscendC::Muls(y, x[0], kMulsValue, n);
  }
};
struct AbsFn {
  template <typename T>
  __aicore__ inline void operator()(const LocalTensor<T>& y, const LocalTensor<T>* x, uint32_t n) const {
    AscendC::Abs(y, x[0], n);
  }
};

template <typename T, int Arity, typename Fn>
class FunctorPipeline {
 public:
  __aicore__ inline void Init(GM_ADDR x0, GM_ADDR x1, GM_ADDR y, const Tiling& tiling) {
    const uint64_t block = AscendC::GetBlockIdx();
    const uint64_t offset = block * tiling.blockLength;
    length_ = tiling.BlockElements(block);
    tileLength_ = tiling.tileLength;
    GM_ADDR inputs[kMaxInputs] = {x0, x1};
    for (int i = 0; i < Arity; ++i) {
      xGm_[i].SetGlobalBuffer(reinterpret_cast<__gm__ T*>(inputs[i]) + offset, length_);
      pipe_.InitBuffer(inQueue_[i], kBufferNum, tileLength_ * sizeof(T));
    }
    yGm_.SetGlobalBuffer(reinterpret_cast<__gm__ T*>(y) + offset, length_);
    pipe_.InitBuffer(outQueue_, kBufferNum, tileLength_ * sizeof(T));
  }

  __aicore__ inline void Process() {
    const uint64_t tiles = (length_ + tileLength_ - 1) / tileLength_;
    for (uint64_t t = 0; t < tiles; ++t) {
      const uint64_t start = t * tileLength_;
      const uint32_t count = static_cast<uint32_t>(t + 1 < tiles ? tileLength_ : length_ - start);
      for (int i = 0; i < Arity; ++i) {
        LocalTensor<T> x = inQueue_[i].template AllocTensor<T>();
        CopyIn(x, xGm_[i][start], count);
        inQueue_[i].EnQue(x);
      }
      LocalTensor<T> in[kMaxInputs];
      for (int i = 0; i < Arity; ++i) in[i] = inQueue_[i].template DeQue<T>();
      LocalTensor<T> y = outQueue_.template AllocTensor<T>();
      Fn{}(y, in, count);
      outQueue_.EnQue(y);
      for (int i = 0; i < Arity; ++i) inQueue_[i].FreeTensor(in[i]);
      LocalTensor<T> out = outQueue_.template DeQue<T>();
      CopyOut(yGm_[start], out, count);
      outQueue_.FreeTensor(out);
    }
  }

 private:
  AscendC::TPipe pipe_;
  AscendC::TQue<AscendC::TPosition::VECIN, kBufferNum> inQueue_[kMaxInputs];
  AscendC::TQue<AscendC::TPosition::VECOUT, kBufferNum> outQueue_;
  AscendC::GlobalTensor<T> xGm_[kMaxInputs];
  AscendC::GlobalTensor<T> yGm_;
  uint64_t length_ = 0;
  uint32_t tileLength_ = 0;
};

template <typename T, int Arity, typename Fn>
__global__ __aicore__ void functor_kernel(GM_ADDR x0, GM_ADDR x1, GM_ADDR y, Tiling tiling) {
  FunctorPipeline<T, Arity, Fn> op;
  op.Init(x0, x1, y, tiling);
  op.Process();
}

template <typename T>
int LaunchFunctor(Op op, const void* x0, const void* x1, void* y, uint64_t n, aclrtStream stream) {
  const uint32_t arity = static_cast<uint32_t>(Arity(op));
  const Tiling tiling = MakeTiling(n, kBufferNum * (arity + 1) * sizeof(T), sizeof(T));
  switch (op) {
    case kAdd:
      return ascendc_sim::LaunchKernel("functor_add", tiling.blockDim, stream, functor_kernel<T, 2, AddFn>, x0, x1,
                                       y, tiling);
    case kMuls:
      return ascendc_sim::LaunchKernel("functor_muls", tiling.blockDim, stream, functor_kernel<T, 1, MulsFn>, x0,
                                       x1, y, tiling);
    case kAbs:
      return ascendc_sim::LaunchKernel("functor_abs", tiling.blockDim, stream, functor_kernel<T, 1, AbsFn>, x0, x1,
                                       y, tiling);
  }
  return ACL_ERROR_INVALID_PARAM;
}

// ---- op-code style ----

template <typename C>
__aicore__ inline void ComputeTile(Op op, const LocalTensor<C>& y, const LocalTensor<C>* x, uint32_t n) {
  switch (op) {
    case kAdd: AscendC::Add(y, x[0], x[1], n); return;
    case kMuls: AscendC::Muls(y, x[0], kMulsValue, n); return;
    case kAbs: AscendC::Abs(y, x[0], n); return;
  }
}

// The operators exact on the stored values (the package's kStorageType rows): only they are
// instantiated on the storage type.
template <typename T>
__aicore__ inline void ComputeStorageTile(Op op, const LocalTensor<T>& y, const LocalTensor<T>* x, uint32_t n) {
  switch (op) {
    case kAbs: AscendC::Abs(y, x[0], n); return;
    default: ascendc_sim::KernelFail("operator %d does not run on stored values", static_cast<int>(op));
  }
}

template <typename T>
class OpcodePipeline {
  using C = typename AscendC::detail::Arith<T>::Compute;

 public:
  __aicore__ inline void Init(GM_ADDR x0, GM_ADDR x1, GM_ADDR y, const Tiling& tiling, Op op) {
    const uint64_t block = AscendC::GetBlockIdx();
    const uint64_t offset = block * tiling.blockLength;
    length_ = tiling.BlockElements(block);
    tileLength_ = tiling.tileLength;
    op_ = op;
    arity_ = Arity(op);
    onStorage_ = op == kAbs && !std::is_same<T, C>::value;
    GM_ADDR inputs[kMaxInputs] = {x0, x1};
    for (int i = 0; i < arity_; ++i) {
      xGm_[i].SetGlobalBuffer(reinterpret_cast<__gm__ T*>(inputs[i]) + offset, length_);
      pipe_.InitBuffer(inQueue_[i], kBufferNum, tileLength_ * sizeof(T));
    }
    yGm_.SetGlobalBuffer(reinterpret_cast<__gm__ T*>(y) + offset, length_);
    pipe_.InitBuffer(outQueue_, kBufferNum, tileLength_ * sizeof(T));
    if (onStorage_) return;
    if constexpr (!std::is_same<T, C>::value) {
      pipe_.InitBuffer(castBuf_, static_cast<uint32_t>(arity_) * tileLength_ * sizeof(C));
      pipe_.InitBuffer(resultBuf_, tileLength_ * sizeof(C));
    }
    pipe_.InitBuffer(scratchBuf_, kScratchTiles * tileLength_ * sizeof(C));
    pipe_.InitBuffer(maskBuf_, (tileLength_ + 7) / 8);
  }

  __aicore__ inline void Process() {
    const uint64_t tiles = (length_ + tileLength_ - 1) / tileLength_;
    for (uint64_t t = 0; t < tiles; ++t) {
      const uint64_t start = t * tileLength_;
      const uint32_t count = static_cast<uint32_t>(t + 1 < tiles ? tileLength_ : length_ - start);
      for (int i = 0; i < arity_; ++i) {
        LocalTensor<T> x = inQueue_[i].template AllocTensor<T>();
        CopyIn(x, xGm_[i][start], count);
        inQueue_[i].EnQue(x);
      }
      LocalTensor<T> in[kMaxInputs];
      LocalTensor<C> work[kMaxInputs];
      for (int i = 0; i < arity_; ++i) in[i] = inQueue_[i].template DeQue<T>();
      LocalTensor<T> y = outQueue_.template AllocTensor<T>();
      if (onStorage_) {
        ComputeStorageTile<T>(op_, y, in, count);
      } else {
        Compute(y, in, work, count);
      }
      outQueue_.EnQue(y);
      for (int i = 0; i < arity_; ++i) inQueue_[i].FreeTensor(in[i]);
      LocalTensor<T> out = outQueue_.template DeQue<T>();
      CopyOut(yGm_[start], out, count);
      outQueue_.FreeTensor(out);
    }
  }

 private:
  __aicore__ inline void Compute(const LocalTensor<T>& y, const LocalTensor<T>* in, LocalTensor<C>* work,
                                 uint32_t count) {
    for (int i = 0; i < arity_; ++i) {
      if constexpr (std::is_same<T, C>::value) {
        work[i] = in[i];
      } else {
        work[i] = castBuf_.template Get<C>()[static_cast<uint32_t>(i) * tileLength_];
        AscendC::Cast(work[i], in[i], AscendC::RoundMode::CAST_NONE, count);
      }
    }
    if constexpr (std::is_same<T, C>::value) {
      ComputeTile<C>(op_, y, work, count);
    } else {
      const LocalTensor<C> result = resultBuf_.template Get<C>();
      ComputeTile<C>(op_, result, work, count);
      AscendC::Cast(y, result, AscendC::RoundMode::CAST_RINT, count);
    }
  }

  AscendC::TPipe pipe_;
  AscendC::TQue<AscendC::TPosition::VECIN, kBufferNum> inQueue_[kMaxInputs];
  AscendC::TQue<AscendC::TPosition::VECOUT, kBufferNum> outQueue_;
  AscendC::TBuf<AscendC::TPosition::VECCALC> castBuf_;
  AscendC::TBuf<AscendC::TPosition::VECCALC> resultBuf_;
  AscendC::TBuf<AscendC::TPosition::VECCALC> scratchBuf_;
  AscendC::TBuf<AscendC::TPosition::VECCALC> maskBuf_;
  AscendC::GlobalTensor<T> xGm_[kMaxInputs];
  AscendC::GlobalTensor<T> yGm_;
  uint64_t length_ = 0;
  uint32_t tileLength_ = 0;
  Op op_ = kAdd;
  int arity_ = 1;
  bool onStorage_ = false;
};

template <typename T>
__global__ __aicore__ void opcode_kernel(GM_ADDR x0, GM_ADDR x1, GM_ADDR y, Tiling tiling, Op op) {
  OpcodePipeline<T> kernel;
  kernel.Init(x0, x1, y, tiling, op);
  kernel.Process();
}

template <typename T>
int LaunchOpcode(Op op, const void* x0, const void* x1, void* y, uint64_t n, aclrtStream stream) {
  using C = typename AscendC::detail::Arith<T>::Compute;
  const uint32_t arity = static_cast<uint32_t>(Arity(op));
  const bool onStorage = op == kAbs && !std::is_same<T, C>::value;
  const uint32_t castBytes = std::is_same<T, C>::value ? 0u : (arity + 1) * sizeof(C);
  const uint32_t queueBytes = kBufferNum * (arity + 1) * sizeof(T);
  const uint32_t ubBytes = onStorage ? queueBytes : queueBytes + castBytes + kScratchTiles * sizeof(C) + 1;
  const Tiling tiling = MakeTiling(n, ubBytes, onStorage ? sizeof(T) : std::max(sizeof(C), sizeof(T)));
  return ascendc_sim::LaunchKernel("opcode_elementwise", tiling.blockDim, stream, opcode_kernel<T>, x0, x1, y,
                                   tiling, op);
}

// ---- the floor: a binary kernel's data movement and nothing else ----

// Each tile of the inputs (one or two) is copied into the unified buffer, as every kernel of
// this model does, and the first input's tile is copied back out: no vector instruction runs,
// so no unary (binary) elementwise kernel on the simulator can take less time than this one.
template <typename T, int Arity>
class CopyThroughPipeline {
 public:
  __aicore__ inline void Init(GM_ADDR x0, GM_ADDR x1, GM_ADDR y, const Tiling& tiling) {
    const uint64_t block = AscendC::GetBlockIdx();
    const uint64_t offset = block * tiling.blockLength;
    length_ = tiling.BlockElements(block);
    tileLength_ = tiling.tileLength;
    GM_ADDR inputs[kMaxInputs] = {x0, x1};
    for (int i = 0; i < Arity; ++i) {
      xGm_[i].SetGlobalBuffer(reinterpret_cast<__gm__ T*>(inputs[i]) + offset, length_);
      pipe_.InitBuffer(inQueue_[i], kBufferNum, tileLength_ * sizeof(T));
    }
    yGm_.SetGlobalBuffer(reinterpret_cast<__gm__ T*>(y) + offset, length_);
  }

  __aicore__ inline void Process() {
    const uint64_t tiles = (length_ + tileLength_ - 1) / tileLength_;
    for (uint64_t t = 0; t < tiles; ++t) {
      const uint64_t start = t * tileLength_;
      const uint32_t count = static_cast<uint32_t>(t + 1 < tiles ? tileLength_ : length_ - start);
      LocalTensor<T> in[kMaxInputs];
      for (int i = 0; i < Arity; ++i) {
        LocalTensor<T> x = inQueue_[i].template AllocTensor<T>();
        CopyIn(x, xGm_[i][start], count);
        inQueue_[i].EnQue(x);
      }
      for (int i = 0; i < Arity; ++i) in[i] = inQueue_[i].template DeQue<T>();
      CopyOut(yGm_[start], in[0], count);
      for (int i = 0; i < Arity; ++i) inQueue_[i].FreeTensor(in[i]);
    }
  }

 private:
  AscendC::TPipe pipe_;
  AscendC::TQue<AscendC::TPosition::VECIN, kBufferNum> inQueue_[kMaxInputs];
  AscendC::GlobalTensor<T> xGm_[kMaxInputs];
  AscendC::GlobalTensor<T> yGm_;
  uint64_t length_ = 0;
  uint32_t tileLength_ = 0;
};

template <typename T, int Arity>
__global__ __aicore__ void copy_through_kernel(GM_ADDR x0, GM_ADDR x1, GM_ADDR y, Tiling tiling) {
  CopyThroughPipeline<T, Arity> kernel;
  kernel.Init(x0, x1, y, tiling);
  kernel.Process();
}

template <typename T>
int LaunchCopyThrough(int arity, const void* x0, const void* x1, void* y, uint64_t n, aclrtStream stream) {
  // The tiling of a functor kernel of the same arity (its input queues and one output queue).
  const Tiling tiling = MakeTiling(n, kBufferNum * (arity + 1) * sizeof(T), sizeof(T));
  if (arity == 1) {
    return ascendc_sim::LaunchKernel("copy_through", tiling.blockDim, stream, copy_through_kernel<T, 1>, x0, x1, y,
                                     tiling);
  }
  return ascendc_sim::LaunchKernel("copy_through", tiling.blockDim, stream, copy_through_kernel<T, 2>, x0, x1, y,
                                   tiling);
}

template <template <typename> class Launch>
int Dispatch(int dtype, Op op, const void* x0, const void* x1, void* y, uint64_t n, aclrtStream stream) {
  switch (dtype) {
    case ACL_FLOAT: return Launch<float>::Run(op, x0, x1, y, n, stream);
    case ACL_FLOAT16: return Launch<half>::Run(op, x0, x1, y, n, stream);
    case ACL_BF16: return Launch<bfloat16_t>::Run(op, x0, x1, y, n, stream);
    default: return ACL_ERROR_UNSUPPORTED_DATA_TYPE;
  }
}

template <typename T>
struct FunctorLaunch {
  static int Run(Op op, const void* x0, const void* x1, void* y, uint64_t n, aclrtStream s) {
    return LaunchFunctor<T>(op, x0, x1, y, n, s);
  }
};
template <typename T>
struct OpcodeLaunch {
  static int Run(Op op, const void* x0, const void* x1, void* y, uint64_t n, aclrtStream s) {
    return LaunchOpcode<T>(op, x0, x1, y, n, s);
  }
};

}  // namespace

// op: 0 add (x0 + x1), 1 muls (x0 * 2.5), 2 abs; dtype: ACL_FLOAT, ACL_FLOAT16 or ACL_BF16.
extern "C" int bench_functor_launch(int op, int dtype, const void* x0, const void* x1, void* y, uint64_t n,
                                    aclrtStream stream) {
  return Dispatch<FunctorLaunch>(dtype, static_cast<Op>(op), x0, x1, y, n, stream);
}

extern "C" int bench_opcode_launch(int op, int dtype, const void* x0, const void* x1, void* y, uint64_t n,
                                   aclrtStream stream) {
  return Dispatch<OpcodeLaunch>(dtype, static_cast<Op>(op), x0, x1, y, n, stream);
}

// y = x0 after the `arity` (1 or 2) inputs went through the unified buffer: the floor of a
// unary or binary kernel.
extern "C" int bench_copy_through_launch(int arity, int dtype, const void* x0, const void* x1, void* y, uint64_t n,
                                         aclrtStream stream) {
  if (arity != 1 && arity != 2) return ACL_ERROR_INVALID_PARAM;
  switch (dtype) {
    case ACL_FLOAT: return LaunchCopyThrough<float>(arity, x0, x1, y, n, stream);
    case ACL_FLOAT16: return LaunchCopyThrough<half>(arity, x0, x1, y, n, stream);
    default: return ACL_ERROR_UNSUPPORTED_DATA_TYPE;
  }
}
