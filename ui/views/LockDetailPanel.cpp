#include "views/LockDetailPanel.h"

#include "runtime/HumanUnits.h"

#include <algorithm>

#include "models/EventLogModel.h"
#include "models/LocksModel.h"
#include "theme/Icons.h"
#include "views/ValidityTimeline.h"

#include <QDateTime>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QLabel>
#include <QSplitter>
#include <QTableWidget>
#include <QTreeWidget>
#include <QVBoxLayout>

namespace redlock {

LockDetailPanel::LockDetailPanel(ClusterController* controller, LocksModel* locks, EventLogModel* events,
                                 QWidget* parent)
    : QWidget(parent), m_controller(controller), m_locks(locks), m_events(events), m_title(new QLabel(this)),
      m_summary(new QLabel(this)), m_matrix(new QTableWidget(this)), m_timeline(new ValidityTimeline(this)),
      m_holders(new QTreeWidget(this))
{
    m_title->setTextFormat(Qt::PlainText);
    QFont titleFont = m_title->font();
    titleFont.setBold(true);
    titleFont.setPointSizeF(titleFont.pointSizeF() * 1.15);
    m_title->setFont(titleFont);
    m_title->setTextInteractionFlags(Qt::TextSelectableByMouse);
    m_title->setText(tr("No lock selected"));
    m_summary->setObjectName(QStringLiteral("lockSummary"));
    m_summary->setWordWrap(true);
    m_summary->setTextInteractionFlags(Qt::TextSelectableByMouse);
    m_summary->setText(tr("Select a row in the locks table to see it on every node."));
    // Why the verdict is what it is (a lock-delay, quarantined nodes): a line of its own, shown when there is one.
    m_reason = new QLabel(this);
    m_reason->setObjectName(QStringLiteral("lockVerdictReason"));
    m_reason->setWordWrap(true);
    m_reason->setTextInteractionFlags(Qt::TextSelectableByMouse);
    m_reason->hide();

    m_matrix->setObjectName(QStringLiteral("lockMatrix"));
    m_matrix->setColumnCount(MatrixColumnCount);
    m_matrix->setHorizontalHeaderLabels(
        {tr("Node"), tr("Presence"), tr("Token / holder"), tr("PTTL now"), tr("Last read"), tr("Read latency")});
    m_matrix->verticalHeader()->hide();
    m_matrix->verticalHeader()->setDefaultSectionSize(fontMetrics().height() + 6);
    m_matrix->setEditTriggers(QAbstractItemView::NoEditTriggers);
    m_matrix->setSelectionMode(QAbstractItemView::NoSelection);
    m_matrix->setWordWrap(false);
    m_matrix->horizontalHeader()->setSectionResizeMode(QHeaderView::ResizeToContents);
    m_matrix->horizontalHeader()->setSectionResizeMode(TokenColumn, QHeaderView::Stretch);

    m_timeline->setObjectName(QStringLiteral("validityTimeline"));

    m_holders->setObjectName(QStringLiteral("recentHolders"));
    m_holders->setColumnCount(3);
    m_holders->setHeaderLabels({tr("Time"), tr("Event"), tr("Holder")});
    m_holders->setRootIsDecorated(false);
    m_holders->setUniformRowHeights(true);
    m_holders->header()->setSectionResizeMode(0, QHeaderView::ResizeToContents);
    m_holders->header()->setSectionResizeMode(1, QHeaderView::ResizeToContents);
    // The history is the part of the panel that gives way when space is short (taller CJK text, a wrapped
    // summary): header and about two rows, so the matrix and the timeline above never get squeezed together.
    m_holders->setMinimumHeight(m_holders->header()->sizeHint().height() + 2 * fontMetrics().height() +
                                2 * m_holders->frameWidth());

    auto* holdersBox = new QWidget(this);
    auto* holdersLayout = new QVBoxLayout(holdersBox);
    holdersLayout->setContentsMargins(0, 0, 0, 0);
    holdersLayout->addWidget(new QLabel(tr("Recent holders of this key (live events)"), holdersBox));
    holdersLayout->addWidget(m_holders);

    auto* split = new QSplitter(Qt::Vertical, this);
    split->addWidget(m_matrix);
    split->addWidget(m_timeline);
    split->addWidget(holdersBox);
    split->setStretchFactor(0, 2);
    split->setStretchFactor(1, 3);
    split->setStretchFactor(2, 2);
    split->setChildrenCollapsible(false);

    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(4, 4, 4, 4);
    layout->addWidget(m_title);
    layout->addWidget(m_summary);
    layout->addWidget(m_reason);
    layout->addWidget(split, 1);
    m_actionRow = new QHBoxLayout;
    m_actionRow->addStretch(1);
    layout->addLayout(m_actionRow);

    connect(m_locks, &LocksModel::locksApplied, this, &LockDetailPanel::refresh);
    connect(m_events, &QAbstractItemModel::rowsInserted, this, &LockDetailPanel::refreshHolders);
    connect(m_controller, &ClusterController::keyRead, this, &LockDetailPanel::onKeyRead);
    m_readTimer.setInterval(1000);
    connect(&m_readTimer, &QTimer::timeout, this, [this] {
        if (!m_key.isEmpty())
            m_controller->readKey(m_key);
    });
    m_countdownTimer.setInterval(250);
    connect(&m_countdownTimer, &QTimer::timeout, this, &LockDetailPanel::refreshCountdown);
    m_matrix->setRowCount(0);
}

void LockDetailPanel::addActionWidget(QWidget* widget)
{
    widget->setParent(this);
    m_actionRow->addWidget(widget);
}

void LockDetailPanel::showKey(const QByteArray& key)
{
    if (key == m_key)
        return;
    m_key = key;
    const int n = m_controller->nodeCount();
    m_matrix->setRowCount(n);
    // Every node's row in sight (up to nine; more scroll): the verdict rests on this matrix.
    const int visibleRows = std::min(n, 9);
    m_matrix->setMinimumHeight(m_matrix->horizontalHeader()->sizeHint().height() +
                               visibleRows * m_matrix->verticalHeader()->defaultSectionSize() +
                               2 * m_matrix->frameWidth());
    for (int row = 0; row < n; ++row)
        for (int column = 0; column < MatrixColumnCount; ++column)
            setCell(row, column, QString());
    refresh();
    refreshHolders();
    if (m_key.isEmpty()) {
        m_readTimer.stop();
        m_countdownTimer.stop();
    } else {
        m_controller->readKey(m_key);
        m_readTimer.start();
        m_countdownTimer.start();
    }
}

void LockDetailPanel::setCell(int row, int column, const QString& text, const QString& toolTip)
{
    QTableWidgetItem* item = m_matrix->item(row, column);
    if (!item) {
        item = new QTableWidgetItem;
        m_matrix->setItem(row, column, item);
    }
    if (item->text() != text)
        item->setText(text);
    if (item->toolTip() != toolTip)
        item->setToolTip(toolTip);
}

void LockDetailPanel::refresh()
{
    if (m_key.isEmpty()) {
        m_title->setText(tr("No lock selected"));
        m_summary->setText(tr("Select a row in the locks table to see it on every node."));
        showReason({});
        m_timeline->clear();
        return;
    }
    m_title->setText(printableBytes(m_key));
    const std::optional<LockView> view = m_locks->viewFor(m_key);
    if (!view) {
        m_summary->setText(tr("This key is gone from every reachable node."));
        showReason({});
        m_timeline->clear();
        for (int row = 0; row < m_matrix->rowCount(); ++row) {
            setCell(row, PresenceColumn, tr("absent"));
            setCell(row, TokenColumn, QString());
            setCell(row, PttlColumn, QString());
        }
        return;
    }
    m_summary->setText(summaryText(*view));
    showReason(LocksModel::verdictReason(*view, m_locks->nowNs()));
    for (int row = 0; row < m_matrix->rowCount() && row < view->nodes.size(); ++row) {
        const NodeLockState& s = view->nodes[row];
        const NodeEndpoint endpoint = m_controller->settings().nodes.value(row);
        setCell(row, NodeColumn, tr("#%1").arg(row + 1), endpoint.displayName());
        QString presence;
        switch (s.presence) {
        case NodeLockState::Presence::Holding:
            presence = s.hashFields.isEmpty() && LockTombstone::isTombstone(s.token) ? tr("tombstone (lock-delay)")
                       : s.token == view->token && view->verdict != LockVerdict::Contested ? tr("majority")
                       : view->noExpiryNodes.contains(row) ? tr("other, no expiry (leftover)")
                                                           : tr("other");
            break;
        case NodeLockState::Presence::Absent:
            presence = tr("absent");
            break;
        case NodeLockState::Presence::Unreachable:
            presence = tr("unreachable");
            break;
        case NodeLockState::Presence::Refused:
            presence = tr("no permission");
            break;
        case NodeLockState::Presence::NotALock:
            presence = tr("not a lock");
            break;
        }
        presence = Icons::presenceGlyph(s.presence, s.token == view->token && view->verdict != LockVerdict::Contested) +
                   QLatin1Char(' ') + presence;
        if (view->uncounted.contains(row))
            presence += tr(" (not counted)");
        setCell(row, PresenceColumn, presence,
                view->uncounted.contains(row) ? tr("Quarantined for a delayed restart: not counted by the verdict.")
                                              : s.note);
        QString token;
        if (s.presence == NodeLockState::Presence::Holding) {
            const HolderInfo holder =
                s.hashFields.isEmpty() ? decodeHolder(m_key, s.token) : decodeRedissonHolder(s.hashFields);
            token = holder.summary.isEmpty() ? printableBytes(s.token, 80) : holder.summary;
            setCell(row, TokenColumn, token, printableBytes(s.token, 300));
        } else {
            setCell(row, TokenColumn, QString());
        }
    }
    m_timeline->setLock(*view, m_controller->settings().driftFactor);
    refreshCountdown();
}

QString LockDetailPanel::summaryText(const LockView& view) const
{
    QStringList restsOn;
    for (const int n : view.restsOn)
        restsOn << tr("#%1").arg(n + 1);
    QString summary = tr("%1 — holder: %2 (%3). Rests on nodes %4; quorum %5 of %6.")
                          .arg(Icons::verdictGlyph(view.verdict) + QLatin1Char(' ') + LocksModel::verdictText(view),
                               view.holder->summary.isEmpty() ? tr("none") : view.holder->summary,
                               holderFormatName(view.holder->format), restsOn.join(QStringLiteral(", ")))
                          .arg(view.quorum)
                          .arg(view.nodes.size());
    return summary;
}

void LockDetailPanel::showReason(const QString& reason)
{
    if (m_reason->text() != reason)
        m_reason->setText(reason);
    m_reason->setVisible(!reason.isEmpty());
}

void LockDetailPanel::refreshCountdown()
{
    const std::optional<LockView> view = m_key.isEmpty() ? std::nullopt : m_locks->viewFor(m_key);
    if (!view)
        return;
    const qint64 now = m_locks->nowNs();
    if (view->verdict == LockVerdict::ReleasedByOperator)
        showReason(LocksModel::verdictReason(*view, now)); // "free in …" counts down
    for (int row = 0; row < m_matrix->rowCount() && row < view->nodes.size(); ++row) {
        const NodeLockState& s = view->nodes[row];
        QString text;
        if (s.presence == NodeLockState::Presence::Holding)
            text = s.pttlMs < 0
                       ? tr("no expiry: stuck")
                       : HumanUnits::remaining(std::max<qint64>(0, s.pttlMs - (now - view->observedAtNs) / 1'000'000));
        setCell(row, PttlColumn, text);
    }
}

void LockDetailPanel::onKeyRead(const QByteArray& key, const QList<KeyReadResult>& results)
{
    if (key != m_key)
        return;
    const QString at = QDateTime::currentDateTime().toString(u"HH:mm:ss");
    for (const KeyReadResult& r : results) {
        if (r.node < 0 || r.node >= m_matrix->rowCount())
            continue;
        QString read;
        if (!r.ok)
            read = Icons::presenceGlyph(NodeLockState::Presence::Unreachable) + QLatin1Char(' ') + r.error;
        else if (r.pttlMs == -2)
            read = tr("absent");
        else if (r.pttlMs == -1)
            read = tr("no TTL");
        else
            read = HumanUnits::remaining(r.pttlMs);
        setCell(r.node, LastReadColumn, read, tr("PTTL read at %1").arg(at));
        setCell(r.node, LatencyColumn, HumanUnits::latency(r.latencyUs));
    }
}

void LockDetailPanel::refreshHolders()
{
    m_holders->clear();
    if (m_key.isEmpty())
        return;
    const auto entries = m_events->entriesForKey(m_key, 20);
    QList<QTreeWidgetItem*> items;
    for (const EventLogModel::Entry& e : entries) {
        items.append(new QTreeWidgetItem(
            {QDateTime::fromMSecsSinceEpoch(e.atMs).toString(u"HH:mm:ss.zzz"), e.kind(), e.holder()}));
    }
    m_holders->addTopLevelItems(items);
}

} // namespace redlock
