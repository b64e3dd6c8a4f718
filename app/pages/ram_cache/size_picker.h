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
// what the size is against the RAM, warning above the suggestion. The line is note(), for the
// caller to place on a row of its own: a wrapping label inside this widget's layout is not
// given its height in a form at 200 % scaling.
class SizePicker final : public QWidget {
    Q_OBJECT
public:
    explicit SizePicker(QWidget* parent = nullptr);

    // The machine's RAM from cache.probe: the slider's range and the suggestion.
    void setRam(const cachectl::RamReport& ram);
    // The slider and the button; the line stays readable either way.
    void setChangeable(bool changeable);
    std::uint64_t bytes() const;
    QLabel* note() const { return m_label; }

signals:
    void changed(); // another size

private:
    void useSuggested();
    void updateLabel();

    cachectl::RamReport m_ram;
    QSlider* m_size;
    QPushButton* m_suggest;
    QLabel* m_label;
};

} // namespace ssdk::app::ramcache
