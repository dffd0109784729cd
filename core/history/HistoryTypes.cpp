#include "history/HistoryTypes.h"

#include "observe/ObservationTypes.h"

#include <QDateTime>
#include <QRegularExpression>
#include <QTimeZone>

namespace redlock {

QString journalKindName(const QString& kindId)
{
    if (kindId == u"acquired")
        return QCoreApplication::translate("redlock::LockEvent", "acquired");
    if (kindId == u"released")
        return QCoreApplication::translate("redlock::LockEvent", "released");
    if (kindId == u"expired")
        return QCoreApplication::translate("redlock::LockEvent", "expired");
    if (kindId == u"token-changed")
        return QCoreApplication::translate("redlock::LockEvent", "token changed");
    if (kindId == u"contested")
        return QCoreApplication::translate("redlock::LockEvent", "contested");
    if (kindId == u"lost-on-restart")
        return QCoreApplication::translate("redlock::LockEvent", "lost on node restart");
    if (kindId == u"extended")
        return QCoreApplication::translate("redlock::LockEvent", "extended");
    if (kindId == u"seen-held")
        return QCoreApplication::translate("redlock::LockEvent", "seen held");
    if (kindId == u"released-or-expired")
        return QCoreApplication::translate("redlock::LockEvent", "released or expired");
    if (kindId == u"evicted")
        return QCoreApplication::translate("redlock::LockEvent", "evicted");
    if (kindId == u"force-released")
        return QCoreApplication::translate("redlock::LockJournal", "force-released");
    if (kindId == u"force-released-minority")
        return QCoreApplication::translate("redlock::LockJournal", "force-released on a minority (still held)");
    return kindId;
}

QString historyWriterText(const HistoryWriter& writer)
{
    if (!writer.isKnown())
        return {};
    const QString source = printableText(writer.source);
    if (writer.pid <= 0)
        return source;
    if (writer.host.isEmpty())
        return QCoreApplication::translate("redlock::HistoryWriter", "%1 (pid %2)").arg(source).arg(writer.pid);
    return QCoreApplication::translate("redlock::HistoryWriter", "%1 (pid %2 on %3)")
        .arg(source)
        .arg(writer.pid)
        .arg(printableText(writer.host));
}

QString intervalEndName(const QString& endedBy)
{
    if (endedBy.isEmpty())
        return QCoreApplication::translate("redlock::LockJournal", "still held");
    if (endedBy == u"token-changed")
        return QCoreApplication::translate("redlock::LockJournal", "taken over");
    if (endedBy == u"unobserved")
        return QCoreApplication::translate("redlock::LockJournal", "observation ended");
    if (endedBy == u"ended-unwatched")
        return QCoreApplication::translate("redlock::LockJournal", "ended while not watched");
    return journalKindName(endedBy);
}

QString holderDisplayText(const QString& holder, const QByteArray& token, int maxChars)
{
    if (holder.isEmpty())
        return printableBytes(token, maxChars);
    // A summary decodeHolder made has nothing left to escape but its own escapes' backslashes. Anything else
    // (a journal written by another tool, or by hand) is escaped here, so no control character reaches a
    // terminal or a cell, whatever the file holds.
    const QString escaped = printableText(holder, -1);
    if (escaped != QString(holder).replace(QLatin1Char('\\'), QStringLiteral("\\x5c")))
        return printableText(holder, maxChars);
    if (maxChars >= 0 && holder.size() > maxChars)
        return holder.left(maxChars) + QStringLiteral("…");
    return holder;
}

std::optional<qint64> parseHistoryTime(const QString& input, qint64 nowMs, QString* error)
{
    if (error)
        error->clear();
    const QString text = input.trimmed();
    if (text.isEmpty())
        return std::nullopt;
    if (text.compare(QLatin1String("now"), Qt::CaseInsensitive) == 0)
        return nowMs;
    // Relative: "-1h", "-30m", "1h ago", "-1.5h".
    static const QRegularExpression relative(
        QStringLiteral("^(?:-\\s*(\\d+(?:\\.\\d+)?)\\s*([smhdw])|(\\d+(?:\\.\\d+)?)"
                       "\\s*([smhdw])\\s+ago)$"),
        QRegularExpression::CaseInsensitiveOption);
    if (const auto m = relative.match(text); m.hasMatch()) {
        const double amount = (m.captured(1).isEmpty() ? m.captured(3) : m.captured(1)).toDouble();
        const QChar unit = (m.captured(2).isEmpty() ? m.captured(4) : m.captured(2)).at(0).toLower();
        const double unitMs = unit == u's'   ? 1000.0
                              : unit == u'm' ? 60'000.0
                              : unit == u'h' ? 3'600'000.0
                              : unit == u'd' ? 86'400'000.0
                                             : 7 * 86'400'000.0;
        // In double: "-99999999999999999999w" is far beyond a qint64 of ms, and converting it would be undefined.
        const double backMs = amount * unitMs;
        constexpr double maxBackMs = double(kHistoryTimeMaxBackYears) * 365.25 * 86'400'000.0;
        if (!(backMs <= maxBackMs)) {
            if (error)
                *error =
                    QCoreApplication::translate("redlock::LockJournal", "\"%1\" is out of range: at most %2 years back")
                        .arg(printableText(text, 60))
                        .arg(kHistoryTimeMaxBackYears);
            return std::nullopt;
        }
        return nowMs - qint64(backMs);
    }
    // ISO 8601; a space instead of the T is accepted, as people write it.
    QString iso = text;
    if (iso.size() > 10 && iso.at(10) == u' ')
        iso[10] = u'T';
    QDateTime at = QDateTime::fromString(iso, Qt::ISODateWithMs);
    if (!at.isValid())
        at = QDateTime::fromString(iso, Qt::ISODate);
    if (!at.isValid())
        return std::nullopt;
    return at.toMSecsSinceEpoch();
}

TenureStep tenureStepOf(const QString& kindId)
{
    if (kindId == u"acquired" || kindId == u"token-changed" || kindId == u"seen-held")
        return TenureStep::Begin;
    if (kindId == u"extended")
        return TenureStep::Extend;
    if (kindId == u"released" || kindId == u"expired" || kindId == u"lost-on-restart" ||
        kindId == u"released-or-expired" || kindId == u"evicted")
        return TenureStep::End;
    if (kindId == u"force-released")
        return TenureStep::ForceEnd;
    return TenureStep::None;
}

} // namespace redlock
