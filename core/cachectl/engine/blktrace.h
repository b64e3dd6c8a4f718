#pragma once
// blktrace's binary event stream as a block reference trace: what `blktrace -d DEV -o -` writes,
// its per-CPU files (NAME.blktrace.N) one after another, or `blkparse -i NAME -d FILE -O`. The
// references are replayed in the order of the records' timestamps, as blkparse orders them
// across CPUs. Each record is struct blk_io_trace
// (include/uapi/linux/blktrace_api.h: 48 bytes, then pdu_len bytes of payload), in the byte
// order of the machine that recorded it; both orders are read. Runs of zero bytes between or
// after records are skipped: they are the padding of the kernel's relay sub-buffers, which a
// stream captured with `blktrace -o -` can hold (seen in the lab: 512 KiB of it after the
// records, from a read that crossed the sub-buffer switch BLKTRACESTOP makes).
//
// A reference is each read or write as it was queued (the Q action: what a cache in front of
// the device sees, before the block layer merges or splits requests, as with `ssdkeeperctl
// trace record`), expanded to the 4 KiB blocks it touches. Discards, flushes without data, SCSI
// pass-through commands, the other actions (issue, complete, merges...) and notify records
// (process names, timestamps, messages) are not references.

#include <cstdint>
#include <string_view>
#include <vector>

#include "core/base/error.h"

namespace ssdk::cachectl::engine {

// Parse error naming the record (1-based) and its byte offset for a bad magic, an unsupported
// version, a record cut short, or events of more than one device (block numbers of two devices
// would mix).
Expected<std::vector<std::uint64_t>> parseBlktrace(std::string_view bytes);

// True when bytes begin with a blktrace record's magic (either byte order).
bool looksLikeBlktrace(std::string_view bytes);

} // namespace ssdk::cachectl::engine
