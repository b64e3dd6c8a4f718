#include "core/overprovision/filesystem_usage.h"

#include <charconv>
#include <optional>

namespace ssdk::overprovision {

namespace {

std::string_view trim(std::string_view text) {
    while (!text.empty() && (text.front() == ' ' || text.front() == '\t')) {
        text.remove_prefix(1);
    }
    while (!text.empty() && (text.back() == ' ' || text.back() == '\t' || text.back() == '\r')) {
        text.remove_suffix(1);
    }
    return text;
}

// The leading unsigned number of text (after blanks), or nothing.
std::optional<std::uint64_t> leadingNumber(std::string_view text) {
    text = trim(text);
    std::uint64_t value = 0;
    auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), value);
    if (ec != std::errc() || end == text.data()) {
        return std::nullopt;
    }
    return value;
}

// The text after the first line starting with `key` (blanks before it allowed).
std::optional<std::string_view> valueAfter(std::string_view text, std::string_view key) {
    std::size_t position = 0;
    while (position < text.size()) {
        std::size_t end = text.find('\n', position);
        if (end == std::string_view::npos) {
            end = text.size();
        }
        std::string_view line = trim(text.substr(position, end - position));
        if (line.starts_with(key)) {
            return line.substr(key.size());
        }
        position = end + 1;
    }
    return std::nullopt;
}

Expected<std::uint64_t> numberAfter(std::string_view text, std::string_view key,
                                    std::string_view tool) {
    auto value = valueAfter(text, key);
    if (!value) {
        return fail(ErrorCode::Parse,
                    std::string(tool) + " output has no \"" + std::string(key) + "\" line");
    }
    auto number = leadingNumber(*value);
    if (!number) {
        return fail(ErrorCode::Parse, std::string(tool) + ": \"" + std::string(key) +
                                          "\" is not followed by a number");
    }
    return *number;
}

} // namespace

Expected<FilesystemUsage> parseDumpe2fs(std::string_view text) {
    auto blocks = numberAfter(text, "Block count:", "dumpe2fs");
    auto freeBlocks = numberAfter(text, "Free blocks:", "dumpe2fs");
    auto blockSize = numberAfter(text, "Block size:", "dumpe2fs");
    for (const auto* field : {&blocks, &freeBlocks, &blockSize}) {
        if (!*field) {
            return std::unexpected(field->error());
        }
    }
    if (*freeBlocks > *blocks || *blockSize == 0) {
        return fail(ErrorCode::Parse, "dumpe2fs: free blocks exceed the block count");
    }
    FilesystemUsage usage;
    usage.type = "ext";
    usage.size = Bytes(*blocks * *blockSize);
    usage.used = Bytes((*blocks - *freeBlocks) * *blockSize);
    usage.minimumSize = usage.used;
    usage.blockSize = Bytes(*blockSize);
    usage.source = "dumpe2fs -h";
    return usage;
}

Expected<std::uint64_t> parseResize2fsMinimumBlocks(std::string_view text) {
    return numberAfter(text, "Estimated minimum size of the filesystem:", "resize2fs -P");
}

Expected<FilesystemUsage> parseNtfsresizeInfo(std::string_view text) {
    auto size = numberAfter(text, "Current volume size:", "ntfsresize");
    if (!size) {
        return std::unexpected(size.error());
    }
    FilesystemUsage usage;
    usage.type = "ntfs";
    usage.size = Bytes(*size);
    usage.source = "ntfsresize --info";
    if (auto minimum = numberAfter(text, "You might resize at", "ntfsresize")) {
        usage.minimumSize = Bytes(*minimum);
    } else if (text.find("already at its minimum") != std::string_view::npos ||
               text.find("No need to resize") != std::string_view::npos) {
        usage.minimumSize = usage.size;
    } else {
        return std::unexpected(minimum.error());
    }
    // ntfsresize reports space in use as "Space in use       : 12 MB (1.2%)" (rounded MB);
    // the minimum it offers already covers it, so it stands in for "used".
    usage.used = usage.minimumSize;
    return usage;
}

Expected<FilesystemUsage> parseBtrfsUsage(std::string_view text) {
    auto size = numberAfter(text, "Device size:", "btrfs filesystem usage");
    auto used = numberAfter(text, "Used:", "btrfs filesystem usage");
    if (!size) {
        return std::unexpected(size.error());
    }
    if (!used) {
        return std::unexpected(used.error());
    }
    FilesystemUsage usage;
    usage.type = "btrfs";
    usage.size = Bytes(*size);
    usage.used = Bytes(*used);
    usage.minimumSize = usage.used;
    usage.source = "btrfs filesystem usage -b";
    return usage;
}

} // namespace ssdk::overprovision

namespace ssdk::overprovision {

Json toJson(const FilesystemUsage& usage) {
    return Json{{"type", usage.type},
                {"size", usage.size.value},
                {"used", usage.used.value},
                {"minimum_size", usage.minimumSize.value},
                {"source", usage.source}};
}

Expected<FilesystemUsage> filesystemUsageFromJson(const Json& json) {
    try {
        FilesystemUsage usage;
        usage.type = json.at("type").get<std::string>();
        usage.size = Bytes(json.at("size").get<std::uint64_t>());
        usage.used = Bytes(json.at("used").get<std::uint64_t>());
        usage.minimumSize = Bytes(json.at("minimum_size").get<std::uint64_t>());
        usage.source = json.value("source", "");
        return usage;
    } catch (const Json::exception& error) {
        return fail(ErrorCode::Parse, std::string("filesystem usage: ") + error.what());
    }
}

} // namespace ssdk::overprovision
