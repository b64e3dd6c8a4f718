#include "app/pages/ram_cache/settings_form.h"

#include <algorithm>

#include <QButtonGroup>
#include <QCheckBox>
#include <QComboBox>
#include <QFormLayout>
#include <QHBoxLayout>
#include <QLabel>
#include <QRadioButton>
#include <QStandardItemModel>
#include <QStringList>
#include <QVBoxLayout>

#include "app/device_text.h"
#include "app/pages/ram_cache/partition_picker.h"
#include "app/pages/ram_cache/size_picker.h"
#include "app/theme.h"

namespace ssdk::app::ramcache {

namespace {

// Whether the partition (or the drive without partitions) at path is mounted.
bool isMounted(const device::Device& device, const QString& path) {
    for (const auto& partition : device.partitions) {
        if (toQString(partition.path) == path && !partition.mounts.empty()) {
            return true;
        }
    }
    return device.partitions.empty() && !device.mounts.empty();
}

} // namespace

SettingsForm::SettingsForm(QWidget* parent)
    : QGroupBox(tr("Cache"), parent) {
    auto* form = new QFormLayout(this);
    m_partition = new PartitionPicker;
    form->addRow(tr("Partition"), m_partition);
    m_enable = new QCheckBox(tr("Cache this partition in RAM"));
    m_enable->setObjectName("ramcache.enable");
    form->addRow(QString(), m_enable);

    m_backend = new QComboBox;
    m_backend->setObjectName("ramcache.backend");
    // Empty until cache.probe answers.
    m_backend->setPlaceholderText(tr("Reading…"));
    m_backendReason = new QLabel;
    m_backendReason->setObjectName("ramcache.backendReason");
    m_backendReason->setWordWrap(true);
    m_backendReason->setTextInteractionFlags(Qt::TextSelectableByMouse);
    auto* backendBox = new QVBoxLayout;
    backendBox->addWidget(m_backend);
    backendBox->addWidget(m_backendReason);
    form->addRow(tr("Backend"), backendBox);

    m_size = new SizePicker;
    form->addRow(tr("Size"), m_size);
    form->addRow(QString(), m_size->note());

    m_compression = new QComboBox;
    m_compression->setObjectName("ramcache.compression");
    m_ratio = new QLabel;
    m_ratio->setObjectName("ramcache.ratio");
    auto* compressionRow = new QHBoxLayout;
    compressionRow->addWidget(m_compression);
    compressionRow->addWidget(m_ratio, 1);
    form->addRow(tr("Compression"), compressionRow);
    buildMode(form);
    buildSafety(form);

    connect(m_enable, &QCheckBox::clicked, this, &SettingsForm::enableClicked);
    connect(m_backend, &QComboBox::currentIndexChanged, this, &SettingsForm::selectionChanged);
    connect(m_partition, &QComboBox::currentIndexChanged, this, &SettingsForm::selectionChanged);
    connect(m_size, &SizePicker::changed, this, &SettingsForm::selectionChanged);
    connect(m_compression, &QComboBox::currentIndexChanged, this, &SettingsForm::selectionChanged);
}

void SettingsForm::buildMode(QFormLayout* form) {
    m_writeThrough = new QRadioButton(tr("Write-through (safe: every write reaches the drive)"));
    m_writeThrough->setObjectName("ramcache.writeThrough");
    m_writeBack = new QRadioButton(tr("Write-back (faster writes)"));
    m_writeBack->setObjectName("ramcache.writeBack");
    m_writeThrough->setChecked(true);
    auto* modeGroup = new QButtonGroup(this);
    modeGroup->addButton(m_writeThrough);
    modeGroup->addButton(m_writeBack);
    m_writeBackWarning = new QLabel(
        tr("Write-back keeps recent writes in RAM: on a power loss or crash the last seconds of "
           "writes that were not yet flushed are lost. Use it on a laptop with a battery or a "
           "desktop on a UPS."));
    m_writeBackWarning->setObjectName("ramcache.writeBackWarning");
    m_writeBackWarning->setWordWrap(true);
    m_writeBackWarning->setStyleSheet(QStringLiteral("color: %1;").arg(theme::kWarning.name()));
    m_writeBackWarning->setVisible(false);
    auto* modeBox = new QVBoxLayout;
    modeBox->addWidget(m_writeThrough);
    modeBox->addWidget(m_writeBack);
    modeBox->addWidget(m_writeBackWarning);
    form->addRow(tr("Mode"), modeBox);
    connect(m_writeBack, &QRadioButton::toggled, this, [this](bool on) {
        m_writeBackWarning->setVisible(on);
        emit modeToggled(on);
        emit selectionChanged();
    });
}

void SettingsForm::buildSafety(QFormLayout* form) {
    // Check box labels do not wrap: short labels, the details in tool tips.
    m_applyNow = new QCheckBox(tr("Apply now: unmount, stack the cache, mount at the same place"));
    m_applyNow->setObjectName("ramcache.applyNow");
    m_applyNow->setToolTip(tr("The partition is mounted: it is unmounted, the cache is stacked "
                              "under it, and it is mounted again at the same place with the "
                              "same options."));
    form->addRow(QString(), m_applyNow);
    m_atNextBoot = new QCheckBox(tr("At next boot instead (nothing changes now)"));
    m_atNextBoot->setObjectName("ramcache.atNextBoot");
    m_atNextBoot->setToolTip(tr("A boot unit stacks the cache and /etc/fstab mounts it; the "
                                "fstab change is shown before anything is written."));
    form->addRow(QString(), m_atNextBoot);
    m_powerSafe = new QCheckBox(tr("On battery or before suspend: flush, then write-through"));
    m_powerSafe->setObjectName("ramcache.powerSafe");
    m_powerSafe->setToolTip(
        tr("Back to write-back on mains power or after resume. Before shutdown write-back is "
           "always flushed and switched to write-through."));
    m_safetyState = new QLabel;
    m_safetyState->setObjectName("ramcache.safetyState");
    m_safetyState->setWordWrap(true);
    auto* powerBox = new QVBoxLayout;
    powerBox->addWidget(m_powerSafe);
    powerBox->addWidget(m_safetyState);
    form->addRow(tr("Power"), powerBox);
    connect(m_atNextBoot, &QCheckBox::toggled, this, [this](bool on) {
        if (on) {
            m_applyNow->setChecked(false);
        }
    });
    connect(m_applyNow, &QCheckBox::toggled, this, [this](bool on) {
        if (on) {
            m_atNextBoot->setChecked(false);
        }
    });
    connect(m_powerSafe, &QCheckBox::clicked, this, &SettingsForm::powerSafeClicked);
}

void SettingsForm::setDevice(const device::Device* device) {
    m_partition->setDevice(device);
    m_systemDisk = device != nullptr && device->holdsRootFilesystem();
    // Mounted? Then enabling needs "apply now".
    m_applyNow->setVisible(device != nullptr && isMounted(*device, selectedPartition()));
}

void SettingsForm::setProbe(const cachectl::ProbeReply& reply) {
    m_backends = reply.backends;
    const QString previous = m_backend->currentData().toString();
    m_backend->blockSignals(true);
    m_backend->clear();
    auto* model = qobject_cast<QStandardItemModel*>(m_backend->model());
    int firstAvailable = -1;
    for (const auto& backend : m_backends) {
        const bool available = backend.probe.available;
        const QString title = toQString(backend.title);
        m_backend->addItem(available ? title : tr("%1 — unavailable").arg(title),
                           toQString(backend.name));
        const int index = m_backend->count() - 1;
        m_backend->setItemData(index, toQString(backend.probe.reasonText()), Qt::ToolTipRole);
        if (!available && model != nullptr) {
            model->item(index)->setEnabled(false);
        } else if (firstAvailable < 0) {
            firstAvailable = index;
        }
    }
    const int keep = m_backend->findData(previous);
    m_backend->setCurrentIndex(keep >= 0 ? keep : std::max(firstAvailable, 0));
    m_backend->blockSignals(false);
    m_size->setRam(reply.ram);
}

void SettingsForm::setProbeFailed() {
    if (m_backend->count() == 0) {
        m_backend->setPlaceholderText(tr("Backends unknown"));
    }
}

void SettingsForm::showCache(const std::optional<cachectl::CacheStatus>& active) {
    if (active) {
        m_enable->setChecked(true);
        const int index = m_backend->findData(toQString(active->record.active.backend));
        if (index >= 0) {
            m_backend->setCurrentIndex(index);
        }
        m_writeBack->blockSignals(true);
        m_writeThrough->blockSignals(true);
        (active->record.active.plan.mode == cachectl::CacheMode::WriteBack ? m_writeBack
                                                                           : m_writeThrough)
            ->setChecked(true);
        m_writeBackWarning->setVisible(m_writeBack->isChecked());
        m_writeBack->blockSignals(false);
        m_writeThrough->blockSignals(false);
        if (const auto& stats = active->stats) {
            m_ratio->setText(stats->physicalBytes > 0
                                 ? tr("live ratio %1×").arg(stats->compressionRatio(), 0, 'f', 2)
                                 : tr("live ratio: nothing compressed yet"));
        }
    } else {
        m_enable->setChecked(false);
        m_ratio->clear();
    }
    showSafety(active);
}

void SettingsForm::showSafety(const std::optional<cachectl::CacheStatus>& active) {
    QStringList state;
    if (active) {
        const auto& record = active->record;
        m_powerSafe->setChecked(record.power.safeOnBattery);
        if (!record.power.switchedBy.empty()) {
            state << tr("Write-through now because of %1; write-back returns on mains power or "
                        "resume.")
                         .arg(toQString(record.power.switchedBy));
        }
        if (record.boot) {
            state << tr("At boot: %1, mounted through %2.")
                         .arg(toQString(record.boot->unit), toQString(record.boot->fstab));
        }
        if (record.phase == cachectl::CachePhase::Scheduled) {
            state << tr("Scheduled: the cache is stacked at the next boot.");
        }
    }
    m_safetyState->setText(state.join(QLatin1Char(' ')));
    m_safetyState->setVisible(!state.isEmpty());
}

void SettingsForm::updateControls(const std::optional<cachectl::CacheStatus>& active) {
    const cachectl::BackendReport* backend = selectedBackend();
    updateBackendReason(backend);
    const bool on = active.has_value();
    const bool available = backend != nullptr && backend->probe.available;
    const bool haveDevice = !selectedPartition().isEmpty();
    m_enable->setEnabled(haveDevice && (on || (available && !m_systemDisk)));
    m_backend->setEnabled(!on);
    m_partition->setEnabled(!on);
    m_size->setChangeable(!on);
    m_compression->setEnabled(!on);
    m_atNextBoot->setEnabled(!on && haveDevice);
    m_powerSafe->setEnabled(haveDevice);
    updateCompressions(backend, active);
}

void SettingsForm::updateBackendReason(const cachectl::BackendReport* backend) {
    if (backend != nullptr && !backend->probe.available) {
        m_backendReason->setText(
            tr("Unavailable here: %1").arg(toQString(backend->probe.reasonText())));
        return;
    }
    QStringList others;
    for (const auto& item : m_backends) {
        if (!item.probe.available) {
            others << tr("%1: %2").arg(toQString(item.name), toQString(item.probe.reasonText()));
        }
    }
    m_backendReason->setText(
        others.isEmpty() ? QString()
                         : tr("Not available here — %1").arg(others.join(QStringLiteral("; "))));
}

void SettingsForm::updateCompressions(const cachectl::BackendReport* backend,
                                      const std::optional<cachectl::CacheStatus>& active) {
    const QString current = m_compression->currentText();
    m_compression->blockSignals(true);
    m_compression->clear();
    if (backend != nullptr) {
        for (const auto compression : backend->capabilities.compressions) {
            m_compression->addItem(toQString(std::string(cachectl::toString(compression))));
        }
        m_writeBack->setEnabled(backend->capabilities.writeBack);
    }
    if (active) {
        m_compression->setCurrentText(
            toQString(std::string(cachectl::toString(active->record.active.plan.compression))));
    } else if (m_compression->findText(current) >= 0) {
        m_compression->setCurrentText(current);
    }
    m_compression->blockSignals(false);
}

void SettingsForm::setEnableChecked(bool checked) {
    m_enable->setChecked(checked);
}

QString SettingsForm::selectedPartition() const {
    return m_partition->selected();
}

const cachectl::BackendReport* SettingsForm::selectedBackend() const {
    const int index = m_backend->currentIndex();
    for (const auto& item : m_backends) {
        if (index >= 0 && toQString(item.name) == m_backend->itemData(index).toString()) {
            return &item;
        }
    }
    return nullptr;
}

cachectl::EnableRequest SettingsForm::settingsRequest() const {
    cachectl::EnableRequest request;
    request.device = selectedPartition().toStdString();
    request.backend = m_backend->currentData().toString().toStdString();
    request.size = m_size->bytes();
    request.compression = cachectl::parseCompression(m_compression->currentText().toStdString())
                              .value_or(cachectl::Compression::None);
    request.mode = m_writeBack->isChecked() ? cachectl::CacheMode::WriteBack
                                            : cachectl::CacheMode::WriteThrough;
    request.powerSafe = m_powerSafe->isChecked();
    return request;
}

std::expected<cachectl::EnableRequest, QString> SettingsForm::enableRequest() const {
    cachectl::EnableRequest request = settingsRequest();
    if (m_atNextBoot->isChecked()) {
        request.atNextBoot = true;
    } else if (m_applyNow->isVisible()) {
        if (!m_applyNow->isChecked()) {
            return std::unexpected(tr("The partition is mounted: tick \"apply now\" to unmount "
                                      "it, stack the cache and mount it again."));
        }
        request.applyNow = true;
    }
    return request;
}

} // namespace ssdk::app::ramcache
