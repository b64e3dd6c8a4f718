#include "app/pages/ram_cache/cache_controller.h"

#include <QMessageBox>
#include <QPushButton>

#include "app/device_text.h"
#include "core/cachectl/cache_client.h"

namespace ssdk::app::ramcache {

namespace {

QString verbName(const char* verb) {
    return QString::fromLatin1(verb);
}

// The reply's JSON read back typed (parse) and handed to done.
template <typename Parse, typename Done>
std::function<Expected<void>(const Json&)> readReply(Parse parse, Done done) {
    return [parse, done](const Json& json) -> Expected<void> {
        auto reply = parse(json);
        if (!reply) {
            return std::unexpected(reply.error());
        }
        done(*reply);
        return {};
    };
}

} // namespace

CacheController::CacheController(HelperCaller* caller, QWidget* parent)
    : QObject(parent)
    , m_dialogParent(parent)
    , m_caller(caller != nullptr ? caller : new HelperCaller(this)) {
    if (m_caller->parent() == nullptr) {
        m_caller->setParent(this);
    }
    connect(m_caller, &HelperCaller::finished, this, &CacheController::onFinished);
}

void CacheController::probe() {
    send({verbName(cachectl::kVerbProbe),
          clientWork<cachectl::CacheClient>(
              [](cachectl::CacheClient& client, const auto&) { return client.probe(); }),
          readReply(cachectl::probeReplyFromJson,
                    [this](const cachectl::ProbeReply& reply) { emit probed(reply); })});
}

void CacheController::status() {
    send({verbName(cachectl::kVerbStatus),
          clientWork<cachectl::CacheClient>(
              [](cachectl::CacheClient& client, const auto&) { return client.status(); }),
          readReply(cachectl::statusReplyFromJson,
                    [this](const cachectl::StatusReply& reply) { emit statusArrived(reply); })});
}

void CacheController::pollStatus() {
    if (!m_waiting && m_queue.empty()) {
        status();
    }
}

void CacheController::enable(cachectl::EnableRequest request, Then then) {
    if (request.atNextBoot) {
        // Ask for the fstab change first; confirmAtNextBoot() shows it.
        m_bootRequest = request;
        request.preview = true;
    }
    sendEnable(request, std::move(then));
}

void CacheController::disable(const std::string& origin, Then then) {
    const cachectl::DisableRequest request{origin};
    send({verbName(cachectl::kVerbDisable),
          clientWork<cachectl::CacheClient>([request](cachectl::CacheClient& client, const auto&) {
              return client.disable(request);
          }),
          readReply(cachectl::disableReplyFromJson,
                    [this](const cachectl::DisableReply&) {
                        changed(tr("The cache is off; the partition is as it was."));
                    }),
          std::move(then)});
}

void CacheController::flush(const std::string& origin) {
    const cachectl::FlushRequest request{origin};
    send({verbName(cachectl::kVerbFlush),
          clientWork<cachectl::CacheClient>([request](cachectl::CacheClient& client, const auto&) {
              return client.flush(request);
          }),
          readReply(cachectl::flushReplyFromJson, [this](const cachectl::FlushReply&) {
              changed(tr("Flushed: every dirty block is on the drive."));
          })});
}

void CacheController::setMode(const std::string& origin, cachectl::CacheMode mode) {
    const cachectl::ModeRequest request{origin, mode};
    send({verbName(cachectl::kVerbMode),
          clientWork<cachectl::CacheClient>([request](cachectl::CacheClient& client, const auto&) {
              return client.setMode(request);
          }),
          readReply(cachectl::recordReplyFromJson,
                    [this](const cachectl::RecordReply&) { changed(tr("Mode changed.")); })});
}

void CacheController::setPolicy(const std::string& origin, bool powerSafe) {
    const cachectl::PolicyRequest request{origin, powerSafe};
    send({verbName(cachectl::kVerbPolicy),
          clientWork<cachectl::CacheClient>([request](cachectl::CacheClient& client, const auto&) {
              return client.setPolicy(request);
          }),
          readReply(cachectl::recordReplyFromJson,
                    [this](const cachectl::RecordReply&) { changed(tr("Power policy saved.")); })});
}

void CacheController::changed(const QString& text) {
    emit message(text);
    status();
}

void CacheController::send(PendingCall call) {
    m_queue.push_back(std::move(call));
    pump();
}

void CacheController::pump() {
    if (m_waiting || m_queue.empty() || m_caller->isBusy()) {
        return;
    }
    PendingCall call = std::move(m_queue.front());
    m_queue.pop_front();
    m_done = std::move(call.done);
    m_then = std::move(call.then);
    m_waiting = m_caller->run(call.verb, std::move(call.work));
}

void CacheController::onFinished(const QString& verb, const HelperCaller::Outcome& outcome) {
    m_waiting = false;
    const auto done = std::move(m_done);
    m_done = nullptr;
    const Then then = std::move(m_then);
    m_then = nullptr;
    QString error = outcome.error;
    bool ok = outcome.ok;
    if (ok && done) {
        if (auto handled = done(outcome.result); !handled) {
            ok = false;
            error = toQString(handled.error().describe());
        }
    }
    if (!ok) {
        if (verb != verbName(cachectl::kVerbStatus)) {
            emit message(tr("%1 failed: %2").arg(verb, error));
        }
        if (verb == verbName(cachectl::kVerbEnable)) {
            emit enableDropped();
        }
        if (verb == verbName(cachectl::kVerbProbe)) {
            emit probeFailed(error);
        }
    }
    if (then) {
        then(ok ? QString() : error);
    }
    emit callDone();
    pump();
}

void CacheController::sendEnable(const cachectl::EnableRequest& request, Then then) {
    send({verbName(cachectl::kVerbEnable),
          clientWork<cachectl::CacheClient>([request](cachectl::CacheClient& client,
                                                      const rpc::Transport::EventHandler& onEvent) {
              return client.enable(request, onEvent);
          }),
          readReply(cachectl::enableReplyFromJson,
                    [this](const cachectl::EnableReply& reply) { onEnabled(reply); }),
          std::move(then)});
}

void CacheController::onEnabled(const cachectl::EnableReply& reply) {
    if (reply.fstab) {
        confirmAtNextBoot(*reply.fstab, m_bootRequest);
        return;
    }
    if (!reply.record) {
        return;
    }
    const auto& record = *reply.record;
    if (record.phase == cachectl::CachePhase::Scheduled) {
        emit message(
            tr("At next boot %1 stacks the cache, and /etc/fstab mounts %2. Nothing changed "
               "now; untick to put fstab back.")
                .arg(toQString(record.boot ? record.boot->unit : std::string()),
                     toQString(record.active.cachedDevice)));
    } else {
        emit message(tr("The cache is on: mount %1 (done for you when it was mounted).")
                         .arg(toQString(record.active.cachedDevice)));
        emit cacheStarted();
    }
    status();
}

void CacheController::confirmAtNextBoot(const cachectl::FstabPreview& fstab,
                                        cachectl::EnableRequest request) {
    if (m_bootConfirm != nullptr) {
        m_bootConfirm->close();
    }
    m_bootConfirm = new QMessageBox(
        QMessageBox::Question, tr("Cache at next boot"),
        tr("<p>SSD Keeper will change line %1 of %2 so that the filesystem is mounted from the "
           "cache, which a boot unit stacks before it. Nothing else changes now; turning the "
           "cache off puts the line back exactly.</p><pre>%3</pre>")
            .arg(fstab.line)
            .arg(toQString(fstab.path).toHtmlEscaped(), toQString(fstab.diff).toHtmlEscaped()),
        QMessageBox::Ok | QMessageBox::Cancel, m_dialogParent);
    m_bootConfirm->setObjectName("ramcache.bootConfirm");
    m_bootConfirm->button(QMessageBox::Ok)->setText(tr("Change fstab"));
    m_bootConfirm->setAttribute(Qt::WA_DeleteOnClose);
    request.preview = false;
    request.fstabLine = fstab.after;
    connect(m_bootConfirm, &QMessageBox::finished, this, [this, request](int result) {
        m_bootConfirm = nullptr;
        if (result == QMessageBox::Ok) {
            sendEnable(request);
        } else {
            emit enableDropped();
            emit message(tr("Nothing changed."));
        }
    });
    m_bootConfirm->open();
}

} // namespace ssdk::app::ramcache
