#include "app/settings_store.h"

#include <QAbstractButton>
#include <QAbstractSlider>
#include <QComboBox>
#include <QDoubleSpinBox>
#include <QLineEdit>
#include <QSpinBox>
#include <QWidget>

namespace ssdk::app {

namespace {

QString keyOf(const QWidget& widget) {
    return QStringLiteral("options/") + widget.objectName();
}

QList<QWidget*> rememberedBelow(const QWidget& root) {
    QList<QWidget*> found;
    for (QWidget* widget : root.findChildren<QWidget*>()) {
        if (widget->property("remember").toBool() && !widget->objectName().isEmpty()) {
            found << widget;
        }
    }
    return found;
}

} // namespace

std::unique_ptr<QSettings> openSettings() {
    const QString file = qEnvironmentVariable("SSDK_SETTINGS");
    if (!file.isEmpty()) {
        return std::make_unique<QSettings>(file, QSettings::IniFormat);
    }
    return std::make_unique<QSettings>(QStringLiteral("SSDKeeper"), QStringLiteral("ssdkeeper"));
}

void remember(QWidget* widget) {
    widget->setProperty("remember", true);
}

void saveRemembered(const QWidget& root, QSettings& settings) {
    for (const QWidget* widget : rememberedBelow(root)) {
        const QString key = keyOf(*widget);
        if (const auto* button = qobject_cast<const QAbstractButton*>(widget)) {
            settings.setValue(key, button->isChecked());
        } else if (const auto* combo = qobject_cast<const QComboBox*>(widget)) {
            settings.setValue(key, combo->currentText());
        } else if (const auto* spin = qobject_cast<const QSpinBox*>(widget)) {
            settings.setValue(key, spin->value());
        } else if (const auto* doubleSpin = qobject_cast<const QDoubleSpinBox*>(widget)) {
            settings.setValue(key, doubleSpin->value());
        } else if (const auto* slider = qobject_cast<const QAbstractSlider*>(widget)) {
            settings.setValue(key, slider->value());
        } else if (const auto* edit = qobject_cast<const QLineEdit*>(widget)) {
            settings.setValue(key, edit->text());
        }
    }
}

void restoreRemembered(QWidget& root, const QSettings& settings) {
    for (QWidget* widget : rememberedBelow(root)) {
        const QVariant value = settings.value(keyOf(*widget));
        if (!value.isValid()) {
            continue;
        }
        if (auto* button = qobject_cast<QAbstractButton*>(widget)) {
            if (button->isCheckable()) {
                button->setChecked(value.toBool());
            }
        } else if (auto* combo = qobject_cast<QComboBox*>(widget)) {
            if (const int index = combo->findText(value.toString()); index >= 0) {
                combo->setCurrentIndex(index);
            }
        } else if (auto* spin = qobject_cast<QSpinBox*>(widget)) {
            spin->setValue(value.toInt());
        } else if (auto* doubleSpin = qobject_cast<QDoubleSpinBox*>(widget)) {
            doubleSpin->setValue(value.toDouble());
        } else if (auto* slider = qobject_cast<QAbstractSlider*>(widget)) {
            slider->setValue(value.toInt());
        } else if (auto* edit = qobject_cast<QLineEdit*>(widget)) {
            edit->setText(value.toString());
        }
    }
}

} // namespace ssdk::app
