#include "app/widgets/badge.h"

#include <QFontMetrics>
#include <QPainter>

#include "app/theme.h"

namespace ssdk::app {

BadgeStyle labBadgeStyle() {
    return {theme::kLab, Qt::white};
}

BadgeStyle systemBadgeStyle() {
    return {theme::kSystemBackground, theme::kSystem};
}

QFont badgeFont(const QFont& base) {
    QFont font = base;
    font.setBold(true);
    font.setPointSizeF(base.pointSizeF() > 0 ? base.pointSizeF() * 0.78 : 7.5);
    font.setLetterSpacing(QFont::AbsoluteSpacing, 0.6);
    return font;
}

QSize badgeSize(const QFont& base, const QString& text) {
    const QFontMetrics metrics(badgeFont(base));
    return {metrics.horizontalAdvance(text) + 12, metrics.height() + 4};
}

void paintBadge(QPainter& painter, const QRect& rect, const QString& text, const BadgeStyle& style,
                const QFont& base) {
    painter.save();
    painter.setRenderHint(QPainter::Antialiasing);
    painter.setPen(Qt::NoPen);
    painter.setBrush(style.background);
    const qreal radius = rect.height() / 2.0;
    painter.drawRoundedRect(QRectF(rect), radius, radius);
    painter.setPen(style.foreground);
    painter.setFont(badgeFont(base));
    painter.drawText(rect, Qt::AlignCenter, text);
    painter.restore();
}

Badge::Badge(const QString& text, const BadgeStyle& style, QWidget* parent)
    : QWidget(parent)
    , m_text(text)
    , m_style(style) {
    setSizePolicy(QSizePolicy::Fixed, QSizePolicy::Fixed);
    setAccessibleName(text);
}

QSize Badge::sizeHint() const {
    return badgeSize(font(), m_text);
}

void Badge::paintEvent(QPaintEvent*) {
    QPainter painter(this);
    paintBadge(painter, rect(), m_text, m_style, font());
}

} // namespace ssdk::app
