#include "history/HistoryModel.h"

#include "observe/ObservationTypes.h"
#include "runtime/HumanUnits.h"

#include <QDateTime>
#include <QFont>

namespace redlock {

HistoryModel::HistoryModel(QObject* parent) : QAbstractTableModel(parent) {}

void HistoryModel::setResult(const HistoryResult& result)
{
    beginResetModel();
    m_result = result;
    endResetModel();
}

void HistoryModel::clear()
{
    setResult({});
}

QList<HolderInterval> HistoryModel::intervalsOf(const QByteArray& key) const
{
    QList<HolderInterval> out;
    for (const HolderInterval& i : m_result.intervals) {
        if (i.key == key)
            out.append(i);
    }
    return out;
}

QList<JournalEvent> HistoryModel::eventsOf(const QByteArray& key) const
{
    QList<JournalEvent> out;
    for (const JournalEvent& e : m_result.events) {
        if (e.key == key)
            out.append(e);
    }
    return out;
}

QString HistoryModel::formatTime(qint64 ms)
{
    return QDateTime::fromMSecsSinceEpoch(ms).toString(QStringLiteral("yyyy-MM-dd HH:mm:ss.zzz"));
}

QString HistoryModel::writerText(const HistoryWriter& writer)
{
    if (!writer.isKnown())
        return {};
    return writer.pid > 0 ? tr("%1 (pid %2)").arg(printableText(writer.source)).arg(writer.pid)
                          : printableText(writer.source);
}

QString HistoryModel::unwatchedText(const UnwatchedSpan& span)
{
    const QString format = QStringLiteral("HH:mm");
    const QDateTime from = QDateTime::fromMSecsSinceEpoch(span.fromMs);
    if (span.isOpen())
        return tr("not watched since %1").arg(from.toString(QStringLiteral("yyyy-MM-dd HH:mm")));
    const QDateTime to = QDateTime::fromMSecsSinceEpoch(span.toMs);
    // Minutes that read the same: the seconds tell the span apart.
    const QString f = from.toString(format) == to.toString(format) ? QStringLiteral("HH:mm:ss") : format;
    return tr("not watched %1–%2").arg(from.toString(f), to.toString(f));
}

int HistoryModel::rowCount(const QModelIndex& parent) const
{
    return parent.isValid() ? 0 : int(m_result.intervals.size() + m_result.unwatched.size());
}

QVariant HistoryModel::unwatchedData(const UnwatchedSpan& span, int column, int role) const
{
    const qint64 toMs = span.isOpen() ? m_result.queriedAtMs : span.toMs;
    if (role == UnwatchedRole)
        return true;
    if (role == KeyRole)
        return QByteArray();
    if (role == SortRole) {
        switch (column) {
        case FromColumn:
            return span.fromMs;
        case ToColumn:
            return span.isOpen() ? std::numeric_limits<qint64>::max() : span.toMs;
        case HeldColumn:
            return toMs - span.fromMs;
        case ExtendedColumn:
            return -1;
        default:
            return unwatchedData(span, column, Qt::DisplayRole);
        }
    }
    if (role == Qt::DisplayRole) {
        switch (column) {
        case KeyColumn:
            return unwatchedText(span);
        case HolderColumn:
            return tr("nobody watched");
        case FromColumn:
            return formatTime(span.fromMs);
        case ToColumn:
            return span.isOpen() ? QString() : formatTime(span.toMs);
        case HeldColumn:
            return HumanUnits::duration(toMs - span.fromMs);
        case EndedColumn:
            return tr("not watched");
        case WriterColumn:
            return span.before.isEmpty() ? QString() : tr("after %1 stopped").arg(printableText(span.before));
        default:
            return {};
        }
    }
    if (role == Qt::ToolTipRole)
        return tr("No writer watched the locks from %1 to %2 (the exporter, `redlock watch` or the console stopped, "
                  "restarted or died): what happened then is not in the history. A tenure that ended in it ends "
                  "\"while not watched\", never as a release.")
            .arg(formatTime(span.fromMs), span.isOpen() ? tr("now") : formatTime(span.toMs));
    if (role == Qt::FontRole) {
        QFont italic;
        italic.setItalic(true);
        return italic;
    }
    return {};
}

int HistoryModel::columnCount(const QModelIndex& parent) const
{
    return parent.isValid() ? 0 : ColumnCount;
}

QVariant HistoryModel::data(const QModelIndex& index, int role) const
{
    if (!checkIndex(index, CheckIndexOption::IndexIsValid | CheckIndexOption::ParentIsInvalid))
        return {};
    if (index.row() >= m_result.intervals.size())
        return unwatchedData(m_result.unwatched[index.row() - m_result.intervals.size()], index.column(), role);
    if (role == UnwatchedRole)
        return false;
    const HolderInterval& i = m_result.intervals[index.row()];
    const qint64 held = i.durationMs(m_result.queriedAtMs);
    // An end nobody saw (no keyspace event): held at least until toMs, gone by goneByMs.
    const bool unseenEnd = !i.isOpen() && i.goneByMs >= 0;
    if (role == KeyRole)
        return i.key;
    if (role == SortRole) {
        switch (index.column()) {
        case FromColumn:
            return i.fromMs;
        case ToColumn:
            return i.isOpen() ? std::numeric_limits<qint64>::max() : i.toMs;
        case HeldColumn:
            return held;
        case ExtendedColumn:
            return i.extensions;
        default:
            return data(index, Qt::DisplayRole);
        }
    }
    if (role == Qt::DisplayRole) {
        switch (index.column()) {
        case KeyColumn:
            return printableBytes(i.key);
        case HolderColumn:
            return holderDisplayText(i.holder, i.token);
        case FromColumn: // held when first seen: its acquisition is earlier and not known
            return i.atLeastSince ? tr("at least since %1").arg(formatTime(i.fromMs)) : formatTime(i.fromMs);
        case ToColumn:
            if (unseenEnd)
                return tr("between %1 and %2").arg(formatTime(i.toMs), formatTime(i.goneByMs));
            return i.isOpen() ? QString() : formatTime(i.toMs);
        case HeldColumn:
            return i.atLeastSince || unseenEnd ? tr("at least %1").arg(HumanUnits::duration(held))
                                               : HumanUnits::duration(held);
        case EndedColumn:
            return intervalEndName(i.endedBy);
        case ExtendedColumn:
            return i.extensions;
        case WriterColumn:
            return writerText(i.writer);
        default:
            return {};
        }
    }
    if (role == Qt::ToolTipRole) {
        switch (index.column()) {
        case KeyColumn:
            return printableBytes(i.key, -1);
        case HolderColumn:
            return tr("Token: %1").arg(printableBytes(i.token, -1));
        case HeldColumn:
            if (unseenEnd && !i.atLeastSince)
                return tr("Held at least until it was last seen; it ended after that, when is not known.");
            [[fallthrough]];
        case FromColumn:
            if (i.atLeastSince)
                return tr("Already held when first seen (watching started, or the lock's state was unknown until "
                          "then): it was acquired earlier, when is not known.");
            return {};
        case ToColumn:
        case EndedColumn:
            if (i.endedBy == u"ended-unwatched")
                return tr("Last seen held at this time; when watching resumed, another holder had it or nobody "
                          "did: it ended after this, when is not known.");
            if (i.endedBy == u"unobserved")
                return tr("Watching stopped while it was held: whether and when it ended is not known.");
            if (unseenEnd)
                return tr("Nobody saw it end (no keyspace event: notify-keyspace-events is off, or the rescan found it "
                          "gone first): still held when last seen at %1, gone when read again at %2.")
                    .arg(formatTime(i.toMs), formatTime(i.goneByMs));
            return {};
        default:
            return {};
        }
    }
    if (role == Qt::TextAlignmentRole && (index.column() == HeldColumn || index.column() == ExtendedColumn))
        return QVariant::fromValue(Qt::AlignRight | Qt::AlignVCenter);
    return {};
}

QVariant HistoryModel::headerData(int section, Qt::Orientation orientation, int role) const
{
    if (orientation != Qt::Horizontal || role != Qt::DisplayRole)
        return {};
    switch (section) {
    case KeyColumn:
        return tr("Key");
    case HolderColumn:
        return tr("Holder");
    case FromColumn:
        return tr("From");
    case ToColumn:
        return tr("To");
    case HeldColumn:
        return tr("Held for");
    case EndedColumn:
        return tr("Ended");
    case ExtendedColumn:
        return tr("Extended");
    case WriterColumn:
        return tr("Seen by");
    default:
        return {};
    }
}

} // namespace redlock
