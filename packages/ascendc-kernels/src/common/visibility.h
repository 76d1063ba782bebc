// Symbols of libascendcl that libopapi (the other library of this package)
// uses besides the public C ABI. Everything else is hidden.
#ifndef ASCENDC_SIM_COMMON_VISIBILITY_H
#define ASCENDC_SIM_COMMON_VISIBILITY_H

#define ASCENDC_SIM_INTERNAL_API __attribute__((visibility("default")))

#endif  // ASCENDC_SIM_COMMON_VISIBILITY_H
