#include "core/lab/lab_client.h"

namespace ssdk::lab {

namespace {

// Calls verb with the request's JSON and reads the answer with parse.
template <typename Request, typename Parse>
auto roundTrip(rpc::Transport& transport, const char* verb, const Request& request, Parse parse,
               const rpc::Transport::EventHandler& onEvent = {})
    -> decltype(parse(std::declval<const Json&>())) {
    auto answer = transport.call(verb, toJson(request), onEvent);
    if (!answer) {
        return std::unexpected(answer.error());
    }
    return withContext(parse(*answer), std::string("reading the answer to ") + verb);
}

} // namespace

Expected<LabDrive> LabClient::create(const LabCreateRequest& request,
                                     const rpc::Transport::EventHandler& onEvent) {
    return roundTrip(m_transport, kVerbLabCreate, request, labDriveFromJson, onEvent);
}

Expected<DestroyReply> LabClient::destroy(const DestroyRequest& request) {
    return roundTrip(m_transport, kVerbLabDestroy, request, destroyReplyFromJson);
}

} // namespace ssdk::lab
