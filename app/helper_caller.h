#pragma once

#include <functional>
#include <memory>
#include <mutex>

#include <QFutureWatcher>
#include <QObject>
#include <QString>

#include "core/base/error.h"
#include "core/base/json.h"
#include "core/rpc/transport.h"

class QProgressBar;

namespace ssdk::app {

// Runs privileged helper verbs off the GUI thread, one at a time, over a Transport: by default
// the helper process (rpc::HelperClient; it and its pkexec authorization are started on the
// first call and kept until this object goes), in tests a HelperService in this process
// (helper/in_process_transport.h).
class HelperCaller : public QObject {
    Q_OBJECT
public:
    struct Outcome {
        bool ok = false;
        QString error; // Error::describe() when !ok
        Json result;
    };
    // Receives the running call's events other than "progress", in order, on the pool
    // thread (so a verb that streams its output is not held here a second time).
    using EventSink = std::function<void(const rpc::Event&)>;

    // A running call's work: the transport and the handler of its events.
    using Work = std::function<Expected<Json>(rpc::Transport& transport,
                                              const rpc::Transport::EventHandler& onEvent)>;

    explicit HelperCaller(QObject* parent = nullptr);
    // Over that transport instead of the helper process.
    explicit HelperCaller(std::shared_ptr<rpc::Transport> transport, QObject* parent = nullptr);
    ~HelperCaller() override;

    bool isBusy() const { return m_busy; }
    // Starts verb(args) on a pool thread; finished() arrives on this object's thread, after
    // the last call of `events`. Returns false (and does nothing) while another call runs.
    bool call(const QString& verb, Json args, EventSink events = {});
    // The same for typed work (a CacheClient call, say), named verb in finished() and
    // progress(); the Json it returns is the outcome's result.
    bool run(const QString& verb, Work work, EventSink events = {});
    // Asks the helper to stop the running call (rpc::Transport::cancel); finished() still
    // arrives, with the verb's Cancelled error (or its result when it could not stop).
    void cancel();

signals:
    void finished(const QString& verb, const ssdk::app::HelperCaller::Outcome& outcome);
    // A "progress" event of the running call: fraction 0–1 (-1 when the verb gives none).
    void progress(const QString& verb, double fraction, const QString& text);

private:
    std::shared_ptr<rpc::Transport> transport();

    // Lets the pool thread deliver events to this object only while it exists.
    struct EventTarget {
        std::mutex mutex;
        HelperCaller* caller = nullptr;
    };

    std::shared_ptr<rpc::Transport> m_transport; // made on the first call when not given
    std::shared_ptr<EventTarget> m_eventTarget;
    QFutureWatcher<Outcome> m_watcher;
    QString m_verb;
    bool m_busy = false;
};

// Shows a helper "progress" fraction (0–1) on a bar; a negative fraction (the verb gives
// none) makes the bar a busy indicator.
void showFraction(QProgressBar* bar, double fraction);
// Hides an idle progress bar but keeps its place, so the row does not jump when work starts
// and it is shown (an idle bar reads as an empty text field or a stuck 0 %).
void hideWhileIdle(QProgressBar* bar);

// A call of a typed client (CacheClient, SpareAreaClient, MaintenanceClient, …) as a
// HelperCaller's work: call(client, onEvent) returns the typed reply, which travels on as its
// JSON (its area's toJson) and is read back typed when the call finished (replyOf).
template <typename Client, typename Call> HelperCaller::Work clientWork(Call call) {
    return [call](rpc::Transport& transport,
                  const rpc::Transport::EventHandler& onEvent) -> Expected<Json> {
        Client client(transport);
        auto reply = call(client, onEvent);
        if (!reply) {
            return std::unexpected(reply.error());
        }
        return toJson(*reply);
    };
}

} // namespace ssdk::app
