#pragma once

#include <string>

#include "cli/cli_context.h"
#include "cli/commands.h"
#include "core/lab/lab.h"

namespace ssdk::cli {

// Adds `lab create|list|destroy`.
void addLabCommands(CLI::App& app, CliContext& context, Commands& commands);

// ssdkeeperctl lab create: through the privileged helper (root or pkexec).
int runLabCreate(const CliContext& context, const lab::LabCreateRequest& request);
// ssdkeeperctl lab list: reads the user's lab directory and sysfs; needs no privileges.
int runLabList(const CliContext& context);
// ssdkeeperctl lab destroy NAME|DEVICE: through the privileged helper.
int runLabDestroy(const CliContext& context, const std::string& nameOrDevice);

} // namespace ssdk::cli
