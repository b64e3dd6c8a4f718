#pragma once

#include <QDialog>
#include <QStringList>

#include "core/base/json.h"
#include "core/lab/lab.h"

class QComboBox;
class QDialogButtonBox;
class QLabel;
class QLineEdit;
class QSpinBox;

namespace ssdk::app {

// Asks for a new lab drive's name, size, sector size and layout.
class LabDriveDialog : public QDialog {
    Q_OBJECT
public:
    static constexpr int kMinimumGib = 1;
    static constexpr int kMaximumGib = 64;
    static constexpr int kDefaultGib = 8;

    // existingNames: lab drives that exist already; the suggested name avoids them.
    explicit LabDriveDialog(const QStringList& existingNames, QWidget* parent = nullptr);

    lab::LabCreateRequest request() const;
    // The helper's lab.create arguments: {name, size (bytes), sector_size, layout}.
    static Json toHelperArgs(const lab::LabCreateRequest& request);

    QLineEdit* nameEdit() const { return m_name; }
    QSpinBox* sizeSpin() const { return m_size; }
    QComboBox* sectorCombo() const { return m_sectorSize; }
    QComboBox* layoutCombo() const { return m_layout; }

private:
    void validate();

    QStringList m_existingNames;
    QLineEdit* m_name = nullptr;
    QSpinBox* m_size = nullptr;
    QComboBox* m_sectorSize = nullptr;
    QComboBox* m_layout = nullptr;
    QLabel* m_problem = nullptr;
    QDialogButtonBox* m_buttons = nullptr;
};

} // namespace ssdk::app
