#include "core/smart/drivedb.h"

#include <fstream>
#include <iterator>
#include <regex>

namespace ssdk::smart {

namespace {

// Reads a C string literal starting at text[i] == '"'; handles the escapes drivedb.h uses.
std::string readLiteral(std::string_view text, std::size_t& i) {
    std::string value;
    ++i;
    while (i < text.size() && text[i] != '"') {
        if (text[i] == '\\' && i + 1 < text.size()) {
            ++i;
            switch (text[i]) {
            case 'n':
                value.push_back('\n');
                break;
            case 't':
                value.push_back('\t');
                break;
            default:
                value.push_back(text[i]);
            }
        } else {
            value.push_back(text[i]);
        }
        ++i;
    }
    ++i; // closing quote
    return value;
}

bool fullMatch(const std::string& pattern, const std::string& value) {
    if (pattern.empty()) {
        return true;
    }
    try {
        return std::regex_match(value, std::regex(pattern, std::regex::extended));
    } catch (const std::regex_error&) {
        return false;
    }
}

} // namespace

Expected<DriveDatabase> DriveDatabase::parse(std::string_view text) {
    DriveDatabase database;
    std::vector<std::string> strings; // the literals of the entry being read
    bool inEntry = false;
    bool lastWasLiteral = false;
    for (std::size_t i = 0; i < text.size();) {
        const char c = text[i];
        if (c == '/' && i + 1 < text.size() && text[i + 1] == '/') {
            i = text.find('\n', i);
            i = i == std::string_view::npos ? text.size() : i;
        } else if (c == '/' && i + 1 < text.size() && text[i + 1] == '*') {
            i = text.find("*/", i + 2);
            i = i == std::string_view::npos ? text.size() : i + 2;
        } else if (c == '"') {
            std::string literal = readLiteral(text, i);
            if (inEntry) {
                if (lastWasLiteral && !strings.empty()) {
                    strings.back() += literal; // adjacent literals concatenate
                } else {
                    strings.push_back(std::move(literal));
                }
                lastWasLiteral = true;
            }
        } else if (c == '{') {
            inEntry = true;
            strings.clear();
            lastWasLiteral = false;
            ++i;
        } else if (c == '}') {
            if (inEntry && strings.size() == 5) {
                database.m_entries.push_back(
                    {strings[0], strings[1], strings[2], strings[3], strings[4]});
            }
            inEntry = false;
            ++i;
        } else {
            if (c == ',') {
                lastWasLiteral = false;
            }
            ++i;
        }
    }
    if (database.m_entries.empty()) {
        return fail(ErrorCode::Parse, "the drive database holds no entries");
    }
    return database;
}

Expected<DriveDatabase> DriveDatabase::load(const std::filesystem::path& file) {
    std::ifstream stream(file);
    if (!stream) {
        return fail(ErrorCode::NotFound, "no drive database at " + file.string());
    }
    const std::string text((std::istreambuf_iterator<char>(stream)),
                           std::istreambuf_iterator<char>());
    return withContext(parse(text), "reading " + file.string());
}

const DriveDbEntry* DriveDatabase::match(const std::string& model,
                                         const std::string& firmware) const {
    for (const auto& entry : m_entries) {
        if (entry.family.starts_with("USB:") || entry.family.starts_with("VERSION:") ||
            entry.family.starts_with("DEFAULT") || entry.modelRegex.empty()) {
            continue;
        }
        if (fullMatch(entry.modelRegex, model) && fullMatch(entry.firmwareRegex, firmware)) {
            return &entry;
        }
    }
    return nullptr;
}

std::vector<std::string> DriveDatabase::firmwareWarnings(const std::string& model,
                                                         const std::string& firmware) const {
    std::vector<std::string> warnings;
    const DriveDbEntry* entry = match(model, firmware);
    if (entry == nullptr || entry->warning.empty()) {
        return warnings;
    }
    // drivedb.h wraps one warning over several lines: it is one warning, one sentence.
    std::string text;
    for (const char c : entry->warning) {
        if (c != '\n') {
            text.push_back(c);
        } else if (!text.empty() && text.back() != ' ') {
            text.push_back(' ');
        }
    }
    while (!text.empty() && text.back() == ' ') {
        text.pop_back();
    }
    if (!text.empty()) {
        warnings.push_back(std::move(text));
    }
    return warnings;
}

} // namespace ssdk::smart
