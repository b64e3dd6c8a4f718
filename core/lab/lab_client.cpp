#include "core/lab/lab_client.h"

#include "core/rpc/typed_call.h"

namespace ssdk::lab {

Expected<LabDrive> LabClient::create(const LabCreateRequest& request,
                                     const rpc::Transport::EventHandler& onEvent) {
    return rpc::roundTrip(m_transport, kVerbLabCreate, request, labDriveFromJson, onEvent);
}

Expected<DestroyReply> LabClient::destroy(const DestroyRequest& request) {
    return rpc::roundTrip(m_transport, kVerbLabDestroy, request, destroyReplyFromJson);
}

} // namespace ssdk::lab
