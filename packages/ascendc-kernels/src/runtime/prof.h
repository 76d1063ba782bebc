// Kernel execution recording behind ascendc_sim/prof.h.
#ifndef ASCENDC_SIM_RUNTIME_PROF_H
#define ASCENDC_SIM_RUNTIME_PROF_H

#include <stdint.h>

#include <atomic>

#include "ascendc_sim/prof.h"

namespace ascendc_sim {

extern std::atomic<int> g_prof_depth;

inline bool ProfRecording() { return g_prof_depth.load(std::memory_order_relaxed) > 0; }

// The calling thread's correlation id (aclsimProfSetCorrelationId).
uint64_t ProfCorrelationId();
// Current CLOCK_REALTIME in ns.
int64_t ProfNowNs();
// Appends a finished record (fills threadId).
void ProfAppend(aclsimKernelRecord& record);
// Appends a report (kept only while recording; returns whether it was kept).
bool ProfAppendReport(const aclsimReportRecord& record);
// What to add to a time on MsprofSysCycleTime's steady clock for CLOCK_REALTIME ns (sampled now:
// convert a report's times with one sample so that their differences stay exact).
int64_t ProfSteadyToRealtimeNs();

}  // namespace ascendc_sim

#endif  // ASCENDC_SIM_RUNTIME_PROF_H
