#include "cli/cli_context.h"

#include <atomic>
#include <csignal>
#include <ctime>
#include <fmt/format.h>
#include <iostream>
#include <pthread.h>
#include <string>
#include <thread>
#include <unistd.h>

#include "core/rpc/progress.h"

namespace ssdk::cli {

CliContext::CliContext(std::shared_ptr<platform::Platform> system)
    : platform(std::move(system))
    , helperSession(platform->makeHelperSession()) {}

SysfsRoot CliContext::root() const {
    return sysfsRoot ? SysfsRoot(*sysfsRoot) : SysfsRoot();
}

device::Discovery CliContext::makeDiscovery() const {
    return platform->makeDiscovery(root());
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

rpc::Transport::EventHandler progressPrinter(const CliContext& context) {
    if (context.json) {
        return {};
    }
    const bool terminal = ::isatty(STDERR_FILENO) != 0;
    return [terminal](const rpc::Event& event) {
        if (event.name != rpc::kEventProgress) {
            return;
        }
        const rpc::Progress progress = rpc::progressFromJson(event.data);
        if (progress.finished) {
            return;
        }
        const double fraction = progress.fraction;
        const std::string& text = progress.text;
        // A negative fraction: the verb cannot say how far it is.
        const std::string line =
            fraction < 0 ? text : fmt::format("[{:3.0f}%] {}", fraction * 100, text);
        if (!terminal) {
            std::cerr << line << '\n';
            return;
        }
        std::cerr << "\r\033[K" << line << std::flush;
        if (fraction >= 1.0) {
            std::cerr << '\n';
        }
    };
}

Expected<Json> callHelperInterruptible(const CliContext& context, const std::string& verb,
                                       const Json& args, const std::string& cancelling,
                                       const rpc::Transport::EventHandler& onOtherEvent) {
    rpc::Transport& helper = context.helper();
    sigset_t interrupt;
    sigset_t previous;
    sigemptyset(&interrupt);
    sigaddset(&interrupt, SIGINT);
    pthread_sigmask(SIG_BLOCK, &interrupt, &previous);
    std::atomic<bool> done{false};
    std::thread canceller([&] {
        const timespec tick{0, 200'000'000};
        bool cancelled = false;
        while (!done) {
            if (sigtimedwait(&interrupt, nullptr, &tick) == SIGINT && !cancelled) {
                cancelled = true;
                std::cerr << "\n" << cancelling << "\n";
                helper.cancel();
            }
        }
    });
    const auto printProgress = progressPrinter(context);
    auto answer = helper.call(verb, args, [&](const rpc::Event& event) {
        if (event.name != "progress") {
            if (onOtherEvent) {
                onOtherEvent(event);
            }
        } else if (printProgress) { // none with --json
            printProgress(event);
        }
    });
    done = true;
    canceller.join();
    pthread_sigmask(SIG_SETMASK, &previous, nullptr);
    if (!context.json && ::isatty(STDERR_FILENO) != 0) {
        std::cerr << "\r\033[K";
    }
    return answer;
}

bool confirmed(bool yes, const std::string& question) {
    if (yes) {
        return true;
    }
    if (::isatty(STDIN_FILENO) == 0) {
        std::cerr << "not confirmed: pass --yes to run without a terminal\n";
        return false;
    }
    std::cerr << question << " [y/N] ";
    std::string answer;
    std::getline(std::cin, answer);
    return answer == "y" || answer == "Y" || answer == "yes";
}

} // namespace ssdk::cli
