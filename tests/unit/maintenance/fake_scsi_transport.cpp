#include "fake_scsi_transport.h"

#include <algorithm>
#include <catch2/catch.hpp>
#include <stdexcept>

namespace ssdk::test {

using maintenance::transport::DataDirection;
using maintenance::transport::ScsiReply;

std::array<std::uint8_t, 16> cdb(std::initializer_list<int> bytes) {
    std::array<std::uint8_t, 16> out{};
    if (bytes.size() != 16) {
        throw std::invalid_argument("a CDB has 16 bytes");
    }
    std::size_t i = 0;
    for (const int byte : bytes) {
        out[i++] = static_cast<std::uint8_t>(byte);
    }
    return out;
}

Expected<ScsiReply> FakeScsiTransport::execute(std::span<const std::uint8_t> sentCdb,
                                               DataDirection direction,
                                               std::span<std::uint8_t> buffer,
                                               std::chrono::milliseconds timeout) {
    REQUIRE_FALSE(m_script.empty());
    ScriptStep step = m_script.front();
    m_script.pop_front();
    INFO("step " << step.name);
    m_sent.push_back(step.name);
    REQUIRE(sentCdb.size() == 16);
    for (std::size_t i = 0; i < 16; ++i) {
        INFO("CDB byte " << i);
        CHECK(static_cast<int>(sentCdb[i]) == static_cast<int>(step.cdb[i]));
    }
    CHECK(direction == step.direction);
    CHECK(timeout.count() > 0);
    if (direction == DataDirection::ToDevice && step.anyData) {
        CHECK(buffer.size() == 512);
    } else if (direction == DataDirection::ToDevice) {
        REQUIRE(buffer.size() == step.expectedOut.size());
        CHECK(std::equal(buffer.begin(), buffer.end(), step.expectedOut.begin()));
    }
    if (direction == DataDirection::FromDevice) {
        REQUIRE(buffer.size() == step.dataIn.size());
        std::copy(step.dataIn.begin(), step.dataIn.end(), buffer.begin());
    }
    ScsiReply reply;
    reply.hostStatus = step.hostStatus;
    if (step.scsiSense) {
        reply.status = 2;
        reply.sense = std::vector<std::uint8_t>(18, 0);
        reply.sense[0] = 0x70;
        reply.sense[2] = step.scsiSense->first;
        reply.sense[7] = 10;
        reply.sense[12] = step.scsiSense->second;
        return reply;
    }
    // Descriptor sense with an ATA Status Return descriptor (CK_COND=1 always returns it).
    reply.status = 2;
    const auto byteOf = [&](std::uint64_t v, unsigned i) {
        return static_cast<std::uint8_t>((v >> (8 * i)) & 0xFF);
    };
    reply.sense = {0x72,
                   static_cast<std::uint8_t>(step.ataStatus & 0x01 ? 0x0B : 0x01),
                   0x00,
                   0x1D,
                   0,
                   0,
                   0,
                   14,
                   0x09,
                   0x0C,
                   0x01,
                   step.ataError,
                   byteOf(step.count, 1),
                   byteOf(step.count, 0),
                   byteOf(step.lba, 3),
                   byteOf(step.lba, 0),
                   byteOf(step.lba, 4),
                   byteOf(step.lba, 1),
                   byteOf(step.lba, 5),
                   byteOf(step.lba, 2),
                   0x40,
                   step.ataStatus};
    return reply;
}

} // namespace ssdk::test
