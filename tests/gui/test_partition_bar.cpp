#include <catch2/catch.hpp>

#include <QPixmap>

#include "app/widgets/partition_bar.h"
#include "tests/gui/gui_support.h"

using namespace ssdk;
using namespace ssdk::app;
using Kind = PartitionSegment::Kind;

namespace {

device::Partition partition(std::uint32_t number, Bytes start, Bytes size) {
    device::Partition p;
    p.number = number;
    p.name = "sdx" + std::to_string(number);
    p.path = "/dev/" + p.name;
    p.start = start;
    p.size = size;
    return p;
}

device::Device disk(Bytes size) {
    device::Device d;
    d.name = "sdx";
    d.path = "/dev/sdx";
    d.size = size;
    return d;
}

} // namespace

TEST_CASE("partition segments are to scale: a quarter and a half of the disk at 800 px") {
    auto d = disk(Bytes::gib(4));
    d.partitions = {partition(1, Bytes(0), Bytes::gib(1)),
                    partition(2, Bytes::gib(2), Bytes::gib(2))};
    const auto segments = layoutPartitionSegments(d, 800);
    REQUIRE(segments.size() == 3);
    CHECK(segments[0].kind == Kind::Partition);
    CHECK(segments[0].partitionIndex == 0);
    CHECK(segments[0].x == 0);
    CHECK(segments[0].width == 200);
    CHECK(segments[1].kind == Kind::Unallocated);
    CHECK(segments[1].x == 200);
    CHECK(segments[1].width == 200);
    CHECK(segments[1].start == Bytes::gib(1));
    CHECK(segments[1].size == Bytes::gib(1));
    CHECK(segments[2].kind == Kind::Partition);
    CHECK(segments[2].partitionIndex == 1);
    CHECK(segments[2].x == 400);
    CHECK(segments[2].width == 400);
}

TEST_CASE("partition segments follow disk position, not partition number") {
    auto d = disk(Bytes::gib(4));
    d.partitions = {partition(1, Bytes::gib(3), Bytes::gib(1)),
                    partition(2, Bytes(0), Bytes::gib(3))};
    const auto segments = layoutPartitionSegments(d, 400);
    REQUIRE(segments.size() == 2);
    CHECK(segments[0].partitionIndex == 1);
    CHECK(segments[0].x == 0);
    CHECK(segments[0].width == 300);
    CHECK(segments[1].partitionIndex == 0);
    CHECK(segments[1].x == 300);
    CHECK(segments[1].width == 100);
}

TEST_CASE("alignment gaps are not shown, unallocated space at the end is") {
    auto d = test::nvmeSystemDisk();
    auto segments = layoutPartitionSegments(d, 1000);
    REQUIRE(segments.size() == 2);
    CHECK(segments[0].kind == Kind::Partition);
    CHECK(segments[1].kind == Kind::Partition);
    CHECK(segments[1].x + segments[1].width == 1000);

    d.partitions.pop_back();
    segments = layoutPartitionSegments(d, 1000);
    REQUIRE(segments.size() == 2);
    CHECK(segments[1].kind == Kind::Unallocated);
    CHECK(segments[1].x + segments[1].width == 1000);
}

TEST_CASE("tiny partitions are widened to stay visible without overlapping") {
    auto d = disk(Bytes::gib(1000));
    d.partitions = {partition(1, Bytes::mib(1), Bytes::mib(100)),
                    partition(2, Bytes::mib(101), Bytes::gib(999))};
    const auto segments = layoutPartitionSegments(d, 500, 6);
    REQUIRE(segments.size() == 2);
    CHECK(segments[0].x == 0);
    CHECK(segments[0].width == 6);
    CHECK(segments[1].x == 6);
    CHECK(segments[1].x + segments[1].width <= 500);
}

TEST_CASE("a disk without partitions is one segment: unallocated or its filesystem") {
    auto d = disk(Bytes::gib(8));
    auto segments = layoutPartitionSegments(d, 640);
    REQUIRE(segments.size() == 1);
    CHECK(segments[0].kind == Kind::Unallocated);
    CHECK(segments[0].x == 0);
    CHECK(segments[0].width == 640);

    d.filesystem = device::Filesystem{"ext4", "data", ""};
    segments = layoutPartitionSegments(d, 640);
    REQUIRE(segments.size() == 1);
    CHECK(segments[0].kind == Kind::WholeDevice);

    CHECK(layoutPartitionSegments(disk(Bytes(0)), 640).empty());
    CHECK(layoutPartitionSegments(d, 0).empty());
}

TEST_CASE("the partition bar paints every kind of disk and finds segments under the mouse") {
    test::application();
    PartitionBar bar;
    bar.resize(800, bar.sizeHint().height());
    for (const auto& d : {test::nvmeSystemDisk(), test::labDrive(), test::usbStick()}) {
        bar.setDevice(&d);
        const QPixmap shot = bar.grab();
        CHECK_FALSE(shot.isNull());
        CHECK(bar.segmentAt(QPoint(790, 10)) >= 0);
    }
    bar.setDevice(nullptr);
    CHECK(bar.segments().empty());
    CHECK_FALSE(bar.grab().isNull());
}
