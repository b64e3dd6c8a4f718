#pragma once

class QAbstractItemView;
class QString;
class QWidget;

namespace ssdk::app {

// view with a short muted line ("No … yet") above it that stands in for the view whenever its
// model has no rows: an empty grid says nothing, the line says what will fill it. The line is
// named "<view's objectName>.empty" for tests. The model must be set before this is called.
QWidget* withEmptyText(QAbstractItemView* view, const QString& text);

} // namespace ssdk::app
