#pragma once

#include <QColor>
#include <QString>

class QApplication;

namespace ssdk::app {

// The application's colours, in one place so pages, delegates and painted widgets agree.
namespace theme {

inline const QColor kWindow{0xf4, 0xf5, 0xf7};
inline const QColor kCard{0xff, 0xff, 0xff};
inline const QColor kBorder{0xe1, 0xe4, 0xe8};
inline const QColor kText{0x1f, 0x23, 0x28};
inline const QColor kMutedText{0x5f, 0x67, 0x73};
inline const QColor kAccent{0x25, 0x63, 0xeb};
inline const QColor kSelection{0xe3, 0xec, 0xfd};
inline const QColor kHover{0xee, 0xf1, 0xf6};
inline const QColor kLab{0xd9, 0x77, 0x06};
inline const QColor kSystem{0x47, 0x55, 0x69};
inline const QColor kSystemBackground{0xe2, 0xe8, 0xf0};
inline const QColor kError{0xb9, 0x1c, 0x1c};
inline const QColor kSuccess{0x15, 0x80, 0x3d};
inline const QColor kTrack{0xee, 0xf0, 0xf3};
inline const QColor kHatch{0xc3, 0xc8, 0xd0};

} // namespace theme

// Fusion style, the light palette above, DejaVu Sans and the stylesheet for cards and
// section headers (widgets opt in with the "role" property: "card", "section", "muted", …).
void applyTheme(QApplication& application);

} // namespace ssdk::app
