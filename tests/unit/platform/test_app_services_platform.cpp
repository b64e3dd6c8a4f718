#include <catch2/catch.hpp>

#include "app/app_services.h"
#include "tests/unit/platform/fake_platform.h"

using namespace ssdk;
using test::FakePlatform;
using test::named;
using test::recordedTree;

TEST_CASE("AppServices takes a test-made Platform: its discovery and its helper session",
          "[platform]") {
    const auto fake = std::make_shared<FakePlatform>();
    const app::AppServices services(recordedTree("workstation"), nullptr, fake);
    CHECK(services.platform() == fake);
    CHECK(services.helper() == fake->session);
    auto answer = services.helper()->call("ping", Json::object());
    REQUIRE(answer);
    CHECK(answer->value("fake", false));

    const auto devices = services.makeDiscovery().discover();
    REQUIRE(devices);
    CHECK(fake->prober->calls > 0);
    const device::Device* nvme = named(*devices, "nvme0n1");
    REQUIRE(nvme != nullptr);
    REQUIRE_FALSE(nvme->partitions.empty());
    REQUIRE(nvme->partitions[0].filesystem);
    CHECK(nvme->partitions[0].filesystem->type == "xfs");
}
