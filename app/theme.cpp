#include "app/theme.h"

#include <QApplication>
#include <QFont>
#include <QPalette>
#include <QStyleFactory>

namespace ssdk::app {

namespace {

QString styleSheet() {
    return QStringLiteral(R"(
QFrame[role="card"] {
    background: #ffffff;
    border: 1px solid #e1e4e8;
    border-radius: 8px;
}
QLabel[role="section"] {
    color: #374151;
    font-weight: 600;
    font-size: 11pt;
}
QLabel[role="title"] {
    color: #1f2328;
    font-weight: 600;
    font-size: 15pt;
}
QLabel[role="subtitle"], QLabel[role="muted"], QLabel[role="field"] {
    color: #5f6773;
}
QLabel[role="empty"] {
    color: #5f6773;
    font-size: 11pt;
}
QLabel[role="emptyTitle"] {
    color: #1f2328;
    font-size: 14pt;
    font-weight: 600;
}
QLabel[role="error"] {
    color: #b91c1c;
}
QListView#driveList {
    background: #ffffff;
    border: none;
    border-right: 1px solid #e1e4e8;
}
QLabel#drivesHeader {
    background: #ffffff;
    color: #5f6773;
    font-weight: 600;
    padding: 12px 16px 6px 16px;
    border-right: 1px solid #e1e4e8;
}
QTabWidget::pane {
    border: none;
    border-top: 1px solid #e1e4e8;
}
QTabBar::tab {
    padding: 8px 18px;
    border: none;
    color: #5f6773;
    background: transparent;
}
QTabBar::tab:selected {
    color: #2563eb;
    border-bottom: 2px solid #2563eb;
    font-weight: 600;
}
QTableWidget {
    border: none;
    gridline-color: #eef0f3;
}
QTableWidget::item {
    padding: 0px 8px;
}
QHeaderView::section {
    background: #f8f9fb;
    color: #5f6773;
    border: none;
    border-bottom: 1px solid #e1e4e8;
    padding: 6px 8px;
    font-weight: 600;
}
QToolBar {
    background: #ffffff;
    border: none;
    border-bottom: 1px solid #e1e4e8;
    spacing: 4px;
    padding: 4px 8px;
}
QToolButton {
    padding: 4px 10px;
    border-radius: 4px;
}
QToolButton:hover {
    background: #eef1f6;
}
QStatusBar {
    background: #ffffff;
    border-top: 1px solid #e1e4e8;
}
)");
}

} // namespace

void applyTheme(QApplication& application) {
    if (auto* fusion = QStyleFactory::create(QStringLiteral("Fusion"))) {
        QApplication::setStyle(fusion);
    }
    QPalette palette;
    palette.setColor(QPalette::Window, theme::kWindow);
    palette.setColor(QPalette::WindowText, theme::kText);
    palette.setColor(QPalette::Base, theme::kCard);
    palette.setColor(QPalette::AlternateBase, QColor(0xf8, 0xf9, 0xfb));
    palette.setColor(QPalette::Text, theme::kText);
    palette.setColor(QPalette::Button, QColor(0xf8, 0xf9, 0xfb));
    palette.setColor(QPalette::ButtonText, theme::kText);
    palette.setColor(QPalette::Highlight, theme::kAccent);
    palette.setColor(QPalette::HighlightedText, Qt::white);
    palette.setColor(QPalette::ToolTipBase, QColor(0x1f, 0x23, 0x28));
    palette.setColor(QPalette::ToolTipText, Qt::white);
    palette.setColor(QPalette::PlaceholderText, theme::kMutedText);
    palette.setColor(QPalette::Disabled, QPalette::Text, QColor(0xa0, 0xa6, 0xb0));
    palette.setColor(QPalette::Disabled, QPalette::ButtonText, QColor(0xa0, 0xa6, 0xb0));
    palette.setColor(QPalette::Disabled, QPalette::WindowText, QColor(0xa0, 0xa6, 0xb0));
    QApplication::setPalette(palette);

    QFont font(QStringLiteral("DejaVu Sans"));
    font.setPointSizeF(9.5);
    QApplication::setFont(font);
    application.setStyleSheet(styleSheet());
}

} // namespace ssdk::app
