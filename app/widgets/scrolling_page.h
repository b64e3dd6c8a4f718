#pragma once

#include <QString>

class QLabel;
class QProgressBar;
class QWidget;

namespace ssdk::app {

// The progress bar and status line under a scrolling page body.
struct PageFooter {
    QProgressBar* progress;
    QLabel* status;
};

// Lays page out as content in a vertical scroll area, with a thin progress bar (hidden, range
// 0-1000) and a muted, wrapping status line below it that stay in view. They are named
// "<area>.progress" and "<area>.status" for tests.
PageFooter layOutScrollingPage(QWidget& page, QWidget* content, const QString& area);

} // namespace ssdk::app
