#include "core/smart/smart_client.h"

namespace ssdk::smart {

namespace {

// Calls verb with the request's JSON and reads the answer with parse.
template <typename Request, typename Parse>
auto roundTrip(rpc::Transport& transport, const char* verb, const Request& request, Parse parse)
    -> decltype(parse(std::declval<const Json&>())) {
    auto answer = transport.call(verb, toJson(request));
    if (!answer) {
        return std::unexpected(answer.error());
    }
    return withContext(parse(*answer), std::string("reading the answer to ") + verb);
}

} // namespace

Expected<RawReport> SmartClient::read(const ReadRequest& request) {
    return roundTrip(m_transport, kVerbSmartRead, request, rawReportFromJson);
}

Expected<SelfTestReply> SmartClient::startSelfTest(const SelfTestStartRequest& request) {
    return roundTrip(m_transport, kVerbSelfTestStart, request, selfTestReplyFromJson);
}

Expected<SelfTestReply> SmartClient::abortSelfTest(const SelfTestAbortRequest& request) {
    return roundTrip(m_transport, kVerbSelfTestAbort, request, selfTestReplyFromJson);
}

} // namespace ssdk::smart
