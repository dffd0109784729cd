#pragma once

#include "observe/ObservationTypes.h"

#include <QIcon>

class QAbstractButton;
class QAction;

namespace redlock {

// Every icon the console shows, from the SVGs under resources/icons (embedded as :/icons). The SVGs draw in
// `currentColor`; the icon gets the state's colour from StatePalette (verdicts, node health, audit severity)
// or the palette's text colour (actions), for the application palette in force when it is asked for, so the
// same files serve light and dark themes. Icons are cached per file and colour; GUI thread only.
//
// The *Glyph functions are the plain-text stand-ins for places an icon cannot go (a status string, a line of
// a list copied as text). They are never part of a translated string.
class Icons final
{
public:
    enum class Action {
        Connect,
        Refresh,
        Filter,
        Quit,
        ForceRelease,
        Restart,
        AbandonRestart,
        TestBench,
        AuditLog,
        Shortcuts,
        About,
    };
    static constexpr int ActionCount = int(Action::About) + 1;

    static QIcon verdict(LockVerdict verdict);
    static QIcon health(NodeHealth health, bool degraded = false);
    // The worst finding of a node or the cluster; std::nullopt: no findings.
    static QIcon severity(std::optional<AuditFinding::Severity> severity);
    static QIcon action(Action action);
    // Sets an action's icon and remembers which, so that refresh() draws it again for a new palette.
    static void setIcon(QAction* action, Action icon);
    static void setIcon(QAbstractButton* button, Action icon);
    static void refresh(QObject* actionOrButton); // no-op for one setIcon() has not seen
    // The application's icon (every rendered size).
    static QIcon application();

    static QString verdictGlyph(LockVerdict verdict);
    static QString healthGlyph(NodeHealth health);
    static QString severityGlyph(std::optional<AuditFinding::Severity> severity);
    // How a node holds one lock key, as the TTL cells, the lock detail and the timeline mark it: the
    // majority's token, another token, absent, unreachable, refused, not a lock.
    static QString presenceGlyph(NodeLockState::Presence presence, bool majority = true);

    // The resource path of each icon, for tests and for rich text (<img src=…>).
    static QString verdictPath(LockVerdict verdict);
    static QString healthPath(NodeHealth health);
    static QString severityPath(std::optional<AuditFinding::Severity> severity);
    static QString actionPath(Action action);

    Icons() = delete;
};

} // namespace redlock
