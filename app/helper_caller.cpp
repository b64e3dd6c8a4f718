#include "app/helper_caller.h"

#include <QProgressBar>
#include <QtConcurrent/QtConcurrentRun>

#include "app/device_text.h"
#include "core/rpc/client.h"

namespace ssdk::app {

HelperCaller::HelperCaller(QObject* parent)
    : QObject(parent)
    , m_eventTarget(std::make_shared<EventTarget>()) {
    m_eventTarget->caller = this;
    connect(&m_watcher, &QFutureWatcher<Outcome>::finished, this, [this] {
        m_busy = false;
        emit finished(m_verb, m_watcher.result());
    });
}

// A running call keeps the client alive through its own shared_ptr and finishes on its pool
// thread; its result is dropped with the watcher.
HelperCaller::~HelperCaller() {
    const std::lock_guard lock(m_eventTarget->mutex);
    m_eventTarget->caller = nullptr;
}

std::shared_ptr<rpc::HelperClient> HelperCaller::client() {
    if (!m_client) {
        m_client = std::make_shared<rpc::HelperClient>();
    }
    return m_client;
}

void showFraction(QProgressBar* bar, double fraction) {
    if (fraction < 0) {
        bar->setRange(0, 0);
        return;
    }
    bar->setRange(0, 1000);
    bar->setValue(static_cast<int>(fraction * 1000.0));
}

void HelperCaller::cancel() {
    if (m_busy && m_client) {
        m_client->cancel();
    }
}

bool HelperCaller::call(const QString& verb, Json args, EventSink events) {
    if (m_busy) {
        return false;
    }
    m_busy = true;
    m_verb = verb;
    m_watcher.setFuture(QtConcurrent::run([client = client(), target = m_eventTarget, qverb = verb,
                                           verb = verb.toStdString(), args = std::move(args),
                                           events = std::move(events)] {
        Outcome outcome;
        auto result = client->call(verb, args, [&](const rpc::Event& event) {
            if (event.name != "progress") {
                if (events) {
                    events(event);
                }
                return;
            }
            const double fraction = event.data.value("fraction", -1.0);
            const QString text = toQString(event.data.value("text", std::string()));
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
