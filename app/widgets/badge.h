#pragma once

#include <QColor>
#include <QFont>
#include <QWidget>

namespace ssdk::app {

// A small rounded "pill" with a word in it ("LAB", "SYSTEM"), painted the same way in the
// drive list delegate and as a widget on the pages.
struct BadgeStyle {
    QColor background;
    QColor foreground;
};

BadgeStyle labBadgeStyle();
BadgeStyle systemBadgeStyle();

// The font badges use: a bold, slightly smaller variant of base.
QFont badgeFont(const QFont& base);
QSize badgeSize(const QFont& base, const QString& text);
void paintBadge(QPainter& painter, const QRect& rect, const QString& text, const BadgeStyle& style,
                const QFont& base);

class Badge : public QWidget {
    Q_OBJECT
public:
    Badge(const QString& text, const BadgeStyle& style, QWidget* parent = nullptr);

    QString text() const { return m_text; }
    QSize sizeHint() const override;
    QSize minimumSizeHint() const override { return sizeHint(); }

protected:
    void paintEvent(QPaintEvent* event) override;

private:
    QString m_text;
    BadgeStyle m_style;
};

} // namespace ssdk::app
