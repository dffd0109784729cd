#include "theme/Icons.h"

#include "theme/StatePalette.h"

#include <QAbstractButton>
#include <QAction>
#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QGuiApplication>
#include <QHash>
#include <QIconEngine>
#include <QPainter>
#include <QSvgRenderer>

#include <memory>

// resources/icons/icons.qrc is compiled into this static library; nothing else references it, so it is
// initialised by name before the first icon is read.
static void initIconResources()
{
    Q_INIT_RESOURCE(icons);
}

namespace redlock {

namespace {

// An SVG drawn in one colour at any size: sharp at 16 px and at 2x, faded when disabled.
class TintedSvgEngine final : public QIconEngine
{
public:
    explicit TintedSvgEngine(std::shared_ptr<QSvgRenderer> renderer) : m_renderer(std::move(renderer)) {}

    void paint(QPainter* painter, const QRect& rect, QIcon::Mode mode, QIcon::State) override
    {
        painter->save();
        painter->setRenderHint(QPainter::Antialiasing);
        if (mode == QIcon::Disabled)
            painter->setOpacity(0.4);
        m_renderer->render(painter, QRectF(rect));
        painter->restore();
    }

    QPixmap pixmap(const QSize& size, QIcon::Mode mode, QIcon::State state) override
    {
        return scaledPixmap(size, mode, state, 1.0);
    }

    // `size` is in device pixels already (QIcon::pixmap multiplies by the ratio); QIcon sets the ratio.
    QPixmap scaledPixmap(const QSize& size, QIcon::Mode mode, QIcon::State state, qreal) override
    {
        QImage image(size, QImage::Format_ARGB32_Premultiplied);
        image.fill(Qt::transparent);
        {
            QPainter painter(&image);
            paint(&painter, image.rect(), mode, state);
        }
        return QPixmap::fromImage(std::move(image));
    }

    QSize actualSize(const QSize& size, QIcon::Mode, QIcon::State) override { return size; }
    bool isNull() override { return !m_renderer->isValid(); }
    QString key() const override { return QStringLiteral("redlock-tinted-svg"); }
    QIconEngine* clone() const override { return new TintedSvgEngine(m_renderer); }

private:
    std::shared_ptr<QSvgRenderer> m_renderer;
};

// One QIcon per file and colour, made on first use.
QIcon tinted(const QString& path, const QColor& color)
{
    static QHash<QString, QIcon> cache;
    const QString key = path + QLatin1Char('|') + color.name(QColor::HexArgb);
    if (const auto it = cache.constFind(key); it != cache.cend())
        return *it;
    static const bool initialised = (initIconResources(), true);
    Q_UNUSED(initialised);
    QFile file(path);
    QIcon icon;
    if (file.open(QIODevice::ReadOnly)) {
        QByteArray svg = file.readAll();
        svg.replace("currentColor", color.name(QColor::HexRgb).toLatin1());
        auto renderer = std::make_shared<QSvgRenderer>(svg);
        if (renderer->isValid())
            icon = QIcon(new TintedSvgEngine(std::move(renderer)));
    }
    cache.insert(key, icon);
    return icon;
}

QString iconPath(QLatin1StringView group, QLatin1StringView name)
{
    return QStringLiteral(":/icons/") + group + QLatin1Char('/') + name + QStringLiteral(".svg");
}

StatePalette::Role verdictRole(LockVerdict verdict)
{
    switch (verdict) {
    case LockVerdict::Held:
        return StatePalette::Role::Held;
    case LockVerdict::Expiring:
        return StatePalette::Role::Expiring;
    case LockVerdict::Contested:
        return StatePalette::Role::Contested;
    case LockVerdict::MinorityLeftover:
        return StatePalette::Role::Leftover;
    case LockVerdict::Free:
    case LockVerdict::Unknown:
        return StatePalette::Role::Neutral;
    case LockVerdict::Stuck:
        return StatePalette::Role::Danger;
    case LockVerdict::ReleasedByOperator:
        return StatePalette::Role::Released;
    }
    return StatePalette::Role::Neutral;
}

StatePalette::Role healthRole(NodeHealth health, bool degraded)
{
    switch (health) {
    case NodeHealth::Up:
        return degraded ? StatePalette::Role::Warning : StatePalette::Role::Success;
    case NodeHealth::Connecting:
        return StatePalette::Role::Neutral;
    case NodeHealth::AuthFailed:
    case NodeHealth::NoPermission:
    case NodeHealth::Down:
    case NodeHealth::NotAnswering:
        return StatePalette::Role::Danger;
    }
    return StatePalette::Role::Neutral;
}

StatePalette::Role severityRole(std::optional<AuditFinding::Severity> severity)
{
    if (!severity)
        return StatePalette::Role::Success;
    switch (*severity) {
    case AuditFinding::Severity::Info:
        return StatePalette::Role::Accent;
    case AuditFinding::Severity::Warning:
        return StatePalette::Role::Warning;
    case AuditFinding::Severity::Severe:
        return StatePalette::Role::Danger;
    }
    return StatePalette::Role::Neutral;
}

} // namespace

QString Icons::verdictPath(LockVerdict verdict)
{
    const auto path = [](const char* name) { return iconPath(QLatin1StringView("verdict"), QLatin1StringView(name)); };
    switch (verdict) {
    case LockVerdict::Held:
        return path("held");
    case LockVerdict::Expiring:
        return path("expiring");
    case LockVerdict::Contested:
        return path("contested");
    case LockVerdict::MinorityLeftover:
        return path("minority-leftover");
    case LockVerdict::Free:
        return path("free");
    case LockVerdict::Unknown:
        return path("unknown");
    case LockVerdict::Stuck:
        return path("stuck");
    case LockVerdict::ReleasedByOperator:
        return path("released-by-operator");
    }
    return {};
}

QString Icons::healthPath(NodeHealth health)
{
    const auto path = [](const char* name) { return iconPath(QLatin1StringView("health"), QLatin1StringView(name)); };
    switch (health) {
    case NodeHealth::Connecting:
        return path("connecting");
    case NodeHealth::Up:
        return path("up");
    case NodeHealth::AuthFailed:
        return path("auth-failed");
    case NodeHealth::NoPermission:
        return path("no-permission");
    case NodeHealth::Down:
    case NodeHealth::NotAnswering: // down for quorum: the same picture, its own words
        return path("down");
    }
    return {};
}

QString Icons::severityPath(std::optional<AuditFinding::Severity> severity)
{
    const auto path = [](const char* name) { return iconPath(QLatin1StringView("severity"), QLatin1StringView(name)); };
    if (!severity)
        return path("ok");
    switch (*severity) {
    case AuditFinding::Severity::Info:
        return path("info");
    case AuditFinding::Severity::Warning:
        return path("warning");
    case AuditFinding::Severity::Severe:
        return path("severe");
    }
    return {};
}

QString Icons::actionPath(Action action)
{
    const auto path = [](const char* name) { return iconPath(QLatin1StringView("action"), QLatin1StringView(name)); };
    switch (action) {
    case Action::Connect:
        return path("connect");
    case Action::Refresh:
        return path("refresh");
    case Action::Filter:
        return path("filter");
    case Action::Quit:
        return path("quit");
    case Action::ForceRelease:
        return path("force-release");
    case Action::Restart:
        return path("restart");
    case Action::AbandonRestart:
        return path("abandon-restart");
    case Action::TestBench:
        return path("test-bench");
    case Action::AuditLog:
        return path("audit-log");
    case Action::Shortcuts:
        return path("shortcuts");
    case Action::About:
        return path("about");
    }
    return {};
}

QIcon Icons::verdict(LockVerdict verdict)
{
    return tinted(verdictPath(verdict), StatePalette::current().color(verdictRole(verdict)));
}

QIcon Icons::health(NodeHealth health, bool degraded)
{
    return tinted(healthPath(health), StatePalette::current().color(healthRole(health, degraded)));
}

QIcon Icons::severity(std::optional<AuditFinding::Severity> severity)
{
    return tinted(severityPath(severity), StatePalette::current().color(severityRole(severity)));
}

QIcon Icons::action(Action action)
{
    return tinted(actionPath(action), QGuiApplication::palette().color(QPalette::Active, QPalette::ButtonText));
}

namespace {
const char* const kActionIconProperty = "redlockActionIcon";
}

void Icons::setIcon(QAction* action, Action icon)
{
    action->setProperty(kActionIconProperty, int(icon));
    action->setIcon(Icons::action(icon));
}

void Icons::setIcon(QAbstractButton* button, Action icon)
{
    button->setProperty(kActionIconProperty, int(icon));
    button->setIcon(Icons::action(icon));
}

void Icons::refresh(QObject* actionOrButton)
{
    const QVariant icon = actionOrButton->property(kActionIconProperty);
    if (!icon.isValid())
        return;
    if (auto* action = qobject_cast<QAction*>(actionOrButton))
        action->setIcon(Icons::action(Action(icon.toInt())));
    else if (auto* button = qobject_cast<QAbstractButton*>(actionOrButton))
        button->setIcon(Icons::action(Action(icon.toInt())));
}

QIcon Icons::application()
{
    static const bool initialised = (initIconResources(), true);
    Q_UNUSED(initialised);
    QIcon icon;
    for (const QFileInfo& png : QDir(QStringLiteral(":/icons")).entryInfoList({QStringLiteral("*.png")}))
        icon.addFile(png.filePath());
    return icon;
}

QString Icons::verdictGlyph(LockVerdict verdict)
{
    switch (verdict) {
    case LockVerdict::Held:
        return QStringLiteral("●");
    case LockVerdict::Expiring:
        return QStringLiteral("◔");
    case LockVerdict::Contested:
        return QStringLiteral("⚔");
    case LockVerdict::MinorityLeftover:
        return QStringLiteral("◌");
    case LockVerdict::Free:
        return QStringLiteral("○");
    case LockVerdict::Unknown:
        return QStringLiteral("?");
    case LockVerdict::Stuck:
        return QStringLiteral("∞");
    case LockVerdict::ReleasedByOperator:
        return QStringLiteral("⌛");
    }
    return {};
}

QString Icons::healthGlyph(NodeHealth health)
{
    switch (health) {
    case NodeHealth::Up:
        return QStringLiteral("●");
    case NodeHealth::Connecting:
        return QStringLiteral("◌");
    case NodeHealth::AuthFailed:
    case NodeHealth::NoPermission:
    case NodeHealth::Down:
    case NodeHealth::NotAnswering:
        return QStringLiteral("✖");
    }
    return {};
}

QString Icons::severityGlyph(std::optional<AuditFinding::Severity> severity)
{
    if (!severity)
        return QStringLiteral("✓");
    switch (*severity) {
    case AuditFinding::Severity::Info:
        return QStringLiteral("ℹ");
    case AuditFinding::Severity::Warning:
        return QStringLiteral("⚠");
    case AuditFinding::Severity::Severe:
        return QStringLiteral("✖");
    }
    return {};
}

QString Icons::presenceGlyph(NodeLockState::Presence presence, bool majority)
{
    switch (presence) {
    case NodeLockState::Presence::Holding:
        return majority ? QStringLiteral("●") : QStringLiteral("≠");
    case NodeLockState::Presence::Absent:
        return QStringLiteral("—");
    case NodeLockState::Presence::Unreachable:
        return QStringLiteral("✕");
    case NodeLockState::Presence::Refused:
        return QStringLiteral("⛔");
    case NodeLockState::Presence::NotALock:
        return QStringLiteral("∅");
    }
    return {};
}

} // namespace redlock
