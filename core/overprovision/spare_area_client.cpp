#include "core/overprovision/spare_area_client.h"

#include "core/rpc/typed_call.h"

namespace ssdk::overprovision {

Expected<InspectReply> SpareAreaClient::inspect(const InspectRequest& request) {
    return rpc::roundTrip(m_transport, kVerbOpInspect, request, inspectReplyFromJson);
}

Expected<JournalReply> SpareAreaClient::apply(const ApplyRequest& request,
                                              const rpc::Transport::EventHandler& onEvent) {
    return rpc::roundTrip(m_transport, kVerbOpApply, request, journalReplyFromJson, onEvent);
}

Expected<JournalReply> SpareAreaClient::undo(const UndoRequest& request,
                                             const rpc::Transport::EventHandler& onEvent) {
    return rpc::roundTrip(m_transport, kVerbOpUndo, request, journalReplyFromJson, onEvent);
}

Expected<JournalReply> SpareAreaClient::recover(const RecoverRequest& request,
                                                const rpc::Transport::EventHandler& onEvent) {
    return rpc::roundTrip(m_transport, kVerbOpRecover, request, journalReplyFromJson, onEvent);
}

} // namespace ssdk::overprovision
