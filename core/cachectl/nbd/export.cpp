#include "core/cachectl/nbd/export.h"

#include <fmt/core.h>

namespace ssdk::cachectl::nbd {

std::string_view toString(WriteMode mode) {
    return mode == WriteMode::WriteThrough ? "write-through" : "write-back";
}

Expected<WriteMode> writeModeFromString(std::string_view name) {
    if (name == "write-back") {
        return WriteMode::WriteBack;
    }
    if (name == "write-through") {
        return WriteMode::WriteThrough;
    }
    return fail(ErrorCode::InvalidArgument,
                fmt::format("unknown write mode '{}' (write-back or write-through)", name));
}

Export::Export(std::string name, std::shared_ptr<BlockStore> store, std::string cacheMode,
               WriteMode writeMode)
    : m_name(std::move(name))
    , m_store(std::move(store))
    , m_cacheMode(std::move(cacheMode))
    , m_writeMode(writeMode) {}

std::shared_ptr<BlockStore> Export::store() const {
    std::lock_guard lock(m_mutex);
    return m_store;
}

void Export::replaceStore(std::shared_ptr<BlockStore> store, std::string cacheMode) {
    std::lock_guard lock(m_mutex);
    m_store = std::move(store);
    m_cacheMode = std::move(cacheMode);
}

std::string Export::cacheMode() const {
    std::lock_guard lock(m_mutex);
    return m_cacheMode;
}

} // namespace ssdk::cachectl::nbd
