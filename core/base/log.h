#pragma once

#include <memory>
#include <spdlog/spdlog.h>
#include <string>

namespace ssdk::log {

// Sets the level and output of every area logger. Programs call it once at start-up;
// logs go to stderr so stdout stays clean for --json output and the helper protocol.
// level: trace, debug, info, warn, error, off. SSDK_LOG in the environment overrides it.
void setup(const std::string& level = "warn");

// The named logger of an area ("device", "smart", "helper", …), created on first use.
std::shared_ptr<spdlog::logger> get(const std::string& area);

} // namespace ssdk::log
