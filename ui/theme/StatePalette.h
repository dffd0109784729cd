#pragma once

#include <QColor>
#include <QPalette>

#include <array>
#include <optional>

class QChart;
class QWidget;

namespace redlock {

// The console's state colours, the only place a colour is written down. Each role has a light and a dark
// variant; which one applies follows the palette a widget is shown in (its window colour's lightness), so a
// dark desktop theme or `redlock-console --dark` gets colours that read on a dark background. Colour never
// carries a state alone: icons, glyphs, hatching and text say it too.
class StatePalette final
{
public:
    enum class Role {
        Held,      // a lock held by a quorum: verdict icon, the majority token's TTL bars
        Expiring,  // held, validity running out
        Contested, // several tokens, none with a quorum; another token's TTL bar
        Leftover,  // a minority leftover of a failed or half-released acquire
        Released,  // released by an operator with lock-delay: tombstones until the lock is free
        Neutral,   // free, unknown, connecting: nothing to act on
        Danger,    // lost quorum, failures, stuck locks, nodes down, the quorum-end line
        Success,   // a step that worked: deleted, lock held in the test bench, node up
        Warning,   // audit warnings, a node back before its delay
        Accent,    // the validity line of the timeline, chart series, information
    };
    static constexpr int RoleCount = int(Role::Accent) + 1;

    explicit StatePalette(bool dark);
    // The variant for a palette: dark when its window colour is dark.
    static StatePalette forPalette(const QPalette& palette);
    // The variant for the application's palette (QGuiApplication::palette()).
    static StatePalette current();
    static bool isDark(const QPalette& palette);

    bool dark() const { return m_dark; }
    QColor color(Role role) const { return m_colors[size_t(role)]; }

    // Shows a label's (or any widget's) text in a state colour, chosen for the palette it is shown in;
    // std::nullopt gives it back its inherited text colour.
    static void setTextRole(QWidget* widget, std::optional<Role> role);

    // Qt Charts draw with their own theme, not the palette: the light or dark one to match `palette`, on the
    // palette's window colour. Call it before setting the chart's fonts (a theme resets them).
    static void applyToChart(QChart* chart, const QPalette& palette);

    // A dark application palette for the Fusion style (`--dark`): what the console looks like on a dark desktop.
    static QPalette darkApplicationPalette();

private:
    bool m_dark;
    std::array<QColor, RoleCount> m_colors;
};

} // namespace redlock
