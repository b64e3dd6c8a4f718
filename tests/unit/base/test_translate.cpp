#include <catch2/catch.hpp>
#include <string>
#include <string_view>
#include <thread>
#include <vector>

#include "core/base/translate.h"

namespace {

// Removes the hook when a test ends, so no other test sees a translator.
struct HookGuard {
    ~HookGuard() { ssdk::setTranslator({}); }
};

// German for two sentences of one context; anything else passes through unchanged.
std::string fakeGerman(std::string_view context, std::string_view text) {
    if (context == "Maintenance" && text == "{} is mounted at {}") {
        return "{1} ist unter {0} eingehängt";
    }
    if (context == "Maintenance" && text == "Not checked yet") {
        return "Noch nicht geprüft";
    }
    if (context == "Broken" && text == "{} of {}") {
        return "{} von {} in {}";
    }
    return std::string(text);
}

} // namespace

TEST_CASE("without a hook the text stays English and is formatted", "[translate]") {
    ssdk::setTranslator({});
    CHECK(ssdk::trText("Maintenance", "Not checked yet").str() == "Not checked yet");
    CHECK(ssdk::trText("Maintenance", "{} is mounted at {}").format("/dev/sdb1", "/mnt") ==
          "/dev/sdb1 is mounted at /mnt");
}

TEST_CASE("a hook translates the pattern, then the arguments are formatted", "[translate]") {
    const HookGuard guard;
    std::vector<std::string> asked;
    ssdk::setTranslator([&asked](std::string_view context, std::string_view text) {
        asked.push_back(std::string(context) + "|" + std::string(text));
        return fakeGerman(context, text);
    });
    CHECK(ssdk::trText("Maintenance", "Not checked yet").str() == "Noch nicht geprüft");
    CHECK(ssdk::trText("Maintenance", "{} is mounted at {}").format("/dev/sdb1", "/mnt") ==
          "/mnt ist unter /dev/sdb1 eingehängt");
    CHECK(ssdk::trText("Other", "{} of {}").format(3, 4) == "3 of 4");
    CHECK(asked == std::vector<std::string>{"Maintenance|Not checked yet",
                                            "Maintenance|{} is mounted at {}", "Other|{} of {}"});
}

TEST_CASE("a translation whose placeholders do not fit falls back to English", "[translate]") {
    const HookGuard guard;
    ssdk::setTranslator(fakeGerman);
    CHECK(ssdk::trText("Broken", "{} of {}").format(3, 4) == "3 of 4");
}

TEST_CASE("removing the hook brings English back", "[translate]") {
    ssdk::setTranslator(fakeGerman);
    ssdk::setTranslator({});
    CHECK(ssdk::trText("Maintenance", "Not checked yet").str() == "Not checked yet");
}

TEST_CASE("threads translate while the hook is replaced", "[translate]") {
    const HookGuard guard;
    ssdk::setTranslator(fakeGerman);
    std::vector<std::string> seen(2000);
    std::thread reader([&seen] {
        for (auto& text : seen) {
            text = ssdk::trText("Maintenance", "Not checked yet").str();
        }
    });
    for (int i = 0; i < 200; ++i) {
        ssdk::setTranslator(i % 2 == 0 ? ssdk::Translator{} : ssdk::Translator{fakeGerman});
    }
    reader.join();
    for (const auto& text : seen) {
        CHECK((text == "Noch nicht geprüft" || text == "Not checked yet"));
    }
}
