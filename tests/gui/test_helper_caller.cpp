#include <catch2/catch.hpp>
#include <filesystem>
#include <unistd.h>

#include <QSignalSpy>

#include "app/helper_caller.h"
#include "tests/gui/gui_support.h"
#include "tests/support/skip.h"

using namespace ssdk;
using namespace ssdk::app;

namespace {

// Without root the client would start the helper through pkexec, which may ask for a password:
// these cases only run as root, and skip otherwise.
void skipUnlessRoot() {
    if (geteuid() != 0) {
        ssdk::test::skipTest("needs root to start ssdkeeper-helper without pkexec");
    }
}

HelperCaller::Outcome waitForOutcome(HelperCaller& caller, QSignalSpy& finished) {
    REQUIRE(finished.wait(15000));
    REQUIRE_FALSE(caller.isBusy());
    return finished.first().at(1).value<HelperCaller::Outcome>();
}

} // namespace

TEST_CASE("the helper caller runs a verb off the GUI thread and reports back") {
    skipUnlessRoot();
    // The helper built next to the tests; test_gui depends on its target, so a missing one is a
    // broken build.
    const auto helper = std::filesystem::path(SSDK_BINARY_DIR) / "bin" / "ssdkeeper-helper";
    REQUIRE(std::filesystem::exists(helper));
    app::test::application();
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
    skipUnlessRoot();
    app::test::application();
    qputenv("SSDK_HELPER", "/nonexistent/ssdkeeper-helper");
    HelperCaller caller;
    QSignalSpy finished(&caller, &HelperCaller::finished);
    REQUIRE(caller.call(QStringLiteral("ping"), Json::object()));
    const auto outcome = waitForOutcome(caller, finished);
    qunsetenv("SSDK_HELPER");
    CHECK_FALSE(outcome.ok);
    CHECK_FALSE(outcome.error.isEmpty());
}
