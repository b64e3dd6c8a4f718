# Core sources that the standalone projects (tests/fuzz/standalone, tests/sanitize/cache_engine)
# compile by hand with their own instrumentation instead of linking the main build's libraries,
# as paths below the repository's root. A .cpp that this code comes to need is added here.

# The cache engine as CacheEngine runs it: the engine, its codec, the policies the engine takes,
# BlockStore, and from core/base errors and logging.
set(SSDK_ENGINE_SOURCES
  core/base/error.cpp
  core/base/log.cpp
  core/base/platform/posix/unique_fd.cpp
  core/cachectl/block_store.cpp
  core/cachectl/engine/adaptive_policy.cpp
  core/cachectl/engine/block_codec.cpp
  core/cachectl/engine/cache_engine.cpp
  core/cachectl/engine/clockpro_policy.cpp
  core/cachectl/engine/policy.cpp
  core/cachectl/engine/reader_slots.cpp
  core/cachectl/engine/steered_clockpro_policy.cpp
  core/cachectl/platform/linux/file_ranges.cpp
  core/cachectl/platform/linux/process_barrier.cpp)

# The SMART parsers (smartctl JSON, libatasmart blobs) and the health verdict on what they read
# (with libatasmart; core/base's bytes, errors and JSON besides).
set(SSDK_SMART_PARSER_SOURCES
  core/smart/atasmart_parser.cpp
  core/smart/health.cpp
  core/smart/health_json.cpp
  core/smart/health_rules.cpp
  core/smart/platform/linux/atasmart_parser.cpp
  core/smart/report.cpp
  core/smart/smartctl_parser.cpp
  core/smart/uint128.cpp)
