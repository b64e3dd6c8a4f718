#include "core/firmware/firmware_client.h"

#include "core/rpc/typed_call.h"

namespace ssdk::firmware {

Expected<FirmwareInfo> FirmwareClient::info(const InfoRequest& request) {
    return rpc::roundTrip(m_transport, kVerbInfo, request, firmwareInfoFromJson);
}

Expected<UpdatePlan> FirmwareClient::plan(const PlanVerbRequest& request) {
    return rpc::roundTrip(m_transport, kVerbPlan, request, updatePlanFromJson);
}

Expected<UpdateReply> FirmwareClient::update(const UpdateVerbRequest& request,
                                             const EventHandler& onEvent) {
    return rpc::roundTrip(m_transport, kVerbUpdate, request, updateReplyFromJson, onEvent);
}

} // namespace ssdk::firmware
