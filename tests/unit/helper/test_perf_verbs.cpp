// perf.bench's checks on the drive and the request (pure), and the cancel watch on a pipe.
#include <atomic>
#include <catch2/catch.hpp>
#include <chrono>
#include <poll.h>
#include <thread>
#include <unistd.h>

#include "core/rpc/protocol.h"
#include "helper/cancel_watch.h"
#include "helper/perf_verbs.h"
#include "tests/support/allow_all.h"

using namespace ssdk;
using namespace ssdk::helper;

namespace {

device::Device spareDrive() {
    device::Device drive;
    drive.name = "sdb";
    drive.path = "/dev/sdb";
    drive.model = "Lab SSD 256";
    drive.size = Bytes::gib(256);
    return drive;
}

Json request() {
    return Json{{"device", "/dev/sdb"},
                {"preset", "cdm"},
                {"confirm", "Lab SSD 256"},
                {"size", Bytes::mib(64).value},
                {"duration_s", 2}};
}

template <typename F> bool within(std::chrono::milliseconds limit, F done) {
    const auto end = std::chrono::steady_clock::now() + limit;
    while (!done()) {
        if (std::chrono::steady_clock::now() > end) {
            return false;
        }
        std::this_thread::sleep_for(std::chrono::milliseconds(5));
    }
    return true;
}

} // namespace

TEST_CASE("perf.bench accepts an idle drive with its confirmation", "[helper][perf]") {
    const auto options = checkBenchRequest(request(), spareDrive());
    REQUIRE(options);
    CHECK(options->preset == "cdm");
    CHECK(options->size == Bytes::mib(64));
    CHECK(options->durationS == 2);
    CHECK(options->loops == 1);
    CHECK(options->pick == perf::CdmPick::Best);
    Json average = request();
    average["pick"] = "average";
    const auto averaged = checkBenchRequest(average, spareDrive());
    REQUIRE(averaged);
    CHECK(averaged->pick == perf::CdmPick::Average);
}

TEST_CASE("perf.bench refuses what would destroy data it must not", "[helper][perf]") {
    auto drive = spareDrive();
    Json args = request();
    ErrorCode code = ErrorCode::Internal;
    std::string mentions;
    SECTION("a mounted partition") {
        drive.partitions.push_back(device::Partition{.name = "sdb1", .path = "/dev/sdb1"});
        drive.partitions[0].mounts.push_back({"/media/data", "ext4", "rw"});
        code = ErrorCode::Busy;
        mentions = "unmount it first";
    }
    SECTION("a drive held by device-mapper") {
        drive.holders.push_back({device::Holder::Kind::DeviceMapper, "dm-0", "vg-data"});
        code = ErrorCode::Busy;
        mentions = "in use";
    }
    SECTION("the system disk") {
        drive.partitions.push_back(device::Partition{.name = "sdb2", .path = "/dev/sdb2"});
        drive.partitions[0].mounts.push_back({"/", "ext4", "rw"});
        code = ErrorCode::PermissionDenied;
        mentions = "root filesystem";
    }
    SECTION("a read-only drive") {
        drive.readOnly = true;
        code = ErrorCode::PermissionDenied;
        mentions = "read-only";
    }
    SECTION("no confirmation") {
        args.erase("confirm");
        code = ErrorCode::InvalidArgument;
        mentions = "confirm with \"Lab SSD 256\"";
    }
    SECTION("the confirmation of another drive") {
        args["confirm"] = "sdb";
        code = ErrorCode::InvalidArgument;
        mentions = "destroys all its data";
    }
    SECTION("a size larger than the drive") {
        args["size"] = Bytes::gib(512).value;
        code = ErrorCode::InvalidArgument;
        mentions = "'size'";
    }
    SECTION("an unknown preset") {
        args["preset"] = "bogus";
        code = ErrorCode::Unsupported;
        mentions = "bogus";
    }
    SECTION("loops out of range") {
        args["loops"] = 10;
        code = ErrorCode::InvalidArgument;
        mentions = "'loops'";
    }
    SECTION("a CDM pick that is neither best nor average") {
        args["pick"] = "median";
        code = ErrorCode::InvalidArgument;
        mentions = "'pick'";
    }
    SECTION("gaps that are not seconds") {
        args["gaps_s"] = Json::array({10, "x"});
        code = ErrorCode::InvalidArgument;
        mentions = "'gaps_s'";
    }
    const auto options = checkBenchRequest(args, drive);
    REQUIRE_FALSE(options);
    CHECK(options.error().code() == code);
    CHECK_THAT(options.error().message(), Catch::Contains(mentions));
}

TEST_CASE("the cancel watch fires on a cancel line or the end of input", "[helper][perf][linux]") {
    int fds[2];
    REQUIRE(::pipe(fds) == 0);
    std::atomic<int> fired{0};
    SECTION("a cancel message, not another line before it") {
        CancelWatch watch(fds[0], [&] { ++fired; });
        const std::string lines =
            std::string("{\"id\":3,\"verb\":\"ping\"}\n") + rpc::encodeCancel(3);
        REQUIRE(::write(fds[1], lines.data(), lines.size()) == static_cast<ssize_t>(lines.size()));
        REQUIRE(within(std::chrono::seconds(10), [&] { return fired == 1; }));
        // The watch stops reading once it fires: had the stray line fired it, the cancel line
        // would still be in the pipe.
        pollfd pending{fds[0], POLLIN, 0};
        CHECK(::poll(&pending, 1, 0) == 0);
        ::close(fds[1]);
    }
    SECTION("the client going away") {
        CancelWatch watch(fds[0], [&] { ++fired; });
        ::close(fds[1]);
        CHECK(within(std::chrono::seconds(10), [&] { return fired == 1; }));
    }
    SECTION("nothing while the verb runs to its end") {
        {
            CancelWatch watch(fds[0], [&] { ++fired; });
        }
        CHECK(fired == 0);
        ::close(fds[1]);
    }
    ::close(fds[0]);
}

TEST_CASE("a late cancel message gets no response line", "[helper][perf]") {
    test::AllowAll allowAll;
    HelperService service(allowAll);
    CHECK(service.handleLine(rpc::encodeCancel(9)).empty());
    CHECK(rpc::decodeCancel(rpc::encodeCancel(9)) == std::optional<std::uint64_t>(9));
    CHECK_FALSE(rpc::decodeCancel("{\"id\":9,\"verb\":\"ping\"}"));
    CHECK_FALSE(rpc::decodeCancel("{\"id\":9,\"cancel\":false}"));
}
