#include "core/overprovision/spare_area_client.h"

namespace ssdk::overprovision {

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

Expected<InspectReply> SpareAreaClient::inspect(const InspectRequest& request) {
    return roundTrip(m_transport, kVerbOpInspect, request, inspectReplyFromJson);
}

Expected<JournalReply> SpareAreaClient::apply(const ApplyRequest& request,
                                              const rpc::Transport::EventHandler& onEvent) {
    return roundTrip(m_transport, kVerbOpApply, request, journalReplyFromJson, onEvent);
}

Expected<JournalReply> SpareAreaClient::undo(const UndoRequest& request,
                                             const rpc::Transport::EventHandler& onEvent) {
    return roundTrip(m_transport, kVerbOpUndo, request, journalReplyFromJson, onEvent);
}

Expected<JournalReply> SpareAreaClient::recover(const RecoverRequest& request,
                                                const rpc::Transport::EventHandler& onEvent) {
    return roundTrip(m_transport, kVerbOpRecover, request, journalReplyFromJson, onEvent);
}

} // namespace ssdk::overprovision
