#pragma once
// The "progress" event every long verb sends while it works (protocol.h: {"id", "event":
// "progress", "data": {...}}), one shape for all of them:
//   {fraction, text}                      trim, format, erase, firmware, cache.enable, lab
//   {fraction, step, text, finished}      op.apply, op.undo, op.recover: each step's start and
//                                         end, step being the journal's name for it
// fraction is 0–1, or negative when the verb cannot say how far it is.
#include <optional>
#include <string>

#include "core/base/json.h"

namespace ssdk::rpc {

inline constexpr const char* kEventProgress = "progress";

struct Progress {
    double fraction = -1.0;
    std::string text;
    std::optional<std::string> step; // "step": the Operation's step (op.* only)
    bool finished = false;           // "finished": this event ends that step (op.* only)
};

// {fraction, text}, plus {step, finished} when step is set.
Json toJson(const Progress& progress);
// The event's data as sent; what it lacks is the default above, so a reader never fails on
// a progress event (an older helper's, or one it does not know).
Progress progressFromJson(const Json& data);

} // namespace ssdk::rpc
