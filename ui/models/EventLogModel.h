#pragma once

#include "observe/ObservationTypes.h"

#include <QAbstractTableModel>
#include <QDateTime>

#include <deque>

namespace redlock {

// The event log: lock events seen by the inspector and, with operator actions, what the operator did.
// Appends in batches (one beginInsertRows per batch) and drops the oldest entries past the capacity
// (one beginRemoveRows at the top).
class EventLogModel final : public QAbstractTableModel
{
    Q_OBJECT
    Q_DISABLE_COPY_MOVE(EventLogModel)

public:
    enum Column { TimeColumn, KindColumn, KeyColumn, HolderColumn, DetailColumn, ColumnCount };
    enum Role {
        RawValueRole = Qt::UserRole + 1,
        KeyRole,    // QByteArray
        SourceRole, // Source as int
    };
    enum class Source { LockEvent, OperatorAction, Console };

    struct Entry
    {
        qint64 atMs = 0;
        Source source = Source::LockEvent;
        QString kind; // translated kind name
        QString kindId;
        QByteArray key;
        QString holder;
        QString detail;
    };

    explicit EventLogModel(int capacity = 10000, QObject* parent = nullptr);

    void addLockEvents(const QList<LockEvent>& events);
    void addEntries(const QList<Entry>& entries);
    void clear();

    int capacity() const { return m_capacity; }
    const Entry& entry(int row) const { return m_entries[size_t(row)]; }
    // The newest entries about one key, newest first.
    QList<Entry> entriesForKey(const QByteArray& key, int max) const;

    int rowCount(const QModelIndex& parent = {}) const override;
    int columnCount(const QModelIndex& parent = {}) const override;
    QVariant data(const QModelIndex& index, int role = Qt::DisplayRole) const override;
    QVariant headerData(int section, Qt::Orientation orientation, int role = Qt::DisplayRole) const override;

private:
    int m_capacity;
    std::deque<Entry> m_entries;
};

} // namespace redlock
