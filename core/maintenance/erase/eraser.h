#pragma once
// Runs one erase method on a whole device, verifies it by reading a spread of blocks, and
// writes a certificate. Transports are created through injected factories so the ATA and
// NVMe sequencing is tested with fakes.

#include <functional>
#include <memory>
#include <string>

#include "core/base/json.h"
#include "core/device/device.h"
#include "core/maintenance/erase/journal.h"
#include "core/maintenance/erase/methods.h"
#include "core/maintenance/transport/nvme_admin.h"
#include "core/maintenance/transport/scsi_transport.h"

namespace ssdk::maintenance::erase {

struct TransportFactory {
    std::function<Expected<std::unique_ptr<transport::ScsiTransport>>(const std::string& path)>
        scsi;
    transport::NvmeAdminFactory nvme;
};

// SG_IO and openNvmeAdmin (libnvme) on the live system.
TransportFactory systemTransports();

// Reads what the drive supports (identify through the transports, queue limits from the
// Device model). Never writes.
EraseCapabilities probeCapabilities(const device::Device& device, const TransportFactory& factory);

struct Verification {
    std::uint32_t samples = 0;
    std::uint32_t zeros = 0, ones = 0, other = 0;
    std::uint32_t unchangedData = 0; // held data before and still hold the same data
    bool passed = false;
    std::string summary;
};

struct EraseCertificate {
    std::string method;
    std::string methodDescription;
    std::string devicePath, model, serial, firmware, bus;
    std::uint64_t sizeBytes = 0;
    std::string started, finished; // ISO 8601 UTC
    double seconds = 0;
    Verification verification;
};

using EraseProgress = std::function<void(double fraction, const std::string& step)>;

// The caller has checked the guards (checkEraseGuards) and chosen method (chooseMethod).
// journal: when given (the helper always gives one), it is updated before the first command
// reaches the drive, at every progress step, and marked completed or failed at the end; an
// ATA security erase records its temporary password in it while the drive may hold it, and
// uses the password recorded there when the drive still has it from an interrupted run.
Expected<EraseCertificate> eraseDevice(const device::Device& device, Method method,
                                       const TransportFactory& factory,
                                       const EraseProgress& progress = {},
                                       EraseJournalStore::Active* journal = nullptr);

// Reads the first and last block and `count - 2` blocks at random offsets, classifying each.
// before: the checksums taken before the erase at the same offsets (same seed).
struct SpreadSample {
    std::uint64_t offset;
    std::uint64_t checksum;
    bool empty; // all zeros or all ones
};
Expected<std::vector<SpreadSample>> sampleSpread(const std::string& path, std::uint32_t count,
                                                 std::uint64_t seed);
Verification judge(const std::vector<SpreadSample>& before, const std::vector<SpreadSample>& after,
                   Method method);

Json toJson(const EraseCertificate& certificate);
std::string toText(const EraseCertificate& certificate);

} // namespace ssdk::maintenance::erase
