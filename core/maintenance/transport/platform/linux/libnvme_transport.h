#pragma once
// What is left of the old NvmeTransport for its one remaining user,
// core/maintenance/trim/stack.cpp (liveNvmeIdentifyReader), owned elsewhere: it forwards to
// openNvmeAdmin and the identify functions of nvme_commands.h. Delete this file once that
// reader calls those directly; nothing else may include it.

#include <memory>
#include <string>
#include <utility>

#include "core/maintenance/transport/nvme_admin.h"
#include "core/maintenance/transport/nvme_commands.h"

namespace ssdk::maintenance::transport {

class LibnvmeTransport {
public:
    static Expected<LibnvmeTransport> open(const std::string& path) {
        auto admin = openNvmeAdmin(path);
        if (!admin) {
            return std::unexpected(admin.error());
        }
        return LibnvmeTransport(std::move(*admin));
    }

    Expected<NvmeIdentifyData> identifyController() {
        return transport::identifyController(*m_admin);
    }
    Expected<NvmeIdentifyData> identifyNamespace() {
        return transport::identifyNamespace(*m_admin);
    }

private:
    explicit LibnvmeTransport(std::unique_ptr<NvmeAdmin> admin)
        : m_admin(std::move(admin)) {}
    std::unique_ptr<NvmeAdmin> m_admin;
};

} // namespace ssdk::maintenance::transport
