// What the settings of device_settings.cpp mean to the rest of the simulator.
#ifndef ASCENDC_SIM_RUNTIME_DEVICE_SETTINGS_H
#define ASCENDC_SIM_RUNTIME_DEVICE_SETTINGS_H

#include <stdint.h>

namespace ascendc_sim {

// The kernel execution time limit of aclrtSetOpExecuteTimeOut(V2), in microseconds; 0: none.
uint64_t OpExecuteTimeoutUs();

}  // namespace ascendc_sim

#endif  // ASCENDC_SIM_RUNTIME_DEVICE_SETTINGS_H
