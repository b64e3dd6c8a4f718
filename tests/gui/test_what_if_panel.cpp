// The what-if panel records a workload (through a fake trace.record: the real verb is tested in
// tests/integration), saves the trace under the user's state directory, replays it and draws
// the curve; Stop ends a recording early and keeps what it saw; a failed recording says why.
#include <catch2/catch.hpp>
#include <fstream>
#include <sstream>
#include <unistd.h>

#include <QChartView>
#include <QComboBox>
#include <QLabel>
#include <QLineSeries>
#include <QProgressBar>
#include <QPushButton>
#include <QSignalSpy>
#include <QSpinBox>
#include <QTest>
#include <QTimer>

#include "app/widgets/what_if_panel.h"
#include "tests/gui/gui_support.h"
#include "tests/support/blktrace_records.h"

using namespace ssdk;
using namespace ssdk::app;
namespace fs = std::filesystem;

namespace {

template <typename T> T* child(QWidget& parent, const char* name) {
    return app::test::namedChild<T>(parent, "ramcache", name);
}

// What the helper's result puts before the recorded lines.
const std::string kHeader = "# blocks trace of /dev/loop0p2\n";

// A loop over 300 blocks with a hot set of 40 re-read in between: the curve rises with size.
std::string workloadTrace(int requests) {
    std::ostringstream out;
    out << "# fake recording\n";
    for (int i = 0; i < requests; ++i) {
        out << (i % 2 == 0 ? (i / 2) % 300 : 1000 + (i / 2) % 40) << " 1\n";
    }
    return out.str();
}

// trace.record answered on later turns of the event loop: one progress event, then, once the
// test says the time is up (complete()) or stops it, the result (or the error).
class FakeRecordCalls final : public TraceRecordCalls {
public:
    bool record(const QString& device, unsigned seconds) override {
        if (running) {
            return false;
        }
        running = true;
        requests.push_back({device, seconds});
        QTimer::singleShot(10, this, [this, device] {
            emit progress(0.5, QStringLiteral("recording %1: 1 s of 2, 4000 requests").arg(device));
        });
        return true;
    }
    void stop() override {
        ++stops;
        QTimer::singleShot(10, this, [this] { answer(true); });
    }
    // The recording's time is up: the result (or the error) arrives.
    void complete() {
        QTimer::singleShot(0, this, [this] { answer(false); });
    }

    std::vector<std::pair<QString, unsigned>> requests;
    int stops = 0;
    QString error; // non-empty: the recording fails with it

private:
    void answer(bool stopped) {
        running = false;
        if (!error.isEmpty()) {
            emit finished(false, error, Json(), QByteArray());
            return;
        }
        const int count = stopped ? 2000 : 8000;
        emit finished(true, QString(),
                      Json{{"device", "/dev/loop0p2"},
                           {"seconds", stopped ? 0.7 : 2.0},
                           {"requests", count},
                           {"reads", count / 2},
                           {"writes", count / 2},
                           {"stopped_early", stopped},
                           {"truncated", false},
                           {"header", kHeader}},
                      QByteArray::fromStdString(workloadTrace(count)));
    }
    bool running = false;
};

std::vector<fs::path> tracesIn(const fs::path& dir) {
    std::vector<fs::path> files;
    if (fs::exists(dir)) {
        for (const auto& entry : fs::directory_iterator(dir)) {
            files.push_back(entry.path());
        }
    }
    return files;
}

std::string contents(const fs::path& file) {
    std::ifstream in(file);
    return {std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
}

} // namespace

TEST_CASE("the what-if panel records a workload, saves it and replays it", "[gui][ramcache]") {
    app::test::application();
    const fs::path state = fs::temp_directory_path() / ("ssdk-whatif-" + std::to_string(getpid()));
    fs::remove_all(state);
    const QByteArray previous = qgetenv("XDG_STATE_HOME");
    qputenv("XDG_STATE_HOME", QByteArray::fromStdString(state.string()));
    const fs::path traces = state / "ssdkeeper" / "traces";

    auto* calls = new FakeRecordCalls;
    WhatIfPanel panel(calls);
    panel.resize(800, 420);
    panel.show();
    auto* record = child<QPushButton>(panel, "record");
    auto* seconds = child<QSpinBox>(panel, "recordSeconds");
    auto* progress = child<QProgressBar>(panel, "recordProgress");
    auto* label = child<QLabel>(panel, "whatIfLabel");
    auto* curve =
        qobject_cast<QLineSeries*>(child<QChartView>(panel, "whatIf")->chart()->series().at(0));
    REQUIRE(curve != nullptr);

    CHECK_FALSE(record->isEnabled()); // nothing selected to record
    panel.setRecordTarget(QStringLiteral("/dev/loop0p2"));
    REQUIRE(record->isEnabled());

    SECTION("a recording runs its time, is saved and replayed") {
        seconds->setValue(2);
        QSignalSpy drawn(&panel, &WhatIfPanel::ready);
        record->click();
        REQUIRE(calls->requests.size() == 1);
        CHECK(calls->requests[0] == std::pair{QStringLiteral("/dev/loop0p2"), 2U});
        CHECK(record->text() == QStringLiteral("Stop"));
        CHECK(progress->isVisible());
        CHECK_FALSE(seconds->isEnabled());
        REQUIRE(
            QTest::qWaitFor([&] { return label->text().contains(QStringLiteral("1 s of 2")); }));
        CHECK(progress->value() == 500);
        calls->complete();
        REQUIRE(drawn.wait(20000));
        CHECK(label->text().contains(QStringLiteral("Recorded 8000 requests (4000 reads, 4000 "
                                                    "writes) from /dev/loop0p2 in 2 s")));
        CHECK(label->text().contains(QStringLiteral("LRU")));
        const auto saved = tracesIn(traces);
        REQUIRE(saved.size() == 1);
        CHECK(saved[0].filename().string().starts_with("loop0p2-"));
        CHECK(label->text().contains(QString::fromStdString(saved[0].string())));
        CHECK(contents(saved[0]) == kHeader + workloadTrace(8000));
        CHECK((fs::status(saved[0]).permissions() & fs::perms::others_read) == fs::perms::none);
        CHECK(curve->count() >= 5);
        CHECK(curve->at(curve->count() - 1).y() > curve->at(0).y());
        CHECK(record->text() == QStringLiteral("Record"));
        CHECK(record->isEnabled());
        CHECK_FALSE(progress->isVisible());
        app::test::screenshot(panel, "ram-cache-record.png");
    }

    SECTION("Stop ends the recording early and keeps what was recorded") {
        QSignalSpy drawn(&panel, &WhatIfPanel::ready);
        record->click();
        REQUIRE(record->text() == QStringLiteral("Stop"));
        record->click();
        CHECK(calls->stops == 1);
        CHECK_FALSE(record->isEnabled()); // until the answer comes
        REQUIRE(drawn.wait(20000));
        CHECK(label->text().contains(QStringLiteral("Recorded 2000 requests")));
        CHECK(label->text().contains(QStringLiteral("(stopped early)")));
        CHECK(tracesIn(traces).size() == 1);
        CHECK(curve->count() >= 5);
    }

    SECTION("a failed recording says why and changes nothing") {
        calls->error = QStringLiteral("tracefs is not mounted and could not be mounted");
        record->click();
        calls->complete();
        REQUIRE(QTest::qWaitFor([&] { return record->text() == QStringLiteral("Record"); }));
        CHECK(label->text() == QStringLiteral("Could not record /dev/loop0p2: tracefs is not "
                                              "mounted and could not be mounted"));
        CHECK(tracesIn(traces).empty());
        CHECK(curve->count() == 0);
        CHECK(record->isEnabled());
    }

    if (previous.isNull()) {
        qunsetenv("XDG_STATE_HOME");
    } else {
        qputenv("XDG_STATE_HOME", previous);
    }
    fs::remove_all(state);
}

TEST_CASE("the what-if panel replays a blktrace capture, and names the format of a wrong guess",
          "[gui][ramcache]") {
    app::test::application();
    const fs::path capture =
        fs::temp_directory_path() / ("ssdk-whatif-" + std::to_string(getpid()) + ".blktrace");
    {
        // The workload of the recording tests as queued reads of one device.
        std::ofstream out(capture, std::ios::binary);
        std::uint64_t time = 0;
        for (std::uint64_t i = 0; i < 8000; ++i) {
            const std::uint64_t block = i % 2 == 0 ? (i / 2) % 300 : 1000 + (i / 2) % 40;
            out << ssdk::test::encodeBlkRecord({.timeNs = ++time,
                                                .sector = block * 8,
                                                .bytes = 4096,
                                                .action = ssdk::test::blk::kQueuedRead});
        }
    }
    WhatIfPanel panel(new FakeRecordCalls);
    panel.resize(800, 420);
    panel.show();
    auto* label = child<QLabel>(panel, "whatIfLabel");
    auto* format = child<QComboBox>(panel, "traceFormat");
    auto* curve =
        qobject_cast<QLineSeries*>(child<QChartView>(panel, "whatIf")->chart()->series().at(0));
    REQUIRE(curve != nullptr);
    CHECK(format->findText(QStringLiteral("blktrace")) >= 0);

    QSignalSpy drawn(&panel, &WhatIfPanel::ready);
    panel.loadTrace(QString::fromStdString(capture.string()), QStringLiteral("blocks"));
    REQUIRE(drawn.wait(20000));
    CHECK(label->text().contains(QStringLiteral("read it as format blktrace")));
    CHECK(curve->count() == 0);

    panel.loadTrace(QString::fromStdString(capture.string()), QStringLiteral("blktrace"));
    REQUIRE(drawn.wait(20000));
    INFO(label->text().toStdString());
    CHECK(label->text().contains(QStringLiteral("LRU")));
    CHECK(curve->count() >= 5);
    CHECK(curve->at(curve->count() - 1).y() > curve->at(0).y());
    format->setCurrentText(QStringLiteral("blktrace")); // as a user who opened it would have it
    app::test::screenshot(panel, "ram-cache-blktrace.png");
    fs::remove(capture);
}
