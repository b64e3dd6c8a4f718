#include "app/pages/health_page.h"

#include <chrono>
#include <utility>

#include <QFileDialog>
#include <QFileInfo>
#include <QFrame>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QLabel>
#include <QProgressBar>
#include <QPushButton>
#include <QSortFilterProxyModel>
#include <QStandardItemModel>
#include <QTabWidget>
#include <QTableView>
#include <QTableWidget>
#include <QVBoxLayout>
#include <QtConcurrent/QtConcurrentRun>

#include "app/device_text.h"
#include "app/health_backend.h"
#include "app/theme.h"
#include "app/widgets/empty_table.h"
#include "core/base/bytes.h"

namespace ssdk::app {

namespace {

constexpr int kSortRole = Qt::UserRole + 1;
constexpr int kSelfTestPollMs = 15000;

QLabel* makeLabel(const QString& text, const char* role, const char* name = nullptr) {
    auto* label = new QLabel(text);
    label->setProperty("role", QString::fromLatin1(role));
    if (name != nullptr) {
        label->setObjectName(QString::fromLatin1(name));
    }
    return label;
}

struct VerdictStyle {
    QString text;
    QString foreground;
    QString background;
};

VerdictStyle verdictStyle(smart::Verdict verdict) {
    switch (verdict) {
    case smart::Verdict::Good:
        return {QObject::tr("GOOD"), theme::kGoodText.name(), theme::kGoodBackground.name()};
    case smart::Verdict::Caution:
        return {QObject::tr("CAUTION"), theme::kCautionText.name(),
                theme::kCautionBackground.name()};
    case smart::Verdict::Bad:
        return {QObject::tr("BAD"), theme::kBadText.name(), theme::kBadBackground.name()};
    case smart::Verdict::Unknown:
        break;
    }
    return {QObject::tr("UNKNOWN"), theme::kNeutralText.name(), theme::kNeutralBackground.name()};
}

QString severityColor(smart::Severity severity) {
    switch (severity) {
    case smart::Severity::Bad:
        return theme::kError.name();
    case smart::Severity::Caution:
        return theme::kWarning.name();
    case smart::Severity::Info:
        break;
    }
    return theme::kMutedText.name();
}

// A card: a small title, a big value and a muted note under it.
QFrame* makeCard(const QString& title, QLabel*& value, QLabel*& note, const char* name) {
    auto* card = new QFrame;
    card->setProperty("role", QStringLiteral("card"));
    auto* layout = new QVBoxLayout(card);
    layout->setContentsMargins(14, 10, 14, 12);
    layout->setSpacing(2);
    layout->addWidget(makeLabel(title, "muted"));
    value = makeLabel(QStringLiteral("—"), "title", name);
    layout->addWidget(value);
    note = makeLabel(QString(), "muted");
    note->setObjectName(QString::fromLatin1(name) + QStringLiteral("Note"));
    note->setWordWrap(true);
    layout->addWidget(note);
    layout->addStretch();
    return card;
}

template <typename T> QString orDash(const std::optional<T>& value) {
    return value ? QString::number(*value) : QStringLiteral("—");
}

QString counterText(const std::optional<smart::UInt128>& value) {
    return value ? toQString(value->toString()) : QStringLiteral("—");
}

QStandardItem* item(const QString& text, QVariant sortKey = {}) {
    auto* cell = new QStandardItem(text);
    cell->setEditable(false);
    cell->setData(sortKey.isValid() ? sortKey : QVariant(text), kSortRole);
    return cell;
}

} // namespace

HealthPage::HealthPage(std::shared_ptr<HealthBackend> backend, QWidget* parent)
    : DevicePage(parent)
    , m_backend(std::move(backend)) {
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(16, 14, 16, 14);
    layout->setSpacing(12);
    layout->addWidget(buildBanner());
    layout->addWidget(buildHeader());
    layout->addWidget(buildCards());
    layout->addWidget(buildDetails(), 1);

    connect(&m_watcher, &QFutureWatcher<Outcome>::finished, this, &HealthPage::finished);
    connect(&m_saveWatcher, &QFutureWatcher<QString>::finished, this, [this] {
        const QString error = m_saveWatcher.result();
        const QString file = std::exchange(m_savingTo, QString());
        m_status->setText(error.isEmpty() ? tr("Saved %1").arg(QFileInfo(file).fileName()) : error);
        updateButtons();
        emit reportSaved(file, error);
    });
    m_selfTestPoll.setInterval(kSelfTestPollMs);
    connect(&m_selfTestPoll, &QTimer::timeout, this, [this] {
        if (!m_busy && !m_showingReplay) {
            refresh();
        }
    });
    updateButtons();
}

HealthPage::~HealthPage() {
    m_watcher.waitForFinished();
    m_saveWatcher.waitForFinished();
}

QWidget* HealthPage::buildBanner() {
    m_reportBanner = new QFrame;
    m_reportBanner->setObjectName(QStringLiteral("health.reportBanner"));
    m_reportBanner->setProperty("role", QStringLiteral("reportBanner"));
    auto* layout = new QHBoxLayout(m_reportBanner);
    layout->setContentsMargins(14, 8, 10, 8);
    m_reportBannerText = new QLabel;
    m_reportBannerText->setObjectName(QStringLiteral("health.reportBannerText"));
    m_reportBannerText->setWordWrap(true);
    m_reportBannerText->setSizePolicy(QSizePolicy::Ignored, QSizePolicy::Preferred);
    layout->addWidget(m_reportBannerText, 1);
    auto* close = new QPushButton(tr("Close report"));
    close->setObjectName(QStringLiteral("health.closeReport"));
    close->setToolTip(tr("Show the selected drive again"));
    connect(close, &QPushButton::clicked, this, &HealthPage::closeReport);
    layout->addWidget(close, 0, Qt::AlignVCenter);
    m_reportBanner->setVisible(false);
    return m_reportBanner;
}

QWidget* HealthPage::buildHeader() {
    auto* header = new QFrame;
    header->setProperty("role", QStringLiteral("card"));
    auto* layout = new QVBoxLayout(header);
    layout->setContentsMargins(14, 12, 14, 12);

    auto* top = new QHBoxLayout;
    auto* titles = new QVBoxLayout;
    m_title = makeLabel(tr("Drive health"), "title", "health.title");
    m_subtitle = makeLabel(QString(), "subtitle", "health.subtitle");
    m_subtitle->setWordWrap(true);
    m_subtitle->setSizePolicy(QSizePolicy::Ignored, QSizePolicy::Preferred);
    titles->addWidget(m_title);
    titles->addWidget(m_subtitle);
    top->addLayout(titles, 1);
    m_verdict = new QLabel;
    m_verdict->setObjectName(QStringLiteral("health.verdict"));
    m_verdict->setAlignment(Qt::AlignCenter);
    m_verdict->setMinimumSize(120, 40);
    m_verdict->setSizePolicy(QSizePolicy::Fixed, QSizePolicy::Fixed);
    top->addWidget(m_verdict, 0, Qt::AlignTop);
    layout->addLayout(top);

    m_reasons = new QLabel;
    m_reasons->setObjectName(QStringLiteral("health.reasons"));
    m_reasons->setWordWrap(true);
    m_reasons->setTextFormat(Qt::RichText);
    // Never squeezed: every reason must stay readable, the details below take what is left.
    m_reasons->setSizePolicy(QSizePolicy::Ignored, QSizePolicy::Minimum);
    header->setSizePolicy(QSizePolicy::Preferred, QSizePolicy::Minimum);
    layout->addWidget(m_reasons);

    m_refresh = new QPushButton(tr("Refresh"));
    m_refresh->setObjectName(QStringLiteral("health.refresh"));
    m_openReport = new QPushButton(tr("Open report…"));
    m_openReport->setObjectName(QStringLiteral("health.openReport"));
    m_openReport->setToolTip(tr("Open a saved smartctl JSON report or libatasmart blob"));
    m_saveReport = new QPushButton(tr("Save report…"));
    m_saveReport->setObjectName(QStringLiteral("health.saveReport"));
    m_saveReport->setToolTip(tr("Save this reading of the drive, to open it later or elsewhere"));
    m_shortTest = new QPushButton(tr("Short self-test"));
    m_shortTest->setObjectName(QStringLiteral("health.shortTest"));
    m_longTest = new QPushButton(tr("Extended self-test"));
    m_longTest->setObjectName(QStringLiteral("health.longTest"));
    m_abortTest = new QPushButton(tr("Abort self-test"));
    m_abortTest->setObjectName(QStringLiteral("health.abortTest"));
    connect(m_refresh, &QPushButton::clicked, this, &HealthPage::refresh);
    connect(m_openReport, &QPushButton::clicked, this, &HealthPage::chooseReport);
    connect(m_saveReport, &QPushButton::clicked, this, &HealthPage::chooseSaveFile);
    connect(m_shortTest, &QPushButton::clicked, this,
            [this] { startSelfTest(smart::SelfTestAction::Short); });
    connect(m_longTest, &QPushButton::clicked, this,
            [this] { startSelfTest(smart::SelfTestAction::Long); });
    connect(m_abortTest, &QPushButton::clicked, this,
            [this] { startSelfTest(smart::SelfTestAction::Abort); });
    // Two rows, so the page fits beside the drive list in a 1024-wide window: the reading
    // (refresh, reports, when it was read), then the self-tests and what they say.
    auto* reading = new QHBoxLayout;
    reading->addWidget(m_refresh);
    reading->addWidget(m_openReport);
    reading->addWidget(m_saveReport);
    reading->addStretch();
    m_readTime = makeLabel(QString(), "muted", "health.readTime");
    reading->addWidget(m_readTime);
    layout->addLayout(reading);

    auto* selfTests = new QHBoxLayout;
    selfTests->addWidget(m_shortTest);
    selfTests->addWidget(m_longTest);
    selfTests->addWidget(m_abortTest);
    m_selfTestProgress = new QProgressBar;
    m_selfTestProgress->setObjectName(QStringLiteral("health.selfTestProgress"));
    m_selfTestProgress->setRange(0, 100);
    m_selfTestProgress->setMaximumWidth(160);
    m_selfTestProgress->setVisible(false);
    selfTests->addWidget(m_selfTestProgress);
    m_status = makeLabel(QString(), "muted", "health.status");
    m_status->setSizePolicy(QSizePolicy::Ignored, QSizePolicy::Preferred);
    m_status->setAlignment(Qt::AlignRight | Qt::AlignVCenter);
    selfTests->addWidget(m_status, 1);
    layout->addLayout(selfTests);
    return header;
}

QWidget* HealthPage::buildCards() {
    auto* row = new QWidget;
    auto* layout = new QHBoxLayout(row);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->setSpacing(12);
    layout->addWidget(
        makeCard(tr("Temperature"), m_temperature, m_temperatureNote, "health.temperature"));
    layout->addWidget(makeCard(tr("Life remaining"), m_life, m_lifeNote, "health.life"));
    layout->addWidget(makeCard(tr("Host writes"), m_writes, m_writesNote, "health.writes"));
    layout->addWidget(makeCard(tr("Power-on time"), m_powerOn, m_powerOnNote, "health.powerOn"));
    return row;
}

QWidget* HealthPage::buildDetails() {
    m_details = new QTabWidget;
    m_details->setDocumentMode(true);

    m_attributeModel = new QStandardItemModel(0, 8, this);
    m_attributeModel->setHorizontalHeaderLabels({tr("ID"), tr("Attribute"), tr("Value"),
                                                 tr("Worst"), tr("Threshold"), tr("Raw (decoded)"),
                                                 tr("Type"), tr("State")});
    m_attributeProxy = new QSortFilterProxyModel(this);
    m_attributeProxy->setSourceModel(m_attributeModel);
    m_attributeProxy->setSortRole(kSortRole);
    m_attributes = new QTableView;
    m_attributes->setObjectName(QStringLiteral("health.attributes"));
    m_attributes->setAccessibleName(tr("SMART attributes"));
    m_attributes->setModel(m_attributeProxy);
    m_attributes->setSortingEnabled(true);
    m_attributes->sortByColumn(0, Qt::AscendingOrder);
    m_attributes->verticalHeader()->setVisible(false);
    m_attributes->setSelectionBehavior(QAbstractItemView::SelectRows);
    m_attributes->horizontalHeader()->setSectionResizeMode(1, QHeaderView::Stretch);
    m_attributes->horizontalHeader()->setSectionResizeMode(5, QHeaderView::Stretch);
    m_details->addTab(
        withEmptyText(m_attributes, tr("No SMART attributes: the drive reports none.")),
        tr("SMART attributes"));

    m_nvme = new QTableWidget(0, 2);
    m_nvme->setObjectName(QStringLiteral("health.nvme"));
    m_nvme->setHorizontalHeaderLabels({tr("Field"), tr("Value")});
    m_nvme->verticalHeader()->setVisible(false);
    m_nvme->horizontalHeader()->setSectionResizeMode(1, QHeaderView::Stretch);
    m_nvme->setEditTriggers(QAbstractItemView::NoEditTriggers);
    m_details->addTab(m_nvme, tr("NVMe health log"));

    auto* selfTests = new QWidget;
    auto* selfTestLayout = new QVBoxLayout(selfTests);
    m_selfTestText = makeLabel(QString(), "muted", "health.selfTestText");
    m_selfTestText->setWordWrap(true);
    selfTestLayout->addWidget(m_selfTestText);
    m_selfTestLog = new QTableWidget(0, 3);
    m_selfTestLog->setObjectName(QStringLiteral("health.selfTestLog"));
    m_selfTestLog->setHorizontalHeaderLabels({tr("Test"), tr("Result"), tr("Power-on hours")});
    m_selfTestLog->verticalHeader()->setVisible(false);
    m_selfTestLog->horizontalHeader()->setSectionResizeMode(1, QHeaderView::Stretch);
    m_selfTestLog->setEditTriggers(QAbstractItemView::NoEditTriggers);
    selfTestLayout->addWidget(withEmptyText(m_selfTestLog, tr("No self-tests logged.")));
    m_details->addTab(selfTests, tr("Self-tests"));
    return m_details;
}

void HealthPage::setDevice(const device::Device* device) {
    const bool same = device != nullptr && m_device && m_device->path == device->path;
    if (device == nullptr) {
        m_device.reset();
    } else {
        m_device = *device;
    }
    if (same) {
        updateButtons();
        return; // a rescan: the health does not change with it (nor leaves an opened report)
    }
    m_raw.reset(); // another drive: the last one's reading is not its to save
    if (m_device) {
        refresh();
    } else {
        updateButtons();
    }
}

void HealthPage::refresh() {
    if (!m_device) {
        return;
    }
    m_showingReplay = false;
    const device::Device device = *m_device;
    run([backend = m_backend, device] { return outcomeOf(backend->read(device)); },
        tr("Reading %1…").arg(toQString(device.path)));
}

void HealthPage::closeReport() {
    if (!m_showingReplay) {
        return;
    }
    if (m_device) {
        refresh();
        return;
    }
    // No drive to go back to: nothing is shown.
    ++m_generation;
    m_showingReplay = false;
    m_shown.reset();
    m_raw.reset();
    m_reportBanner->setVisible(false);
    m_readTime->clear();
    m_status->clear();
    m_verdict->clear();
    m_verdict->setStyleSheet(QString());
    m_reasons->clear();
    m_title->setText(tr("Drive health"));
    m_subtitle->clear();
    for (QLabel* value : {m_temperature, m_life, m_writes, m_powerOn}) {
        value->setText(QStringLiteral("—"));
    }
    for (QLabel* note : {m_temperatureNote, m_lifeNote, m_writesNote, m_powerOnNote}) {
        note->clear();
    }
    showAttributes(nullptr);
    showNvme(nullptr);
    showSelfTest(nullptr);
    updateButtons();
}

bool HealthPage::canSaveReport() const {
    return !m_busy && !m_showingReplay && m_raw.has_value() && m_savingTo.isEmpty();
}

void HealthPage::chooseSaveFile() {
    if (!canSaveReport()) {
        return;
    }
    const bool json = m_raw->format == smart::RawReport::Format::SmartctlJson;
    const QString base =
        m_device ? toQString(m_device->labName.value_or(m_device->name)) : QStringLiteral("drive");
    const QString suggested =
        QStringLiteral("%1-%2.%3")
            .arg(base, QDateTime::currentDateTime().toString(QStringLiteral("yyyyMMdd-HHmmss")),
                 json ? QStringLiteral("json") : QStringLiteral("bin"));
    const QString file = QFileDialog::getSaveFileName(this, tr("Save SMART report"), suggested,
                                                      json ? tr("smartctl JSON (*.json)")
                                                           : tr("libatasmart blob (*.bin)"));
    if (!file.isEmpty()) {
        saveReport(file);
    }
}

void HealthPage::saveReport(const QString& file) {
    if (!canSaveReport()) {
        emit reportSaved(file, tr("There is no reading of the drive to save."));
        return;
    }
    m_savingTo = file;
    m_status->setText(tr("Saving %1…").arg(QFileInfo(file).fileName()));
    updateButtons();
    m_saveWatcher.setFuture(QtConcurrent::run(
        [raw = *m_raw, path = std::filesystem::path(file.toStdString())]() -> QString {
            auto saved = saveRawReport(path, raw);
            return saved ? QString() : toQString(saved.error().describe());
        }));
}

void HealthPage::chooseReport() {
    const QString file =
        QFileDialog::getOpenFileName(this, tr("Open SMART report"), QString(),
                                     tr("SMART reports (*.json *.bin);;All files (*)"));
    if (!file.isEmpty()) {
        openReport(file);
    }
}

void HealthPage::openReport(const QString& file) {
    m_showingReplay = true;
    run(
        [backend = m_backend, file, path = std::filesystem::path(file.toStdString())] {
            Outcome outcome = outcomeOf(backend->load(path));
            outcome.reportFile = file;
            return outcome;
        },
        tr("Opening %1…").arg(QFileInfo(file).fileName()));
}

void HealthPage::startSelfTest(smart::SelfTestAction action) {
    if (!m_device || m_showingReplay) {
        return;
    }
    const device::Device device = *m_device;
    run(
        [backend = m_backend, device, action] {
            auto started = backend->selfTest(device, action);
            if (!started) {
                Outcome outcome;
                outcome.selfTestRequest = true;
                outcome.error = toQString(started.error().describe());
                return outcome;
            }
            // Read again so the progress shows at once.
            return outcomeOf(backend->read(device), true);
        },
        action == smart::SelfTestAction::Abort
            ? tr("Aborting the self-test…")
            : tr("Starting a %1 self-test…").arg(toQString(std::string(toString(action)))));
}

HealthPage::Outcome HealthPage::outcomeOf(Expected<HealthReading> reading, bool selfTestRequest) {
    Outcome outcome;
    outcome.selfTestRequest = selfTestRequest;
    outcome.ok = reading.has_value();
    if (reading) {
        outcome.health = std::move(reading->health);
        outcome.raw = std::move(reading->raw);
        outcome.readAt =
            QDateTime::fromMSecsSinceEpoch(std::chrono::duration_cast<std::chrono::milliseconds>(
                                               reading->readAt.time_since_epoch())
                                               .count());
    } else {
        outcome.error = toQString(reading.error().describe());
    }
    return outcome;
}

void HealthPage::run(std::function<Outcome()> work, const QString& busyText) {
    if (m_busy) {
        m_watcher.waitForFinished(); // a newer request replaces the running one's result
    }
    const quint64 generation = ++m_generation;
    m_busy = true;
    m_status->setText(busyText);
    updateButtons();
    m_watcher.setFuture(QtConcurrent::run([work = std::move(work), generation] {
        Outcome outcome = work();
        outcome.generation = generation;
        return outcome;
    }));
}

void HealthPage::finished() {
    const Outcome outcome = m_watcher.result();
    m_busy = false;
    if (outcome.generation != m_generation) {
        updateButtons();
        return;
    }
    const bool report = !outcome.reportFile.isEmpty();
    m_showingReplay = report;
    showReportBanner(outcome);
    if (!report) {
        // A reading of the drive (or its error) replaces the last one, raw report included.
        m_raw = outcome.raw;
    }
    m_readTime->setText(
        outcome.readAt.isValid()
            ? tr("Read %1").arg(readingTimeText(outcome.readAt, QDateTime::currentDateTime()))
            : QString());
    if (outcome.ok && outcome.health) {
        m_status->setText(outcome.error);
        display(*outcome.health);
    } else {
        m_status->setText(QString());
        m_verdict->setText(tr("ERROR"));
        m_verdict->setStyleSheet(
            QStringLiteral("QLabel { color: %1; background: %2; border-radius: 12px; "
                           "padding: 6px 14px; font-weight: 700; font-size: 13pt; }")
                .arg(theme::kBadText.name(), theme::kBadBackground.name()));
        m_reasons->setText(QStringLiteral("<span style='color:%1'>%2</span>")
                               .arg(theme::kError.name(), outcome.error.toHtmlEscaped()));
    }
    updateButtons();
    emit healthShown();
}

void HealthPage::showReportBanner(const Outcome& outcome) {
    if (outcome.reportFile.isEmpty()) {
        m_reportBanner->setVisible(false);
        return;
    }
    const QString name = QFileInfo(outcome.reportFile).fileName().toHtmlEscaped();
    m_reportBannerText->setText(
        outcome.ok ? tr("Showing the report <b>%1</b>, read %2 — not the selected drive.")
                         .arg(name, readingTimeText(outcome.readAt, QDateTime::currentDateTime()))
                   : tr("The report <b>%1</b> could not be opened.").arg(name));
    m_reportBanner->setStyleSheet(
        QStringLiteral("QFrame[role=\"reportBanner\"] { background: %1; border: 1px solid %2; "
                       "border-radius: 8px; }")
            .arg(theme::kSelection.name(), theme::kAccent.name()));
    m_reportBanner->setVisible(true);
}

void HealthPage::display(const smart::DriveHealth& health) {
    m_shown = health;
    const smart::SmartReport* report = health.report ? &*health.report : nullptr;
    const auto style = verdictStyle(health.assessment.verdict);
    m_verdict->setText(style.text);
    m_verdict->setStyleSheet(QStringLiteral("QLabel { color: %1; background: %2; border-radius: "
                                            "12px; padding: 6px 14px; font-weight: 700; "
                                            "font-size: 13pt; }")
                                 .arg(style.foreground, style.background));
    if (report != nullptr && !report->model.empty()) {
        m_title->setText(toQString(report->model));
        QStringList parts{toQString(health.device),
                          toQString(std::string(smart::toString(report->protocol)))};
        if (!report->serial.empty()) {
            parts << tr("serial %1").arg(toQString(report->serial));
        }
        if (!report->firmware.empty()) {
            parts << tr("firmware %1").arg(toQString(report->firmware));
        }
        if (report->capacityBytes) {
            parts << toQString(formatIec(Bytes(*report->capacityBytes)));
        }
        parts << tr("via %1").arg(toQString(std::string(smart::toString(report->source))));
        m_subtitle->setText(parts.join(QStringLiteral(" · ")));
    } else {
        m_title->setText(tr("Drive health"));
        m_subtitle->setText(toQString(health.device));
    }

    QStringList lines;
    if (health.assessment.reasons.empty()) {
        lines << tr("Nothing of concern: every check passed.");
    }
    for (const auto& reason : health.assessment.reasons) {
        lines << QStringLiteral("<span style='color:%1'>●</span> %2")
                     .arg(severityColor(reason.severity),
                          toQString(reason.message).toHtmlEscaped());
    }
    if (report != nullptr) {
        for (const auto& warning : report->warnings) {
            lines << QStringLiteral("<span style='color:%1'>⚠ %2</span>")
                         .arg(theme::kMutedText.name(), toQString(warning).toHtmlEscaped());
        }
    }
    m_reasons->setText(lines.join(QStringLiteral("<br>")));

    const auto& derived = health.derived;
    if (derived.temperatureC) {
        m_temperature->setText(QStringLiteral("%1 °C").arg(*derived.temperatureC));
        QStringList notes;
        if (derived.temperatureMinC && derived.temperatureMaxC) {
            notes << tr("lifetime %1–%2 °C")
                         .arg(*derived.temperatureMinC)
                         .arg(*derived.temperatureMaxC);
        }
        if (report != nullptr && report->temperatureWarningC) {
            notes << tr("warning at %1 °C").arg(*report->temperatureWarningC);
        }
        m_temperatureNote->setText(notes.join(QStringLiteral(", ")));
    } else {
        m_temperature->setText(QStringLiteral("—"));
        m_temperatureNote->setText(tr("not reported"));
    }
    if (derived.percentageUsed) {
        m_life->setText(QStringLiteral("%1 %").arg(std::max(0, 100 - *derived.percentageUsed)));
        QString note =
            tr("%1 % used (%2)").arg(*derived.percentageUsed).arg(toQString(derived.wearSource));
        if (derived.remainingLifeDays) {
            note += tr("; about %1 left at this rate")
                        .arg(durationText(*derived.remainingLifeDays * 24));
        }
        m_lifeNote->setText(note);
    } else {
        m_life->setText(QStringLiteral("—"));
        m_lifeNote->setText(tr("no wear indicator"));
    }
    if (derived.hostWritesBytes) {
        m_writes->setText(toQString(smart::formatByteCount(*derived.hostWritesBytes)));
        m_writesNote->setText(report != nullptr && report->nvme
                                  ? tr("NVMe data units × 512 000 bytes")
                                  : tr("from the drive's write counter"));
    } else {
        m_writes->setText(QStringLiteral("—"));
        m_writesNote->setText(tr("not reported"));
    }
    if (derived.powerOnHours) {
        m_powerOn->setText(tr("%1 h").arg(*derived.powerOnHours));
        QString note = durationText(static_cast<double>(*derived.powerOnHours));
        if (derived.powerCycles) {
            note += tr(", %1 power cycles").arg(*derived.powerCycles);
        }
        m_powerOnNote->setText(note);
    } else {
        m_powerOn->setText(QStringLiteral("—"));
        m_powerOnNote->setText(tr("not reported"));
    }

    showAttributes(report);
    showNvme(report);
    showSelfTest(report);
    const bool hasAttributes = report != nullptr && !report->attributes.empty();
    const bool hasNvme = report != nullptr && report->nvme.has_value();
    m_details->setTabVisible(0, hasAttributes || !hasNvme);
    m_details->setTabVisible(1, hasNvme);
    m_details->setCurrentIndex(hasNvme && !hasAttributes ? 1 : 0);
}

void HealthPage::showAttributes(const smart::SmartReport* report) {
    m_attributeModel->removeRows(0, m_attributeModel->rowCount());
    if (report == nullptr) {
        return;
    }
    for (const auto& attribute : report->attributes) {
        const QString state = attribute.failingNow     ? tr("FAILING NOW")
                              : attribute.failedInPast ? tr("Failed in the past")
                                                       : tr("OK");
        QList<QStandardItem*> row{
            item(QString::number(attribute.id), attribute.id),
            item(toQString(attribute.name)),
            item(orDash(attribute.value),
                 attribute.value ? QVariant(*attribute.value) : QVariant(-1)),
            item(orDash(attribute.worst),
                 attribute.worst ? QVariant(*attribute.worst) : QVariant(-1)),
            item(orDash(attribute.thresh),
                 attribute.thresh ? QVariant(*attribute.thresh) : QVariant(-1)),
            item(toQString(attribute.rawText), QVariant::fromValue<qulonglong>(attribute.raw)),
            item(attribute.prefailure ? tr("Pre-fail") : tr("Old-age")),
            item(state, attribute.failingNow     ? 2
                        : attribute.failedInPast ? 1
                                                 : 0)};
        if (attribute.failingNow || attribute.failedInPast) {
            const QColor background =
                attribute.failingNow ? theme::kBadBackground : theme::kCautionBackground;
            for (auto* cell : row) {
                cell->setBackground(background);
                cell->setToolTip(attribute.failingNow
                                     ? tr("The normalized value is at or below the threshold now")
                                     : tr("The worst value reached the threshold in the past"));
            }
        }
        m_attributeModel->appendRow(row);
    }
    m_attributes->resizeColumnsToContents();
}

void HealthPage::showNvme(const smart::SmartReport* report) {
    m_nvme->setRowCount(0);
    if (report == nullptr || !report->nvme) {
        return;
    }
    const auto& nvme = *report->nvme;
    QStringList warnings;
    for (const auto& bit : smart::nvmeCriticalWarningBits()) {
        if ((nvme.criticalWarning & bit.mask) != 0) {
            warnings << toQString(std::string(bit.meaning));
        }
    }
    const QList<QPair<QString, QString>> rows{
        {tr("Critical warning"),
         QStringLiteral("0x%1").arg(nvme.criticalWarning, 2, 16, QLatin1Char('0')) +
             (warnings.isEmpty() ? tr(" (none)")
                                 : QStringLiteral(": ") + warnings.join(QStringLiteral("; ")))},
        {tr("Temperature"),
         nvme.temperatureC ? QStringLiteral("%1 °C").arg(*nvme.temperatureC) : QStringLiteral("—")},
        {tr("Available spare"),
         tr("%1 % (threshold %2 %)")
             .arg(orDash(nvme.availableSpare), orDash(nvme.availableSpareThreshold))},
        {tr("Percentage used"), orDash(nvme.percentageUsed) + QStringLiteral(" %")},
        {tr("Data units read"), counterText(nvme.dataUnitsRead)},
        {tr("Data units written"), counterText(nvme.dataUnitsWritten)},
        {tr("Host read commands"), counterText(nvme.hostReads)},
        {tr("Host write commands"), counterText(nvme.hostWrites)},
        {tr("Controller busy time (min)"), counterText(nvme.controllerBusyTime)},
        {tr("Power cycles"), counterText(nvme.powerCycles)},
        {tr("Power-on hours"), counterText(nvme.powerOnHours)},
        {tr("Unsafe shutdowns"), counterText(nvme.unsafeShutdowns)},
        {tr("Media and data integrity errors"), counterText(nvme.mediaErrors)},
        {tr("Error log entries"), counterText(nvme.numErrLogEntries)},
        {tr("Warning temperature time (min)"), orDash(nvme.warningTempTime)},
        {tr("Critical temperature time (min)"), orDash(nvme.criticalCompTime)},
    };
    m_nvme->setRowCount(static_cast<int>(rows.size()));
    for (int i = 0; i < rows.size(); ++i) {
        m_nvme->setItem(i, 0, new QTableWidgetItem(rows[i].first));
        auto* value = new QTableWidgetItem(rows[i].second);
        if (i == 0 && nvme.criticalWarning != 0) {
            value->setForeground(theme::kError);
        }
        m_nvme->setItem(i, 1, value);
    }
    m_nvme->resizeColumnToContents(0);
}

void HealthPage::showSelfTest(const smart::SmartReport* report) {
    m_selfTestLog->setRowCount(0);
    const bool running = report != nullptr && report->selfTest && report->selfTest->running;
    m_selfTestProgress->setVisible(running);
    if (running) {
        m_selfTestProgress->setValue(100 - report->selfTest->percentRemaining.value_or(100));
        m_selfTestPoll.start();
    } else {
        m_selfTestPoll.stop();
    }
    if (report == nullptr || !report->selfTest) {
        m_selfTestText->setText(tr("No self-test information was read."));
        return;
    }
    const auto& state = *report->selfTest;
    QString text =
        running
            ? tr("A self-test is running: %1 % remaining.").arg(state.percentRemaining.value_or(0))
            : tr("Last status: %1").arg(toQString(state.statusText));
    if (state.shortMinutes || state.extendedMinutes) {
        text += tr(" A short test takes about %1 min, an extended one about %2 min.")
                    .arg(orDash(state.shortMinutes), orDash(state.extendedMinutes));
    }
    m_selfTestText->setText(text);
    m_selfTestLog->setRowCount(static_cast<int>(state.log.size()));
    for (int i = 0; i < static_cast<int>(state.log.size()); ++i) {
        const auto& entry = state.log[static_cast<std::size_t>(i)];
        m_selfTestLog->setItem(i, 0, new QTableWidgetItem(toQString(entry.type)));
        auto* result = new QTableWidgetItem(toQString(entry.status));
        if (!entry.passed) {
            result->setForeground(theme::kError);
        }
        m_selfTestLog->setItem(i, 1, result);
        m_selfTestLog->setItem(i, 2, new QTableWidgetItem(orDash(entry.lifetimeHours)));
    }
}

void HealthPage::updateButtons() {
    const bool live = m_device.has_value() && !m_showingReplay;
    const bool hasSmart = m_shown && m_shown->report.has_value();
    const bool running =
        hasSmart && m_shown->report->selfTest && m_shown->report->selfTest->running;
    m_refresh->setEnabled(!m_busy && m_device.has_value());
    m_openReport->setEnabled(!m_busy);
    m_saveReport->setEnabled(!m_busy && canSaveReport());
    m_shortTest->setEnabled(!m_busy && live && hasSmart && !running);
    m_longTest->setEnabled(!m_busy && live && hasSmart && !running);
    m_abortTest->setEnabled(!m_busy && live && running);
}

} // namespace ssdk::app
