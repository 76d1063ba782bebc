#include "npu/distributed/ProcessGroupHCCL.h"

#include <ATen/ATen.h>
#include <ATen/core/ivalue.h>
#include <c10/util/Exception.h>

#include <numeric>
#include <thread>
#include <utility>

#include "acl/acl.h"
#include "npu/core/NPUCachingAllocator.h"
#include "npu/core/NPUFunctions.h"
#include "npu/core/NPUGuard.h"

namespace c10d_npu {
namespace {

// HCCL's failure with the call, the code's name and what the library said.
void CheckHccl(HcclResult rc, const char* call, const char* op) {
  if (rc == HCCL_SUCCESS) return;
  const char* detail = aclGetRecentErrMsg();
  TORCH_CHECK(false, "ProcessGroupHCCL::", op, ": ", call, " failed with ", HcclGetErrorString(rc),
              (detail != nullptr && detail[0] != '\0') ? std::string(": ") + detail : std::string());
}

HcclDataType HcclType(const at::Tensor& t, const char* op) {
  switch (t.scalar_type()) {
    case at::kFloat: return HCCL_DATA_TYPE_FP32;
    case at::kHalf: return HCCL_DATA_TYPE_FP16;
    case at::kBFloat16: return HCCL_DATA_TYPE_BFP16;
    case at::kDouble: return HCCL_DATA_TYPE_FP64;
    case at::kInt: return HCCL_DATA_TYPE_INT32;
    case at::kLong: return HCCL_DATA_TYPE_INT64;
    case at::kShort: return HCCL_DATA_TYPE_INT16;
    case at::kChar: return HCCL_DATA_TYPE_INT8;
    case at::kByte: return HCCL_DATA_TYPE_UINT8;
    case at::kBool: return HCCL_DATA_TYPE_UINT8;  // one byte each; reductions below keep 0/1
    default: break;
  }
  TORCH_CHECK(false, "ProcessGroupHCCL::", op, ": HCCL has no data type for ", t.scalar_type());
}

// HCCL's reduction for torch's; AVG is a sum divided afterwards (HCCL has no average), and bool
// tensors reduce as logical or / and (a byte max / min), as other backends do.
HcclReduceOp HcclReduction(const c10d::ReduceOp& op, const at::Tensor& t, const char* name) {
  const bool isBool = t.scalar_type() == at::kBool;
  switch (op.op_) {
    case c10d::ReduceOp::SUM: return isBool ? HCCL_REDUCE_MAX : HCCL_REDUCE_SUM;
    case c10d::ReduceOp::AVG:
      TORCH_CHECK(at::isFloatingType(t.scalar_type()), "ProcessGroupHCCL::", name,
                  ": ReduceOp.AVG needs a floating tensor, got ", t.scalar_type());
      return HCCL_REDUCE_SUM;
    case c10d::ReduceOp::PRODUCT: return isBool ? HCCL_REDUCE_MIN : HCCL_REDUCE_PROD;
    case c10d::ReduceOp::MIN: return HCCL_REDUCE_MIN;
    case c10d::ReduceOp::MAX: return HCCL_REDUCE_MAX;
    default: break;
  }
  TORCH_CHECK(false, "ProcessGroupHCCL::", name, ": HCCL has no reduction for ReduceOp ",
              static_cast<int>(op.op_), " (it has SUM, AVG, PRODUCT, MIN and MAX)");
}

// A tensor a collective can read or write in place: on npu, dense and contiguous.
void CheckTensor(const at::Tensor& t, const char* op, const char* what) {
  TORCH_CHECK(t.defined(), "ProcessGroupHCCL::", op, ": ", what, " is an undefined tensor");
  TORCH_CHECK(t.device().type() == c10::DeviceType::PrivateUse1, "ProcessGroupHCCL::", op, ": ", what,
              " must be an npu tensor, got one on ", t.device());
  TORCH_CHECK(t.layout() == at::kStrided, "ProcessGroupHCCL::", op, ": ", what, " must be dense, got ", t.layout());
  TORCH_CHECK(t.is_contiguous(t.suggest_memory_format()), "ProcessGroupHCCL::", op, ": ", what,
              " must be contiguous");
}

const at::Tensor& OnlyTensor(const std::vector<at::Tensor>& tensors, const char* op) {
  TORCH_CHECK(tensors.size() == 1, "ProcessGroupHCCL::", op, ": one tensor per process is supported, got ",
              tensors.size());
  CheckTensor(tensors[0], op, "the tensor");
  return tensors[0];
}

void CheckSameKind(const at::Tensor& a, const at::Tensor& b, const char* op) {
  TORCH_CHECK(a.scalar_type() == b.scalar_type(), "ProcessGroupHCCL::", op, ": input is ", a.scalar_type(),
              " but output is ", b.scalar_type());
  TORCH_CHECK(a.device() == b.device(), "ProcessGroupHCCL::", op, ": input is on ", a.device(), " but output on ",
              b.device());
}

std::vector<at::Tensor> Flattened(const std::vector<at::Tensor>& tensors) {
  std::vector<at::Tensor> flat;
  flat.reserve(tensors.size());
  for (const at::Tensor& t : tensors) flat.push_back(t.reshape({-1}));
  return flat;
}

std::chrono::milliseconds Bounded(std::chrono::milliseconds requested, std::chrono::milliseconds fallback) {
  return requested > std::chrono::milliseconds::zero() ? requested : fallback;
}

}  // namespace

// ---- WorkHCCL

ProcessGroupHCCL::WorkHCCL::WorkHCCL(int rank, c10d::OpType type, std::string op, c10::Device device,
                                     std::vector<at::Tensor> outputs, std::chrono::milliseconds timeout)
    : c10d::Work(rank, type),
      op_(std::move(op)),
      device_(device),
      outputs_(std::move(outputs)),
      timeout_(timeout),
      end_(std::make_shared<c10_npu::NPUEvent>()),
      future_(c10::make_intrusive<c10::ivalue::Future>(c10::ListType::create(c10::TensorType::get()),
                                                       std::vector<c10::Device>{device})) {}

void ProcessGroupHCCL::WorkHCCL::Finish(const c10_npu::NPUStream& stream) {
  end_->record(stream);
  // The future's value is ready for whoever waits on it from any stream: it records its own event on
  // the current stream, here the communication stream.
  c10_npu::NPUStreamGuard guard(stream);
  future_->markCompleted(c10::IValue(outputs_));
}

bool ProcessGroupHCCL::WorkHCCL::isCompleted() { return end_->query(); }

bool ProcessGroupHCCL::WorkHCCL::isSuccess() const { return end_->query(); }

void ProcessGroupHCCL::WorkHCCL::WaitOnHost(std::chrono::milliseconds timeout) {
  const auto deadline = std::chrono::steady_clock::now() + timeout;
  // Polled, so that a collective that never ends cannot hang the caller past the timeout; HCCL's own
  // execution timeout fails a collective whose peer is gone, and the event then reports that error.
  while (!end_->query()) {
    TORCH_CHECK(std::chrono::steady_clock::now() < deadline, "ProcessGroupHCCL: ", op_, " on rank ", rank_,
                " did not finish within ", timeout.count(), " ms");
    std::this_thread::sleep_for(std::chrono::microseconds(200));
  }
  end_->synchronize();  // raises the stream's error if the collective failed
}

bool ProcessGroupHCCL::WorkHCCL::wait(std::chrono::milliseconds timeout) {
  if (barrier_ || timeout != ::kNoTimeout) {
    WaitOnHost(Bounded(timeout, timeout_));
  }
  end_->block(c10_npu::getCurrentNPUStream(device_.index()));
  return true;
}

void ProcessGroupHCCL::WorkHCCL::synchronize() { WaitOnHost(timeout_); }

// ---- ProcessGroupHCCL

ProcessGroupHCCL::ProcessGroupHCCL(c10::intrusive_ptr<c10d::Store> store, int rank, int size,
                                   c10::intrusive_ptr<Options> options)
    : c10d::Backend(rank, size), store_(std::move(store)), options_(std::move(options)) {
  TORCH_CHECK(store_, "ProcessGroupHCCL: a store is required");
  TORCH_CHECK(options_, "ProcessGroupHCCL: options are required");
}

ProcessGroupHCCL::~ProcessGroupHCCL() {
  for (auto& [device, stream] : streams_) {
    (void)device;
    aclrtSynchronizeStream(stream.stream());  // a destructor must not throw: the status is dropped
  }
  for (auto& [device, comm] : comms_) {
    (void)device;
    HcclCommDestroy(comm);
  }
}

HcclComm ProcessGroupHCCL::Communicator(c10::Device device) {
  std::lock_guard<std::mutex> lock(mutex_);
  auto found = comms_.find(device.index());
  if (found != comms_.end()) return found->second;
  c10_npu::NPUGuard guard(device);
  HcclComm comm = nullptr;
  if (!options_->rankTableFile.empty() && comms_.empty()) {
    comm = FromRankTable();
  }
  if (comm == nullptr) comm = FromRootInfo();
  comms_.emplace(device.index(), comm);
  streams_.emplace(device.index(), c10_npu::getStreamFromPool(false, device.index()));
  return comm;
}

HcclComm ProcessGroupHCCL::FromRankTable() {
  const std::string& path = options_->rankTableFile;
  HcclComm comm = nullptr;
  const HcclResult rc = HcclCommInitClusterInfo(path.c_str(), static_cast<uint32_t>(rank_), &comm);
  uint32_t ranks = 0;
  if (rc == HCCL_SUCCESS && HcclGetRankSize(comm, &ranks) == HCCL_SUCCESS && ranks == static_cast<uint32_t>(size_)) {
    return comm;
  }
  // As torch_npu does, a table that does not serve falls back to the root info (every rank of
  // the group reads the same table, so every rank falls back).
  std::string why;
  if (rc != HCCL_SUCCESS) {
    const char* detail = aclGetRecentErrMsg();
    why = std::string(HcclGetErrorString(rc)) + (detail != nullptr && detail[0] != '\0' ? std::string(": ") + detail : "");
  } else {
    why = "the table has " + std::to_string(ranks) + " ranks, the group " + std::to_string(size_);
    HcclCommDestroy(comm);
  }
  TORCH_WARN("ProcessGroupHCCL: the communicator was not made from RANK_TABLE_FILE=", path, " (", why,
             "); the group's root info is used instead");
  return nullptr;
}

HcclComm ProcessGroupHCCL::FromRootInfo() {
  const std::string key = "hccl_root_info_" + std::to_string(commCount_++);
  HcclRootInfo root{};
  if (rank_ == 0) {
    CheckHccl(HcclGetRootInfo(&root), "HcclGetRootInfo", "init");
    const auto* bytes = reinterpret_cast<const uint8_t*>(root.internal);
    store_->set(key, std::vector<uint8_t>(bytes, bytes + sizeof(root.internal)));
  } else {
    const std::vector<uint8_t> bytes = store_->get(key);
    TORCH_CHECK(bytes.size() == sizeof(root.internal), "ProcessGroupHCCL: the root info in the store has ",
                bytes.size(), " bytes, expected ", sizeof(root.internal));
    std::copy(bytes.begin(), bytes.end(), reinterpret_cast<uint8_t*>(root.internal));
  }
  HcclComm comm = nullptr;
  CheckHccl(HcclCommInitRootInfo(static_cast<uint32_t>(size_), &root, static_cast<uint32_t>(rank_), &comm),
            "HcclCommInitRootInfo", "init");
  return comm;
}

c10_npu::NPUStream ProcessGroupHCCL::CommStream(c10::Device device) {
  std::lock_guard<std::mutex> lock(mutex_);
  return streams_.at(device.index());
}

c10::intrusive_ptr<c10d::Work> ProcessGroupHCCL::Run(const char* op, c10d::OpType type, c10::Device device,
                                                     const std::vector<at::Tensor>& touched,
                                                     std::vector<at::Tensor> outputs, const Launch& launch,
                                                     const After& after) {
  HcclComm comm = Communicator(device);
  c10_npu::NPUStream stream = CommStream(device);
  c10_npu::NPUGuard deviceGuard(device);
  {
    // The collective starts after what the caller queued on its current stream.
    c10_npu::NPUEvent ready;
    ready.record(c10_npu::getCurrentNPUStream(device.index()));
    ready.block(stream);
  }
  for (const at::Tensor& t : touched) {
    // The caching allocator must not hand these blocks out again before the collective used them.
    c10_npu::NPUCachingAllocator::recordStream(t.storage().data_ptr(), stream);
  }
  {
    c10_npu::NPUStreamGuard streamGuard(stream);
    CheckHccl(launch(comm, stream.stream()), op, op);
    if (after) after();
  }
  lastDevice_ = device;
  usedDevice_ = true;
  if (coalescing_) {
    TORCH_CHECK(!coalescedDevice_ || *coalescedDevice_ == device, "ProcessGroupHCCL::", op,
                ": a coalesced run must stay on one device, got ", *coalescedDevice_, " and ", device);
    coalescedDevice_ = device;
    coalescedOutputs_.insert(coalescedOutputs_.end(), outputs.begin(), outputs.end());
  }
  auto work = c10::make_intrusive<WorkHCCL>(rank_, type, op, device, std::move(outputs), options_->timeout);
  work->Finish(stream);
  return work;
}

c10::intrusive_ptr<c10d::Work> ProcessGroupHCCL::broadcast(std::vector<at::Tensor>& tensors,
                                                           const c10d::BroadcastOptions& opts) {
  const at::Tensor& t = OnlyTensor(tensors, "broadcast");
  TORCH_CHECK(opts.rootRank >= 0 && opts.rootRank < size_, "ProcessGroupHCCL::broadcast: root rank ",
              opts.rootRank, " is not in [0, ", size_, ")");
  const HcclDataType type = HcclType(t, "broadcast");
  return Run("broadcast", c10d::OpType::BROADCAST, t.device(), {t}, {t}, [&](HcclComm comm, aclrtStream s) {
    return HcclBroadcast(t.data_ptr(), static_cast<uint64_t>(t.numel()), type, static_cast<uint32_t>(opts.rootRank),
                         comm, s);
  });
}

c10::intrusive_ptr<c10d::Work> ProcessGroupHCCL::allreduce(std::vector<at::Tensor>& tensors,
                                                           const c10d::AllreduceOptions& opts) {
  const at::Tensor& t = OnlyTensor(tensors, "allreduce");
  const HcclDataType type = HcclType(t, "allreduce");
  const HcclReduceOp reduction = HcclReduction(opts.reduceOp, t, "allreduce");
  const bool average = opts.reduceOp.op_ == c10d::ReduceOp::AVG;
  at::Tensor out = t;
  return Run(
      "allreduce", c10d::OpType::ALLREDUCE, t.device(), {t}, {t},
      [&](HcclComm comm, aclrtStream s) {
        return HcclAllReduce(t.data_ptr(), t.data_ptr(), static_cast<uint64_t>(t.numel()), type, reduction, comm, s);
      },
      [&] {
        if (average) out.div_(size_);
      });
}

c10::intrusive_ptr<c10d::Work> ProcessGroupHCCL::allreduce_coalesced(std::vector<at::Tensor>& tensors,
                                                                     const c10d::AllreduceCoalescedOptions& opts) {
  TORCH_CHECK(!tensors.empty(), "ProcessGroupHCCL::allreduce_coalesced: no tensors");
  startCoalescing();
  for (at::Tensor& t : tensors) {
    std::vector<at::Tensor> one{t};
    allreduce(one, opts);
  }
  return endCoalescing();
}

c10::intrusive_ptr<c10d::Work> ProcessGroupHCCL::reduce(std::vector<at::Tensor>& tensors,
                                                        const c10d::ReduceOptions& opts) {
  const at::Tensor& t = OnlyTensor(tensors, "reduce");
  TORCH_CHECK(opts.rootRank >= 0 && opts.rootRank < size_, "ProcessGroupHCCL::reduce: root rank ", opts.rootRank,
              " is not in [0, ", size_, ")");
  const HcclDataType type = HcclType(t, "reduce");
  const HcclReduceOp reduction = HcclReduction(opts.reduceOp, t, "reduce");
  const bool average = opts.reduceOp.op_ == c10d::ReduceOp::AVG && rank_ == opts.rootRank;
  at::Tensor out = t;
  return Run(
      "reduce", c10d::OpType::REDUCE, t.device(), {t}, {t},
      [&](HcclComm comm, aclrtStream s) {
        return HcclReduce(t.data_ptr(), t.data_ptr(), static_cast<uint64_t>(t.numel()), type, reduction,
                          static_cast<uint32_t>(opts.rootRank), comm, s);
      },
      [&] {
        if (average) out.div_(size_);
      });
}

c10::intrusive_ptr<c10d::Work> ProcessGroupHCCL::_allgather_base(at::Tensor& output, at::Tensor& input,
                                                                 const c10d::AllgatherOptions& /*opts*/) {
  CheckTensor(input, "allgather_into_tensor", "input");
  CheckTensor(output, "allgather_into_tensor", "output");
  CheckSameKind(input, output, "allgather_into_tensor");
  TORCH_CHECK(output.numel() == input.numel() * size_, "ProcessGroupHCCL::allgather_into_tensor: output has ",
              output.numel(), " elements, expected ", size_, " x ", input.numel());
  const HcclDataType type = HcclType(input, "allgather_into_tensor");
  return Run("allgather_into_tensor", c10d::OpType::_ALLGATHER_BASE, input.device(), {input, output}, {output},
             [&](HcclComm comm, aclrtStream s) {
               return HcclAllGather(input.data_ptr(), output.data_ptr(), static_cast<uint64_t>(input.numel()), type,
                                    comm, s);
             });
}

c10::intrusive_ptr<c10d::Work> ProcessGroupHCCL::allgather(std::vector<std::vector<at::Tensor>>& outputs,
                                                           std::vector<at::Tensor>& inputs,
                                                           const c10d::AllgatherOptions& /*opts*/) {
  const at::Tensor& input = OnlyTensor(inputs, "allgather");
  TORCH_CHECK(outputs.size() == 1 && static_cast<int>(outputs[0].size()) == size_,
              "ProcessGroupHCCL::allgather: expected one list of ", size_, " output tensors");
  for (const at::Tensor& o : outputs[0]) {
    CheckTensor(o, "allgather", "an output");
    CheckSameKind(input, o, "allgather");
    TORCH_CHECK(o.numel() == input.numel(), "ProcessGroupHCCL::allgather: an output has ", o.numel(),
                " elements, the input ", input.numel());
  }
  // Gathered into one buffer, then copied to the outputs on the communication stream.
  at::Tensor flat = at::empty({size_ * input.numel()}, input.options());
  const HcclDataType type = HcclType(input, "allgather");
  std::vector<at::Tensor> touched{input, flat};
  touched.insert(touched.end(), outputs[0].begin(), outputs[0].end());
  std::vector<at::Tensor>& list = outputs[0];
  return Run(
      "allgather", c10d::OpType::ALLGATHER, input.device(), touched, list,
      [&](HcclComm comm, aclrtStream s) {
        return HcclAllGather(input.data_ptr(), flat.data_ptr(), static_cast<uint64_t>(input.numel()), type, comm, s);
      },
      [&] {
        for (int r = 0; r < size_; ++r) {
          list[r].view({-1}).copy_(flat.narrow(0, r * input.numel(), input.numel()));
        }
      });
}

c10::intrusive_ptr<c10d::Work> ProcessGroupHCCL::allgather_into_tensor_coalesced(
    std::vector<at::Tensor>& outputs, std::vector<at::Tensor>& inputs, const c10d::AllgatherOptions& opts) {
  TORCH_CHECK(outputs.size() == inputs.size(), "ProcessGroupHCCL::allgather_into_tensor_coalesced: ",
              outputs.size(), " outputs for ", inputs.size(), " inputs");
  startCoalescing();
  for (size_t i = 0; i < inputs.size(); ++i) _allgather_base(outputs[i], inputs[i], opts);
  return endCoalescing();
}

c10::intrusive_ptr<c10d::Work> ProcessGroupHCCL::_reduce_scatter_base(at::Tensor& output, at::Tensor& input,
                                                                      const c10d::ReduceScatterOptions& opts) {
  CheckTensor(input, "reduce_scatter_tensor", "input");
  CheckTensor(output, "reduce_scatter_tensor", "output");
  CheckSameKind(input, output, "reduce_scatter_tensor");
  TORCH_CHECK(input.numel() == output.numel() * size_, "ProcessGroupHCCL::reduce_scatter_tensor: input has ",
              input.numel(), " elements, expected ", size_, " x ", output.numel());
  const HcclDataType type = HcclType(input, "reduce_scatter_tensor");
  const HcclReduceOp reduction = HcclReduction(opts.reduceOp, input, "reduce_scatter_tensor");
  const bool average = opts.reduceOp.op_ == c10d::ReduceOp::AVG;
  at::Tensor out = output;
  return Run(
      "reduce_scatter_tensor", c10d::OpType::_REDUCE_SCATTER_BASE, input.device(), {input, output}, {output},
      [&](HcclComm comm, aclrtStream s) {
        return HcclReduceScatter(input.data_ptr(), output.data_ptr(), static_cast<uint64_t>(output.numel()), type,
                                 reduction, comm, s);
      },
      [&] {
        if (average) out.div_(size_);
      });
}

c10::intrusive_ptr<c10d::Work> ProcessGroupHCCL::reduce_scatter(std::vector<at::Tensor>& outputs,
                                                                std::vector<std::vector<at::Tensor>>& inputs,
                                                                const c10d::ReduceScatterOptions& opts) {
  at::Tensor& output = const_cast<at::Tensor&>(OnlyTensor(outputs, "reduce_scatter"));
  TORCH_CHECK(inputs.size() == 1 && static_cast<int>(inputs[0].size()) == size_,
              "ProcessGroupHCCL::reduce_scatter: expected one list of ", size_, " input tensors");
  for (const at::Tensor& i : inputs[0]) {
    CheckTensor(i, "reduce_scatter", "an input");
    CheckSameKind(i, output, "reduce_scatter");
    TORCH_CHECK(i.numel() == output.numel(), "ProcessGroupHCCL::reduce_scatter: an input has ", i.numel(),
                " elements, the output ", output.numel());
  }
  // The inputs laid end to end on the caller's stream (Run orders the collective after it).
  at::Tensor flat = at::cat(Flattened(inputs[0]));
  auto work = _reduce_scatter_base(output, flat, opts);
  return work;
}

c10::intrusive_ptr<c10d::Work> ProcessGroupHCCL::reduce_scatter_tensor_coalesced(
    std::vector<at::Tensor>& outputs, std::vector<at::Tensor>& inputs, const c10d::ReduceScatterOptions& opts) {
  TORCH_CHECK(outputs.size() == inputs.size(), "ProcessGroupHCCL::reduce_scatter_tensor_coalesced: ",
              outputs.size(), " outputs for ", inputs.size(), " inputs");
  startCoalescing();
  for (size_t i = 0; i < inputs.size(); ++i) _reduce_scatter_base(outputs[i], inputs[i], opts);
  return endCoalescing();
}

c10::intrusive_ptr<c10d::Work> ProcessGroupHCCL::alltoall_base(at::Tensor& output, at::Tensor& input,
                                                               std::vector<int64_t>& outputSplitSizes,
                                                               std::vector<int64_t>& inputSplitSizes,
                                                               const c10d::AllToAllOptions& /*opts*/) {
  CheckTensor(input, "all_to_all_single", "input");
  CheckTensor(output, "all_to_all_single", "output");
  CheckSameKind(input, output, "all_to_all_single");
  const HcclDataType type = HcclType(input, "all_to_all_single");
  if (outputSplitSizes.empty() && inputSplitSizes.empty()) {
    TORCH_CHECK(input.numel() == output.numel() && input.numel() % size_ == 0,
                "ProcessGroupHCCL::all_to_all_single: equal splits need input and output of the same size, "
                "divisible by ", size_, "; got ", input.numel(), " and ", output.numel());
    const uint64_t count = static_cast<uint64_t>(input.numel() / size_);
    return Run("all_to_all_single", c10d::OpType::ALLTOALL_BASE, input.device(), {input, output}, {output},
               [&](HcclComm comm, aclrtStream s) {
                 return HcclAlltoAll(input.data_ptr(), count, type, output.data_ptr(), count, type, comm, s);
               });
  }
  // Split sizes count rows of dim 0; HCCL counts elements.
  auto elementsPerRow = [](const at::Tensor& t) { return t.dim() == 0 || t.size(0) == 0 ? 0 : t.numel() / t.size(0); };
  auto layout = [&](const std::vector<int64_t>& splits, const at::Tensor& t, const char* what,
                    std::vector<uint64_t>* counts, std::vector<uint64_t>* displs) {
    std::vector<int64_t> rows = splits;
    if (rows.empty()) {
      TORCH_CHECK(t.dim() > 0 && t.size(0) % size_ == 0, "ProcessGroupHCCL::all_to_all_single: the ", what,
                  "'s first dimension is not divisible by ", size_);
      rows.assign(size_, t.size(0) / size_);
    }
    TORCH_CHECK(static_cast<int>(rows.size()) == size_, "ProcessGroupHCCL::all_to_all_single: ", rows.size(), " ",
                what, " split sizes for ", size_, " ranks");
    const int64_t per = elementsPerRow(t);
    uint64_t offset = 0;
    int64_t total = 0;
    for (int64_t r : rows) {
      TORCH_CHECK(r >= 0, "ProcessGroupHCCL::all_to_all_single: negative ", what, " split size ", r);
      counts->push_back(static_cast<uint64_t>(r * per));
      displs->push_back(offset);
      offset += static_cast<uint64_t>(r * per);
      total += r;
    }
    TORCH_CHECK(t.dim() > 0 && total == t.size(0), "ProcessGroupHCCL::all_to_all_single: ", what,
                " split sizes add up to ", total, " rows, the ", what, " has ", t.dim() > 0 ? t.size(0) : 0);
  };
  std::vector<uint64_t> sendCounts, sendDispls, recvCounts, recvDispls;
  layout(inputSplitSizes, input, "input", &sendCounts, &sendDispls);
  layout(outputSplitSizes, output, "output", &recvCounts, &recvDispls);
  return Run("all_to_all_single", c10d::OpType::ALLTOALL_BASE, input.device(), {input, output}, {output},
             [&](HcclComm comm, aclrtStream s) {
               return HcclAlltoAllV(input.data_ptr(), sendCounts.data(), sendDispls.data(), type, output.data_ptr(),
                                    recvCounts.data(), recvDispls.data(), type, comm, s);
             });
}

c10::intrusive_ptr<c10d::Work> ProcessGroupHCCL::alltoall(std::vector<at::Tensor>& outputs,
                                                          std::vector<at::Tensor>& inputs,
                                                          const c10d::AllToAllOptions& opts) {
  TORCH_CHECK(static_cast<int>(inputs.size()) == size_ && static_cast<int>(outputs.size()) == size_,
              "ProcessGroupHCCL::all_to_all: expected ", size_, " inputs and outputs, got ", inputs.size(), " and ",
              outputs.size());
  std::vector<int64_t> inSplits, outSplits;
  for (const at::Tensor& t : inputs) inSplits.push_back(t.numel());
  for (const at::Tensor& t : outputs) outSplits.push_back(t.numel());
  at::Tensor in = at::cat(Flattened(inputs));
  at::Tensor out = at::empty({std::accumulate(outSplits.begin(), outSplits.end(), int64_t{0})}, in.options());
  auto work = alltoall_base(out, in, outSplits, inSplits, opts);
  {
    // Back into the caller's tensors on the communication stream, then the work covers them.
    c10_npu::NPUStream stream = CommStream(in.device());
    c10_npu::NPUStreamGuard guard(stream);
    int64_t offset = 0;
    for (at::Tensor& t : outputs) {
      t.view({-1}).copy_(out.narrow(0, offset, t.numel()));
      offset += t.numel();
    }
    auto finished = c10::make_intrusive<WorkHCCL>(rank_, c10d::OpType::ALLTOALL, "all_to_all", in.device(), outputs,
                                                  options_->timeout);
    finished->Finish(stream);
    return finished;
  }
}

c10::intrusive_ptr<c10d::Work> ProcessGroupHCCL::send(std::vector<at::Tensor>& tensors, int dstRank, int /*tag*/) {
  const at::Tensor& t = OnlyTensor(tensors, "send");
  TORCH_CHECK(dstRank >= 0 && dstRank < size_ && dstRank != rank_, "ProcessGroupHCCL::send: destination rank ",
              dstRank, " is not another rank of the group of ", size_);
  const HcclDataType type = HcclType(t, "send");
  return Run("send", c10d::OpType::SEND, t.device(), {t}, {t}, [&](HcclComm comm, aclrtStream s) {
    return HcclSend(t.data_ptr(), static_cast<uint64_t>(t.numel()), type, static_cast<uint32_t>(dstRank), comm, s);
  });
}

c10::intrusive_ptr<c10d::Work> ProcessGroupHCCL::recv(std::vector<at::Tensor>& tensors, int srcRank, int /*tag*/) {
  const at::Tensor& t = OnlyTensor(tensors, "recv");
  TORCH_CHECK(srcRank >= 0 && srcRank < size_ && srcRank != rank_, "ProcessGroupHCCL::recv: source rank ", srcRank,
              " is not another rank of the group of ", size_);
  const HcclDataType type = HcclType(t, "recv");
  return Run("recv", c10d::OpType::RECV, t.device(), {t}, {t}, [&](HcclComm comm, aclrtStream s) {
    return HcclRecv(t.data_ptr(), static_cast<uint64_t>(t.numel()), type, static_cast<uint32_t>(srcRank), comm, s);
  });
}

c10::intrusive_ptr<c10d::Work> ProcessGroupHCCL::barrier(const c10d::BarrierOptions& opts) {
  // The device: the one asked for, else the last one used, else the rank's own (one device per rank).
  c10::Device device(c10::DeviceType::PrivateUse1, 0);
  if (!opts.device_ids.empty()) {
    device = c10::Device(c10::DeviceType::PrivateUse1, static_cast<c10::DeviceIndex>(opts.device_ids[0]));
  } else if (usedDevice_) {
    device = lastDevice_;
  } else {
    device = c10::Device(c10::DeviceType::PrivateUse1,
                         static_cast<c10::DeviceIndex>(rank_ % std::max<int>(1, c10_npu::device_count())));
  }
  c10_npu::NPUGuard guard(device);
  at::Tensor token = at::zeros({1}, at::TensorOptions().dtype(at::kFloat).device(device));
  HcclComm comm = Communicator(device);
  (void)comm;
  auto work = Run("barrier", c10d::OpType::BARRIER, device, {token}, {token},
                  [&](HcclComm c, aclrtStream s) { return HcclBarrier(c, s); });
  static_cast<WorkHCCL*>(work.get())->barrier_ = true;
  return work;
}

void ProcessGroupHCCL::startCoalescing() {
  TORCH_CHECK(!coalescing_, "ProcessGroupHCCL: startCoalescing called twice without endCoalescing");
  coalescing_ = true;
  coalescedOutputs_.clear();
  coalescedDevice_.reset();
}

c10::intrusive_ptr<c10d::Work> ProcessGroupHCCL::endCoalescing() {
  TORCH_CHECK(coalescing_, "ProcessGroupHCCL: endCoalescing without startCoalescing");
  coalescing_ = false;
  const c10::Device device = coalescedDevice_.value_or(lastDevice_);
  auto work = c10::make_intrusive<WorkHCCL>(rank_, c10d::OpType::COALESCED, "coalesced", device,
                                            std::move(coalescedOutputs_), options_->timeout);
  coalescedOutputs_.clear();
  if (!coalescedDevice_) {
    // Nothing was queued: the work is complete as soon as the current stream's queued work is.
    work->Finish(c10_npu::getCurrentNPUStream(device.index()));
    return work;
  }
  // Every collective of the run went to the device's communication stream, in order: its end is theirs.
  work->Finish(CommStream(device));
  return work;
}

}  // namespace c10d_npu
