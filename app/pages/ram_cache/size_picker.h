#pragma once

#include <cstdint>

#include <QWidget>

#include "core/cachectl/verbs.h"

class QLabel;
class QPushButton;
class QSlider;

namespace ssdk::app::ramcache {

// The cache's size in MiB on a slider over the machine's RAM (up to 75 % of it), a
// "Suggested" button for RAPID's rule (a quarter of the RAM, at most 4 GiB) and a line saying
// what the size is against the RAM, warning above the suggestion.
class SizePicker final : public QWidget {
    Q_OBJECT
public:
    explicit SizePicker(QWidget* parent = nullptr);

    // The machine's RAM from cache.probe: the slider's range and the suggestion.
    void setRam(const cachectl::RamReport& ram);
    // The slider and the button; the line stays readable either way.
    void setChangeable(bool changeable);
    std::uint64_t bytes() const;

private:
    void useSuggested();
    void updateLabel();

    cachectl::RamReport m_ram;
    QSlider* m_size;
    QPushButton* m_suggest;
    QLabel* m_label;
};

} // namespace ssdk::app::ramcache
