#include "models/EventLogModel.h"

#include <QDateTime>

namespace redlock {

EventLogModel::EventLogModel(int capacity, QObject* parent)
    : QAbstractTableModel(parent), m_capacity(std::max(1, capacity))
{}

const EventLogModel::Texts& EventLogModel::Entry::shown() const
{
    if (!event)
        return texts;
    if (!m_made)
        m_made = lockEventTexts(*event);
    return *m_made;
}

namespace {
QString timeOfDay(qint64 atMs)
{
    return QDateTime::fromMSecsSinceEpoch(atMs).toString(QStringLiteral("HH:mm:ss.zzz"));
}
} // namespace

EventLogModel::Texts EventLogModel::lockEventTexts(const LockEvent& e)
{
    Texts t;
    t.kind = lockEventKindName(e.kind);
    t.holder = e.holderSummary.isEmpty() ? printableBytes(e.token, 60) : e.holderSummary;
    if (e.kind == LockEvent::Kind::TokenChanged) {
        t.detail = tr("previous token %1").arg(printableBytes(e.previousToken, 60));
        if (e.endsUnobserved())
            t.detail += tr("; changed hands between %1 and %2, not observed")
                            .arg(timeOfDay(e.lastSeenHeldMs), timeOfDay(e.atMs));
    } else if (e.endsUnobserved()) {
        // Nobody saw the end (no keyspace event): when it was seen held last and when it was found gone, no more.
        t.detail = tr("token %1; ended between %2 and %3, not observed")
                       .arg(printableBytes(e.token, 60), timeOfDay(e.lastSeenHeldMs), timeOfDay(e.atMs));
    } else if (e.kind == LockEvent::Kind::Lost) {
        QStringList nodes;
        for (const int n : e.nodes)
            nodes << QStringLiteral("#%1").arg(n + 1);
        t.detail = tr("token %1; nodes %2 restarted without it: its holder may still think it holds it")
                       .arg(printableBytes(e.token, 60), nodes.join(QStringLiteral(", ")));
    } else if (e.kind == LockEvent::Kind::SeenHeld) {
        t.detail = tr("token %1; already held when first seen: acquired earlier, when is not known")
                       .arg(printableBytes(e.token, 60));
    } else if (!e.token.isEmpty()) {
        t.detail = tr("token %1").arg(printableBytes(e.token, 60));
    }
    return t;
}

void EventLogModel::makeRoomFor(qsizetype incoming)
{
    const qsizetype overflow = qsizetype(m_entries.size()) + incoming - m_capacity;
    if (overflow <= 0)
        return;
    beginRemoveRows({}, 0, int(overflow) - 1);
    m_entries.erase(m_entries.begin(), m_entries.begin() + overflow);
    endRemoveRows();
}

void EventLogModel::addLockEvents(const QList<LockEvent>& events)
{
    // Only what the log can keep is taken, and nothing is formatted here (the entry keeps the event: implicitly
    // shared copies): an entry's texts are made when they are first read.
    const qsizetype incoming = std::min<qsizetype>(events.size(), m_capacity);
    if (incoming == 0)
        return;
    makeRoomFor(incoming);
    const int first = rowCount();
    beginInsertRows({}, first, first + int(incoming) - 1);
    for (qsizetype i = events.size() - incoming; i < events.size(); ++i) { // (sliced() would copy them)
        const LockEvent& e = events[i];
        Entry& entry = m_entries.emplace_back();
        entry.atMs = e.atMs;
        entry.source = Source::LockEvent;
        entry.kindId = lockEventKindId(e.kind);
        entry.key = e.key;
        entry.event = e;
    }
    endInsertRows();
}

void EventLogModel::addEntries(const QList<Entry>& entries)
{
    const qsizetype incoming = std::min<qsizetype>(entries.size(), m_capacity);
    if (incoming == 0)
        return;
    makeRoomFor(incoming);
    const int first = rowCount();
    beginInsertRows({}, first, first + int(incoming) - 1);
    for (qsizetype i = entries.size() - incoming; i < entries.size(); ++i)
        m_entries.push_back(entries[i]);
    endInsertRows();
}

void EventLogModel::clear()
{
    beginResetModel();
    m_entries.clear();
    endResetModel();
}

QList<EventLogModel::Entry> EventLogModel::entriesForKey(const QByteArray& key, int max) const
{
    QList<Entry> out;
    for (auto it = m_entries.rbegin(); it != m_entries.rend() && out.size() < max; ++it) {
        if (it->key == key)
            out.append(*it);
    }
    return out;
}

int EventLogModel::rowCount(const QModelIndex& parent) const
{
    return parent.isValid() ? 0 : int(m_entries.size());
}

int EventLogModel::columnCount(const QModelIndex& parent) const
{
    return parent.isValid() ? 0 : ColumnCount;
}

QVariant EventLogModel::data(const QModelIndex& index, int role) const
{
    if (!checkIndex(index, CheckIndexOption::IndexIsValid | CheckIndexOption::ParentIsInvalid))
        return {};
    const Entry& e = m_entries[size_t(index.row())];
    switch (role) {
    case Qt::DisplayRole:
    case Qt::ToolTipRole:
        switch (index.column()) {
        case TimeColumn:
            return QDateTime::fromMSecsSinceEpoch(e.atMs).toString(
                role == Qt::DisplayRole ? u"HH:mm:ss.zzz" : u"yyyy-MM-dd HH:mm:ss.zzz");
        case KindColumn:
            return e.source == Source::OperatorAction ? tr("operator: %1").arg(e.kind()) : e.kind();
        case KeyColumn:
            return printableBytes(e.key);
        case HolderColumn:
            return e.holder();
        case DetailColumn:
            return e.detail();
        default:
            return {};
        }
    case RawValueRole:
        switch (index.column()) {
        case TimeColumn:
            return e.atMs; // the proxy's sort is stable: entries of one millisecond keep their order
        case KindColumn:
            return e.kindId;
        case KeyColumn:
            return e.key;
        case HolderColumn:
            return e.holder();
        case DetailColumn:
            return e.detail();
        default:
            return {};
        }
    case KeyRole:
        return e.key;
    case SourceRole:
        return int(e.source);
    default:
        return {};
    }
}

QVariant EventLogModel::headerData(int section, Qt::Orientation orientation, int role) const
{
    if (orientation != Qt::Horizontal || role != Qt::DisplayRole)
        return QAbstractTableModel::headerData(section, orientation, role);
    switch (section) {
    case TimeColumn:
        return tr("Time");
    case KindColumn:
        return tr("Event");
    case KeyColumn:
        return tr("Lock key");
    case HolderColumn:
        return tr("Holder");
    case DetailColumn:
        return tr("Detail");
    default:
        return {};
    }
}

} // namespace redlock
