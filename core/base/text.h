#pragma once
// Small helpers for sentences shown to people.

#include <string>
#include <string_view>
#include <vector>

namespace ssdk {

// "a", "a and b", "a, b and c" (conjunction "or" for a choice: "a, b or c").
inline std::string joinWords(const std::vector<std::string>& words,
                             std::string_view conjunction = "and") {
    std::string text;
    for (std::size_t i = 0; i < words.size(); ++i) {
        if (i > 0) {
            text += i + 1 == words.size() ? " " + std::string(conjunction) + " " : ", ";
        }
        text += words[i];
    }
    return text;
}

} // namespace ssdk
