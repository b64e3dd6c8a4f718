#include <catch2/catch.hpp>
#include <filesystem>
#include <unistd.h>

#include <QSignalSpy>

#include "app/helper_caller.h"
#include "tests/gui/gui_support.h"

using namespace ssdk;
using namespace ssdk::app;

namespace {

// Runs against the helper built next to the tests. Without root the client would go through
// pkexec, which may ask for a password: these cases only run as root.
bool canRunHelperDirectly(const std::filesystem::path& helper) {
    if (geteuid() != 0) {
        WARN("skipped: needs root to start ssdkeeper-helper without pkexec");
        return false;
    }
    if (!std::filesystem::exists(helper)) {
        WARN("skipped: " << helper << " is not built");
        return false;
    }
    return true;
}

HelperCaller::Outcome waitForOutcome(HelperCaller& caller, QSignalSpy& finished) {
    REQUIRE(finished.wait(15000));
    REQUIRE_FALSE(caller.isBusy());
    return finished.first().at(1).value<HelperCaller::Outcome>();
}

} // namespace

TEST_CASE("the helper caller runs a verb off the GUI thread and reports back") {
    test::application();
    const auto helper = std::filesystem::path(SSDK_BINARY_DIR) / "bin" / "ssdkeeper-helper";
    if (!canRunHelperDirectly(helper)) {
        return;
    }
    qputenv("SSDK_HELPER", QByteArray::fromStdString(helper.string()));
    HelperCaller caller;
    QSignalSpy finished(&caller, &HelperCaller::finished);
    REQUIRE(caller.call(QStringLiteral("ping"), Json::object()));
    CHECK(caller.isBusy());
    CHECK_FALSE(caller.call(QStringLiteral("ping"), Json::object())); // one at a time
    const auto outcome = waitForOutcome(caller, finished);
    CHECK(finished.first().at(0).toString() == "ping");
    CHECK(outcome.ok);
    CHECK(outcome.error.isEmpty());
}

TEST_CASE("the helper caller reports a helper that cannot start as an error") {
    test::application();
    const auto helper = std::filesystem::path(SSDK_BINARY_DIR) / "bin" / "ssdkeeper-helper";
    if (!canRunHelperDirectly(helper)) {
        return;
    }
    qputenv("SSDK_HELPER", "/nonexistent/ssdkeeper-helper");
    HelperCaller caller;
    QSignalSpy finished(&caller, &HelperCaller::finished);
    REQUIRE(caller.call(QStringLiteral("ping"), Json::object()));
    const auto outcome = waitForOutcome(caller, finished);
    qunsetenv("SSDK_HELPER");
    CHECK_FALSE(outcome.ok);
    CHECK_FALSE(outcome.error.isEmpty());
}
