// FwupdService through libfwupd (GLib, D-Bus). All GLib use of SSD Keeper is in this file.
//
// Each call runs on the calling thread with a private GMainContext pushed as that thread's
// default: libfwupd's synchronous calls iterate the client's context, so the daemon's
// percentage/status changes and the cancel check are dispatched during the call, on the
// caller's thread, and nothing depends on a GLib main loop elsewhere in the process.
#include <filesystem>
#include <fwupd.h>

#include "core/base/log.h"
#include "core/firmware/fwupd.h"

namespace ssdk::firmware {

namespace {

constexpr const char* kServiceFile =
    "/usr/share/dbus-1/system-services/org.freedesktop.fwupd.service";

std::string text(const gchar* value) {
    return value == nullptr ? std::string() : std::string(value);
}

Error fromGError(const GError* error, const std::string& what) {
    const std::string message = error == nullptr ? "unknown error" : text(error->message);
    if (error == nullptr) {
        return Error(ErrorCode::Internal, what + ": " + message);
    }
    if (g_error_matches(error, G_IO_ERROR, G_IO_ERROR_CANCELLED)) {
        return Error(ErrorCode::Cancelled, what + ": cancelled");
    }
    if (error->domain == FWUPD_ERROR) {
        switch (static_cast<FwupdError>(error->code)) {
        case FWUPD_ERROR_NOT_FOUND:
        case FWUPD_ERROR_NOTHING_TO_DO:
            return Error(ErrorCode::NotFound, what + ": " + message);
        case FWUPD_ERROR_AUTH_FAILED:
        case FWUPD_ERROR_AUTH_EXPIRED:
        case FWUPD_ERROR_PERMISSION_DENIED:
            return Error(ErrorCode::PermissionDenied, what + ": " + message);
        case FWUPD_ERROR_NOT_SUPPORTED:
            return Error(ErrorCode::Unsupported, what + ": " + message);
        default:
            return Error(ErrorCode::ProcessFailed, what + ": " + message);
        }
    }
    if (g_dbus_error_is_remote_error(error)) {
        g_autofree gchar* name = g_dbus_error_get_remote_error(error);
        const std::string remote = text(name);
        if (remote == "org.freedesktop.DBus.Error.ServiceUnknown" ||
            remote == "org.freedesktop.DBus.Error.NameHasNoOwner") {
            if (!std::filesystem::exists(kServiceFile)) {
                return Error(ErrorCode::ToolMissing,
                             "fwupd is not installed (no D-Bus service org.freedesktop.fwupd)");
            }
            return Error(ErrorCode::ProcessFailed,
                         "the fwupd daemon is not running on the system bus and the bus did not "
                         "start it (" +
                             remote + ")");
        }
    }
    return Error(ErrorCode::ProcessFailed, what + ": " + message);
}

// The GMainContext, the connected client and the cancellable of one call.
class Session {
public:
    Session()
        : m_context(g_main_context_new())
        , m_cancellable(g_cancellable_new()) {
        g_main_context_push_thread_default(m_context);
    }
    ~Session() {
        if (m_client != nullptr) {
            g_signal_handlers_disconnect_by_data(m_client, this);
            g_object_unref(m_client);
        }
        if (m_timer != nullptr) {
            g_source_destroy(m_timer);
            g_source_unref(m_timer);
        }
        g_object_unref(m_cancellable);
        g_main_context_pop_thread_default(m_context);
        g_main_context_unref(m_context);
    }
    Session(const Session&) = delete;
    Session& operator=(const Session&) = delete;

    Expected<void> connect() {
        g_autoptr(GError) error = nullptr;
        // The bus first, for a clear reason when there is none. The shared system connection
        // would end the process when the bus goes away (exit-on-close); SSD Keeper reports that
        // as an error instead.
        g_autoptr(GDBusConnection) bus = g_bus_get_sync(G_BUS_TYPE_SYSTEM, nullptr, &error);
        if (bus == nullptr) {
            // GLib's words ("Could not connect: No such file or directory") go to the log.
            log::get("firmware")->info("no system D-Bus: {}", text(error->message));
            return fail(ErrorCode::Unsupported,
                        "the system D-Bus is not reachable, so neither is fwupd (no system "
                        "message bus is running on this machine)");
        }
        g_dbus_connection_set_exit_on_close(bus, FALSE);
        m_client = fwupd_client_new();
        fwupd_client_set_main_context(m_client, m_context);
        fwupd_client_set_user_agent_for_package(m_client, "ssdkeeper", "1");
        if (!fwupd_client_connect(m_client, m_cancellable, &error)) {
            return std::unexpected(fromGError(error, "connecting to the fwupd daemon"));
        }
        return {};
    }

    FwupdClient* client() const { return m_client; }
    GCancellable* cancellable() const { return m_cancellable; }

    // Reports the daemon's status/percentage to progress and polls cancel every 100 ms.
    void watch(const FwupdProgressFn& progress, const std::atomic<bool>* cancel) {
        m_progress = progress;
        m_cancel = cancel;
        g_signal_connect_swapped(m_client, "notify::percentage", G_CALLBACK(&Session::onNotify),
                                 this);
        g_signal_connect_swapped(m_client, "notify::status", G_CALLBACK(&Session::onNotify), this);
        if (cancel != nullptr && cancel->load()) {
            g_cancellable_cancel(m_cancellable);
        } else if (cancel != nullptr) {
            m_timer = g_timeout_source_new(100);
            g_source_set_callback(m_timer, &Session::onTimer, this, nullptr);
            g_source_attach(m_timer, m_context);
        }
    }

    bool cancelRefused() const { return m_cancelRefused; }

private:
    static void onNotify(Session* self) {
        const auto status = fwupd_client_get_status(self->m_client);
        const FwupdProgress now{fwupd_client_get_percentage(self->m_client),
                                text(fwupd_status_to_string(status))};
        if (self->m_progress &&
            (now.percent != self->m_last.percent || now.status != self->m_last.status)) {
            self->m_last = now;
            self->m_progress(now);
        }
    }

    // fwupd cannot stop a device that is being written: only the download (client side) and
    // the time before the daemon starts are cancelled.
    static gboolean onTimer(gpointer data) {
        auto* self = static_cast<Session*>(data);
        if (self->m_cancel == nullptr || !self->m_cancel->load()) {
            return G_SOURCE_CONTINUE;
        }
        const auto status = fwupd_client_get_status(self->m_client);
        if (status == FWUPD_STATUS_IDLE || status == FWUPD_STATUS_DOWNLOADING ||
            status == FWUPD_STATUS_UNKNOWN) {
            g_cancellable_cancel(self->m_cancellable);
            return G_SOURCE_REMOVE;
        }
        if (!self->m_cancelRefused) {
            log::get("firmware")
                ->warn("fwupd is {}; it cannot be cancelled now",
                       text(fwupd_status_to_string(status)));
            self->m_cancelRefused = true;
        }
        return G_SOURCE_CONTINUE;
    }

    GMainContext* m_context = nullptr;
    GCancellable* m_cancellable = nullptr;
    FwupdClient* m_client = nullptr;
    GSource* m_timer = nullptr;
    FwupdProgressFn m_progress;
    const std::atomic<bool>* m_cancel = nullptr;
    FwupdProgress m_last{~0U, ""};
    bool m_cancelRefused = false;
};

FwupdDevice convertDevice(::FwupdDevice* device) {
    FwupdDevice out;
    out.id = text(fwupd_device_get_id(device));
    out.name = text(fwupd_device_get_name(device));
    out.vendor = text(fwupd_device_get_vendor(device));
    out.serial = text(fwupd_device_get_serial(device));
    out.plugin = text(fwupd_device_get_plugin(device));
    out.version = text(fwupd_device_get_version(device));
    out.updateError = text(fwupd_device_get_update_error(device));
    if (GPtrArray* guids = fwupd_device_get_guids(device); guids != nullptr) {
        for (guint i = 0; i < guids->len; ++i) {
            out.guids.push_back(text(static_cast<const gchar*>(g_ptr_array_index(guids, i))));
        }
    }
    const guint64 flags = fwupd_device_get_flags(device);
    for (unsigned bit = 0; bit < 64; ++bit) {
        const guint64 flag = guint64{1} << bit;
        if ((flags & flag) != 0) {
            out.flags.push_back(
                text(fwupd_device_flag_to_string(static_cast<FwupdDeviceFlags>(flag))));
        }
    }
    return out;
}

FwupdRelease convertRelease(::FwupdRelease* release) {
    FwupdRelease out;
    out.version = text(fwupd_release_get_version(release));
    out.summary = text(fwupd_release_get_summary(release));
    out.remoteId = text(fwupd_release_get_remote_id(release));
    if (GPtrArray* locations = fwupd_release_get_locations(release);
        locations != nullptr && locations->len > 0) {
        out.uri = text(static_cast<const gchar*>(g_ptr_array_index(locations, 0)));
    }
    out.sizeBytes = fwupd_release_get_size(release);
    out.isUpgrade = fwupd_release_has_flag(release, FWUPD_RELEASE_FLAG_IS_UPGRADE) != FALSE;
    out.isDowngrade = fwupd_release_has_flag(release, FWUPD_RELEASE_FLAG_IS_DOWNGRADE) != FALSE;
    return out;
}

class LibfwupdService final : public FwupdService {
public:
    Expected<std::string> daemonVersion() override {
        Session session;
        if (auto connected = session.connect(); !connected) {
            return std::unexpected(connected.error());
        }
        return text(fwupd_client_get_daemon_version(session.client()));
    }

    Expected<std::vector<FwupdDevice>> devices() override {
        Session session;
        if (auto connected = session.connect(); !connected) {
            return std::unexpected(connected.error());
        }
        g_autoptr(GError) error = nullptr;
        g_autoptr(GPtrArray) devices =
            fwupd_client_get_devices(session.client(), session.cancellable(), &error);
        std::vector<FwupdDevice> out;
        if (devices == nullptr) {
            // fwupd reports "no devices" as an error: an empty list here.
            if (g_error_matches(error, FWUPD_ERROR, FWUPD_ERROR_NOTHING_TO_DO)) {
                return out;
            }
            return std::unexpected(fromGError(error, "listing fwupd devices"));
        }
        for (guint i = 0; i < devices->len; ++i) {
            out.push_back(
                convertDevice(static_cast<::FwupdDevice*>(g_ptr_array_index(devices, i))));
        }
        return out;
    }

    Expected<std::vector<FwupdRelease>> releases(const std::string& deviceId) override {
        Session session;
        if (auto connected = session.connect(); !connected) {
            return std::unexpected(connected.error());
        }
        g_autoptr(GError) error = nullptr;
        g_autoptr(GPtrArray) releases = fwupd_client_get_releases(
            session.client(), deviceId.c_str(), session.cancellable(), &error);
        std::vector<FwupdRelease> out;
        if (releases == nullptr) {
            if (g_error_matches(error, FWUPD_ERROR, FWUPD_ERROR_NOTHING_TO_DO)) {
                return out;
            }
            return std::unexpected(fromGError(error, "listing fwupd releases"));
        }
        for (guint i = 0; i < releases->len; ++i) {
            out.push_back(
                convertRelease(static_cast<::FwupdRelease*>(g_ptr_array_index(releases, i))));
        }
        return out;
    }

    Expected<std::vector<FwupdRemote>> remotes() override {
        Session session;
        if (auto connected = session.connect(); !connected) {
            return std::unexpected(connected.error());
        }
        g_autoptr(GError) error = nullptr;
        g_autoptr(GPtrArray) remotes =
            fwupd_client_get_remotes(session.client(), session.cancellable(), &error);
        if (remotes == nullptr) {
            return std::unexpected(fromGError(error, "listing fwupd remotes"));
        }
        std::vector<FwupdRemote> out;
        for (guint i = 0; i < remotes->len; ++i) {
            auto* remote = static_cast<::FwupdRemote*>(g_ptr_array_index(remotes, i));
            FwupdRemote r;
            r.id = text(fwupd_remote_get_id(remote));
            r.title = text(fwupd_remote_get_title(remote));
            r.kind = text(fwupd_remote_kind_to_string(fwupd_remote_get_kind(remote)));
            r.enabled = fwupd_remote_has_flag(remote, FWUPD_REMOTE_FLAG_ENABLED) != FALSE;
            // fwupd reports the age of a remote that was never refreshed as G_MAXUINT64.
            r.hasMetadata = fwupd_remote_get_kind(remote) != FWUPD_REMOTE_KIND_DOWNLOAD ||
                            fwupd_remote_get_age(remote) != G_MAXUINT64;
            out.push_back(std::move(r));
        }
        return out;
    }

    Expected<void> installRelease(const std::string& deviceId, const std::string& version,
                                  const FwupdProgressFn& progress,
                                  const std::atomic<bool>* cancel) override {
        Session session;
        if (auto connected = session.connect(); !connected) {
            return std::unexpected(connected.error());
        }
        g_autoptr(GError) error = nullptr;
        g_autoptr(FwupdDevice) device = fwupd_client_get_device_by_id(
            session.client(), deviceId.c_str(), session.cancellable(), &error);
        if (device == nullptr) {
            return std::unexpected(fromGError(error, "finding fwupd device " + deviceId));
        }
        g_autoptr(GPtrArray) releases = fwupd_client_get_releases(
            session.client(), deviceId.c_str(), session.cancellable(), &error);
        if (releases == nullptr) {
            return std::unexpected(fromGError(error, "listing fwupd releases"));
        }
        ::FwupdRelease* chosen = nullptr;
        for (guint i = 0; i < releases->len && chosen == nullptr; ++i) {
            auto* release = static_cast<::FwupdRelease*>(g_ptr_array_index(releases, i));
            if (text(fwupd_release_get_version(release)) == version) {
                chosen = release;
            }
        }
        if (chosen == nullptr) {
            return fail(ErrorCode::NotFound, "fwupd lists no release " + version);
        }
        session.watch(progress, cancel);
        if (!fwupd_client_install_release(session.client(), device, chosen, FWUPD_INSTALL_FLAG_NONE,
                                          FWUPD_CLIENT_DOWNLOAD_FLAG_NONE, session.cancellable(),
                                          &error)) {
            return std::unexpected(fromGError(error, "fwupd installing " + version));
        }
        return {};
    }

    Expected<void> installCabinet(const std::string& deviceId, const std::string& cabPath,
                                  const FwupdProgressFn& progress,
                                  const std::atomic<bool>* cancel) override {
        Session session;
        if (auto connected = session.connect(); !connected) {
            return std::unexpected(connected.error());
        }
        session.watch(progress, cancel);
        g_autoptr(GError) error = nullptr;
        if (!fwupd_client_install(session.client(), deviceId.c_str(), cabPath.c_str(),
                                  FWUPD_INSTALL_FLAG_NONE, session.cancellable(), &error)) {
            return std::unexpected(fromGError(error, "fwupd installing " + cabPath));
        }
        return {};
    }
};

} // namespace

std::unique_ptr<FwupdService> systemFwupdService() {
    return std::make_unique<LibfwupdService>();
}

} // namespace ssdk::firmware
