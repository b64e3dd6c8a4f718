#include "daemon/served_store.h"

namespace ssdk::daemon {

Expected<ServedStore> makeServedStore(const DaemonConfig& /*config*/,
                                      const ExportConfig& /*exported*/,
                                      std::unique_ptr<cachectl::BlockStore> backing) {
    return ServedStore{.store = std::shared_ptr<cachectl::BlockStore>(std::move(backing)),
                       .cacheMode = "pass-through"};
}

} // namespace ssdk::daemon
