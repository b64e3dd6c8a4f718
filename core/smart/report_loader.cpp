#include "core/smart/report_loader.h"

#include <cerrno>
#include <fstream>
#include <iterator>
#include <vector>

#include "core/smart/atasmart_parser.h"
#include "core/smart/smartctl_parser.h"

namespace ssdk::smart {

namespace {
constexpr std::uintmax_t kMaxReportBytes = 16u << 20;
}

Expected<SmartReport> parseSavedReport(std::span<const std::uint8_t> bytes) {
    if (looksLikeAtasmartBlob(bytes)) {
        return parseAtasmartBlob(bytes);
    }
    const std::string_view text(reinterpret_cast<const char*>(bytes.data()), bytes.size());
    if (looksLikeJson(text) || text.find_first_not_of(" \t\r\n") == std::string_view::npos) {
        return parseSmartctlJson(text);
    }
    return fail(ErrorCode::Parse, "neither smartctl JSON nor a libatasmart blob (skdump --save)");
}

Expected<SmartReport> loadSavedReport(const std::filesystem::path& file) {
    std::error_code error;
    const auto status = std::filesystem::status(file, error);
    if (error || !std::filesystem::exists(status)) {
        return fail(ErrorCode::NotFound, file.string() + " does not exist");
    }
    if (!std::filesystem::is_regular_file(status)) {
        return fail(ErrorCode::InvalidArgument,
                    file.string() + " is not a file; give a report saved with `health --save` "
                                    "or smartctl's JSON (smartctl -j -a DEV > FILE)");
    }
    const auto size = std::filesystem::file_size(file, error);
    if (error) {
        return failErrno(error.value(), "reading report " + file.string());
    }
    if (size == 0) {
        return fail(ErrorCode::Parse, file.string() +
                                          " is empty; give a report saved with `health --save` or "
                                          "smartctl's JSON (smartctl -j -a DEV > FILE)");
    }
    if (size > kMaxReportBytes) {
        return fail(ErrorCode::InvalidArgument,
                    file.string() + " is too large to be a SMART report (over 16 MiB)");
    }
    std::ifstream stream(file, std::ios::binary);
    if (!stream) {
        return failErrno(errno, "opening report " + file.string());
    }
    std::vector<std::uint8_t> bytes((std::istreambuf_iterator<char>(stream)),
                                    std::istreambuf_iterator<char>());
    return withContext(parseSavedReport(bytes), "loading report " + file.string());
}

} // namespace ssdk::smart
