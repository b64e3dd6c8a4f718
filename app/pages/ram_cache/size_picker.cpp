#include "app/pages/ram_cache/size_picker.h"

#include <algorithm>

#include <QHBoxLayout>
#include <QLabel>
#include <QPushButton>
#include <QSlider>

#include "app/pages/ram_cache/units.h"

namespace ssdk::app::ramcache {

SizePicker::SizePicker(QWidget* parent)
    : QWidget(parent) {
    m_size = new QSlider(Qt::Horizontal);
    m_size->setObjectName("ramcache.size");
    m_size->setAccessibleName(tr("Cache size"));
    m_size->setRange(16, 1024);
    m_size->setSingleStep(16);
    m_size->setPageStep(256);
    m_label = new QLabel;
    m_label->setObjectName("ramcache.sizeLabel");
    m_label->setWordWrap(true);
    m_suggest = new QPushButton(tr("Suggested"));
    m_suggest->setObjectName("ramcache.suggest");
    auto* row = new QHBoxLayout(this);
    row->setContentsMargins(0, 0, 0, 0);
    row->addWidget(m_size, 1);
    row->addWidget(m_suggest);
    connect(m_size, &QSlider::valueChanged, this, [this] {
        updateLabel();
        emit changed();
    });
    connect(m_suggest, &QPushButton::clicked, this, [this] { useSuggested(); });
}

void SizePicker::setRam(const cachectl::RamReport& ram) {
    m_ram = ram;
    // RAM: up to 75 % of it on the slider; RAPID's 25 %/4 GiB is the suggestion.
    const int maxMiB = static_cast<int>(std::max<std::uint64_t>(ram.totalBytes * 3 / 4 / kMiB, 64));
    m_size->setRange(16, maxMiB);
    if (m_size->value() == 16 || m_size->value() > maxMiB) {
        useSuggested();
    }
    updateLabel();
}

void SizePicker::setChangeable(bool changeable) {
    m_size->setEnabled(changeable);
    m_suggest->setEnabled(changeable);
}

std::uint64_t SizePicker::bytes() const {
    return static_cast<std::uint64_t>(m_size->value()) * kMiB;
}

void SizePicker::useSuggested() {
    m_size->setValue(static_cast<int>(std::max<std::uint64_t>(m_ram.suggestedBytes / kMiB, 16)));
}

void SizePicker::updateLabel() {
    const std::uint64_t size = bytes();
    QString text = tr("%1 of %2 RAM (%3 free). Suggested: %4 (a quarter of the RAM, at most "
                      "4 GiB).")
                       .arg(iec(size), iec(m_ram.totalBytes), iec(m_ram.availableBytes),
                            iec(m_ram.suggestedBytes));
    if (m_ram.suggestedBytes > 0 && size > m_ram.suggestedBytes) {
        text += QLatin1Char(' ') + tr("More than suggested: leave enough RAM for programs.");
    }
    m_label->setText(text);
}

} // namespace ssdk::app::ramcache
