#include "app/lab_drive_dialog.h"

#include <QComboBox>
#include <QDialogButtonBox>
#include <QFormLayout>
#include <QLabel>
#include <QLineEdit>
#include <QPushButton>
#include <QRegularExpressionValidator>
#include <QSpinBox>
#include <QVBoxLayout>

#include "app/device_text.h"
#include "core/lab/verbs.h"

namespace ssdk::app {

namespace {

QString suggestName(const QStringList& existing) {
    if (!existing.contains(QStringLiteral("lab"))) {
        return QStringLiteral("lab");
    }
    for (int i = 2;; ++i) {
        const QString name = QStringLiteral("lab%1").arg(i);
        if (!existing.contains(name)) {
            return name;
        }
    }
}

} // namespace

LabDriveDialog::LabDriveDialog(const QStringList& existingNames, QWidget* parent)
    : QDialog(parent)
    , m_existingNames(existingNames) {
    setWindowTitle(tr("Create lab drive"));
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(20, 18, 20, 16);
    layout->setSpacing(12);

    auto* intro = new QLabel(tr("A lab drive is a loop device over a sparse image file in your "
                                "state directory. Try destructive features on it without "
                                "risking a real disk. Creating one needs administrator rights."));
    intro->setWordWrap(true);
    intro->setProperty("role", QStringLiteral("muted"));
    layout->addWidget(intro);

    auto* form = new QFormLayout;
    form->setHorizontalSpacing(14);
    form->setVerticalSpacing(8);
    m_name = new QLineEdit(suggestName(existingNames));
    m_name->setObjectName(QStringLiteral("labDialog.name"));
    m_name->setMaxLength(32);
    m_name->setValidator(new QRegularExpressionValidator(
        QRegularExpression(QStringLiteral("[A-Za-z0-9][A-Za-z0-9_-]{0,31}")), m_name));
    m_name->setToolTip(tr("1–32 letters, digits, '_' or '-', starting with a letter or digit."));
    form->addRow(tr("Name"), m_name);

    m_size = new QSpinBox;
    m_size->setObjectName(QStringLiteral("labDialog.size"));
    m_size->setRange(kMinimumGib, kMaximumGib);
    m_size->setValue(kDefaultGib);
    m_size->setSuffix(tr(" GiB"));
    m_size->setToolTip(tr("The image is sparse: it only takes the space that is written."));
    form->addRow(tr("Size"), m_size);

    m_sectorSize = new QComboBox;
    m_sectorSize->setObjectName(QStringLiteral("labDialog.sectorSize"));
    m_sectorSize->addItem(tr("512 bytes"), 512);
    m_sectorSize->addItem(tr("4096 bytes (4Kn)"), 4096);
    form->addRow(tr("Logical sector size"), m_sectorSize);

    m_layout = new QComboBox;
    m_layout->setObjectName(QStringLiteral("labDialog.layout"));
    m_layout->addItem(tr("Empty"), QStringLiteral("empty"));
    m_layout->addItem(tr("GPT + ext4"), QStringLiteral("gpt-ext4"));
    m_layout->setToolTip(tr("GPT + ext4: one partition over the whole drive, formatted ext4."));
    form->addRow(tr("Layout"), m_layout);
    layout->addLayout(form);

    m_problem = new QLabel;
    m_problem->setProperty("role", QStringLiteral("error"));
    m_problem->setWordWrap(true);
    layout->addWidget(m_problem);

    m_buttons = new QDialogButtonBox(QDialogButtonBox::Ok | QDialogButtonBox::Cancel);
    m_buttons->button(QDialogButtonBox::Ok)->setText(tr("Create"));
    connect(m_buttons, &QDialogButtonBox::accepted, this, &QDialog::accept);
    connect(m_buttons, &QDialogButtonBox::rejected, this, &QDialog::reject);
    layout->addWidget(m_buttons);

    connect(m_name, &QLineEdit::textChanged, this, &LabDriveDialog::validate);
    validate();
    setMinimumWidth(420);
}

void LabDriveDialog::validate() {
    const QString name = m_name->text();
    QString problem;
    if (auto valid = lab::validateLabName(name.toStdString()); !valid) {
        problem = toQString(valid.error().message());
    } else if (m_existingNames.contains(name)) {
        problem = tr("A lab drive named “%1” exists already.").arg(name);
    }
    m_problem->setText(problem);
    m_problem->setVisible(!problem.isEmpty());
    m_buttons->button(QDialogButtonBox::Ok)->setEnabled(problem.isEmpty());
}

lab::LabCreateRequest LabDriveDialog::request() const {
    lab::LabCreateRequest request;
    request.name = m_name->text().toStdString();
    request.size = Bytes::gib(static_cast<std::uint64_t>(m_size->value()));
    request.logicalSectorSize = m_sectorSize->currentData().toUInt();
    request.layout = m_layout->currentData().toString().toStdString();
    return request;
}

Json LabDriveDialog::toHelperArgs(const lab::LabCreateRequest& request) {
    return lab::toJson(request);
}

} // namespace ssdk::app
