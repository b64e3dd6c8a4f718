// The sampler on recorded stat contents served by a fake source: rates, devices that vanish
// and come back (counters restart), devices that appear late, partitions by name.
#include <catch2/catch.hpp>
#include <map>

#include "core/perf/sampler.h"

using namespace ssdk;
using namespace ssdk::perf;
using Clock = Sampler::Clock;

namespace {

// Devices and their current stat text; a removed device fails reads of readers opened
// before, like a kernfs file of a removed device.
class FakeStatSource final : public StatSource {
public:
    std::map<std::string, std::string> content;
    std::map<std::string, int> generation;
    int opens = 0;

    void remove(const std::string& name) {
        content.erase(name);
        ++generation[name];
    }

    Expected<std::unique_ptr<StatReader>> open(const std::string& name) override {
        if (!content.contains(name)) {
            return fail(ErrorCode::NotFound, name + " not present");
        }
        ++opens;
        return std::make_unique<Reader>(*this, name, generation[name]);
    }

private:
    class Reader final : public StatReader {
    public:
        Reader(FakeStatSource& source, std::string name, int gen)
            : m_source(source)
            , m_name(std::move(name))
            , m_generation(gen) {}
        Expected<std::string> read() override {
            if (m_source.generation[m_name] != m_generation || !m_source.content.contains(m_name)) {
                return fail(ErrorCode::NotFound, "No such device");
            }
            return m_source.content[m_name];
        }

    private:
        FakeStatSource& m_source;
        std::string m_name;
        int m_generation;
    };
};

std::string statLine(std::uint64_t readSectors, std::uint64_t writeSectors,
                     std::uint64_t writeIos) {
    return "10 0 " + std::to_string(readSectors) + " 5 " + std::to_string(writeIos) + " 0 " +
           std::to_string(writeSectors) + " 7 0 3 12 0 0 0 0 0 0\n";
}

} // namespace

TEST_CASE("the first sample is a baseline, the next ones give rates", "[perf]") {
    FakeStatSource source;
    source.content["sdb"] = statLine(0, 1000, 10);
    Sampler sampler(source, {"sdb"});
    const auto t0 = Clock::time_point(std::chrono::seconds(100));
    auto first = sampler.sample(t0);
    REQUIRE(first.size() == 1);
    CHECK(first[0].present);
    CHECK_FALSE(first[0].hasRates);

    source.content["sdb"] = statLine(0, 1000 + 2048, 12);
    auto second = sampler.sample(t0 + std::chrono::milliseconds(100));
    REQUIRE(second[0].hasRates);
    CHECK(second[0].rates.writeBytes == 2048 * 512);
    CHECK(second[0].rates.writeBytesPerS == Approx(10.0 * 2048 * 512));
    CHECK(second[0].rates.writeIops == Approx(20.0));
    CHECK(source.opens == 1); // kept open
}

TEST_CASE("a device that vanishes is absent, then comes back with a fresh baseline", "[perf]") {
    FakeStatSource source;
    source.content["loop7"] = statLine(0, 500000, 100);
    Sampler sampler(source, {"loop7"});
    auto t = Clock::time_point(std::chrono::seconds(1));
    sampler.sample(t);

    source.remove("loop7");
    t += std::chrono::milliseconds(100);
    auto gone = sampler.sample(t);
    CHECK_FALSE(gone[0].present);
    CHECK_FALSE(gone[0].hasRates);
    t += std::chrono::milliseconds(100);
    CHECK_FALSE(sampler.sample(t)[0].present);

    // Re-attached: counters restarted near zero; no rate may span the gap.
    source.content["loop7"] = statLine(0, 16, 1);
    t += std::chrono::milliseconds(100);
    auto back = sampler.sample(t);
    CHECK(back[0].present);
    CHECK_FALSE(back[0].hasRates);
    source.content["loop7"] = statLine(0, 16 + 8, 2);
    t += std::chrono::milliseconds(100);
    auto next = sampler.sample(t);
    REQUIRE(next[0].hasRates);
    CHECK(next[0].rates.writeBytes == 8 * 512);
}

TEST_CASE("a device that appears later is picked up - partitions are sampled by name", "[perf]") {
    FakeStatSource source;
    source.content["sdc1"] = statLine(64, 0, 0);
    Sampler sampler(source, {"sdc", "sdc1"});
    auto t = Clock::time_point(std::chrono::seconds(5));
    auto first = sampler.sample(t);
    REQUIRE(first.size() == 2);
    CHECK_FALSE(first[0].present);
    CHECK(first[1].present);

    source.content["sdc"] = statLine(128, 0, 0);
    source.content["sdc1"] = statLine(64 + 2000, 0, 0);
    t += std::chrono::seconds(1);
    auto second = sampler.sample(t);
    CHECK(second[0].present);
    CHECK_FALSE(second[0].hasRates);
    REQUIRE(second[1].hasRates);
    CHECK(second[1].rates.readBytesPerS == Approx(2000.0 * 512));
}

TEST_CASE("garbage in a stat file counts as the device being gone", "[perf]") {
    FakeStatSource source;
    source.content["sdd"] = "not a stat line";
    Sampler sampler(source, {"sdd"});
    CHECK_FALSE(sampler.sample(Clock::time_point(std::chrono::seconds(1)))[0].present);
}

TEST_CASE("device names: /dev paths are reduced, path tricks refused", "[perf]") {
    CHECK(blockDeviceName("/dev/nvme0n1p2").value() == "nvme0n1p2");
    CHECK(blockDeviceName("sda").value() == "sda");
    CHECK_FALSE(blockDeviceName("/dev/../etc"));
    CHECK_FALSE(blockDeviceName(".."));
    CHECK_FALSE(blockDeviceName(""));
}
