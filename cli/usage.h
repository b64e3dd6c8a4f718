#pragma once
// Usage errors said the way a person reads them: numbers checked with what was wrong ("'abc'
// is not a number"), an unknown command named as such, and, with --json, the error as the JSON
// docs/cli.md promises for every failure.

#include <CLI/CLI.hpp>
#include <string>

namespace ssdk::cli {

// An option's check that the value is a number from min to max (whole when integral is set):
// "'abc' is not a number", "-5 is below 0", "2.5 is not a whole number", "150 is above 50".
CLI::Validator numberRange(double min, double max, bool integral = true);

// The message for a parse error of app given argv: CLI11's own, except that an unknown
// command is named ("unknown command 'frobnicate' for ssdkeeperctl op; choose plan, apply,
// undo or recover") and a missing one lists the choices.
std::string usageMessage(const CLI::App& app, const CLI::ParseError& error, int argc,
                         const char* const* argv);

// Reports a parse error: --help and --version print as CLI11 does (exit 0); anything else is a
// usage error (exit 2) on stderr, or as {"error": …} on stdout when argv asks for --json.
int reportParseError(CLI::App& app, const CLI::ParseError& error, int argc,
                     const char* const* argv);

} // namespace ssdk::cli
