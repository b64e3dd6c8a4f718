#include "core/maintenance/extents.h"

#include "core/base/platform/replay/unavailable.h"

namespace ssdk::maintenance {

// Where a file's data sits needs FIEMAP or the like, which standard C++ does not have.
Expected<std::vector<Extent>> fileExtents(int /*fd*/) {
    return std::unexpected(replay::unavailable("a file's extents"));
}

Expected<std::vector<Extent>> fileExtents(const std::string& path) {
    return std::unexpected(replay::unavailable("the extents of " + path));
}

// Cannot say, so the range counts as data.
bool allExtentsUnwritten(int /*fd*/, std::uint64_t /*offset*/, std::uint64_t /*length*/) {
    return false;
}

} // namespace ssdk::maintenance
