#include "app/models/drive_activity.h"

#include <QTimer>

#include "app/models/drive_list_model.h"
#include "core/perf/sampler.h"

namespace ssdk::app {

struct DriveActivitySampler::State {
    std::unique_ptr<perf::StatSource> source;
    std::unique_ptr<perf::Sampler> sampler;
};

DriveActivitySampler::DriveActivitySampler(std::unique_ptr<perf::StatSource> source)
    : m_state(std::make_unique<State>(std::move(source), nullptr)) {}

DriveActivitySampler::~DriveActivitySampler() = default;

void DriveActivitySampler::watch(const QStringList& devices, int intervalMs) {
    if (m_timer == nullptr) {
        m_timer = new QTimer(this);
        connect(m_timer, &QTimer::timeout, this, &DriveActivitySampler::tick);
    }
    m_timer->stop();
    m_state->sampler.reset();
    if (devices.isEmpty()) {
        return;
    }
    std::vector<std::string> names;
    names.reserve(static_cast<std::size_t>(devices.size()));
    for (const QString& device : devices) {
        names.push_back(device.toStdString());
    }
    m_state->sampler = std::make_unique<perf::Sampler>(*m_state->source, std::move(names));
    tick(); // the baseline: rates start with the next tick
    m_timer->start(intervalMs);
}

void DriveActivitySampler::tick() {
    if (!m_state->sampler) {
        return;
    }
    QStringList devices;
    QList<double> rates;
    for (const auto& sample : m_state->sampler->sample(perf::Sampler::Clock::now())) {
        if (sample.hasRates) {
            devices.append(QString::fromStdString(sample.device));
            rates.append(sample.rates.readBytesPerS + sample.rates.writeBytesPerS);
        }
    }
    if (!devices.isEmpty()) {
        emit sampled(devices, rates);
    }
}

DriveActivity::DriveActivity(DriveListModel* model, std::unique_ptr<perf::StatSource> source,
                             QObject* parent, int intervalMs)
    : QObject(parent)
    , m_model(model)
    , m_intervalMs(intervalMs) {
    m_sampler = new DriveActivitySampler(std::move(source));
    m_sampler->moveToThread(&m_thread);
    connect(&m_thread, &QThread::finished, m_sampler, &QObject::deleteLater);
    connect(m_sampler, &DriveActivitySampler::sampled, this, &DriveActivity::onSampled);
    connect(model, &QAbstractItemModel::modelReset, this, &DriveActivity::devicesChanged);
    connect(model, &QAbstractItemModel::rowsInserted, this, &DriveActivity::devicesChanged);
    connect(model, &QAbstractItemModel::rowsRemoved, this, &DriveActivity::devicesChanged);
    m_thread.setObjectName(QStringLiteral("drive activity"));
    m_thread.start();
    devicesChanged();
}

DriveActivity::~DriveActivity() {
    m_thread.quit();
    m_thread.wait();
}

void DriveActivity::devicesChanged() {
    QStringList names;
    for (const auto& device : m_model->devices()) {
        names.append(QString::fromStdString(device.name));
    }
    if (names == m_watched) {
        return;
    }
    m_watched = names;
    QMetaObject::invokeMethod(m_sampler, "watch", Qt::QueuedConnection, Q_ARG(QStringList, names),
                              Q_ARG(int, m_intervalMs));
}

void DriveActivity::onSampled(const QStringList& devices, const QList<double>& bytesPerS) {
    for (qsizetype i = 0; i < devices.size() && i < bytesPerS.size(); ++i) {
        m_model->addActivity(devices[i], bytesPerS[i]);
    }
}

} // namespace ssdk::app
