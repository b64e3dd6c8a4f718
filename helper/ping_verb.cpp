#include "helper/ping_verb.h"

#include "helper/validation.h"

namespace ssdk::helper {

Verb pingVerb(const Caller& caller) {
    return Verb{"ping", "io.github.ssdkeeper.ping", Grade::Read,
                [uid = caller.uid](const Json& args, const VerbEvents&) -> Expected<Json> {
                    if (auto keys = requireOnlyKeys(args, {}); !keys) {
                        return std::unexpected(keys.error());
                    }
                    return Json{{"version", rpc::kProtocolVersion}, {"uid", uid}};
                }};
}

} // namespace ssdk::helper
