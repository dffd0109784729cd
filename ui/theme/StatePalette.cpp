#include "theme/StatePalette.h"

#include <QChart>
#include <QGuiApplication>
#include <QWidget>

namespace redlock {

namespace {

// Every colour here reads as text on its variant's window and base colours (WCAG contrast >= 4.5:1, checked by
// tests/TestTheme): the light variant on Fusion's #efefef / white, the dark one on darkApplicationPalette().
constexpr std::array<QRgb, StatePalette::RoleCount> kLight{
    0x2a741c, // Held: green
    0x8f5b00, // Expiring: amber
    0xb34500, // Contested: orange
    0x7b45b0, // Leftover: purple
    0x00707a, // Released: teal
    0x666666, // Neutral: grey
    0xb00020, // Danger: red
    0x187536, // Success: green
    0x825800, // Warning: ochre
    0x2050c0, // Accent: blue
};
constexpr std::array<QRgb, StatePalette::RoleCount> kDark{
    0x6cc04a, // Held
    0xe0b040, // Expiring
    0xff9350, // Contested
    0xc49af0, // Leftover
    0x4cc4cc, // Released
    0xa6a6a6, // Neutral
    0xff7b86, // Danger
    0x5fd088, // Success
    0xe8b54a, // Warning
    0x78a8ff, // Accent
};

} // namespace

StatePalette::StatePalette(bool dark) : m_dark(dark)
{
    const auto& table = dark ? kDark : kLight;
    for (size_t i = 0; i < table.size(); ++i)
        m_colors[i] = QColor::fromRgb(table[i]);
}

bool StatePalette::isDark(const QPalette& palette)
{
    return palette.color(QPalette::Active, QPalette::Window).lightness() < 128;
}

StatePalette StatePalette::forPalette(const QPalette& palette)
{
    return StatePalette(isDark(palette));
}

StatePalette StatePalette::current()
{
    return forPalette(QGuiApplication::palette());
}

void StatePalette::setTextRole(QWidget* widget, std::optional<Role> role)
{
    if (!role) {
        // A palette that resolves nothing: the widget inherits its parent's text colours again.
        QPalette inherited;
        inherited.setResolveMask(0);
        widget->setPalette(inherited);
        return;
    }
    QPalette palette = widget->palette();
    const QColor color = forPalette(palette).color(*role);
    for (const QPalette::ColorRole textRole : {QPalette::WindowText, QPalette::Text, QPalette::ButtonText}) {
        palette.setColor(QPalette::Active, textRole, color);
        palette.setColor(QPalette::Inactive, textRole, color);
    }
    widget->setPalette(palette);
}

void StatePalette::applyToChart(QChart* chart, const QPalette& palette)
{
    chart->setTheme(isDark(palette) ? QChart::ChartThemeDark : QChart::ChartThemeLight);
    chart->setBackgroundBrush(palette.color(QPalette::Window));
}

QPalette StatePalette::darkApplicationPalette()
{
    // Fusion's colour roles, dark: greys for surfaces, light grey text, a blue selection.
    const QColor window(0x35, 0x35, 0x35);
    const QColor base(0x23, 0x23, 0x23);
    const QColor text(0xe6, 0xe6, 0xe6);
    const QColor disabledText(0x80, 0x80, 0x80);
    QPalette p(window);
    p.setColor(QPalette::Window, window);
    p.setColor(QPalette::WindowText, text);
    p.setColor(QPalette::Base, base);
    p.setColor(QPalette::AlternateBase, QColor(0x2c, 0x2c, 0x2c));
    p.setColor(QPalette::ToolTipBase, QColor(0x1e, 0x1e, 0x1e));
    p.setColor(QPalette::ToolTipText, text);
    p.setColor(QPalette::PlaceholderText, QColor(0x96, 0x96, 0x96));
    p.setColor(QPalette::Text, text);
    p.setColor(QPalette::Button, window);
    p.setColor(QPalette::ButtonText, text);
    p.setColor(QPalette::BrightText, QColor(0xff, 0x7b, 0x86));
    p.setColor(QPalette::Light, QColor(0x4a, 0x4a, 0x4a));
    p.setColor(QPalette::Midlight, QColor(0x40, 0x40, 0x40));
    p.setColor(QPalette::Mid, QColor(0x60, 0x60, 0x60));
    p.setColor(QPalette::Dark, QColor(0x1a, 0x1a, 0x1a));
    p.setColor(QPalette::Shadow, QColor(0x0a, 0x0a, 0x0a));
    p.setColor(QPalette::Highlight, QColor(0x2f, 0x6f, 0xb5));
    p.setColor(QPalette::HighlightedText, QColor(0xff, 0xff, 0xff));
    p.setColor(QPalette::Link, QColor(0x78, 0xa8, 0xff));
    p.setColor(QPalette::LinkVisited, QColor(0xc4, 0x9a, 0xf0));
    for (const QPalette::ColorRole role : {QPalette::WindowText, QPalette::Text, QPalette::ButtonText})
        p.setColor(QPalette::Disabled, role, disabledText);
    p.setColor(QPalette::Disabled, QPalette::Base, window);
    p.setColor(QPalette::Disabled, QPalette::Highlight, QColor(0x50, 0x50, 0x50));
    return p;
}

} // namespace redlock
