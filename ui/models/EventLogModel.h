#pragma once

#include "observe/ObservationTypes.h"

#include <QAbstractTableModel>
#include <QDateTime>

#include <deque>
#include <optional>

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

    // What an entry shows in the kind, holder and detail columns.
    struct Texts
    {
        QString kind; // translated kind name
        QString holder;
        QString detail;
    };

    // One row. An entry added with addEntries (console and operator entries) carries its texts, made by whoever
    // adds it (`texts`). One added with addLockEvents carries its event instead, and its texts are made from it the
    // first time they are read, then kept: the first inspection may hand over 100,000 held locks of which the log
    // keeps the last 10,000, and formatting each as it came was a quarter of the GUI thread's time at that load.
    // Read any entry's texts with kind(), holder() and detail(). They are kept once made (a sort by the holder or
    // detail column reads them many times), so read them on the GUI thread only.
    struct Entry
    {
        qint64 atMs = 0;
        Source source = Source::LockEvent;
        QString kindId; // stable id
        QByteArray key;
        Texts texts;                    // entries without an event
        std::optional<LockEvent> event; // entries made by addLockEvents

        const QString& kind() const { return shown().kind; }
        const QString& holder() const { return shown().holder; }
        const QString& detail() const { return shown().detail; }

    private:
        const Texts& shown() const;
        mutable std::optional<Texts> m_made; // an event's texts, once read
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
    static Texts lockEventTexts(const LockEvent& e);
    // Drops the oldest entries so that `incoming` (at most the capacity) more fit (one beginRemoveRows).
    void makeRoomFor(qsizetype incoming);

    int m_capacity;
    std::deque<Entry> m_entries;
};

} // namespace redlock
