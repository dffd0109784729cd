#pragma once

#include "observe/ObservationTypes.h"
#include "observe/PackedLockView.h"

#include <QAbstractTableModel>
#include <QHash>
#include <QTimer>

#include <array>
#include <functional>
#include <memory>
#include <optional>
#include <vector>

namespace redlock {

class SteadyClock;

// What one node's TTL cell shows: drawn by TtlBarDelegate as a bar (majority token), a hatched bar with a
// mark (another token), a dash (absent) or a cross (unreachable), so the states differ without colour.
struct TtlCell
{
    enum class Kind { Majority, OtherToken, Tombstone, Absent, Unreachable, NotALock };
    Kind kind = Kind::Absent;
    qint64 remainingMs = -1; // Majority / OtherToken / Tombstone: the node's PTTL now
    qint64 scaleMs = 0;      // the row's longest PTTL when read: a full bar
    QString text;            // what the cell says, also for screen readers and copy
};

// One row per lock key, kept in key order and in step with LockInspector::locksChanged: appeared rows are
// inserted with one beginInsertRows per insertion point (one for the first full refresh), changed rows get one
// dataChanged per run of adjacent rows, disappeared rows are removed in as few contiguous ranges as possible.
// Key order makes the unsorted view useful at once and lets the first 100,000 rows in without any sorting on
// the GUI thread (ClusterController sorts each batch on the I/O thread). Columns: key, holder, verdict,
// observed validity, then one TTL column per node. Time passing is one dataChanged over the time columns per
// countdown tick, for display roles only, so a proxy sorted on RawValueRole does not re-sort (raw values of
// time columns are expiry instants).
//
// A row keeps its lock packed (observe/PackedLockView.h, about 90 bytes at five nodes against about 1.5 KB for a
// LockView) with the key and the texts that filtering and the holder column sort on; sort keys and verdict counts are
// read from the packed bytes, and a row is unpacked only to be painted (the visible rows) or asked for (viewAt).
class LocksModel final : public QAbstractTableModel
{
    Q_OBJECT
    Q_DISABLE_COPY_MOVE(LocksModel)

public:
    enum Column { KeyColumn, HolderColumn, VerdictColumn, ValidityColumn, ColumnCount };
    enum Role {
        RawValueRole = Qt::UserRole + 1, // sortable: key bytes, verdict order, expiry instants (ms, steady clock)
        TtlCellRole,                     // node columns: a TtlCell
        KeyRole,                         // the key as QByteArray (any column)
        VerdictRole,                     // LockVerdict as int (any column)
    };

    explicit LocksModel(QObject* parent = nullptr);
    ~LocksModel() override;

    // Clears the table and sets the node columns (ColumnCount + nodeCount columns in all).
    void reset(int nodeCount);
    void applyChanges(const LockChangeSet& changes);
    // Repaints the countdowns every intervalMs (0: never; tests drive tick() themselves).
    void setCountdownInterval(int intervalMs);
    void tick();
    void setClock(std::shared_ptr<SteadyClock> clock);
    qint64 nowNs() const;

    int nodeCount() const { return m_nodeCount; }
    static int nodeOfColumn(int column) { return column - ColumnCount; }
    // Rows are kept in key order, so a key is found by binary search and needs no index to maintain.
    int rowOf(const QByteArray& key) const;
    // Unpacked on each call: a copy, not a reference into the table.
    LockView viewAt(int row) const { return m_rows[row].view.unpack(m_rows[row].key); }
    std::optional<LockView> viewFor(const QByteArray& key) const;
    // The row as kept, for walks over every lock that read the packed bytes (RestartPlanner::LockSource).
    const QByteArray& keyAt(int row) const { return m_rows[row].key; }
    const PackedLockView& packedAt(int row) const { return m_rows[row].view; }
    // Up to `count` rows in key order whose key is greater than `*after` (from the first row when null): a range of a
    // walk in slices over a table that may change between them (RestartPlanner::KeyOrderedLocks). How many it visited.
    qsizetype visitRowsAfter(const QByteArray* after, qsizetype count,
                             const std::function<void(const QByteArray&, const PackedLockView&)>& visit) const;
    // Rows there is room for without moving the table (a first pass's hand-off makes room at once).
    size_t rowCapacity() const { return m_rows.capacity(); }
    int countWithVerdict(LockVerdict verdict) const { return m_verdictCounts[size_t(verdict)]; }

    // Used by LocksProxyModel: compares raw values without QVariants (100,000 rows sort in milliseconds).
    bool lessThan(int leftRow, int rightRow, int column) const;
    bool matches(int row, const QString& needle) const;

    int rowCount(const QModelIndex& parent = {}) const override;
    int columnCount(const QModelIndex& parent = {}) const override;
    QVariant data(const QModelIndex& index, int role = Qt::DisplayRole) const override;
    QVariant headerData(int section, Qt::Orientation orientation, int role = Qt::DisplayRole) const override;

    // "held 2/3", "held 2/3 · no expiry on #3" (a value without expiry beside the verdict), "stuck 1/3", ...
    static QString verdictText(const LockView& view);
    static QString nodeList(const QList<int>& nodes); // "#1, #3"
    // Why the verdict is what it is, when that is not obvious from its name: a lock-delay and when it ends, a value
    // without expiry beside it, a validity that ran out since the read, nodes not counted because they are
    // quarantined. Empty otherwise.
    static QString verdictReason(const LockView& view, qint64 nowNs);

signals:
    // After each applied batch (for status bars and detail panels).
    void locksApplied();

private:
    struct Row
    {
        QByteArray key; // shared with the change set's
        PackedLockView view;
        QString keyText; // null when the key shows as it is (printable ASCII): filtering reads the key itself
        QString holderText;
    };
    Row makeRow(const LockView& view) const;
    QString keyTextOf(const Row& row) const;
    // The row unpacked, kept until the next row is asked for or the table changes: data() is asked for several
    // roles and columns of one row in a row when it is painted, and unpacks it once for all of them.
    const LockView& unpackedAt(int row) const;
    void dropUnpackedRow() { m_unpackedRow = -1; }
    TtlCell cellFor(const LockView& view, int node, qint64 nowNs) const;
    static qint64 expiryMs(const PackedLockView& view);
    static qint64 nodeExpiryMs(const PackedLockView& view, int node);
    void countVerdict(LockVerdict verdict, int delta);
    void removeRows(QList<int> rows);

    std::vector<Row> m_rows;
    mutable int m_unpackedRow = -1;
    mutable LockView m_unpacked;
    int m_nodeCount = 0;
    std::array<int, size_t(LockVerdict::ReleasedByOperator) + 1> m_verdictCounts{};
    QTimer m_countdown;
    std::shared_ptr<SteadyClock> m_clock;
};

} // namespace redlock

Q_DECLARE_METATYPE(redlock::TtlCell)
