#pragma once
// An SkDisk of libatasmart that frees itself (sk_disk_free).

#include <atasmart.h>
#include <memory>

namespace ssdk::smart {

struct SkDiskFree {
    void operator()(SkDisk* disk) const { sk_disk_free(disk); }
};
using SkDiskPtr = std::unique_ptr<SkDisk, SkDiskFree>;

} // namespace ssdk::smart
