#pragma once

#include <expected>
#include <optional>
#include <vector>

#include <QGroupBox>
#include <QString>

#include "core/cachectl/verbs.h"
#include "core/device/device.h"

class QCheckBox;
class QComboBox;
class QFormLayout;
class QLabel;
class QRadioButton;

namespace ssdk::app::ramcache {

class PartitionPicker;
class SizePicker;

// "Cache": what to cache and how. The partition of the selected drive, the checkbox that turns
// its cache on and off, the backend (greyed out with the reason when it cannot run here), the
// size, compression and write mode, how a mounted partition gets it (now or at next boot) and
// the power safety (docs/ram-cache.md#power-safety, #at-next-boot). While a cache runs the
// form shows its settings, fixed.
class SettingsForm final : public QGroupBox {
    Q_OBJECT
public:
    explicit SettingsForm(QWidget* parent = nullptr);

    // The drive's partitions (the drive itself when it has none; the one selected before
    // stays); "apply now" is offered when the selected one is mounted. nullptr: none.
    void setDevice(const device::Device* device);
    // The backends and the RAM from cache.probe.
    void setProbe(const cachectl::ProbeReply& reply);
    // cache.probe failed: the backend box says so instead of "Reading…".
    void setProbeFailed();
    // The selected partition's cache from cache.status (nullopt: none).
    void showCache(const std::optional<cachectl::CacheStatus>& active);
    // What can be changed now, and the selected backend's compressions and write modes.
    void updateControls(const std::optional<cachectl::CacheStatus>& active);
    void setEnableChecked(bool checked);

    QString selectedPartition() const;
    const cachectl::BackendReport* selectedBackend() const;
    // The cache's settings in the form (backend, size, compression, mode, power policy)
    // without how it is applied (now or at next boot) nor the tuning knobs.
    cachectl::EnableRequest settingsRequest() const;
    // The cache.enable the form asks for (without the tuning knobs), or why it cannot be sent.
    std::expected<cachectl::EnableRequest, QString> enableRequest() const;

signals:
    void selectionChanged(); // another partition, backend, size, compression or mode
    void enableClicked(bool on);
    void modeToggled(bool writeBack);
    void powerSafeClicked(bool on);

private:
    void buildMode(QFormLayout* form);
    void buildSafety(QFormLayout* form);
    void updateBackendReason(const cachectl::BackendReport* backend);
    void updateCompressions(const cachectl::BackendReport* backend,
                            const std::optional<cachectl::CacheStatus>& active);
    void showSafety(const std::optional<cachectl::CacheStatus>& active);

    bool m_systemDisk = false; // holds "/": never cached (the helper refuses it too)
    std::vector<cachectl::BackendReport> m_backends;

    PartitionPicker* m_partition;
    QCheckBox* m_enable;
    QComboBox* m_backend;
    QLabel* m_backendReason;
    SizePicker* m_size;
    QComboBox* m_compression;
    QLabel* m_ratio;
    QRadioButton* m_writeThrough;
    QRadioButton* m_writeBack;
    QLabel* m_writeBackWarning;
    QCheckBox* m_applyNow;
    QCheckBox* m_atNextBoot;
    QCheckBox* m_powerSafe;
    QLabel* m_safetyState;
};

} // namespace ssdk::app::ramcache
