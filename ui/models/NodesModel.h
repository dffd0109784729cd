#pragma once

#include "observe/ObservationTypes.h"

#include <QAbstractTableModel>
#include <QHash>

#include <algorithm>

namespace redlock {

// One row per configured node: what its NodeSession reports and the audit findings that concern it.
// Only translates ClusterController signals into dataChanged over the row (or column) they touch.
class NodesModel final : public QAbstractTableModel
{
    Q_OBJECT
    Q_DISABLE_COPY_MOVE(NodesModel)

public:
    enum Column {
        AddressColumn,
        StateColumn,
        RoleColumn,
        LatencyColumn,
        ClockOffsetColumn,
        UptimeColumn,
        LoadColumn, // what this console sends the node, commands/s, and whether it sees changes live
        AuditColumn,
        ColumnCount
    };
    enum Role {
        RawValueRole = Qt::UserRole + 1, // sortable value: numbers as numbers
        SeverityRole,                    // AuditColumn: worst AuditFinding::Severity as int, -1 none
    };

    explicit NodesModel(QObject* parent = nullptr);

    void setNodes(const QList<NodeFacts>& facts);
    void setFacts(const NodeFacts& facts);
    void setSample(const NodeSample& sample);
    // What the lock view costs each node (LockInspector::observerLoad); the sessions' part comes in samples.
    void setLoad(const QList<ObserverLoad>& load);
    void setFindings(const QList<AuditFinding>& findings);
    // Operator state shown in the state column instead of the health (e.g. "kept down — 12 s"); empty
    // clears it. A `warning` (a node back before its due time) gets a warning icon and the danger colour.
    void setStateNote(int node, const QString& note, bool warning = false);
    QString stateNote(int node) const { return m_stateNotes.value(node).first; }
    // Why the SSH tunnel of a node reached through a bastion is not up (ClusterController::tunnelProblem); empty
    // clears it. While the node is not up, the state column says the tunnel is down and its tooltip says why.
    void setTunnelProblem(int node, const QString& problem);
    QString tunnelProblem(int node) const { return m_tunnelProblems.value(node); }
    // "via ops@bastion → 10.0.0.5:6379" for a node behind a bastion, empty for one reached directly.
    static QString pathText(const NodeEndpoint& endpoint);
    bool stateNoteIsWarning(int node) const { return m_stateNotes.value(node).second; }

    const NodeFacts& facts(int row) const { return m_nodes[row]; }
    QList<AuditFinding> findingsFor(int node) const;

    int rowCount(const QModelIndex& parent = {}) const override;
    int columnCount(const QModelIndex& parent = {}) const override;
    QVariant data(const QModelIndex& index, int role = Qt::DisplayRole) const override;
    QVariant headerData(int section, Qt::Orientation orientation, int role = Qt::DisplayRole) const override;

    // "0.3 ms ± 0.1": the offset and half the round trip of the sample it comes from (uncertainty -1: none).
    static QString formatClockOffset(qint64 offsetUs, qint64 uncertaintyUs);

private:
    QVariant display(const NodeFacts& facts, int column) const;
    QVariant raw(const NodeFacts& facts, int column) const;
    QVariant decoration(const NodeFacts& facts, int column) const;
    QString toolTip(const NodeFacts& facts, int column) const;
    int worstSeverity(int node) const;

    QList<NodeFacts> m_nodes;
    QList<AuditFinding> m_findings;
    QHash<int, std::pair<QString, bool>> m_stateNotes;
    QHash<int, QString> m_tunnelProblems;
    struct Load
    {
        double sessionPerSecond = -1; // -1 unknown
        bool inspectorKnown = false;
        ObserverLoad inspector;
        double total() const
        {
            return std::max(0.0, sessionPerSecond) + (inspectorKnown ? inspector.commandsPerSecond : 0.0);
        }
        bool known() const { return sessionPerSecond >= 0 || inspectorKnown; }
    };
    QList<Load> m_load; // per node
};

} // namespace redlock
