#pragma once

#include <deque>
#include <functional>
#include <string>

#include <QObject>
#include <QString>

#include "app/helper_caller.h"
#include "core/base/json.h"
#include "core/cachectl/verbs.h"

class QMessageBox;
class QWidget;

namespace ssdk::app::ramcache {

// The cache verbs of the RAM Cache page (core/cachectl/verbs.h), as typed CacheClient calls
// through a HelperCaller, one at a time in the order asked; the answers come back as signals.
// A cache "at next boot" is previewed first and its fstab change confirmed in a dialog before
// anything is written.
class CacheController final : public QObject {
    Q_OBJECT
public:
    // caller: how the verbs are reached, taken over (nullptr = through the helper process);
    // parent: the page, which the confirmation dialog is shown over.
    explicit CacheController(HelperCaller* caller, QWidget* parent);

    // Told when a call is done, after its answer was handled: "" when it went through, else
    // why not.
    using Then = std::function<void(const QString& error)>;

    void probe();
    void status();
    // status(), unless a call runs or waits (the live statistics' poll).
    void pollStatus();
    // request.atNextBoot: preview, confirm, then enable (then: told about the preview only).
    void enable(cachectl::EnableRequest request, Then then = {});
    // origin: the cached partition.
    void disable(const std::string& origin, Then then = {});
    void flush(const std::string& origin);
    void setMode(const std::string& origin, cachectl::CacheMode mode);
    void setPolicy(const std::string& origin, bool powerSafe);
    // A call is running.
    bool isWaiting() const { return m_waiting; }

signals:
    void probed(const ssdk::cachectl::ProbeReply& reply);
    void probeFailed(const QString& error);
    void statusArrived(const ssdk::cachectl::StatusReply& reply);
    void cacheStarted();               // a cache is on now (not just scheduled)
    void message(const QString& text); // what a call did, or why it failed
    void enableDropped();              // enabling failed or was cancelled: the checkbox goes back
    void callDone();                   // after each call, its answer handled

private:
    // One verb waiting for its turn: the CacheClient call, and what to do with its answer
    // (the typed reply's JSON, read back typed by `done`).
    struct PendingCall {
        QString verb;
        HelperCaller::Work work;
        std::function<Expected<void>(const Json&)> done;
        Then then = {};
    };

    void send(PendingCall call);
    void pump();
    void onFinished(const QString& verb, const HelperCaller::Outcome& outcome);
    void sendEnable(const cachectl::EnableRequest& request, Then then = {});
    void onEnabled(const cachectl::EnableReply& reply);
    // After a change went through: say so and ask for the caches again.
    void changed(const QString& text);
    void confirmAtNextBoot(const cachectl::FstabPreview& fstab, cachectl::EnableRequest request);

    QWidget* m_dialogParent;
    HelperCaller* m_caller;
    std::deque<PendingCall> m_queue;
    std::function<Expected<void>(const Json&)> m_done; // of the call running now
    Then m_then;                                       // of the call running now
    bool m_waiting = false;
    QMessageBox* m_bootConfirm = nullptr;  // the fstab diff, while it is shown
    cachectl::EnableRequest m_bootRequest; // the cache.enable the diff was asked for
};

} // namespace ssdk::app::ramcache
