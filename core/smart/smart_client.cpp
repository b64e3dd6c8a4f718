#include "core/smart/smart_client.h"

#include "core/rpc/typed_call.h"

namespace ssdk::smart {

Expected<RawReport> SmartClient::read(const ReadRequest& request) {
    return rpc::roundTrip(m_transport, kVerbSmartRead, request, rawReportFromJson);
}

Expected<SelfTestReply> SmartClient::startSelfTest(const SelfTestStartRequest& request) {
    return rpc::roundTrip(m_transport, kVerbSelfTestStart, request, selfTestReplyFromJson);
}

Expected<SelfTestReply> SmartClient::abortSelfTest(const SelfTestAbortRequest& request) {
    return rpc::roundTrip(m_transport, kVerbSelfTestAbort, request, selfTestReplyFromJson);
}

} // namespace ssdk::smart
