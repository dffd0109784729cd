#pragma once

#include "history/HistoryTypes.h"

#include <QAbstractTableModel>

namespace redlock {

// The history view's table: one row per holder interval of a journal query (LockJournal::query), as core
// returns it, then one row per span nobody watched (HistoryResult::unwatched: "not watched", never a release);
// the model only translates it into cells. Hostile key and holder names are escaped. Each interval says which
// writer saw it (the journal's session: console, watch, exporter, with its pid).
class HistoryModel final : public QAbstractTableModel
{
    Q_OBJECT
    Q_DISABLE_COPY_MOVE(HistoryModel)

public:
    enum Column {
        KeyColumn,
        HolderColumn,
        FromColumn,
        ToColumn,
        HeldColumn,
        EndedColumn,
        ExtendedColumn,
        WriterColumn,
        ColumnCount
    };
    enum Role {
        KeyRole = Qt::UserRole + 1, // QByteArray, the raw key (empty on a span nobody watched)
        SortRole,                   // a value that sorts as the column means (times and durations as numbers)
        UnwatchedRole,              // bool: the row is a span nobody watched, not an interval
    };

    explicit HistoryModel(QObject* parent = nullptr);

    void setResult(const HistoryResult& result);
    void clear();
    const HistoryResult& result() const { return m_result; }
    const HolderInterval& interval(int row) const { return m_result.intervals[row]; }
    // The intervals and events of one key, for the timeline.
    QList<HolderInterval> intervalsOf(const QByteArray& key) const;
    QList<JournalEvent> eventsOf(const QByteArray& key) const;

    static QString formatTime(qint64 ms);
    // "exporter (pid 4242)"; empty when not known.
    static QString writerText(const HistoryWriter& writer);
    // "not watched 02:10–02:12" (with the date when the span is not within one day of now, "since" when open).
    static QString unwatchedText(const UnwatchedSpan& span);

    int rowCount(const QModelIndex& parent = {}) const override;
    int columnCount(const QModelIndex& parent = {}) const override;
    QVariant data(const QModelIndex& index, int role = Qt::DisplayRole) const override;
    QVariant headerData(int section, Qt::Orientation orientation, int role = Qt::DisplayRole) const override;

private:
    QVariant unwatchedData(const UnwatchedSpan& span, int column, int role) const;

    HistoryResult m_result;
};

} // namespace redlock
