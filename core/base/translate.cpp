#include "core/base/translate.h"

#include <memory>
#include <mutex>

namespace ssdk {

namespace {

std::mutex& translatorMutex() {
    static std::mutex mutex;
    return mutex;
}

std::shared_ptr<const Translator>& installedTranslator() {
    static std::shared_ptr<const Translator> installed;
    return installed;
}

} // namespace

void setTranslator(Translator translator) {
    auto next = translator ? std::make_shared<const Translator>(std::move(translator)) : nullptr;
    const std::lock_guard lock(translatorMutex());
    installedTranslator() = std::move(next);
}

std::string translateText(std::string_view context, std::string_view text) {
    std::shared_ptr<const Translator> current;
    {
        const std::lock_guard lock(translatorMutex());
        current = installedTranslator();
    }
    if (!current) {
        return std::string(text);
    }
    return (*current)(context, text);
}

} // namespace ssdk
