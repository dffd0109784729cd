// The theme (ui/theme): every verdict, node health, audit severity and action has an icon that draws, each
// state's icon differs from the others' and takes its colour from the state palette; the palette's light and
// dark variants differ and read on their backgrounds; the verdict column shows the verdict's icon.
#include "models/LocksModel.h"
#include "support/UiTestSupport.h"
#include "theme/Icons.h"
#include "theme/StatePalette.h"

#include <QApplication>
#include <QFile>
#include <QStyle>
#include <QStyleFactory>
#include <QtTest>

#include <memory>

using namespace redlock;

namespace {

QImage render(const QIcon& icon, int size = 16)
{
    return icon.pixmap(size, size).toImage().convertToFormat(QImage::Format_ARGB32);
}

int opaquePixels(const QImage& image)
{
    int n = 0;
    for (int y = 0; y < image.height(); ++y)
        for (int x = 0; x < image.width(); ++x)
            n += qAlpha(image.pixel(x, y)) > 128;
    return n;
}

// The colour of the icon's fully opaque pixels (antialiased edges left out).
QColor inkOf(const QImage& image)
{
    for (int y = 0; y < image.height(); ++y)
        for (int x = 0; x < image.width(); ++x)
            if (qAlpha(image.pixel(x, y)) == 255)
                return QColor::fromRgb(image.pixel(x, y));
    return {};
}

// WCAG 2 relative luminance and contrast ratio.
double luminance(const QColor& c)
{
    const auto channel = [](double v) { return v <= 0.03928 ? v / 12.92 : std::pow((v + 0.055) / 1.055, 2.4); };
    return 0.2126 * channel(c.redF()) + 0.7152 * channel(c.greenF()) + 0.0722 * channel(c.blueF());
}

double contrast(const QColor& a, const QColor& b)
{
    const double la = luminance(a);
    const double lb = luminance(b);
    return (std::max(la, lb) + 0.05) / (std::min(la, lb) + 0.05);
}

template <typename T> QList<T> all(T last)
{
    QList<T> values;
    for (int i = 0; i <= int(last); ++i)
        values.append(T(i));
    return values;
}

QPalette lightPalette()
{
    const std::unique_ptr<QStyle> fusion(QStyleFactory::create(QStringLiteral("Fusion"))); // ours to delete
    return fusion->standardPalette();
}

} // namespace

class TestTheme : public QObject
{
    Q_OBJECT

    // Icons of one kind: each is a real file, draws something at 16 px, and no two look the same.
    void checkDistinct(const QList<std::pair<QString, QIcon>>& icons)
    {
        QList<QImage> images;
        for (const auto& [path, icon] : icons) {
            QVERIFY2(QFile::exists(path), qPrintable(path));
            QVERIFY2(!icon.isNull(), qPrintable(path));
            const QImage image = render(icon);
            QVERIFY2(opaquePixels(image) >= 8, qPrintable(path));
            for (qsizetype i = 0; i < images.size(); ++i)
                QVERIFY2(images[i] != image, qPrintable(path + QStringLiteral(" looks like ") + icons[i].first));
            images.append(image);
        }
    }

private slots:
    void init() { QApplication::setPalette(lightPalette()); }
    void cleanup() { QApplication::setPalette(lightPalette()); }

    void everyVerdictHasItsOwnIcon()
    {
        QList<std::pair<QString, QIcon>> icons;
        for (const LockVerdict v : all(LockVerdict::ReleasedByOperator)) {
            icons.append({Icons::verdictPath(v), Icons::verdict(v)});
            QVERIFY(!Icons::verdictGlyph(v).isEmpty());
        }
        checkDistinct(icons);
    }

    void everyNodeStateHasItsOwnIcon()
    {
        QList<std::pair<QString, QIcon>> health;
        for (const NodeHealth h : all(NodeHealth::Down)) {
            health.append({Icons::healthPath(h), Icons::health(h)});
            QVERIFY(!Icons::healthGlyph(h).isEmpty());
        }
        checkDistinct(health);
        QList<std::pair<QString, QIcon>> severities{{Icons::severityPath(std::nullopt), Icons::severity(std::nullopt)}};
        for (const auto s : all(AuditFinding::Severity::Severe))
            severities.append({Icons::severityPath(s), Icons::severity(s)});
        checkDistinct(severities);
    }

    void everyActionHasItsOwnIcon()
    {
        QList<std::pair<QString, QIcon>> icons;
        for (int a = 0; a < Icons::ActionCount; ++a)
            icons.append({Icons::actionPath(Icons::Action(a)), Icons::action(Icons::Action(a))});
        // About and an audit finding of severity Info share the "i"; among the actions each is distinct.
        checkDistinct(icons);
        QVERIFY(!Icons::application().isNull());
        // Sharp on a 2x screen: drawn at 32 device pixels for 16 logical ones, not scaled up.
        const QPixmap hidpi = Icons::action(Icons::Action::Connect).pixmap(QSize(16, 16), 2.0);
        QCOMPARE(hidpi.size(), QSize(32, 32));
        QCOMPARE(hidpi.devicePixelRatio(), 2.0);
    }

    // State icons are drawn in the state palette's colour for the palette in force; actions in its text colour.
    void iconsTakeTheColourOfThePaletteInForce()
    {
        QCOMPARE(inkOf(render(Icons::verdict(LockVerdict::Held))), StatePalette(false).color(StatePalette::Role::Held));
        QCOMPARE(inkOf(render(Icons::verdict(LockVerdict::Contested))),
                 StatePalette(false).color(StatePalette::Role::Contested));
        QCOMPARE(inkOf(render(Icons::action(Icons::Action::Refresh))), lightPalette().color(QPalette::ButtonText));

        QApplication::setPalette(StatePalette::darkApplicationPalette());
        QCOMPARE(inkOf(render(Icons::verdict(LockVerdict::Held))), StatePalette(true).color(StatePalette::Role::Held));
        QCOMPARE(inkOf(render(Icons::health(NodeHealth::Down))), StatePalette(true).color(StatePalette::Role::Danger));
        QCOMPARE(inkOf(render(Icons::action(Icons::Action::Refresh))),
                 StatePalette::darkApplicationPalette().color(QPalette::ButtonText));
    }

    void paletteVariantsDifferAndReadOnTheirBackgrounds()
    {
        const QPalette light = lightPalette();
        const QPalette dark = StatePalette::darkApplicationPalette();
        QVERIFY(!StatePalette::isDark(light));
        QVERIFY(StatePalette::isDark(dark));
        QVERIFY(!StatePalette::forPalette(light).dark());
        QVERIFY(StatePalette::forPalette(dark).dark());
        const StatePalette onLight(false);
        const StatePalette onDark(true);
        for (int r = 0; r < StatePalette::RoleCount; ++r) {
            const auto role = StatePalette::Role(r);
            const QString name = QString::number(r);
            QVERIFY2(onLight.color(role) != onDark.color(role), qPrintable(name));
            // Text contrast (WCAG AA, 4.5:1) on the window and on item views, in both variants.
            for (const QPalette::ColorRole background : {QPalette::Window, QPalette::Base}) {
                QVERIFY2(contrast(onLight.color(role), light.color(background)) >= 4.5,
                         qPrintable(name + QStringLiteral(" light: ") +
                                    QString::number(contrast(onLight.color(role), light.color(background)))));
                QVERIFY2(contrast(onDark.color(role), dark.color(background)) >= 4.5,
                         qPrintable(name + QStringLiteral(" dark: ") +
                                    QString::number(contrast(onDark.color(role), dark.color(background)))));
            }
            // The state colours tell states apart: no two roles share a colour.
            for (int other = 0; other < r; ++other) {
                QVERIFY(onLight.color(role) != onLight.color(StatePalette::Role(other)));
                QVERIFY(onDark.color(role) != onDark.color(StatePalette::Role(other)));
            }
        }
        // The dark palette's own text reads on its surfaces.
        QVERIFY(contrast(dark.color(QPalette::Text), dark.color(QPalette::Base)) >= 7.0);
        QVERIFY(contrast(dark.color(QPalette::WindowText), dark.color(QPalette::Window)) >= 7.0);
    }

    void setTextRoleColoursAndGivesBack()
    {
        QWidget parent;
        auto* label = new QWidget(&parent);
        const QColor inherited = label->palette().color(QPalette::WindowText);
        StatePalette::setTextRole(label, StatePalette::Role::Danger);
        QCOMPARE(label->palette().color(QPalette::WindowText), StatePalette(false).color(StatePalette::Role::Danger));
        StatePalette::setTextRole(label, std::nullopt);
        QCOMPARE(label->palette().color(QPalette::WindowText), inherited);
    }

    // The verdict column shows the verdict's icon; its text is the plain verdict (no glyph to translate).
    void verdictColumnShowsTheVerdictIcon()
    {
        LocksModel model;
        model.setCountdownInterval(0);
        model.reset(5);
        LockChangeSet changes;
        changes.appeared = {heldView("a", 20000), makeLockView("b", {"x", "y", "x", "y", ""}, {})};
        model.applyChanges(changes);
        for (int row = 0; row < model.rowCount(); ++row) {
            const QModelIndex index = model.index(row, LocksModel::VerdictColumn);
            const auto verdict = LockVerdict(index.data(LocksModel::VerdictRole).toInt());
            const QIcon icon = index.data(Qt::DecorationRole).value<QIcon>();
            QVERIFY(!icon.isNull());
            QCOMPARE(render(icon), render(Icons::verdict(verdict)));
            QVERIFY(index.data().toString().startsWith(lockVerdictName(verdict)));
            QVERIFY(model.index(row, LocksModel::KeyColumn).data(Qt::DecorationRole).isNull());
        }
        QCOMPARE(LockVerdict(model.index(1, 0).data(LocksModel::VerdictRole).toInt()), LockVerdict::Contested);
    }
};

QTEST_MAIN(TestTheme)
#include "TestTheme.moc"
