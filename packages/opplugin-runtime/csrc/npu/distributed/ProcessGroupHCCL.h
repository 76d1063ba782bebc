// ProcessGroupHCCL: the c10d backend of the `npu` device, registered with torch.distributed under the
// name "hccl" (opplugin_runtime/distributed.py). Collectives run through HCCL (libhccl.so) on a
// communication stream per device, ordered after the work queued on the caller's current stream;
// the returned Work is stream-ordered: wait() makes the current stream wait for the collective,
// synchronize() blocks the host until it finished and raises what it failed with.
#pragma once

#include <torch/csrc/distributed/c10d/Backend.hpp>
#include <torch/csrc/distributed/c10d/Store.hpp>
#include <torch/csrc/distributed/c10d/Work.hpp>

#include <chrono>
#include <map>
#include <memory>
#include <mutex>
#include <string>
#include <vector>

#include "hccl/hccl.h"
#include "npu/core/NPUEvent.h"
#include "npu/core/NPUStream.h"

namespace c10d_npu {

class ProcessGroupHCCL : public c10d::Backend {
 public:
  struct Options : c10d::Backend::Options {
    explicit Options(std::chrono::milliseconds timeout = kBackendDefaultTimeout)
        : c10d::Backend::Options("hccl", timeout) {}
    // The job's rank table (RANK_TABLE_FILE, read by the default group only): its communicator is
    // then made by HcclCommInitClusterInfo, as torch_npu does; empty: from a root info the group's
    // rank 0 puts in the store.
    std::string rankTableFile;
  };

  // One collective (or a coalesced run of them) on one device's communication stream.
  class WorkHCCL : public c10d::Work {
   public:
    WorkHCCL(int rank, c10d::OpType type, std::string op, c10::Device device, std::vector<at::Tensor> outputs,
             std::chrono::milliseconds timeout);

    bool isCompleted() override;
    bool isSuccess() const override;
    // The current stream waits for the collective (the host does not).
    bool wait(std::chrono::milliseconds timeout = kNoTimeout) override;
    // The host waits for the collective; raises what it failed with.
    void synchronize() override;
    std::vector<at::Tensor> result() override { return outputs_; }
    c10::intrusive_ptr<c10::ivalue::Future> getFuture() override { return future_; }

   private:
    friend class ProcessGroupHCCL;
    // Records the end of the collective on `stream` and completes the future there.
    void Finish(const c10_npu::NPUStream& stream);
    // Host wait for the end event, bounded by `timeout`; raises on a failed collective or on timeout.
    void WaitOnHost(std::chrono::milliseconds timeout);

    std::string op_;
    c10::Device device_;
    std::vector<at::Tensor> outputs_;
    std::chrono::milliseconds timeout_;
    std::shared_ptr<c10_npu::NPUEvent> end_;
    c10::intrusive_ptr<c10::ivalue::Future> future_;
    bool barrier_ = false;  // wait() of a barrier blocks the host too, as a barrier must
  };

  ProcessGroupHCCL(c10::intrusive_ptr<c10d::Store> store, int rank, int size,
                   c10::intrusive_ptr<Options> options = c10::make_intrusive<Options>());
  ~ProcessGroupHCCL() override;

  const std::string getBackendName() const override { return "hccl"; }
  // Overrides where torch's Backend declares them (newer releases); plain members before.
  c10::intrusive_ptr<c10d::Backend::Options> getBackendOptions() { return options_; }
  bool supportsCoalescing() const { return true; }

  c10::intrusive_ptr<c10d::Work> broadcast(std::vector<at::Tensor>& tensors,
                                           const c10d::BroadcastOptions& opts = c10d::BroadcastOptions()) override;
  c10::intrusive_ptr<c10d::Work> allreduce(std::vector<at::Tensor>& tensors,
                                           const c10d::AllreduceOptions& opts = c10d::AllreduceOptions()) override;
  c10::intrusive_ptr<c10d::Work> allreduce_coalesced(
      std::vector<at::Tensor>& tensors,
      const c10d::AllreduceCoalescedOptions& opts = c10d::AllreduceCoalescedOptions()) override;
  c10::intrusive_ptr<c10d::Work> reduce(std::vector<at::Tensor>& tensors,
                                        const c10d::ReduceOptions& opts = c10d::ReduceOptions()) override;
  c10::intrusive_ptr<c10d::Work> allgather(std::vector<std::vector<at::Tensor>>& outputs,
                                           std::vector<at::Tensor>& inputs,
                                           const c10d::AllgatherOptions& opts = c10d::AllgatherOptions()) override;
  c10::intrusive_ptr<c10d::Work> _allgather_base(at::Tensor& output, at::Tensor& input,
                                                 const c10d::AllgatherOptions& opts = c10d::AllgatherOptions()) override;
  c10::intrusive_ptr<c10d::Work> allgather_into_tensor_coalesced(
      std::vector<at::Tensor>& outputs, std::vector<at::Tensor>& inputs,
      const c10d::AllgatherOptions& opts = c10d::AllgatherOptions()) override;
  c10::intrusive_ptr<c10d::Work> reduce_scatter(
      std::vector<at::Tensor>& outputs, std::vector<std::vector<at::Tensor>>& inputs,
      const c10d::ReduceScatterOptions& opts = c10d::ReduceScatterOptions()) override;
  c10::intrusive_ptr<c10d::Work> _reduce_scatter_base(
      at::Tensor& output, at::Tensor& input,
      const c10d::ReduceScatterOptions& opts = c10d::ReduceScatterOptions()) override;
  c10::intrusive_ptr<c10d::Work> reduce_scatter_tensor_coalesced(
      std::vector<at::Tensor>& outputs, std::vector<at::Tensor>& inputs,
      const c10d::ReduceScatterOptions& opts = c10d::ReduceScatterOptions()) override;
  c10::intrusive_ptr<c10d::Work> alltoall_base(at::Tensor& output, at::Tensor& input,
                                               std::vector<int64_t>& outputSplitSizes,
                                               std::vector<int64_t>& inputSplitSizes,
                                               const c10d::AllToAllOptions& opts = c10d::AllToAllOptions()) override;
  c10::intrusive_ptr<c10d::Work> alltoall(std::vector<at::Tensor>& outputs, std::vector<at::Tensor>& inputs,
                                          const c10d::AllToAllOptions& opts = c10d::AllToAllOptions()) override;
  c10::intrusive_ptr<c10d::Work> send(std::vector<at::Tensor>& tensors, int dstRank, int tag) override;
  c10::intrusive_ptr<c10d::Work> recv(std::vector<at::Tensor>& tensors, int srcRank, int tag) override;
  c10::intrusive_ptr<c10d::Work> barrier(const c10d::BarrierOptions& opts = c10d::BarrierOptions()) override;

  void startCoalescing() override;
  c10::intrusive_ptr<c10d::Work> endCoalescing() override;

 private:
  // What a collective launches on the communication stream, given the communicator and the stream.
  using Launch = std::function<HcclResult(HcclComm, aclrtStream)>;
  // What runs on the communication stream after the launch (copies out of a staging buffer, AVG's division).
  using After = std::function<void()>;

  // The communicator of `device` (created on first use: from the rank table, else rank 0's root
  // info goes through the store).
  HcclComm Communicator(c10::Device device);
  // The default group's communicator from Options::rankTableFile; null (with a warning) when the
  // table does not serve.
  HcclComm FromRankTable();
  HcclComm FromRootInfo();
  c10_npu::NPUStream CommStream(c10::Device device);

  // Runs `launch` on the device's communication stream after the current stream's queued work;
  // `touched` are the tensors the collective reads or writes (kept alive for the stream).
  c10::intrusive_ptr<c10d::Work> Run(const char* op, c10d::OpType type, c10::Device device,
                                     const std::vector<at::Tensor>& touched, std::vector<at::Tensor> outputs,
                                     const Launch& launch, const After& after = nullptr);

  c10::intrusive_ptr<c10d::Store> store_;
  c10::intrusive_ptr<Options> options_;
  std::mutex mutex_;
  std::map<c10::DeviceIndex, HcclComm> comms_;
  std::map<c10::DeviceIndex, c10_npu::NPUStream> streams_;
  uint64_t commCount_ = 0;  // communicators made so far: each has its own root-info key in the store

  bool coalescing_ = false;
  std::vector<at::Tensor> coalescedOutputs_;
  c10::optional<c10::Device> coalescedDevice_;
  c10d::OpType coalescedType_ = c10d::OpType::COALESCED;
  c10::Device lastDevice_{c10::DeviceType::PrivateUse1, 0};
  bool usedDevice_ = false;
};

}  // namespace c10d_npu
