#pragma once

#include "core/smart/smart_source.h"

namespace ssdk::smart {

// libatasmart in-process (ATA only; needs root: it opens the device read-write for ioctls).
// It captures the same blob `skdump --save` writes, parsed by parseAtasmartBlob().
// Implemented where libatasmart is (platform/linux/atasmart_source.cpp).
class AtasmartSource final : public SmartSource {
public:
    std::string_view name() const override { return "libatasmart"; }
    Availability availability() override;
    Expected<RawReport> capture(const std::string& devicePath, const ReadOptions& options) override;
};

} // namespace ssdk::smart
