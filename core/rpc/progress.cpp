#include "core/rpc/progress.h"

namespace ssdk::rpc {

namespace {

constexpr const char* kFraction = "fraction";
constexpr const char* kText = "text";
constexpr const char* kStep = "step";
constexpr const char* kFinished = "finished";

} // namespace

Json toJson(const Progress& progress) {
    Json json{{kFraction, progress.fraction}, {kText, progress.text}};
    if (progress.step) {
        json[kStep] = *progress.step;
        json[kFinished] = progress.finished;
    }
    return json;
}

Progress progressFromJson(const Json& data) {
    Progress progress;
    if (!data.is_object()) {
        return progress;
    }
    if (const auto fraction = data.find(kFraction);
        fraction != data.end() && fraction->is_number()) {
        progress.fraction = fraction->get<double>();
    }
    if (const auto text = data.find(kText); text != data.end() && text->is_string()) {
        progress.text = text->get<std::string>();
    }
    if (const auto step = data.find(kStep); step != data.end() && step->is_string()) {
        progress.step = step->get<std::string>();
    }
    if (const auto finished = data.find(kFinished);
        finished != data.end() && finished->is_boolean()) {
        progress.finished = finished->get<bool>();
    }
    return progress;
}

} // namespace ssdk::rpc
