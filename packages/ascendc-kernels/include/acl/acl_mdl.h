// Simulated CANN model interface: only the dump switches torch_npu links. The simulator runs no
// offline models and writes no dumps: ACL_ERROR_FEATURE_UNSUPPORTED, naming the function.
#ifndef ASCENDC_SIM_ACL_MDL_H
#define ASCENDC_SIM_ACL_MDL_H

#include "acl/acl_base.h"

#ifdef __cplusplus
extern "C" {
#endif

ACL_FUNC_VISIBILITY aclError aclmdlInitDump(void);
ACL_FUNC_VISIBILITY aclError aclmdlSetDump(const char* dumpCfgPath);
ACL_FUNC_VISIBILITY aclError aclmdlFinalizeDump(void);

#ifdef __cplusplus
}
#endif

#endif  // ASCENDC_SIM_ACL_MDL_H
