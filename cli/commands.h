#pragma once
// How each area of ssdkeeperctl adds its subcommands: `addXxxCommands(app, context, commands)`
// declares the subcommand and its options and registers what to run when it was given. main
// parses, sets up logging, then runs the one that was parsed.

#include <CLI/CLI.hpp>
#include <functional>
#include <optional>
#include <vector>

namespace ssdk::cli {

class Commands {
public:
    // run is called when subcommand was parsed; it returns the exit code.
    void add(CLI::App* subcommand, std::function<int()> run) {
        m_commands.push_back({subcommand, std::move(run)});
    }

    // The exit code of the command that was parsed; nullopt when none was.
    std::optional<int> runParsed() const {
        for (const auto& command : m_commands) {
            if (command.subcommand->parsed()) {
                return command.run();
            }
        }
        return std::nullopt;
    }

private:
    struct Command {
        CLI::App* subcommand;
        std::function<int()> run;
    };
    std::vector<Command> m_commands;
};

} // namespace ssdk::cli
