// libFuzzer target: the erase journal loader (maintenance::erase::eraseJournalFromJson) on
// any text, as the helper reads a journal back after a crash. Invariants: no crash or
// sanitizer report; a journal it accepts is written back (toJson) as valid JSON, that text
// loads again to the same JSON, and the message shown for an interrupted erase can be built.
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <string_view>

#include "core/base/json.h"
#include "core/maintenance/erase/journal.h"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    namespace erase = ssdk::maintenance::erase;
    const std::string_view text(reinterpret_cast<const char*>(data), size);
    const auto json = ssdk::parseJson(text, "a journal");
    if (!json) {
        return 0;
    }
    const auto journal = erase::eraseJournalFromJson(*json);
    if (!journal) {
        if (journal.error().message().empty()) {
            std::abort();
        }
        return 0;
    }
    const ssdk::Json written = erase::toJson(*journal);
    const std::string line = written.dump(-1, ' ', false, ssdk::Json::error_handler_t::replace);
    const auto reread = ssdk::parseJson(line, "a written journal");
    if (!reread) {
        std::abort();
    }
    const auto again = erase::eraseJournalFromJson(*reread);
    if (!again || erase::toJson(*again) != *reread) {
        std::abort();
    }
    (void)erase::interruptedMessage(*journal);
    return 0;
}
