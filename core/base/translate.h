#pragma once
// The seam through which core's user-visible sentences are translated. Core has no Qt: the
// program that shows them (the GUI) installs a process-wide hook; without one (the CLI, the
// helper, every test) text stays English, byte for byte.
//
// A site marks its sentence with trText("Context", "Pattern with {}") and either takes it as it
// is (str()) or formats arguments into it (format(args...)): the pattern is translated first,
// then formatted, so a translation may move the placeholders. lupdate extracts the marker as
// QCoreApplication::translate (cmake/SsdkTranslations.cmake: -tr-function-alias
// translate+=trText), so both arguments must be string literals.

#include <fmt/format.h>
#include <functional>
#include <string>
#include <string_view>
#include <utility>

namespace ssdk {

// Returns `text` of `context` in the user's language, or `text` itself when it has none.
using Translator = std::function<std::string(std::string_view context, std::string_view text)>;

// Installs the hook (an empty one removes it). Safe to call while other threads translate.
void setTranslator(Translator translator);

// `text` through the installed hook, or unchanged without one.
std::string translateText(std::string_view context, std::string_view text);

// A marked sentence: the literals stay until it is used, so the hook runs where the text is made.
class TrText {
public:
    constexpr TrText(std::string_view context, std::string_view source)
        : m_context(context)
        , m_source(source) {}

    std::string_view source() const { return m_source; }
    std::string str() const { return translateText(m_context, m_source); }

    // The translated pattern with `args` formatted into it (fmt syntax). A translation whose
    // placeholders do not fit the arguments falls back to the English pattern.
    template <typename... Args> std::string format(const Args&... args) const {
        const std::string pattern = str();
        try {
            return fmt::format(fmt::runtime(pattern), args...);
        } catch (const fmt::format_error&) {
            return fmt::format(fmt::runtime(m_source), args...);
        }
    }

private:
    std::string_view m_context;
    std::string_view m_source;
};

constexpr TrText trText(std::string_view context, std::string_view source) {
    return {context, source};
}

} // namespace ssdk
