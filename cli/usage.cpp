#include "cli/usage.h"

#include <charconv>
#include <cmath>
#include <fmt/format.h>
#include <iostream>
#include <string_view>
#include <vector>

#include "core/base/error.h"
#include "core/base/json.h"
#include "core/base/text.h"

namespace ssdk::cli {

namespace {

std::string plain(double value) {
    return fmt::format("{}", value);
}

std::vector<std::string> subcommandNames(const CLI::App& app) {
    std::vector<std::string> names;
    for (const CLI::App* sub : app.get_subcommands([](const CLI::App*) { return true; })) {
        names.push_back(sub->get_name());
    }
    return names;
}

// "op", "cache enable": the words that lead to app (nothing for the program itself).
std::string commandPath(const CLI::App& app) {
    std::string path;
    for (const CLI::App* at = &app; at->get_parent() != nullptr; at = at->get_parent()) {
        path = path.empty() ? at->get_name() : at->get_name() + " " + path;
    }
    return path;
}

// " for op" / "".
std::string forCommand(const CLI::App& app) {
    const std::string path = commandPath(app);
    return path.empty() ? std::string() : " for '" + path + "'";
}

const CLI::App* subcommandNamed(const CLI::App& app, const std::string& name) {
    for (const CLI::App* sub : app.get_subcommands([](const CLI::App*) { return true; })) {
        if (sub->check_name(name)) {
            return sub;
        }
    }
    return nullptr;
}

// Walks argv's words down the command tree. Where a command needs a subcommand and the next
// word is none of its subcommands, that word is unknown; where the words run out first, the
// subcommand is missing. Options are passed over (--sysfs-root with its value).
std::string commandProblem(const CLI::App& app, int argc, const char* const* argv) {
    const CLI::App* current = &app;
    for (int i = 1; i < argc; ++i) {
        const std::string_view word = argv[i];
        if (word == "--sysfs-root") {
            ++i;
            continue;
        }
        if (word.starts_with('-')) {
            continue;
        }
        if (current->get_require_subcommand_min() == 0) {
            return {}; // a leaf: its positionals are its own business
        }
        const CLI::App* next = subcommandNamed(*current, std::string(word));
        if (next == nullptr) {
            return fmt::format("unknown command '{}'{}; choose {}", word, forCommand(*current),
                               joinWords(subcommandNames(*current), "or"));
        }
        current = next;
    }
    if (current->get_require_subcommand_min() > 0) {
        return fmt::format("a command is needed{}: {}", forCommand(*current),
                           joinWords(subcommandNames(*current), "or"));
    }
    return {};
}

bool asksForJson(int argc, const char* const* argv) {
    for (int i = 1; i < argc; ++i) {
        if (std::string_view(argv[i]) == "--json") {
            return true;
        }
    }
    return false;
}

} // namespace

CLI::Validator numberRange(double min, double max, bool integral) {
    auto check = [min, max, integral](std::string& text) -> std::string {
        double value = 0;
        const char* end = text.data() + text.size();
        const auto [stop, error] = std::from_chars(text.data(), end, value);
        if (text.empty() || error != std::errc() || stop != end || !std::isfinite(value)) {
            return fmt::format("'{}' is not a number; give one from {} to {}", text, plain(min),
                               plain(max));
        }
        if (integral && value != std::floor(value)) {
            return fmt::format("{} is not a whole number; give one from {} to {}", text, plain(min),
                               plain(max));
        }
        if (value < min) {
            return fmt::format("{} is below {}; give a number from {} to {}", text, plain(min),
                               plain(min), plain(max));
        }
        if (value > max) {
            return fmt::format("{} is above {}; give a number from {} to {}", text, plain(max),
                               plain(min), plain(max));
        }
        return {};
    };
    return CLI::Validator(check, fmt::format("{} to {}", plain(min), plain(max)));
}

std::string usageMessage(const CLI::App& app, const CLI::ParseError& error, int argc,
                         const char* const* argv) {
    if (std::string problem = commandProblem(app, argc, argv); !problem.empty()) {
        return problem;
    }
    return error.what();
}

int reportParseError(CLI::App& app, const CLI::ParseError& error, int argc,
                     const char* const* argv) {
    if (error.get_exit_code() == static_cast<int>(CLI::ExitCodes::Success)) {
        app.exit(error); // --help, --version
        return 0;
    }
    const Error usage(ErrorCode::InvalidArgument, usageMessage(app, error, argc, argv));
    if (asksForJson(argc, argv)) {
        std::cout << Json{{"error", toJson(usage)}}.dump(2) << '\n';
    } else {
        std::cerr << "ssdkeeperctl: " << usage.message() << "\nRun with --help for more "
                  << "information.\n";
    }
    return 2;
}

} // namespace ssdk::cli
