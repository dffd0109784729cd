#include "models/LocksModel.h"

#include "runtime/HumanUnits.h"
#include "runtime/SteadyClock.h"
#include "theme/Icons.h"

#include <QDateTime>

#include <algorithm>

namespace redlock {

namespace {

int verdictOrder(LockVerdict verdict)
{
    // What an operator wants first when sorting by verdict: trouble, then held locks, then the rest.
    switch (verdict) {
    case LockVerdict::Stuck:
        return 0;
    case LockVerdict::Contested:
        return 1;
    case LockVerdict::Unknown:
        return 2;
    case LockVerdict::MinorityLeftover:
        return 3;
    case LockVerdict::Expiring:
        return 4;
    case LockVerdict::Held:
        return 5;
    case LockVerdict::ReleasedByOperator:
        return 6;
    case LockVerdict::Free:
        return 7;
    }
    return 8;
}

} // namespace

LocksModel::LocksModel(QObject* parent) : QAbstractTableModel(parent), m_clock(SteadyClock::system())
{
    connect(&m_countdown, &QTimer::timeout, this, &LocksModel::tick);
    setCountdownInterval(250);
}

LocksModel::~LocksModel() = default;

void LocksModel::reset(int nodeCount)
{
    beginResetModel();
    m_rows.clear();
    dropUnpackedRow();
    m_verdictCounts = {};
    m_nodeCount = nodeCount;
    endResetModel();
    emit locksApplied();
}

void LocksModel::setCountdownInterval(int intervalMs)
{
    if (intervalMs > 0)
        m_countdown.start(intervalMs);
    else
        m_countdown.stop();
}

void LocksModel::setClock(std::shared_ptr<SteadyClock> clock)
{
    m_clock = clock ? std::move(clock) : SteadyClock::system();
}

qint64 LocksModel::nowNs() const
{
    return m_clock->nowNs();
}

void LocksModel::tick()
{
    if (m_rows.empty())
        return;
    emit dataChanged(index(0, ValidityColumn), index(rowCount() - 1, columnCount() - 1),
                     {Qt::DisplayRole, Qt::ToolTipRole, TtlCellRole});
}

qsizetype LocksModel::visitRowsAfter(const QByteArray* after, qsizetype count,
                                     const std::function<void(const QByteArray&, const PackedLockView&)>& visit) const
{
    auto it = after ? std::upper_bound(m_rows.cbegin(), m_rows.cend(), *after,
                                       [](const QByteArray& k, const Row& row) { return k < row.key; })
                    : m_rows.cbegin();
    qsizetype visited = 0;
    for (; it != m_rows.cend() && visited < count; ++it, ++visited)
        visit(it->key, it->view);
    return visited;
}

int LocksModel::rowOf(const QByteArray& key) const
{
    // A first load appends slice after slice in key order: its keys come after the last row.
    if (m_rows.empty() || m_rows.back().key < key)
        return -1;
    const auto it = std::lower_bound(m_rows.cbegin(), m_rows.cend(), key,
                                     [](const Row& row, const QByteArray& k) { return row.key < k; });
    return it != m_rows.cend() && it->key == key ? int(it - m_rows.cbegin()) : -1;
}

std::optional<LockView> LocksModel::viewFor(const QByteArray& key) const
{
    const int row = rowOf(key);
    if (row < 0)
        return std::nullopt;
    return viewAt(row);
}

static_assert(std::is_nothrow_move_constructible_v<QByteArray> && std::is_nothrow_move_constructible_v<QString> &&
                  std::is_nothrow_move_constructible_v<PackedLockView>,
              "rows move when the table grows");

namespace {

// printableBytes(key) would give the key's own characters back: printable ASCII (no backslash, which it escapes), and
// not so long that it is cut.
bool showsAsIs(const QByteArray& key)
{
    if (key.size() > 200)
        return false;
    return std::all_of(key.cbegin(), key.cend(), [](char c) { return c >= 0x20 && c < 0x7f && c != '\\'; });
}

} // namespace

LocksModel::Row LocksModel::makeRow(const LockView& view) const
{
    // The inspector's bytes when the view carries them (as stored: the same bytes as packing it here).
    Q_ASSERT(view.packed.isEmpty() || PackedLockView(view.packed).sameBytesAs(PackedLockView(view)));
    Row row{view.key, view.packed.isEmpty() ? PackedLockView(view) : PackedLockView(view.packed),
            showsAsIs(view.key) ? QString() : printableBytes(view.key), view.holder->summary};
    if (row.holderText.isEmpty() && !view.token.isEmpty())
        row.holderText = printableBytes(view.token, 80);
    if (view.verdict == LockVerdict::Contested)
        row.holderText = tr("%n tokens", nullptr, view.tokenCount);
    return row;
}

QString LocksModel::keyTextOf(const Row& row) const
{
    return row.keyText.isNull() ? QString::fromLatin1(row.key) : row.keyText;
}

const LockView& LocksModel::unpackedAt(int row) const
{
    if (row != m_unpackedRow) {
        m_unpacked = m_rows[row].view.unpack(m_rows[row].key);
        m_unpackedRow = row;
    }
    return m_unpacked;
}

void LocksModel::countVerdict(LockVerdict verdict, int delta)
{
    m_verdictCounts[size_t(verdict)] += delta;
}

void LocksModel::applyChanges(const LockChangeSet& changes)
{
    // Changed (and re-appearing) keys: updated in place, then one dataChanged per run of adjacent rows.
    // Not one signal over the whole span: a sorting proxy re-sorts every row inside a dataChanged range,
    // which for a few scattered changes in 100,000 rows would move the whole table.
    QList<int> changedRows;
    QList<const LockView*> fresh;
    auto update = [&](const LockView& view) {
        const int row = rowOf(view.key);
        if (row < 0) {
            fresh.append(&view);
            return;
        }
        countVerdict(m_rows[row].view.verdict(), -1);
        m_rows[row] = makeRow(view);
        dropUnpackedRow();
        countVerdict(view.verdict, +1);
        changedRows.append(row);
    };
    for (const LockView& view : changes.changed)
        update(view);
    for (const LockView& view : changes.appeared)
        update(view);
    std::sort(changedRows.begin(), changedRows.end());
    for (qsizetype begin = 0; begin < changedRows.size();) {
        qsizetype end = begin + 1;
        while (end < changedRows.size() && changedRows[end] <= changedRows[end - 1] + 1)
            ++end;
        // From the holder column on: a row's key never changes, so a proxy sorted by key (the default) keeps
        // its order instead of taking every changed row out and putting it back (O(rows) each).
        emit dataChanged(index(changedRows[begin], HolderColumn), index(changedRows[end - 1], columnCount() - 1));
        begin = end;
    }

    if (!changes.disappeared.isEmpty()) {
        QList<int> rows;
        rows.reserve(changes.disappeared.size());
        for (const QByteArray& key : changes.disappeared) {
            const int row = rowOf(key);
            if (row >= 0)
                rows.append(row);
        }
        removeRows(std::move(rows));
    }

    if (!fresh.isEmpty()) {
        // A full pass's hand-off says how many rows it tells: room for the rows there are and for all of those at
        // once, while the table is small beside it (the vector's doubling moved half a million rows in one turn at
        // 1M locks, a 66 ms stall). Once: the room made is an eighth more than asked, so the later chunks of the
        // same hand-off, asked while the table is still under an eighth of it, find room (asking for exactly the
        // rows and the hand-off moved the rows told so far at each of the first 125 chunks at 1M).
        if (const auto told = size_t(std::max<qsizetype>(0, changes.handOffSize));
            told > 0 && m_rows.capacity() < m_rows.size() + told && m_rows.size() < told / 8)
            m_rows.reserve(m_rows.size() + told + told / 8);
        // Usually sorted already (by ClusterController, off the GUI thread); cheap to check.
        if (!std::is_sorted(fresh.cbegin(), fresh.cend(),
                            [](const LockView* a, const LockView* b) { return a->key < b->key; }))
            std::sort(fresh.begin(), fresh.end(), [](const LockView* a, const LockView* b) { return a->key < b->key; });
        // Groups of new keys that go to the same place, inserted from the bottom up so that the positions of
        // the groups still to go stay valid.
        qsizetype end = fresh.size();
        while (end > 0) {
            const auto at = std::lower_bound(m_rows.cbegin(), m_rows.cend(), fresh[end - 1]->key,
                                             [](const Row& row, const QByteArray& k) { return row.key < k; });
            const int position = int(at - m_rows.cbegin());
            qsizetype begin = end - 1;
            while (begin > 0 && (position == 0 || m_rows[position - 1].key < fresh[begin - 1]->key))
                --begin;
            std::vector<Row> rows;
            rows.reserve(size_t(end - begin));
            for (qsizetype i = begin; i < end; ++i) {
                rows.push_back(makeRow(*fresh[i]));
                countVerdict(fresh[i]->verdict, +1);
            }
            beginInsertRows({}, position, position + int(rows.size()) - 1);
            // Geometric growth and nothrow moves: appending slice after slice never copies the table.
            if (m_rows.capacity() < m_rows.size() + rows.size())
                m_rows.reserve(std::max(m_rows.size() + rows.size(), m_rows.size() * 2));
            m_rows.insert(m_rows.begin() + position, std::make_move_iterator(rows.begin()),
                          std::make_move_iterator(rows.end()));
            dropUnpackedRow();
            endInsertRows();
            end = begin;
        }
    }
    emit locksApplied();
}

void LocksModel::removeRows(QList<int> rows)
{
    if (rows.isEmpty())
        return;
    std::sort(rows.begin(), rows.end());
    rows.erase(std::unique(rows.begin(), rows.end()), rows.end());
    for (const int row : std::as_const(rows))
        countVerdict(m_rows[row].view.verdict(), -1);
    // Contiguous ranges from the bottom up, so the row numbers of ranges still to go stay valid.
    qsizetype end = rows.size();
    while (end > 0) {
        qsizetype begin = end - 1;
        while (begin > 0 && rows[begin - 1] == rows[begin] - 1)
            --begin;
        const int first = rows[begin];
        const int last = rows[end - 1];
        beginRemoveRows({}, first, last);
        m_rows.erase(m_rows.begin() + first, m_rows.begin() + last + 1);
        dropUnpackedRow();
        endRemoveRows();
        end = begin;
    }
}

qint64 LocksModel::expiryMs(const PackedLockView& view)
{
    const qint64 validityMs = view.observedValidityMs();
    if (validityMs < 0)
        return -1;
    return view.observedAtNs() / 1'000'000 + validityMs;
}

qint64 LocksModel::nodeExpiryMs(const PackedLockView& view, int node)
{
    switch (view.presence(node)) {
    case NodeLockState::Presence::Unreachable:
    case NodeLockState::Presence::Refused:
        return -3;
    case NodeLockState::Presence::Absent:
        return -2;
    case NodeLockState::Presence::NotALock:
        return -1;
    case NodeLockState::Presence::Holding: {
        const qint64 pttlMs = view.pttlMs(node);
        return pttlMs < 0 ? std::numeric_limits<qint64>::max() : view.observedAtNs() / 1'000'000 + pttlMs;
    }
    }
    return -2;
}

TtlCell LocksModel::cellFor(const LockView& view, int node, qint64 nowNs) const
{
    TtlCell cell;
    if (node < 0 || node >= view.nodes.size())
        return cell;
    const NodeLockState& state = view.nodes[node];
    switch (state.presence) {
    case NodeLockState::Presence::Unreachable:
        cell.kind = TtlCell::Kind::Unreachable;
        cell.text = tr("unreachable");
        return cell;
    case NodeLockState::Presence::Refused:
        cell.kind = TtlCell::Kind::Unreachable;
        cell.text = tr("no permission");
        return cell;
    case NodeLockState::Presence::Absent:
        cell.kind = TtlCell::Kind::Absent;
        cell.text = tr("absent");
        return cell;
    case NodeLockState::Presence::NotALock:
        cell.kind = TtlCell::Kind::NotALock;
        cell.text = tr("not a lock");
        return cell;
    case NodeLockState::Presence::Holding:
        break;
    }
    // An empty value is a token too: "no holder" is holders == 0, not an empty token.
    const bool majority = view.holders > 0 && state.token == view.token && view.verdict != LockVerdict::Contested;
    // A force release's tombstone is nobody's token: a lock-delay running out.
    const bool tombstone = !majority && state.hashFields.isEmpty() && LockTombstone::isTombstone(state.token);
    cell.kind = majority ? TtlCell::Kind::Majority : tombstone ? TtlCell::Kind::Tombstone : TtlCell::Kind::OtherToken;
    qint64 scale = 0;
    for (const NodeLockState& s : view.nodes)
        scale = std::max(scale, s.pttlMs);
    cell.scaleMs = scale;
    cell.remainingMs =
        state.pttlMs < 0 ? -1 : std::max<qint64>(0, state.pttlMs - (nowNs - view.observedAtNs) / 1'000'000);
    const QString time = cell.remainingMs < 0 ? tr("no TTL") : HumanUnits::remaining(cell.remainingMs);
    cell.text = majority ? time : tombstone ? tr("lock-delay %1").arg(time) : tr("other %1").arg(time);
    return cell;
}

bool LocksModel::lessThan(int leftRow, int rightRow, int column) const
{
    const Row& l = m_rows[leftRow];
    const Row& r = m_rows[rightRow];
    switch (column) {
    case KeyColumn:
        return l.key < r.key;
    case HolderColumn:
        return l.holderText < r.holderText;
    case VerdictColumn:
        return verdictOrder(l.view.verdict()) < verdictOrder(r.view.verdict());
    case ValidityColumn:
        return expiryMs(l.view) < expiryMs(r.view);
    default: {
        const int node = nodeOfColumn(column);
        if (node < 0 || node >= m_nodeCount)
            return false;
        return nodeExpiryMs(l.view, node) < nodeExpiryMs(r.view, node);
    }
    }
}

bool LocksModel::matches(int row, const QString& needle) const
{
    const Row& r = m_rows[row];
    const bool inKey = r.keyText.isNull() ? QLatin1StringView(r.key).contains(needle, Qt::CaseInsensitive)
                                          : r.keyText.contains(needle, Qt::CaseInsensitive);
    return inKey || r.holderText.contains(needle, Qt::CaseInsensitive) ||
           lockVerdictName(r.view.verdict()).contains(needle, Qt::CaseInsensitive);
}

int LocksModel::rowCount(const QModelIndex& parent) const
{
    return parent.isValid() ? 0 : static_cast<int>(m_rows.size());
}

int LocksModel::columnCount(const QModelIndex& parent) const
{
    return parent.isValid() ? 0 : ColumnCount + m_nodeCount;
}

QString LocksModel::nodeList(const QList<int>& nodes)
{
    QStringList names;
    for (const int n : nodes)
        names << tr("#%1").arg(n + 1);
    return names.join(QStringLiteral(", "));
}

QString LocksModel::verdictText(const LockView& view)
{
    const QString name = lockVerdictName(view.verdict);
    QString text;
    switch (view.verdict) {
    case LockVerdict::Held:
    case LockVerdict::Expiring:
    case LockVerdict::MinorityLeftover:
        text = tr("%1 %2/%3").arg(name).arg(view.holders).arg(view.nodes.size());
        break;
    case LockVerdict::Stuck: // on how many nodes it never expires
        return tr("%1 %2/%3").arg(name).arg(view.restsOn.size()).arg(view.nodes.size());
    case LockVerdict::Unknown:
        if (view.validityEnded)
            return tr("%1: validity ended, reading again").arg(name);
        text = name;
        break;
    default:
        text = name;
        break;
    }
    // A value that never expires beside the verdict is a fact of its own (the row's force release targets it).
    if (!view.noExpiryNodes.isEmpty())
        text = tr("%1 · no expiry on %2").arg(text, nodeList(view.noExpiryNodes));
    return text;
}

QString LocksModel::verdictReason(const LockView& view, qint64 nowNs)
{
    QStringList lines;
    if (view.verdict == LockVerdict::ReleasedByOperator) {
        const qint64 left = view.remainingFreeInMs(nowNs);
        lines << (left < 0 ? tr("Released by an operator with a lock-delay; when it is free is not known (nodes "
                                "unreachable or without expiry).")
                           : tr("Released by an operator with a lock-delay: free at %1 (in %2).")
                                 .arg(QDateTime::fromMSecsSinceEpoch(view.observedAtMs + view.freeInMs)
                                          .toString(QStringLiteral("HH:mm:ss")),
                                      HumanUnits::remaining(left)));
    }
    if (!view.noExpiryNodes.isEmpty() && view.verdict != LockVerdict::Stuck)
        lines << tr("No expiry on node(s) %1: a value that never goes away by itself (%2) sits beside the verdict's "
                    "holder. Force release on this lock replaces that value, not the holder's token.")
                     .arg(nodeList(view.noExpiryNodes), decodeHolder(view.key, view.noExpiryToken).summary);
    if (view.validityEnded)
        lines << tr("The observed validity of its quorum ran out after the last read: extended unseen, or expired. "
                    "The key is being read again.");
    if (!view.uncounted.isEmpty()) {
        QStringList nodes;
        for (const int n : view.uncounted)
            nodes << tr("#%1").arg(n + 1);
        lines << tr("Not counted: node(s) %1 quarantined for a delayed restart; the verdict treats them as "
                    "unreachable, whatever they hold.")
                     .arg(nodes.join(QStringLiteral(", ")));
    }
    return lines.join(QLatin1Char('\n'));
}

QVariant LocksModel::data(const QModelIndex& index, int role) const
{
    if (!checkIndex(index, CheckIndexOption::IndexIsValid | CheckIndexOption::ParentIsInvalid))
        return {};
    const Row& row = m_rows[index.row()];
    const int column = index.column();
    // What the packed row answers by itself comes first; the rest unpacks it (once for the whole row, unpackedAt).
    switch (role) {
    case Qt::DisplayRole:
        switch (column) {
        case KeyColumn:
            return keyTextOf(row);
        case HolderColumn:
            return row.holderText;
        default:
            break;
        }
        break;
    case RawValueRole:
        switch (column) {
        case KeyColumn:
            return row.key;
        case HolderColumn:
            return row.holderText;
        case VerdictColumn:
            return verdictOrder(row.view.verdict());
        case ValidityColumn:
            return expiryMs(row.view);
        default:
            return nodeExpiryMs(row.view, nodeOfColumn(column));
        }
    case Qt::DecorationRole:
        if (column == VerdictColumn)
            return Icons::verdict(row.view.verdict());
        return {};
    case TtlCellRole:
        if (column < ColumnCount)
            return {};
        break;
    case KeyRole:
        return row.key;
    case VerdictRole:
        return int(row.view.verdict());
    case Qt::ToolTipRole:
        if (column == KeyColumn)
            return keyTextOf(row);
        if (column == ValidityColumn)
            return tr("Observed validity: the quorum-th longest remaining TTL among the holders, minus clock drift");
        break;
    case Qt::TextAlignmentRole:
        if (column == ValidityColumn)
            return QVariant::fromValue(Qt::AlignRight | Qt::AlignVCenter);
        return {};
    default:
        return {};
    }

    const LockView& view = unpackedAt(index.row());
    switch (role) {
    case Qt::DisplayRole:
        switch (column) {
        case VerdictColumn:
            return verdictText(view);
        case ValidityColumn:
            if (view.verdict == LockVerdict::ReleasedByOperator && view.freeInMs >= 0)
                return tr("free in %1").arg(HumanUnits::remaining(view.remainingFreeInMs(nowNs())));
            return view.isHeld() ? HumanUnits::remaining(view.remainingValidityMs(nowNs())) : tr("—");
        default:
            return cellFor(view, nodeOfColumn(column), nowNs()).text;
        }
    case TtlCellRole:
        return QVariant::fromValue(cellFor(view, nodeOfColumn(column), nowNs()));
    case Qt::ToolTipRole:
        switch (column) {
        case HolderColumn:
            return tr("%1\nformat: %2\ntoken: %3")
                .arg(row.holderText, holderFormatName(view.holder->format), printableBytes(view.token, 120));
        case VerdictColumn: {
            QStringList nodes;
            for (const int n : view.restsOn)
                nodes << tr("#%1").arg(n + 1);
            QString tip = tr("%1; rests on nodes %2 (quorum %3 of %4)")
                              .arg(lockVerdictName(view.verdict), nodes.join(QStringLiteral(", ")))
                              .arg(view.quorum)
                              .arg(view.nodes.size());
            const QString why = verdictReason(view, nowNs());
            if (!why.isEmpty())
                tip += QLatin1Char('\n') + why;
            return tip;
        }
        default: {
            const int node = nodeOfColumn(column);
            const NodeLockState& state = view.nodes.value(node);
            const TtlCell cell = cellFor(view, node, nowNs());
            QString tip = tr("Node #%1: %2").arg(node + 1).arg(cell.text);
            if (!state.note.isEmpty())
                tip += QStringLiteral("\n") + state.note;
            if (state.presence == NodeLockState::Presence::Holding)
                tip += QStringLiteral("\n") + tr("token: %1").arg(printableBytes(state.token, 120));
            return tip;
        }
        }
    default:
        return {};
    }
}

QVariant LocksModel::headerData(int section, Qt::Orientation orientation, int role) const
{
    if (orientation != Qt::Horizontal)
        return QAbstractTableModel::headerData(section, orientation, role);
    if (role == Qt::ToolTipRole && section >= ColumnCount)
        return tr("Remaining TTL on node #%1. Solid bar: majority token; hatched with %2: another token; "
                  "%3 absent; %4 unreachable")
            .arg(section - ColumnCount + 1)
            .arg(Icons::presenceGlyph(NodeLockState::Presence::Holding, false),
                 Icons::presenceGlyph(NodeLockState::Presence::Absent),
                 Icons::presenceGlyph(NodeLockState::Presence::Unreachable));
    if (role != Qt::DisplayRole)
        return {};
    switch (section) {
    case KeyColumn:
        return tr("Lock key");
    case HolderColumn:
        return tr("Holder");
    case VerdictColumn:
        return tr("Verdict");
    case ValidityColumn:
        return tr("Validity");
    default:
        return section < columnCount() ? tr("TTL #%1").arg(section - ColumnCount + 1) : QVariant();
    }
}

} // namespace redlock
