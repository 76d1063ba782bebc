// Umbrella header, as in CANN.
#ifndef ASCENDC_SIM_ACL_H
#define ASCENDC_SIM_ACL_H
#include "acl/acl_base.h"
#include "acl/acl_rt.h"
#include "acl/acl_op.h"
#include "acl/acl_mdl.h"
#endif
