#include "cli/trace_commands.h"

#include <cerrno>
#include <filesystem>
#include <fmt/format.h>
#include <iostream>
#include <memory>
#include <sys/stat.h>
#include <unistd.h>

#include "cli/usage.h"
#include "core/base/atomic_file.h"
#include "core/base/bytes.h"
#include "core/perf/verbs.h"
#include "core/rpc/client.h"

namespace ssdk::cli {

namespace {

namespace fs = std::filesystem;

struct RecordArgs {
    std::string device;
    unsigned seconds = 60;
    std::string output;
};

// A kernel name as `monitor` takes it ("loop0p2") stands for its node in /dev.
std::string devicePath(const std::string& given) {
    return given.find('/') == std::string::npos ? "/dev/" + given : given;
}

// Refuses what is not a block device here, before the helper (and a password) is asked.
Expected<void> checkDevice(const std::string& path) {
    struct stat info {};
    if (::stat(path.c_str(), &info) != 0) {
        if (errno == ENOENT || errno == ENOTDIR) {
            return fail(ErrorCode::NotFound, "no block device or partition at " + path);
        }
        return failErrno(errno, "checking " + path);
    }
    if (!S_ISBLK(info.st_mode)) {
        return fail(ErrorCode::NotFound, path + " is not a block device or partition");
    }
    return {};
}

// The output must be writable before anything is recorded: a recording is not repeatable.
// It is written atomically (a temporary file next to it, then a rename), so what counts is its
// directory.
Expected<void> checkOutput(const fs::path& output) {
    std::error_code ec;
    if (fs::is_directory(output, ec)) {
        return fail(ErrorCode::Io, output.string() + " is a directory; give a file name");
    }
    const fs::path dir = output.has_parent_path() ? output.parent_path() : fs::path(".");
    if (!fs::is_directory(dir, ec)) {
        return fail(ErrorCode::NotFound,
                    "cannot write " + output.string() + ": " + dir.string() + " does not exist");
    }
    if (::access(dir.c_str(), W_OK | X_OK) != 0) {
        return failErrno(errno,
                         "cannot write " + output.string() + " (checking " + dir.string() + ")");
    }
    return {};
}

// Quotes a path for the shell when it needs it, for the command printed at the end.
std::string shellWord(const std::string& word) {
    const bool plain =
        !word.empty() && word.find_first_not_of("abcdefghijklmnopqrstuvwxyz"
                                                "ABCDEFGHIJKLMNOPQRSTUVWXYZ"
                                                "0123456789/._-+,:@") == std::string::npos;
    if (plain) {
        return word;
    }
    std::string quoted = "'";
    for (const char c : word) {
        quoted += c == '\'' ? std::string("'\\''") : std::string(1, c);
    }
    return quoted + "'";
}

// Calls trace.record; Ctrl-C becomes the helper's cancel message, which stops the recording
// and still brings back what was recorded. The request lines of the "trace" events are gathered
// into lines, in order.
Expected<perf::TraceRecordReply> recordThroughHelper(const CliContext& context,
                                                     const perf::TraceRecordRequest& request,
                                                     std::string& lines) {
    auto answer =
        callHelperInterruptible(context, perf::kVerbTraceRecord, perf::toJson(request),
                                "stopping the recording; what was recorded so far is kept…",
                                [&lines](const rpc::Event& event) {
                                    if (auto chunk = perf::traceChunkOf(event.name, event.data)) {
                                        lines += chunk->lines;
                                    }
                                });
    if (!answer) {
        return std::unexpected(answer.error());
    }
    return perf::traceRecordReplyFromJson(*answer);
}

void printSummary(const perf::TraceRecordReply& result, const std::string& output) {
    std::cout << fmt::format("Recorded {} for {:.1f} s: {} requests ({} reads, {} writes, {} "
                             "discards), {} read, {} written\n",
                             result.device, result.seconds, result.requests, result.reads,
                             result.writes, result.discards, formatIec(Bytes(result.bytesRead)),
                             formatIec(Bytes(result.bytesWritten)));
    if (result.stoppedEarly) {
        std::cout << "Stopped early: the trace holds what was recorded until then.\n";
    }
    if (result.truncated) {
        std::cout << "Truncated: "
                  << (result.truncatedReason.empty() ? "a limit" : result.truncatedReason)
                  << "; the trace holds the requests up to there.\n";
    }
    if (result.lostEvents > 0) {
        std::cout << fmt::format("Warning: the kernel dropped {} events (its trace buffer was "
                                 "full); the trace misses those requests.\n",
                                 result.lostEvents);
    }
    if (result.unparsed > 0) {
        std::cout << fmt::format("Note: {} trace lines could not be read and were left out.\n",
                                 result.unparsed);
    }
    std::cout << fmt::format("Wrote {} request lines (4 KiB blocks) to {}\n",
                             result.reads + result.writes, output);
    std::cout << fmt::format("Next: ssdkeeperctl cache simulate --trace {} --format blocks --mrc\n",
                             shellWord(output));
}

int runRecord(const CliContext& context, const RecordArgs& args) {
    const std::string device = devicePath(args.device);
    if (auto checked = checkDevice(device); !checked) {
        return reportError(context, checked.error());
    }
    if (auto writable = checkOutput(args.output); !writable) {
        return reportError(context, writable.error());
    }
    std::string lines;
    auto answer = recordThroughHelper(context, {device, args.seconds}, lines);
    if (!answer) {
        return reportError(
            context, Error(answer.error()).addContext("recording a block trace of " + device));
    }
    if (answer->header.empty()) {
        return reportError(context, Error(ErrorCode::Protocol, std::string("the helper's ") +
                                                                   perf::kVerbTraceRecord +
                                                                   " result has no header text"));
    }
    if (auto written = writeFileAtomically(args.output, answer->header + lines); !written) {
        return reportError(context,
                           Error(written.error()).addContext("saving the trace to " + args.output));
    }
    if (context.json) {
        Json result = perf::summaryJson(*answer);
        result["output"] = args.output;
        printJson(result);
    } else {
        printSummary(*answer, args.output);
    }
    return kExitOk;
}

} // namespace

void addTraceCommands(CLI::App& app, CliContext& context, Commands& commands) {
    auto* trace = app.add_subcommand("trace", "Block traces of your own workload, for the RAM "
                                              "cache simulator");
    trace->require_subcommand(1);

    auto args = std::make_shared<RecordArgs>();
    auto* record = trace->add_subcommand(
        "record", "Record the reads and writes of a drive or partition (as root, through the "
                  "helper) and save them for `cache simulate --format blocks`");
    record->add_option("device", args->device, "A drive or partition, e.g. /dev/nvme0n1p2")
        ->required();
    record
        ->add_option("--seconds", args->seconds,
                     "How long to record, 1-3600 (Ctrl-C stops earlier and keeps the trace)")
        ->check(numberRange(1, 3600))
        ->capture_default_str();
    record->add_option("--output", args->output, "The trace file to write")->required();
    commands.add(record, [&context, args] { return runRecord(context, *args); });
}

} // namespace ssdk::cli
