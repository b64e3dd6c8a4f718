#pragma once

#include <functional>
#include <map>
#include <set>
#include <string>
#include <string_view>
#include <vector>

#include "core/base/error.h"
#include "core/base/json.h"
#include "core/rpc/protocol.h"
#include "helper/authorizer.h"

namespace ssdk::helper {

// How much harm a verb can do; decides its polkit default (see the policy file):
// Read → yes, Change → auth_admin_keep, Destroy → auth_admin.
enum class Grade { Read, Change, Destroy };

// What a verb handler reports while it works ("progress", {"fraction": 0.5, "text": "…"});
// the service turns it into an event of the request being handled.
using VerbEvents = std::function<void(const std::string& name, const Json& data)>;

struct Verb {
    std::string name;         // "lab.create"
    std::string polkitAction; // "io.github.ssdkeeper.lab.create"
    Grade grade = Grade::Read;
    // Validates its own arguments (unknown keys included) and does the work.
    std::function<Expected<Json>(const Json& args, const VerbEvents& events)> handler;
};

// Receives the events of the request being handled, before its response.
using EventSink = std::function<void(const rpc::Event&)>;

// Names the drive behind a device path for the polkit dialog ("Samsung SSD 970 (S4EV…)"), or
// "" when it cannot tell. Runs before authorization: it may only read (sysfs), never open the
// device. liveDriveDescriber reads this machine's sysfs.
using DriveDescriber = std::function<std::string(const std::string& devicePath)>;
DriveDescriber liveDriveDescriber();

// The helper's logic without I/O: a registry of narrow verbs, each authorized through the
// Authorizer before it runs. There is no generic command verb, by design.
// A Read verb (polkit default "yes") is asked about once per action and dialog details in a
// service's life: a helper process serves one caller, so a page polling cache.status starts
// one pkcheck, not one a second. Change and Destroy verbs are asked every time (polkit itself
// keeps an auth_admin_keep answer for a while); a refusal is never remembered.
// A request's "device" argument, when it is a string, is shown in the polkit dialog as the
// details "device" (the path) and "drive" (the describer's answer), both limited to printable
// ASCII (see isSafeDetail); a path that is not is shown as "(unprintable path)".
class HelperService {
public:
    explicit HelperService(Authorizer& authorizer,
                           DriveDescriber describeDrive = liveDriveDescriber());

    void add(Verb verb);
    std::vector<std::string> verbNames() const;
    // The registered verb of that name, or nullptr.
    const Verb* find(std::string_view name) const;

    // Handles one request line and returns its encoded response line (ending in '\n').
    // Never throws: malformed requests, unknown verbs, refused authorization and failing
    // handlers all become error responses; id 0 answers a line whose id could not be read.
    // A cancel message (rpc::encodeCancel) reaching here came after its request finished: it
    // is dropped and the returned line is empty (verbs that stop early watch for it, see
    // helper/cancel_watch.h).
    std::string handleLine(std::string_view line, const EventSink& events = {});

private:
    std::string handleLineOrThrow(std::string_view line, const EventSink& events);
    Expected<Json> dispatch(const rpc::Request& request, const EventSink& events);
    AuthDetails detailsFor(const rpc::Request& request) const;
    Expected<void> authorize(const Verb& verb, const AuthDetails& details);

    Authorizer& m_authorizer;
    DriveDescriber m_describeDrive;
    std::map<std::string, Verb, std::less<>> m_verbs;
    std::set<std::string> m_readsAllowed; // action and details of Read verbs polkit allowed
};

} // namespace ssdk::helper
