#pragma once
// The lab drives' privileged verbs (docs/lab.md): their names, typed requests and results, and
// the JSON of each. The helper (helper/lab_verbs.cpp) parses every request with these fromJson
// functions and answers with these results; the CLI and the GUI send these requests through a
// LabClient (core/lab/lab_client.h). Nobody spells a verb name or a key of these objects
// anywhere else.
//
// A request's fromJson refuses what the helper refuses: unknown keys, wrong types, values out
// of range (InvalidArgument naming the argument, core/base/json_args.h). The size is checked
// against the free space by LabManager; device paths are validated by the helper itself.
#include <string>

#include "core/base/error.h"
#include "core/base/json.h"
#include "core/lab/lab.h"

namespace ssdk::lab {

inline constexpr const char* kVerbLabCreate = "lab.create";
inline constexpr const char* kVerbLabDestroy = "lab.destroy";
// Every lab verb, in the order above.
inline constexpr const char* kLabVerbs[] = {kVerbLabCreate, kVerbLabDestroy};

// The longest lab name and lab device path a request may carry.
inline constexpr std::size_t kMaxLabNameBytes = 32;
inline constexpr std::size_t kMaxDevicePathBytes = 4096;

// lab.create sends an rpc::Progress event (core/rpc/progress.h) before it creates the image.

// lab.create {name, size (bytes), sector_size?: 512|4096, layout?: empty|gpt-ext4} → LabDrive.
// The owner fields of the request are the helper's to set, never on the wire.
Json toJson(const LabCreateRequest& request);
Expected<LabCreateRequest> labCreateRequestFromJson(const Json& args);

// {name, image, device, size, allocated}: the lab.create result and a `lab list` entry.
Json toJson(const LabDrive& drive);
Expected<LabDrive> labDriveFromJson(const Json& json);

// lab.destroy {name_or_device: a lab name or its /dev/loopN} → DestroyReply. A name is checked
// here; a device path is the helper's to validate (a real lab loop device).
struct DestroyRequest {
    std::string nameOrDevice; // "name_or_device"
};
Json toJson(const DestroyRequest& request);
Expected<DestroyRequest> destroyRequestFromJson(const Json& args);

// {destroyed: the name or the device node that was destroyed}.
struct DestroyReply {
    std::string destroyed;
};
Json toJson(const DestroyReply& reply);
Expected<DestroyReply> destroyReplyFromJson(const Json& json);

} // namespace ssdk::lab
