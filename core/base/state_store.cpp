#include "core/base/state_store.h"

#include <algorithm>
#include <fmt/format.h>

namespace ssdk {

bool StateStore::validName(std::string_view name) {
    if (name.empty() || name.size() > 128 || name.front() == '.') {
        return false;
    }
    return std::ranges::all_of(name, [](char c) {
        return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') ||
               c == '_' || c == '-' || c == '.';
    });
}

Expected<void> StateStore::checkName(std::string_view name) const {
    if (!validName(name)) {
        return fail(ErrorCode::InvalidArgument,
                    fmt::format("'{}' is not a state file name in {}", name, m_path.string()));
    }
    return {};
}

} // namespace ssdk
