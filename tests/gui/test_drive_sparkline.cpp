// The drive list's live sparklines: the model keeps a bounded history per drive and repaints
// only rows whose line changed; the delegate draws the line; DriveActivity samples on its
// own thread (here over a fake stat file) and feeds the model.
#include <catch2/catch.hpp>
#include <filesystem>
#include <fstream>

#include <QListView>
#include <QPainter>
#include <QSignalSpy>
#include <QStyleOptionViewItem>
#include <QTest>

#include "app/models/drive_activity.h"
#include "app/models/drive_list_model.h"
#include "app/widgets/drive_delegate.h"
#include "core/platform/platform.h"
#include "tests/gui/gui_support.h"

using namespace ssdk;
using namespace ssdk::app;
namespace fs = std::filesystem;

namespace {

QList<double> activity(const DriveListModel& model, int row) {
    return model.index(row).data(DriveListModel::ActivityRole).value<QList<double>>();
}

QImage paintRow(const DriveListModel& model, int row) {
    QListView view;
    DriveDelegate delegate;
    QImage canvas(360, DriveDelegate::kRowHeight, QImage::Format_ARGB32);
    canvas.fill(Qt::white);
    QPainter painter(&canvas);
    QStyleOptionViewItem option;
    option.initFrom(&view);
    option.rect = QRect(0, 0, 360, DriveDelegate::kRowHeight);
    delegate.paint(&painter, option, model.index(row));
    return canvas;
}

// Pixels in the sparkline's column (the right end of the card) that are blue-ish: the line.
int linePixels(const QImage& image) {
    int count = 0;
    for (int y = 0; y < image.height(); ++y) {
        for (int x = image.width() - 8 - 10 - DriveDelegate::kSparklineWidth; x < image.width() - 8;
             ++x) {
            const QColor c = image.pixelColor(x, y);
            count += c.blue() > 180 && c.red() < 120 ? 1 : 0;
        }
    }
    return count;
}

void writeStat(const fs::path& file, std::uint64_t readSectors, std::uint64_t writeSectors) {
    std::ofstream out(file, std::ios::trunc);
    out << "100 0 " << readSectors << " 10 200 0 " << writeSectors << " 20 0 30 30 0 0 0 0 0 0\n";
}

} // namespace

TEST_CASE("sparkline history is bounded and only changed rows repaint", "[perf]") {
    test::application();
    DriveListModel model;
    model.setDevices({test::nvmeSystemDisk(), test::usbStick(), test::labDrive()});
    QSignalSpy changes(&model, &QAbstractItemModel::dataChanged);

    // Idle drives: the flat line does not change, nothing repaints.
    model.addActivity(QStringLiteral("sdb"), 0);
    model.addActivity(QStringLiteral("sdb"), 0);
    CHECK(changes.count() == 0);
    CHECK(activity(model, 1).size() == 2);

    model.addActivity(QStringLiteral("sdb"), 5e6);
    REQUIRE(changes.count() == 1);
    const auto first = changes.takeFirst();
    CHECK(first.at(0).toModelIndex().row() == 1);
    CHECK(first.at(1).toModelIndex().row() == 1); // that row only
    CHECK(first.at(2).value<QList<int>>() ==
          QList<int>{DriveListModel::ActivityRole, Qt::AccessibleDescriptionRole});

    for (int i = 0; i < 500; ++i) {
        model.addActivity(QStringLiteral("sdb"), i);
    }
    const auto history = activity(model, 1);
    CHECK(history.size() == DriveListModel::kActivityLength);
    CHECK(history.back() == 499);
    CHECK(history.front() == 499 - DriveListModel::kActivityLength + 1);
    CHECK(activity(model, 0).isEmpty()); // the other drives are untouched

    changes.clear();
    model.addActivity(QStringLiteral("nope"), 1e9); // not in the list
    CHECK(changes.count() == 0);

    // The same drives again keep their history; a drive that left forgets it.
    model.setDevices({test::nvmeSystemDisk(), test::usbStick(), test::labDrive()});
    CHECK(activity(model, 1).size() == DriveListModel::kActivityLength);
    model.setDevices({test::nvmeSystemDisk(), test::labDrive()});
    model.setDevices({test::nvmeSystemDisk(), test::usbStick(), test::labDrive()});
    CHECK(activity(model, 1).isEmpty());
}

TEST_CASE("the drive delegate draws the throughput sparkline", "[perf]") {
    test::application();
    DriveListModel model;
    model.setDevices({test::usbStick()});
    const int idle = linePixels(paintRow(model, 0));
    for (int i = 0; i < 30; ++i) {
        model.addActivity(QStringLiteral("sdb"), (i % 10) * 20e6);
    }
    const int busy = linePixels(paintRow(model, 0));
    INFO("idle " << idle << " busy " << busy);
    CHECK(busy > idle + 40);
}

TEST_CASE("drive activity samples off the GUI thread and feeds the model", "[perf]") {
    test::application();
    const fs::path root = fs::temp_directory_path() / "ssdk-sparkline-test";
    fs::remove_all(root);
    const fs::path statDir = root / "sys/class/block/sdb";
    fs::create_directories(statDir);
    const fs::path stat = statDir / "stat";
    writeStat(stat, 0, 0);

    DriveListModel model;
    model.setDevices({test::usbStick()});
    {
        DriveActivity activityFeed(
            &model, platform::makePlatform()->makeStatSource(SysfsRoot(root)), nullptr, 50);
        std::uint64_t sectors = 0;
        // 2 MiB more written every 50 ms: about 40 MB/s.
        const bool fed = QTest::qWaitFor(
            [&] {
                sectors += 4096;
                writeStat(stat, 0, sectors);
                const auto history = activity(model, 0);
                return !history.isEmpty() && history.back() > 1e6;
            },
            5000);
        CHECK(fed);
        const auto history = activity(model, 0);
        REQUIRE_FALSE(history.isEmpty());
        CHECK(history.back() < 1e9);
    }
    fs::remove_all(root);
}
