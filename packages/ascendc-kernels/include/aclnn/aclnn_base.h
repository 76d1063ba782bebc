#ifndef ASCENDC_SIM_ACLNN_BASE_H
#define ASCENDC_SIM_ACLNN_BASE_H
#include "acl/acl_base.h"
#include "acl/acl_rt.h"
#include "aclnn/acl_meta.h"
#endif
