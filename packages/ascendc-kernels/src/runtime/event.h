// Events: markers recorded on a stream. A record completes when the stream
// reaches it; it then carries a steady-clock timestamp and the stream's pending
// error at that point (what aclrtSynchronizeEvent reports).
#ifndef ASCENDC_SIM_RUNTIME_EVENT_H
#define ASCENDC_SIM_RUNTIME_EVENT_H

#include <stdint.h>

#include <atomic>
#include <memory>
#include <mutex>

#include "acl/acl_base.h"
#include "runtime/stream.h"

namespace ascendc_sim {

class Event : public std::enable_shared_from_this<Event> {
 public:
  explicit Event(uint32_t flags) : flags_(flags) {}

  bool Valid() const { return magic_.load(std::memory_order_relaxed) == kMagic; }
  void Invalidate() { magic_.store(0, std::memory_order_relaxed); }
  uint32_t flags() const { return flags_; }

  // Queues a record on `stream`.
  aclError Record(Stream& stream);
  // The stream and sequence number of the latest record (null when never recorded).
  std::shared_ptr<Stream> LatestRecord(uint64_t* seq) const;
  bool Complete() const;
  // Waits for the latest record; returns (and clears on its stream) the error
  // that was pending on the stream when the record ran.
  StreamError Synchronize();
  // Timestamp of the latest completed record, in steady-clock nanoseconds;
  // false when not recorded or not complete.
  bool Timestamp(int64_t* ns) const;

  // Called by the record task.
  void MarkComplete(uint64_t generation, int64_t ns, uint64_t errorId);

 private:
  static constexpr uint32_t kMagic = 0x45564e54u;
  std::atomic<uint32_t> magic_{kMagic};
  const uint32_t flags_;

  mutable std::mutex mu_;
  std::shared_ptr<Stream> stream_;
  uint64_t seq_ = 0;
  uint64_t generation_ = 0;           // records issued
  uint64_t completedGeneration_ = 0;  // records completed
  int64_t timestampNs_ = 0;
  uint64_t errorId_ = 0;
};

}  // namespace ascendc_sim

#endif  // ASCENDC_SIM_RUNTIME_EVENT_H
