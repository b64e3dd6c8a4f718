#include "app/widgets/empty_table.h"

#include <QAbstractItemModel>
#include <QAbstractItemView>
#include <QLabel>
#include <QVBoxLayout>

namespace ssdk::app {

QWidget* withEmptyText(QAbstractItemView* view, const QString& text) {
    auto* box = new QWidget;
    auto* layout = new QVBoxLayout(box);
    layout->setContentsMargins(0, 0, 0, 0);
    auto* empty = new QLabel(text);
    empty->setObjectName(view->objectName() + QStringLiteral(".empty"));
    empty->setProperty("role", QStringLiteral("muted"));
    empty->setWordWrap(true);
    layout->addWidget(empty);
    layout->addWidget(view);
    QAbstractItemModel* model = view->model();
    const auto update = [view, empty, model] {
        const bool none = model->rowCount() == 0;
        empty->setVisible(none);
        view->setVisible(!none);
    };
    // The line goes before the view and its model (it is box's first child), so the model's
    // signals while the view is being destroyed reach no one.
    QObject::connect(model, &QAbstractItemModel::rowsInserted, empty, update);
    QObject::connect(model, &QAbstractItemModel::rowsRemoved, empty, update);
    QObject::connect(model, &QAbstractItemModel::modelReset, empty, update);
    QObject::connect(model, &QAbstractItemModel::layoutChanged, empty, update);
    update();
    return box;
}

} // namespace ssdk::app
