#include "app/helper_caller.h"

#include <QProgressBar>
#include <QThreadPool>
#include <QtConcurrent/QtConcurrentRun>

#include "app/device_text.h"
#include "core/rpc/client.h"
#include "core/rpc/progress.h"

namespace ssdk::app {

HelperCaller::HelperCaller(QObject* parent)
    : HelperCaller(nullptr, parent) {}

HelperCaller::HelperCaller(std::shared_ptr<rpc::Transport> transport, QObject* parent)
    : QObject(parent)
    , m_transport(std::move(transport))
    , m_eventTarget(std::make_shared<EventTarget>()) {
    m_eventTarget->caller = this;
    connect(&m_watcher, &QFutureWatcher<Outcome>::finished, this, [this] {
        m_busy = false;
        emit finished(m_verb, m_watcher.result());
    });
}

// A running call keeps the transport alive through its own shared_ptr and finishes on its pool
// thread; its result is dropped with the watcher.
HelperCaller::~HelperCaller() {
    const std::lock_guard lock(m_eventTarget->mutex);
    m_eventTarget->caller = nullptr;
}

std::shared_ptr<rpc::Transport> HelperCaller::transport() {
    if (!m_transport) {
        m_transport = std::make_shared<rpc::HelperClient>();
    }
    return m_transport;
}

void showFraction(QProgressBar* bar, double fraction) {
    if (fraction < 0) {
        bar->setRange(0, 0);
        return;
    }
    bar->setRange(0, 1000);
    bar->setValue(static_cast<int>(fraction * 1000.0));
}

void hideWhileIdle(QProgressBar* bar) {
    QSizePolicy policy = bar->sizePolicy();
    policy.setRetainSizeWhenHidden(true);
    bar->setSizePolicy(policy);
    bar->setVisible(false);
}

void HelperCaller::cancel() {
    if (m_busy && m_transport) {
        m_transport->cancel(this);
    }
}

bool HelperCaller::call(const QString& verb, Json args, EventSink events) {
    return run(
        verb,
        [verb = verb.toStdString(), args = std::move(args)](
            rpc::Transport& transport, const rpc::Transport::EventHandler& onEvent) {
            return transport.call(verb, args, onEvent);
        },
        std::move(events));
}

namespace {

// Helper calls spend their time waiting: for the one session (a call at a time), for pkexec,
// for a long verb. They get their own pool, so that waiting calls never hold the global pool's
// threads (as many as cores), which discovery and the pages' own reads run on. Never destroyed:
// a call may still wait when the application ends.
QThreadPool& helperCallPool() {
    static QThreadPool* const pool = [] {
        auto* created = new QThreadPool;
        created->setMaxThreadCount(16);
        return created;
    }();
    return *pool;
}

} // namespace

bool HelperCaller::run(const QString& verb, Work work, EventSink events) {
    if (m_busy) {
        return false;
    }
    m_busy = true;
    m_verb = verb;
    m_watcher.setFuture(QtConcurrent::run(
        &helperCallPool(),
        [transport = transport(), target = m_eventTarget, qverb = verb, work = std::move(work),
         events = std::move(events), owner = static_cast<rpc::Transport::CallOwner>(this)] {
            Outcome outcome;
            // The transport may be the one helper session every page shares: this caller's
            // calls are its own, so its cancel() stops only them.
            rpc::OwnerTransport owned(*transport, owner);
            auto result = work(owned, [&](const rpc::Event& event) {
                if (event.name != rpc::kEventProgress) {
                    if (events) {
                        events(event);
                    }
                    return;
                }
                const rpc::Progress progress = rpc::progressFromJson(event.data);
                const double fraction = progress.fraction;
                const QString text = toQString(progress.text);
                const std::lock_guard lock(target->mutex);
                if (target->caller != nullptr) {
                    QMetaObject::invokeMethod(
                        target->caller,
                        [caller = target->caller, qverb, fraction, text] {
                            emit caller->progress(qverb, fraction, text);
                        },
                        Qt::QueuedConnection);
                }
            });
            if (result) {
                outcome.ok = true;
                outcome.result = std::move(*result);
            } else {
                outcome.error = toQString(result.error().describe());
            }
            return outcome;
        }));
    return true;
}

} // namespace ssdk::app
