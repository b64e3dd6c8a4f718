#include <catch2/catch.hpp>

#include <QImage>

#include "app/theme.h"
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

device::Partition formatted(device::Partition p, const char* type) {
    p.filesystem = device::Filesystem{type, {}, {}};
    return p;
}

// 4 GiB: ext4 on the first quarter, the second quarter unallocated, btrfs on the second half.
device::Device quarterGapHalf() {
    auto d = disk(Bytes::gib(4));
    d.partitions = {formatted(partition(1, Bytes(0), Bytes::gib(1)), "ext4"),
                    formatted(partition(2, Bytes::gib(2), Bytes::gib(2)), "btrfs")};
    return d;
}

// One row of the bar as painted: y = 3 lies below the border and above every label, so each
// pixel there is a segment's own fill (or a separator, or a rounded corner at the ends).
constexpr int kWidth = 800;
constexpr int kRow = 3;

std::vector<QColor> paintedRow(PartitionBar& bar) {
    const QImage image = bar.grab().toImage();
    REQUIRE(image.width() == kWidth);
    std::vector<QColor> row;
    for (int x = 0; x < kWidth; ++x) {
        row.push_back(image.pixelColor(x, kRow));
    }
    return row;
}

// The columns painted exactly `colour`: how many, and the first and last.
struct Columns {
    int count = 0;
    int first = -1;
    int last = -1;
};

Columns columnsOf(const std::vector<QColor>& row, const QColor& colour) {
    Columns columns;
    for (int x = 0; x < static_cast<int>(row.size()); ++x) {
        if (row[static_cast<std::size_t>(x)].rgb() == colour.rgb()) {
            columns.first = columns.first < 0 ? x : columns.first;
            columns.last = x;
            ++columns.count;
        }
    }
    return columns;
}

// A segment [from, to) in pixels: one unbroken run of its colour, give or take the 2 px
// separator between segments and the rounded corners at the bar's ends.
void checkSpan(const std::vector<QColor>& row, const QColor& colour, int from, int to) {
    const Columns columns = columnsOf(row, colour);
    INFO("colour " << colour.name().toStdString() << " expected on [" << from << ", " << to
                   << "), found " << columns.count << " px on [" << columns.first << ", "
                   << columns.last << "]");
    CHECK(columns.first >= from);
    CHECK(columns.first <= from + 2);
    CHECK(columns.last <= to - 1);
    CHECK(columns.last >= to - 3);
    CHECK(columns.count == columns.last - columns.first + 1);
}

// Unallocated space is the track colour hatched with diagonal lines (about one pixel in 8 of
// a row), and nothing else.
void checkUnallocated(const std::vector<QColor>& row, int from, int to) {
    int hatch = 0;
    int other = 0;
    for (int x = from + 2; x < to - 2; ++x) {
        const QColor& pixel = row[static_cast<std::size_t>(x)];
        hatch += pixel == theme::kHatch ? 1 : 0;
        other += pixel == theme::kHatch || pixel == theme::kTrack ? 0 : 1;
    }
    const int width = to - from - 4;
    INFO("unallocated [" << from << ", " << to << "): " << hatch << " hatch px, " << other
                         << " px neither hatch nor track");
    CHECK(other == 0);
    CHECK(hatch >= width / 16);
    CHECK(hatch <= width / 4);
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

TEST_CASE("the partition bar paints each segment in its kind's colour, to scale") {
    test::application();
    const QColor ext4 = filesystemColor(device::Filesystem{"ext4", {}, {}});
    const QColor btrfs = filesystemColor(device::Filesystem{"btrfs", {}, {}});
    const QColor xfs = filesystemColor(device::Filesystem{"xfs", {}, {}});
    REQUIRE(ext4 != btrfs);
    REQUIRE(btrfs != xfs);
    PartitionBar bar;
    bar.resize(kWidth, bar.sizeHint().height());

    // A quarter, a quarter unallocated, a half: at 800 px, 200 + 200 + 400.
    auto d = quarterGapHalf();
    bar.setDevice(&d);
    auto row = paintedRow(bar);
    checkSpan(row, ext4, 0, 200);
    checkUnallocated(row, 200, 400);
    checkSpan(row, btrfs, 400, kWidth);
    CHECK(bar.segmentAt(QPoint(790, 10)) == 2);

    SECTION("a change of the disk changes the pixels") {
        d.partitions[0].size = Bytes::gib(2); // ext4 grows over the gap
        d.partitions[1].filesystem->type = "xfs";
        bar.setDevice(&d);
        row = paintedRow(bar);
        checkSpan(row, ext4, 0, 400);
        checkSpan(row, xfs, 400, kWidth);
        CHECK(columnsOf(row, btrfs).count == 0);
        CHECK(columnsOf(row, theme::kHatch).count == 0);
    }
    SECTION("the highlighted partition is lightened, the others keep their colour") {
        bar.setHighlightedPartition(1);
        row = paintedRow(bar);
        checkSpan(row, ext4, 0, 200);
        CHECK(columnsOf(row, btrfs).count == 0);
        const QColor lit = row[600];
        CHECK(lit.red() > btrfs.red());
        CHECK(lit.green() > btrfs.green());
        CHECK(lit.blue() > btrfs.blue());
    }
    SECTION("a disk without partitions is hatched all along, or its filesystem's colour") {
        auto whole = test::labDrive();
        bar.setDevice(&whole);
        checkUnallocated(paintedRow(bar), 0, kWidth);
        whole.filesystem = device::Filesystem{"ext4", "data", ""};
        bar.setDevice(&whole);
        checkSpan(paintedRow(bar), ext4, 0, kWidth);
    }
    SECTION("without a disk the bar is an empty track") {
        bar.setDevice(nullptr);
        CHECK(bar.segments().empty());
        row = paintedRow(bar);
        CHECK(columnsOf(row, theme::kTrack).count >= kWidth - 8);
    }
}
