// The typed verbs of the spare area, SMART, lab drives, benchmarks and traces
// (core/{overprovision,smart,lab,perf}/verbs.h): every request and result survives its JSON
// (as a line, parsed back) in the shape the helper has always spoken, and requests refuse
// unknown keys, wrong types and values out of range.
#include <catch2/catch.hpp>

#include "core/lab/verbs.h"
#include "core/overprovision/verbs.h"
#include "core/perf/verbs.h"
#include "core/smart/verbs.h"
#include "tests/support/spare_area.h"

using namespace ssdk;

namespace {

// The JSON as it travels: dumped to a line and parsed again.
Json typedVerbWire(const Json& json) {
    auto parsed = parseJson(json.dump(), "line");
    REQUIRE(parsed);
    return *parsed;
}

// value → JSON → line → parse: the same JSON again.
template <typename T, typename Parse> T typedRoundTrip(const T& value, Parse parse) {
    INFO(toJson(value).dump());
    auto back = parse(typedVerbWire(toJson(value)));
    REQUIRE(back);
    CHECK(toJson(*back) == toJson(value));
    return *back;
}

template <typename Parse>
void checkRefusedArgs(Parse parse, const Json& args, const std::string& mentions) {
    INFO(args.dump());
    auto parsed = parse(args);
    REQUIRE_FALSE(parsed);
    CHECK(parsed.error().code() == ErrorCode::InvalidArgument);
    CHECK_THAT(parsed.error().message(), Catch::Contains(mentions));
}

} // namespace

TEST_CASE("typed verb names are the helper's", "[verbs]") {
    CHECK(std::string(overprovision::kVerbOpApply) == "op.apply");
    CHECK(std::string(smart::kVerbSmartRead) == "smart.read");
    CHECK(std::string(smart::kVerbSelfTestAbort) == "selftest.abort");
    CHECK(std::string(lab::kVerbLabDestroy) == "lab.destroy");
    CHECK(std::string(perf::kVerbPerfBench) == "perf.bench");
    CHECK(std::string(perf::kVerbTraceRecord) == "trace.record");
    CHECK(std::size(overprovision::kOpVerbs) == 4);
    CHECK(std::size(smart::kSmartVerbs) == 3);
    CHECK(std::size(lab::kLabVerbs) == 2);
    CHECK(std::size(perf::kPerfVerbs) == 2);
}

TEST_CASE("spare-area requests and results keep their JSON", "[verbs][op]") {
    using namespace ssdk::overprovision;
    typedRoundTrip(InspectRequest{"/dev/sdb"}, inspectRequestFromJson);
    typedRoundTrip(UndoRequest{"/dev/sdb"}, undoRequestFromJson);
    CHECK(toJson(ApplyRequest{"/dev/sdb", 20, "/dev/sdb1", false}) ==
          Json{{"device", "/dev/sdb"}, {"spare_percent", 20}, {"partition", "/dev/sdb1"}});
    CHECK(typedRoundTrip(ApplyRequest{"/dev/sdb", 50, "/dev/sdb1", true}, applyRequestFromJson)
              .unmount);
    CHECK(toJson(RecoverRequest{"/dev/sdb", Recovery::RollBack}) ==
          Json{{"device", "/dev/sdb"}, {"action", "rollback"}});
    CHECK(typedRoundTrip(RecoverRequest{"/dev/sdb", Recovery::Finish}, recoverRequestFromJson)
              .action == Recovery::Finish);

    const Journal journal = test::shrinkJournal("drive", "/dev/sdb", "/dev/sdb1");
    CHECK(typedRoundTrip(JournalReply{journal}, journalReplyFromJson).journal.partitionPath ==
          "/dev/sdb1");

    InspectReply inspected;
    inspected.device = Json{{"path", "/dev/sdb"}};
    inspected.usage = FilesystemUsage{.type = "ext4",
                                      .size = Bytes::mib(510),
                                      .used = Bytes::mib(200),
                                      .minimumSize = Bytes::mib(210),
                                      .blockSize = Bytes(4096),
                                      .source = "dumpe2fs"};
    inspected.mountUsers = {"4242 (bash)"};
    inspected.journal = journal;
    const Json json = toJson(inspected);
    for (const char* key : {"device", "usage", "usage_error", "mount_users", "journal"}) {
        CHECK(json.contains(key));
    }
    const auto back = typedRoundTrip(inspected, inspectReplyFromJson);
    CHECK(back.usage->used == Bytes::mib(200));
    CHECK(back.mountUsers == inspected.mountUsers);
    // Absent usage and journal travel as null.
    const Json bare = toJson(InspectReply{});
    CHECK(bare["usage"].is_null());
    CHECK(bare["journal"].is_null());
    CHECK_FALSE(typedRoundTrip(InspectReply{}, inspectReplyFromJson).journal);

    CHECK_FALSE(journalReplyFromJson(Json::object()));
    CHECK_FALSE(inspectReplyFromJson(Json{{"usage", "big"}}));
}

TEST_CASE("spare-area requests refuse what the helper refuses", "[verbs][op]") {
    using namespace ssdk::overprovision;
    const Json apply{{"device", "/dev/sdb"}, {"spare_percent", 20}, {"partition", "/dev/sdb1"}};
    const auto with = [&apply](const char* key, const Json& value) {
        Json args = apply;
        args[key] = value;
        return args;
    };
    checkRefusedArgs(applyRequestFromJson, Json::object(), "spare_percent");
    checkRefusedArgs(applyRequestFromJson, with("x", 1), "'x'");
    checkRefusedArgs(applyRequestFromJson, with("spare_percent", 51), "0–50");
    checkRefusedArgs(applyRequestFromJson, with("spare_percent", 2.5), "spare_percent");
    checkRefusedArgs(applyRequestFromJson, with("partition", ""), "confirmed");
    checkRefusedArgs(applyRequestFromJson, with("unmount", "yes"), "'unmount'");
    checkRefusedArgs(inspectRequestFromJson, Json{{"device", 3}}, "'device'");
    checkRefusedArgs(undoRequestFromJson, Json{{"device", "/dev/sdb"}, {"force", true}}, "'force'");
    checkRefusedArgs(recoverRequestFromJson, Json{{"device", "/dev/sdb"}, {"action", "explode"}},
                     "finish");
}

TEST_CASE("SMART requests and results keep their JSON", "[verbs][smart]") {
    using namespace ssdk::smart;
    CHECK(toJson(ReadRequest{"/dev/sda", false}) == Json{{"device", "/dev/sda"}, {"wake", false}});
    CHECK(typedRoundTrip(ReadRequest{"/dev/sda", true}, readRequestFromJson).wake);
    CHECK(toJson(SelfTestStartRequest{"/dev/sda", SelfTestAction::Long}) ==
          Json{{"device", "/dev/sda"}, {"test", "long"}});
    typedRoundTrip(SelfTestAbortRequest{"/dev/sda"}, selfTestAbortRequestFromJson);

    CHECK(toJson(SelfTestReply{SelfTestAction::Short, "/dev/sda", {"Testing has begun."}}) ==
          Json{{"started", "short"}, {"device", "/dev/sda"}, {"messages", {"Testing has begun."}}});
    CHECK(toJson(SelfTestReply{SelfTestAction::Abort, "/dev/sda", {}}) ==
          Json{{"aborted", "self-test"}, {"device", "/dev/sda"}, {"messages", Json::array()}});
    CHECK(typedRoundTrip(SelfTestReply{SelfTestAction::Abort, "/dev/sda", {"ok"}},
                         selfTestReplyFromJson)
              .action == SelfTestAction::Abort);
    CHECK_FALSE(selfTestReplyFromJson(Json{{"device", "/dev/sda"}}));

    const RawReport blob{RawReport::Format::AtasmartBlob, {0x00, 0x0f, 0xa5, 0xff}};
    CHECK(toJson(blob) == Json{{"format", "atasmart-blob"}, {"data", "000fa5ff"}});
    CHECK(typedRoundTrip(blob, rawReportFromJson).bytes == blob.bytes);
    CHECK_FALSE(rawReportFromJson(Json{{"format", "atasmart-blob"}, {"data", "0G"}}));
}

TEST_CASE("SMART requests refuse what the helper refuses", "[verbs][smart]") {
    using namespace ssdk::smart;
    checkRefusedArgs(readRequestFromJson, Json{{"device", "/dev/sda"}, {"wake", "yes"}}, "'wake'");
    checkRefusedArgs(readRequestFromJson, Json{{"device", "/dev/sda"}, {"extra", 1}}, "'extra'");
    checkRefusedArgs(selfTestStartRequestFromJson, Json{{"device", "/dev/sda"}, {"test", "abort"}},
                     "short or long");
    checkRefusedArgs(selfTestStartRequestFromJson, Json{{"device", "/dev/sda"}}, "'test'");
    checkRefusedArgs(selfTestAbortRequestFromJson, Json{{"device", "/dev/sda"}, {"test", "long"}},
                     "'test'");
}

TEST_CASE("lab requests and results keep their JSON", "[verbs][lab]") {
    using namespace ssdk::lab;
    LabCreateRequest create;
    create.name = "scratch";
    create.size = Bytes::mib(64);
    create.logicalSectorSize = 4096;
    create.layout = "gpt-ext4";
    create.ownerUid = 1000; // the helper's to set: never on the wire
    CHECK(toJson(create) == Json{{"name", "scratch"},
                                 {"size", Bytes::mib(64).value},
                                 {"sector_size", 4096},
                                 {"layout", "gpt-ext4"}});
    const auto back = labCreateRequestFromJson(typedVerbWire(toJson(create)));
    REQUIRE(back);
    CHECK(back->layout == "gpt-ext4");
    CHECK_FALSE(back->ownerUid);
    const auto defaults = labCreateRequestFromJson(Json{{"name", "lab"}, {"size", 1 << 26}});
    REQUIRE(defaults);
    CHECK(defaults->logicalSectorSize == 512);
    CHECK(defaults->layout == "empty");

    const LabDrive drive{"scratch", "/home/ada/.local/state/ssdkeeper/lab/scratch.img",
                         "/dev/loop3", Bytes::mib(64), Bytes::kib(12)};
    CHECK(typedRoundTrip(drive, labDriveFromJson).devicePath == "/dev/loop3");
    CHECK(toJson(DestroyRequest{"/dev/loop3"}) == Json{{"name_or_device", "/dev/loop3"}});
    typedRoundTrip(DestroyRequest{"scratch"}, destroyRequestFromJson);
    typedRoundTrip(DestroyReply{"scratch"}, destroyReplyFromJson);
    CHECK_FALSE(labDriveFromJson(Json{{"device", "/dev/loop3"}}));
}

TEST_CASE("lab requests refuse what the helper refuses", "[verbs][lab]") {
    using namespace ssdk::lab;
    const Json good{{"name", "lab"}, {"size", 1 << 26}};
    const auto with = [&good](const char* key, const Json& value) {
        Json args = good;
        args[key] = value;
        return args;
    };
    checkRefusedArgs(labCreateRequestFromJson, with("command", "rm"), "'command'");
    checkRefusedArgs(labCreateRequestFromJson, with("name", "../x"), "not a lab drive name");
    checkRefusedArgs(labCreateRequestFromJson, with("sector_size", 1000), "512 or 4096");
    checkRefusedArgs(labCreateRequestFromJson, with("layout", "ntfs"), "gpt-ext4");
    checkRefusedArgs(destroyRequestFromJson, Json{{"name_or_device", "../lab"}},
                     "not a lab drive name");
    checkRefusedArgs(destroyRequestFromJson, Json::object(), "'name_or_device'");
}

TEST_CASE("benchmark and trace requests and results keep their JSON", "[verbs][perf]") {
    using namespace ssdk::perf;
    BenchRequest bench{"/dev/sdb", "Lab SSD 256", {}};
    bench.options.size = Bytes::mib(64);
    bench.options.loops = 3;
    bench.options.pick = CdmPick::Average;
    bench.options.gapsS = {5, 10};
    const auto back = typedRoundTrip(bench, benchRequestFromJson);
    CHECK(back.options.pick == CdmPick::Average);
    CHECK(back.options.gapsS == std::vector<unsigned>{5, 10});
    // What the GUI sends: absent options are BenchOptions' defaults.
    const auto minimal = benchRequestFromJson(
        Json{{"device", "/dev/sdb"}, {"preset", "cdm"}, {"confirm", "Lab SSD 256"}});
    REQUIRE(minimal);
    CHECK(minimal->options.size == BenchOptions{}.size);
    CHECK(minimal->options.roundS == BenchOptions{}.roundS);

    CHECK(toJson(TraceRecordRequest{"/dev/sda", 5}) ==
          Json{{"device", "/dev/sda"}, {"seconds", 5}});
    TraceRecordReply recorded;
    recorded.device = "/dev/sda";
    recorded.seconds = 2.5;
    recorded.requests = 8;
    recorded.reads = 5;
    recorded.writes = 3;
    recorded.stoppedEarly = true;
    recorded.header = "# blocks\n";
    const auto traced = typedRoundTrip(recorded, traceRecordReplyFromJson);
    CHECK(traced.header == "# blocks\n");
    CHECK_FALSE(summaryJson(recorded).contains("header"));
    CHECK(summaryJson(recorded)["stopped_early"] == true);
    CHECK_FALSE(traceRecordReplyFromJson(Json{{"requests", "many"}}));

    const auto chunk = traceChunkOf(kEventTrace, toJson(TraceChunk{"R 0 8\n"}));
    REQUIRE(chunk);
    CHECK(chunk->lines == "R 0 8\n");
    CHECK_FALSE(traceChunkOf(kEventProgress, Json{{"lines", "x"}}));
}

TEST_CASE("benchmark and trace requests refuse what the helper refuses", "[verbs][perf]") {
    using namespace ssdk::perf;
    const Json bench{{"device", "/dev/sdb"}, {"preset", "cdm"}, {"confirm", "x"}};
    const auto with = [&bench](const char* key, const Json& value) {
        Json args = bench;
        args[key] = value;
        return args;
    };
    checkRefusedArgs(benchRequestFromJson, with("shell", "rm"), "'shell'");
    checkRefusedArgs(benchRequestFromJson, with("size", 4096), "'size'");
    checkRefusedArgs(benchRequestFromJson, with("loops", 10), "'loops'");
    checkRefusedArgs(benchRequestFromJson, with("pick", "median"), "'pick'");
    checkRefusedArgs(benchRequestFromJson, with("gaps_s", Json::array({1, "x"})), "'gaps_s'");
    checkRefusedArgs(benchRequestFromJson, with("burst", std::uint64_t{2} << 30), "'burst'");
    const auto unknownPreset = benchRequestFromJson(with("preset", "bogus"));
    REQUIRE_FALSE(unknownPreset);
    CHECK(unknownPreset.error().code() == ErrorCode::Unsupported);
    checkRefusedArgs(traceRecordRequestFromJson, Json{{"device", "sda"}}, "under /dev");
    checkRefusedArgs(traceRecordRequestFromJson, Json{{"device", "/dev/sda"}, {"seconds", 0}},
                     "'seconds'");
}
