#include "core/cachectl/fstab.h"

#include <cerrno>
#include <fmt/format.h>
#include <fstream>
#include <sstream>

#include "core/base/atomic_file.h"

namespace ssdk::cachectl {

namespace {

struct Field {
    std::size_t start = 0;
    std::size_t length = 0;
};

bool isBlank(char c) {
    return c == ' ' || c == '\t';
}

// The whitespace-separated fields of one line, with where each stands.
std::vector<Field> fieldsOf(std::string_view line) {
    std::vector<Field> fields;
    std::size_t i = 0;
    while (i < line.size()) {
        while (i < line.size() && isBlank(line[i])) {
            ++i;
        }
        if (i >= line.size()) {
            break;
        }
        const std::size_t start = i;
        while (i < line.size() && !isBlank(line[i])) {
            ++i;
        }
        fields.push_back({start, i - start});
    }
    return fields;
}

std::vector<std::string_view> linesOf(std::string_view text) {
    std::vector<std::string_view> lines;
    std::size_t start = 0;
    while (start < text.size()) {
        const auto end = text.find('\n', start);
        if (end == std::string_view::npos) {
            lines.push_back(text.substr(start));
            break;
        }
        lines.push_back(text.substr(start, end - start));
        start = end + 1;
    }
    return lines;
}

bool isMountLine(std::string_view line, const std::vector<Field>& fields) {
    return fields.size() >= 4 && line[fields[0].start] != '#';
}

std::string escapeField(std::string_view value) {
    std::string text;
    for (char c : value) {
        switch (c) {
        case ' ':
            text += "\\040";
            break;
        case '\t':
            text += "\\011";
            break;
        case '\n':
            text += "\\012";
            break;
        case '\\':
            text += "\\134";
            break;
        default:
            text += c;
        }
    }
    return text;
}

} // namespace

std::string unescapeFstab(std::string_view field) {
    std::string text;
    for (std::size_t i = 0; i < field.size(); ++i) {
        if (field[i] == '\\' && i + 4 <= field.size() &&
            field.substr(i + 1, 3).find_first_not_of("01234567") == std::string_view::npos) {
            const int value =
                (field[i + 1] - '0') * 64 + (field[i + 2] - '0') * 8 + (field[i + 3] - '0');
            text += static_cast<char>(value);
            i += 3;
        } else {
            text += field[i];
        }
    }
    return text;
}

std::vector<FstabEntry> parseFstab(std::string_view text) {
    std::vector<FstabEntry> entries;
    const auto lines = linesOf(text);
    for (std::size_t number = 0; number < lines.size(); ++number) {
        const auto line = lines[number];
        const auto fields = fieldsOf(line);
        if (!isMountLine(line, fields)) {
            continue;
        }
        auto field = [&](std::size_t i) {
            return std::string(line.substr(fields[i].start, fields[i].length));
        };
        entries.push_back({number, field(0), unescapeFstab(field(1)), field(2), field(3)});
    }
    return entries;
}

std::string FstabChange::diff() const {
    return fmt::format("--- {0}\n+++ {0} (SSD Keeper: at next boot)\n@@ -{1} +{1} @@\n-{2}\n+{3}\n",
                       path, line + 1, before, after);
}

Expected<FstabChange> planFstabChange(std::string_view text, const std::string& path,
                                      const FstabEntry& entry, const std::string& cachedDevice,
                                      const std::string& unit) {
    const auto lines = linesOf(text);
    if (entry.line >= lines.size()) {
        return fail(ErrorCode::NotFound, fmt::format("{} has no line {}", path, entry.line + 1));
    }
    const std::string before(lines[entry.line]);
    const auto fields = fieldsOf(before);
    if (!isMountLine(before, fields) ||
        unescapeFstab(before.substr(fields[1].start, fields[1].length)) != entry.mountPoint) {
        return fail(ErrorCode::Busy, fmt::format("line {} of {} no longer mounts {}",
                                                 entry.line + 1, path, entry.mountPoint));
    }
    const std::string requirement = "x-systemd.requires=" + unit;
    std::string options = before.substr(fields[3].start, fields[3].length);
    if (options.find(requirement) == std::string::npos) {
        options += "," + requirement;
    }
    std::string after = before.substr(0, fields[0].start) + escapeField(cachedDevice) +
                        before.substr(fields[0].start + fields[0].length,
                                      fields[3].start - fields[0].start - fields[0].length) +
                        options + before.substr(fields[3].start + fields[3].length);
    return FstabChange{path, entry.line, before, after};
}

Expected<std::string> replaceFstabLine(std::string_view text, const std::string& from,
                                       const std::string& to) {
    const auto lines = linesOf(text);
    std::optional<std::size_t> found;
    for (std::size_t i = 0; i < lines.size(); ++i) {
        if (lines[i] == from) {
            if (found) {
                return fail(ErrorCode::Busy, "more than one line reads '" + from + "'");
            }
            found = i;
        }
    }
    if (!found) {
        return fail(ErrorCode::NotFound, "no line reads '" + from + "' any more");
    }
    std::string result;
    for (std::size_t i = 0; i < lines.size(); ++i) {
        result += i == *found ? to : std::string(lines[i]);
        result += '\n';
    }
    if (!text.empty() && text.back() != '\n') {
        result.pop_back();
    }
    return result;
}

std::string systemdEscapePath(std::string_view path) {
    while (path.size() > 1 && path.front() == '/') {
        path.remove_prefix(1);
    }
    while (path.size() > 1 && path.back() == '/') {
        path.remove_suffix(1);
    }
    if (path == "/" || path.empty()) {
        return "-";
    }
    std::string text;
    for (std::size_t i = 0; i < path.size(); ++i) {
        const char c = path[i];
        const bool plain = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') ||
                           (c >= '0' && c <= '9') || c == ':' || c == '_' || (c == '.' && i > 0);
        if (c == '/') {
            text += '-';
        } else if (plain) {
            text += c;
        } else {
            text += fmt::format("\\x{:02x}", static_cast<unsigned char>(c));
        }
    }
    return text;
}

std::string bootUnitName(const std::string& originPath) {
    return "ssdkeeper-cache@" + systemdEscapePath(originPath) + ".service";
}

bool hasLine(std::string_view text, std::string_view line) {
    while (!text.empty()) {
        const auto end = text.find('\n');
        if (text.substr(0, end) == line) {
            return true;
        }
        if (end == std::string_view::npos) {
            break;
        }
        text.remove_prefix(end + 1);
    }
    return false;
}

Expected<std::string> readFstabFile(const std::filesystem::path& path) {
    std::ifstream in(path, std::ios::binary);
    if (!in) {
        return failErrno(errno, "reading " + path.string());
    }
    std::ostringstream text;
    text << in.rdbuf();
    return text.str();
}

Expected<void> writeFstabFile(const std::filesystem::path& path, const std::string& text) {
    std::error_code error;
    const auto status = std::filesystem::status(path, error);
    const mode_t mode =
        std::filesystem::exists(status)
            ? static_cast<mode_t>(status.permissions() & std::filesystem::perms::mask)
            : 0644;
    return writeFileAtomically(path, text, mode);
}

} // namespace ssdk::cachectl
