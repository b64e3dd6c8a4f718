#include "core/base/log.h"

#include <cstdlib>
#include <mutex>
#include <spdlog/sinks/stdout_color_sinks.h>

namespace ssdk::log {

namespace {

std::mutex g_mutex;
spdlog::level::level_enum g_level = spdlog::level::warn;

} // namespace

void setup(const std::string& level) {
    const char* fromEnv = std::getenv("SSDK_LOG");
    const std::string chosen = fromEnv != nullptr && *fromEnv != '\0' ? fromEnv : level;
    std::lock_guard lock(g_mutex);
    g_level = spdlog::level::from_str(chosen);
    spdlog::set_level(g_level);
    spdlog::apply_all(
        [](const std::shared_ptr<spdlog::logger>& logger) { logger->set_level(g_level); });
}

std::shared_ptr<spdlog::logger> get(const std::string& area) {
    std::lock_guard lock(g_mutex);
    if (auto existing = spdlog::get(area)) {
        return existing;
    }
    auto logger = spdlog::stderr_color_mt(area);
    logger->set_level(g_level);
    logger->set_pattern("%H:%M:%S.%e %^%l%$ [%n] %v");
    return logger;
}

} // namespace ssdk::log
