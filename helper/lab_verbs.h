#pragma once

#include <filesystem>
#include <optional>

#include "core/base/process_runner.h"
#include "core/lab/lab.h"
#include "helper/authorizer.h"
#include "helper/helper_service.h"

namespace ssdk::helper {

// Where the caller's lab drives live and who owns them. Under pkexec: the calling user's
// ~/.local/state (home from the password database, never from the environment), files made
// and removed with that user's rights. Run directly by root: lab::userStateDirectory().
struct LabContext {
    std::filesystem::path stateDir;
    std::optional<lab::LabOwner> owner;
};

Expected<LabContext> labContextFor(const Caller& caller);

// lab.create {name, size (bytes), sector_size: 512|4096, layout: "empty"|"gpt-ext4"}
//   → {name, image, device, size, allocated}
// lab.destroy {name_or_device: a lab name or its /dev/loopN} → {destroyed}
void addLabVerbs(HelperService& service, LabContext context, ProcessRunner& runner);

} // namespace ssdk::helper
