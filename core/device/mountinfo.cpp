#include "core/device/mountinfo.h"

#include <algorithm>

namespace ssdk::device {

namespace {

std::vector<std::string_view> splitFields(std::string_view line) {
    std::vector<std::string_view> fields;
    std::size_t pos = 0;
    while (pos < line.size()) {
        while (pos < line.size() && line[pos] == ' ') {
            ++pos;
        }
        const auto end = line.find(' ', pos);
        const auto stop = end == std::string_view::npos ? line.size() : end;
        if (stop > pos) {
            fields.push_back(line.substr(pos, stop - pos));
        }
        pos = stop;
    }
    return fields;
}

std::vector<std::string_view> splitOptions(std::string_view text) {
    std::vector<std::string_view> options;
    while (!text.empty()) {
        const auto comma = text.find(',');
        const auto option = text.substr(0, comma);
        if (!option.empty()) {
            options.push_back(option);
        }
        if (comma == std::string_view::npos) {
            break;
        }
        text.remove_prefix(comma + 1);
    }
    return options;
}

bool isOctal(char c) {
    return c >= '0' && c <= '7';
}

} // namespace

std::string remountOptions(const MountInfoEntry& entry) {
    std::vector<std::string_view> options = splitOptions(entry.mountOptions);
    auto has = [&options](std::string_view option) {
        return std::find(options.begin(), options.end(), option) != options.end();
    };
    const bool accessGiven = has("rw") || has("ro");
    for (const auto option : splitOptions(entry.superOptions)) {
        const bool access = option == "rw" || option == "ro";
        if (has(option) || option == "seclabel" || (access && accessGiven)) {
            continue;
        }
        options.push_back(option);
    }
    std::string text;
    for (const auto option : options) {
        text += (text.empty() ? "" : ",") + std::string(option);
    }
    return text;
}

std::string unescapeMountField(std::string_view field) {
    std::string out;
    out.reserve(field.size());
    for (std::size_t i = 0; i < field.size(); ++i) {
        if (field[i] == '\\' && i + 3 < field.size() && isOctal(field[i + 1]) &&
            isOctal(field[i + 2]) && isOctal(field[i + 3])) {
            const int value =
                (field[i + 1] - '0') * 64 + (field[i + 2] - '0') * 8 + (field[i + 3] - '0');
            out += static_cast<char>(value);
            i += 3;
        } else {
            out += field[i];
        }
    }
    return out;
}

std::vector<MountInfoEntry> parseMountInfo(std::string_view text) {
    std::vector<MountInfoEntry> entries;
    std::size_t start = 0;
    while (start < text.size()) {
        auto end = text.find('\n', start);
        if (end == std::string_view::npos) {
            end = text.size();
        }
        const auto fields = splitFields(text.substr(start, end - start));
        start = end + 1;
        // id parent devno root mountpoint options [optional…] - fstype source superoptions
        std::size_t separator = 6;
        while (separator < fields.size() && fields[separator] != "-") {
            ++separator;
        }
        if (fields.size() < 6 || separator + 3 > fields.size()) {
            continue;
        }
        entries.push_back(MountInfoEntry{
            .devno = std::string(fields[2]),
            .root = unescapeMountField(fields[3]),
            .mountPoint = unescapeMountField(fields[4]),
            .mountOptions = std::string(fields[5]),
            .fsType = std::string(fields[separator + 1]),
            .source = unescapeMountField(fields[separator + 2]),
            .superOptions = separator + 3 < fields.size() ? std::string(fields[separator + 3]) : "",
        });
    }
    return entries;
}

} // namespace ssdk::device
