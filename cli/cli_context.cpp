#include "cli/cli_context.h"

#include <iostream>

namespace ssdk::cli {

device::Discovery CliContext::makeDiscovery() const {
    SysfsRoot root = sysfsRoot ? SysfsRoot(*sysfsRoot) : SysfsRoot();
    auto prober = device::makeSystemFsProber(root);
    return device::Discovery(std::move(root), std::move(prober));
}

int reportError(const CliContext& context, const Error& error) {
    if (context.json) {
        printJson(Json{{"error", toJson(error)}});
    } else {
        std::cerr << "ssdkeeperctl: " << error.describe() << '\n';
    }
    return error.code() == ErrorCode::InvalidArgument ? kExitUsage : kExitFailed;
}

void printJson(const Json& json) {
    std::cout << json.dump(2) << '\n';
}

} // namespace ssdk::cli
