#pragma once

#include "helper/authorizer.h"
#include "helper/helper_service.h"

namespace ssdk::helper {

// ping {} → {"version": rpc::kProtocolVersion, "uid": <caller uid>}. Lets a client check that
// the helper runs, speaks its protocol version and whom it serves.
Verb pingVerb(const Caller& caller);

} // namespace ssdk::helper
