#pragma once

#include <filesystem>
#include <memory>
#include <optional>

#include "core/base/error.h"
#include "core/base/json.h"
#include "core/device/discovery.h"
#include "core/rpc/client.h"

namespace ssdk::cli {

// Exit codes of ssdkeeperctl (docs/cli.md).
enum ExitCode : int { kExitOk = 0, kExitFailed = 1, kExitUsage = 2 };

// Options every command shares, and the run's services: the tree to read and the one helper
// session every command of the run uses (made in main).
struct CliContext {
    bool json = false;
    std::optional<std::filesystem::path> sysfsRoot; // replay a recorded tree instead of /sys
    // The helper process, started (through pkexec unless root) on its first call.
    std::shared_ptr<rpc::Transport> helperSession = std::make_shared<rpc::HelperClient>();

    device::Discovery makeDiscovery() const;
    rpc::Transport& helper() const { return *helperSession; }
};

// Prints an error for people (stderr) or as {"error": {...}} (stdout) with --json,
// and returns the exit code for it: usage problems are 2, everything else 1.
int reportError(const CliContext& context, const Error& error);
// Prints a JSON document on stdout, indented, with a trailing newline.
void printJson(const Json& json);

// Shows the helper's "progress" events on stderr for people: one line that updates itself on a
// terminal, a line per event otherwise; nothing with --json (stdout carries the JSON).
rpc::Transport::EventHandler progressPrinter(const CliContext& context);

// Calls a helper verb that Ctrl-C stops: SIGINT is blocked meanwhile and turned, once, into the
// helper's cancel message (saying `cancelling` on stderr). "progress" events are shown as
// progressPrinter shows them; other events go to onOtherEvent. The progress line is cleared
// when the call returns.
Expected<Json> callHelperInterruptible(const CliContext& context, const std::string& verb,
                                       const Json& args, const std::string& cancelling,
                                       const rpc::Transport::EventHandler& onOtherEvent = {});

// Asks `question [y/N]` on the terminal; `yes` (a --yes flag) answers it. Without a terminal
// and without `yes` the answer is no, with a message saying to pass --yes.
bool confirmed(bool yes, const std::string& question);

} // namespace ssdk::cli
