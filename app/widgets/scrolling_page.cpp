#include "app/widgets/scrolling_page.h"

#include <QLabel>
#include <QProgressBar>
#include <QScrollArea>
#include <QVBoxLayout>

namespace ssdk::app {

PageFooter layOutScrollingPage(QWidget& page, QWidget* content, const QString& area) {
    auto* scroll = new QScrollArea;
    scroll->setWidgetResizable(true);
    scroll->setHorizontalScrollBarPolicy(Qt::ScrollBarAlwaysOff);
    scroll->setFrameShape(QFrame::NoFrame);
    scroll->setWidget(content);

    auto* progress = new QProgressBar;
    progress->setObjectName(area + QStringLiteral(".progress"));
    progress->setRange(0, 1000);
    progress->setTextVisible(false);
    progress->setMaximumHeight(8);
    progress->hide();
    auto* status = new QLabel;
    status->setObjectName(area + QStringLiteral(".status"));
    status->setProperty("role", QStringLiteral("muted"));
    status->setWordWrap(true);

    auto* outer = new QVBoxLayout(&page);
    outer->addWidget(scroll, 1);
    outer->addWidget(progress);
    outer->addWidget(status);
    return {progress, status};
}

} // namespace ssdk::app
