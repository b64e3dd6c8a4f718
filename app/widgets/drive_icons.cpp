#include "app/widgets/drive_icons.h"

#include <QPainter>
#include <QPainterPath>
#include <QPixmapCache>
#include <QPolygonF>

namespace ssdk::app {

using device::Bus;

QColor busColor(Bus bus) {
    switch (bus) {
    case Bus::Nvme:
        return {0x25, 0x63, 0xeb};
    case Bus::Sata:
        return {0x0d, 0x94, 0x88};
    case Bus::Scsi:
        return {0x4f, 0x46, 0xe5};
    case Bus::Usb:
        return {0x16, 0xa3, 0x4a};
    case Bus::Virtio:
        return {0x7c, 0x3a, 0xed};
    case Bus::Mmc:
        return {0xdb, 0x27, 0x77};
    case Bus::Loop:
        return {0xd9, 0x77, 0x06};
    case Bus::Zram:
        return {0xdc, 0x26, 0x26};
    case Bus::DeviceMapper:
        return {0x47, 0x55, 0x69};
    case Bus::Md:
        return {0x08, 0x91, 0xb2};
    case Bus::Unknown:
        break;
    }
    return {0x6b, 0x72, 0x80};
}

namespace {

// All painters draw in a 100x100 box; the caller scales.
const QColor kGold{0xe0, 0xb1, 0x3a};
const QColor kChip{0x1f, 0x29, 0x37};

void paintM2Stick(QPainter& p, const QColor& color) {
    QPainterPath board;
    board.addRoundedRect(QRectF(6, 34, 88, 32), 3, 3);
    QPainterPath screwNotch;
    screwNotch.addEllipse(QPointF(94, 50), 5, 5);
    p.fillPath(board.subtracted(screwNotch), color);
    for (int i = 0; i < 6; ++i) {
        p.fillRect(QRectF(8, 38 + i * 4.2, 6, 2.4), kGold);
    }
    p.setPen(Qt::NoPen);
    p.setBrush(kChip);
    p.drawRoundedRect(QRectF(22, 40, 20, 20), 2, 2);
    p.drawRoundedRect(QRectF(48, 40, 16, 20), 2, 2);
    p.drawRoundedRect(QRectF(68, 40, 16, 20), 2, 2);
}

void paintDriveCase(QPainter& p, const QColor& color, bool rotational) {
    p.setPen(Qt::NoPen);
    p.setBrush(color);
    p.drawRoundedRect(QRectF(18, 8, 64, 84), 8, 8);
    if (rotational) {
        p.setBrush(QColor(255, 255, 255, 225));
        p.drawEllipse(QPointF(50, 44), 24, 24);
        p.setBrush(color.darker(120));
        p.drawEllipse(QPointF(50, 44), 5, 5);
        p.setPen(QPen(QColor(255, 255, 255), 4, Qt::SolidLine, Qt::RoundCap));
        p.drawLine(QPointF(72, 82), QPointF(58, 58));
    } else {
        p.setBrush(QColor(255, 255, 255, 225));
        p.drawRoundedRect(QRectF(28, 20, 44, 34), 4, 4);
        p.setBrush(color.darker(115));
        p.drawRoundedRect(QRectF(34, 28, 32, 6), 2, 2);
        p.drawRoundedRect(QRectF(34, 40, 20, 6), 2, 2);
    }
    p.setPen(Qt::NoPen);
    p.setBrush(kGold);
    p.drawRect(QRectF(30, 86, 24, 6));
    p.drawRect(QRectF(58, 86, 12, 6));
}

void paintUsbStick(QPainter& p, const QColor& color) {
    p.setPen(Qt::NoPen);
    p.setBrush(QColor(0xb8, 0xbf, 0xc9));
    p.drawRect(QRectF(34, 6, 32, 26));
    p.setBrush(QColor(0x6b, 0x72, 0x80));
    p.drawRect(QRectF(40, 12, 7, 7));
    p.drawRect(QRectF(53, 12, 7, 7));
    p.setBrush(color);
    p.drawRoundedRect(QRectF(26, 30, 48, 64), 9, 9);
    p.setBrush(QColor(255, 255, 255, 200));
    p.drawEllipse(QPointF(50, 80), 5, 5);
}

void paintSdCard(QPainter& p, const QColor& color) {
    QPolygonF card;
    card << QPointF(22, 8) << QPointF(64, 8) << QPointF(80, 24) << QPointF(80, 92)
         << QPointF(22, 92);
    QPainterPath path;
    path.addPolygon(card);
    path.closeSubpath();
    p.fillPath(path, color);
    for (int i = 0; i < 5; ++i) {
        p.fillRect(QRectF(28 + i * 9, 14, 5, 14), kGold);
    }
    p.fillRect(QRectF(30, 50, 42, 30), QColor(255, 255, 255, 200));
}

void paintVirtualDisk(QPainter& p, const QColor& color) {
    const QPointF top(50, 10), left(14, 30), right(86, 30), centre(50, 50), bottomLeft(14, 72),
        bottomRight(86, 72), bottom(50, 92);
    p.setPen(Qt::NoPen);
    p.setBrush(color.lighter(135));
    p.drawPolygon(QPolygonF({top, right, centre, left}));
    p.setBrush(color);
    p.drawPolygon(QPolygonF({left, centre, bottom, bottomLeft}));
    p.setBrush(color.darker(125));
    p.drawPolygon(QPolygonF({centre, right, bottomRight, bottom}));
}

void paintImageFile(QPainter& p, const QColor& color) {
    QPainterPath page;
    page.moveTo(20, 6);
    page.lineTo(62, 6);
    page.lineTo(82, 26);
    page.lineTo(82, 94);
    page.lineTo(20, 94);
    page.closeSubpath();
    p.fillPath(page, color);
    QPainterPath fold;
    fold.moveTo(62, 6);
    fold.lineTo(62, 26);
    fold.lineTo(82, 26);
    fold.closeSubpath();
    p.fillPath(fold, color.lighter(140));
    // A loop arrow: the image is attached back as a block device.
    p.setPen(QPen(Qt::white, 6, Qt::SolidLine, Qt::RoundCap));
    p.setBrush(Qt::NoBrush);
    p.drawArc(QRectF(33, 42, 36, 36), 60 * 16, 280 * 16);
    p.setPen(Qt::NoPen);
    p.setBrush(Qt::white);
    p.drawPolygon(QPolygonF({QPointF(58, 36), QPointF(70, 46), QPointF(55, 50)}));
}

void paintRamModule(QPainter& p, const QColor& color) {
    p.setPen(Qt::NoPen);
    p.setBrush(color);
    QPainterPath board;
    board.addRoundedRect(QRectF(4, 28, 92, 40), 3, 3);
    QPainterPath notch;
    notch.addRect(QRectF(46, 62, 8, 8));
    p.fillPath(board.subtracted(notch), color);
    p.setBrush(kChip);
    for (int i = 0; i < 4; ++i) {
        p.drawRoundedRect(QRectF(10 + i * 21, 34, 16, 18), 2, 2);
    }
    for (int i = 0; i < 11; ++i) {
        const double x = 8 + i * 8.0;
        if (x > 42 && x < 56) {
            continue;
        }
        p.fillRect(QRectF(x, 58, 4, 6), kGold);
    }
}

void paintStack(QPainter& p, const QColor& color) {
    p.setPen(QPen(Qt::white, 3));
    for (int i = 2; i >= 0; --i) {
        p.setBrush(i == 0 ? color : color.lighter(115 + i * 20));
        p.drawRoundedRect(QRectF(10 + i * 8, 50 - i * 18, 64, 34), 6, 6);
    }
}

void paintArray(QPainter& p, const QColor& color) {
    p.setPen(Qt::NoPen);
    for (int i = 0; i < 3; ++i) {
        p.setBrush(i == 1 ? color : color.lighter(125));
        p.drawRoundedRect(QRectF(8 + i * 30, 14, 24, 72), 4, 4);
        p.setBrush(QColor(255, 255, 255, 210));
        p.drawEllipse(QPointF(20 + i * 30, 74), 3.5, 3.5);
    }
}

void paintUnknown(QPainter& p, const QColor& color) {
    paintDriveCase(p, color, false);
}

void paintIcon(QPainter& p, Bus bus, bool rotational) {
    const QColor color = busColor(bus);
    switch (bus) {
    case Bus::Nvme:
        paintM2Stick(p, color);
        return;
    case Bus::Sata:
    case Bus::Scsi:
        paintDriveCase(p, color, rotational);
        return;
    case Bus::Usb:
        paintUsbStick(p, color);
        return;
    case Bus::Virtio:
        paintVirtualDisk(p, color);
        return;
    case Bus::Mmc:
        paintSdCard(p, color);
        return;
    case Bus::Loop:
        paintImageFile(p, color);
        return;
    case Bus::Zram:
        paintRamModule(p, color);
        return;
    case Bus::DeviceMapper:
        paintStack(p, color);
        return;
    case Bus::Md:
        paintArray(p, color);
        return;
    case Bus::Unknown:
        break;
    }
    paintUnknown(p, color);
}

} // namespace

QPixmap driveIcon(Bus bus, bool rotational, int size, qreal devicePixelRatio) {
    const QString key = QStringLiteral("ssdk-drive-icon/%1/%2/%3/%4")
                            .arg(static_cast<int>(bus))
                            .arg(rotational)
                            .arg(size)
                            .arg(devicePixelRatio);
    if (QPixmap cached; QPixmapCache::find(key, &cached)) {
        return cached;
    }
    const int pixels = qRound(size * devicePixelRatio);
    QPixmap pixmap(pixels, pixels);
    pixmap.fill(Qt::transparent);
    {
        QPainter painter(&pixmap);
        painter.setRenderHint(QPainter::Antialiasing);
        painter.scale(pixels / 100.0, pixels / 100.0);
        paintIcon(painter, bus, rotational);
    }
    pixmap.setDevicePixelRatio(devicePixelRatio);
    QPixmapCache::insert(key, pixmap);
    return pixmap;
}

} // namespace ssdk::app
