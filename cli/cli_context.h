#pragma once

#include <filesystem>
#include <memory>
#include <optional>

#include "core/base/error.h"
#include "core/base/json.h"
#include "core/base/sysfs_root.h"
#include "core/device/discovery.h"
#include "core/platform/platform.h"
#include "core/rpc/transport.h"

namespace ssdk::cli {

// Exit codes of ssdkeeperctl (docs/cli.md).
enum ExitCode : int { kExitOk = 0, kExitFailed = 1, kExitUsage = 2 };

// Options every command shares, and the run's services (made in main): the tree to read, the
// Platform (the OS's implementations of the areas' seams) and the one helper session every
// command of the run uses.
struct CliContext {
    // The helper session is system's, started (through pkexec unless root) on its first call.
    explicit CliContext(std::shared_ptr<platform::Platform> system);

    bool json = false;
    std::optional<std::filesystem::path> sysfsRoot; // replay a recorded tree instead of /sys
    std::shared_ptr<platform::Platform> platform;
    std::shared_ptr<rpc::Transport> helperSession;

    // sysfsRoot's tree, or this machine's.
    SysfsRoot root() const;
    // Discovery of root() with the platform's filesystem prober.
    device::Discovery makeDiscovery() const;
    ProcessRunner& processes() const { return platform->processRunner(); }
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
