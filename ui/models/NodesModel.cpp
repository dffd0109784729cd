#include "models/NodesModel.h"

#include "runtime/HumanUnits.h"
#include "theme/Icons.h"
#include "theme/StatePalette.h"

#include <QDateTime>
#include <QLocale>

#include <cmath>

namespace redlock {

NodesModel::NodesModel(QObject* parent) : QAbstractTableModel(parent) {}

QString NodesModel::formatClockOffset(qint64 offsetUs, qint64 uncertaintyUs)
{
    // One decimal of a millisecond; a value that rounds to zero is "0.0", never "-0.0".
    const auto ms = [](qint64 us) {
        const double rounded = std::round(double(us) / 100.0) / 10.0;
        return QLocale().toString(rounded == 0.0 ? 0.0 : rounded, 'f', 1);
    };
    if (uncertaintyUs < 0)
        return tr("%1 ms").arg(ms(offsetUs));
    return tr("%1 ms ± %2").arg(ms(offsetUs), ms(std::max<qint64>(uncertaintyUs, 100)));
}

void NodesModel::setNodes(const QList<NodeFacts>& facts)
{
    beginResetModel();
    m_nodes = facts;
    m_findings.clear();
    m_load = QList<Load>(facts.size());
    m_tunnelProblems.clear();
    endResetModel();
}

void NodesModel::setTunnelProblem(int node, const QString& problem)
{
    if (m_tunnelProblems.value(node) == problem)
        return;
    if (problem.isEmpty())
        m_tunnelProblems.remove(node);
    else
        m_tunnelProblems.insert(node, problem);
    for (int row = 0; row < m_nodes.size(); ++row)
        if (m_nodes[row].node == node)
            emit dataChanged(index(row, AddressColumn), index(row, StateColumn));
}

QString NodesModel::pathText(const NodeEndpoint& endpoint)
{
    if (endpoint.sshRoute.isEmpty())
        return {};
    // The chain as ssh walks it: "via a → b → host:port" for ProxyJump hops.
    return tr("via %1 → %2").arg(endpoint.sshRoute.split(u',').join(QStringLiteral(" → ")), endpoint.displayName());
}

void NodesModel::setFacts(const NodeFacts& facts)
{
    if (facts.node < 0 || facts.node >= m_nodes.size())
        return;
    NodeFacts& row = m_nodes[facts.node];
    const qint64 latency = row.latencyUs;
    const auto offset = row.clockOffsetUs;
    const qint64 uncertainty = row.clockOffsetUncertaintyUs;
    row = facts;
    // Facts carry no sample of their own between two samples: keep the last one, but only while the node
    // answers (a node that stopped answering has no latency or offset to show).
    if (row.health == NodeHealth::Up && row.latencyUs < 0)
        row.latencyUs = latency;
    if (row.health == NodeHealth::Up && !row.clockOffsetUs) {
        row.clockOffsetUs = offset;
        row.clockOffsetUncertaintyUs = uncertainty;
    }
    emit dataChanged(index(facts.node, 0), index(facts.node, ColumnCount - 1));
}

void NodesModel::setSample(const NodeSample& sample)
{
    if (sample.node < 0 || sample.node >= m_nodes.size())
        return;
    NodeFacts& row = m_nodes[sample.node];
    row.latencyUs = sample.latencyUs;
    if (sample.clockOffsetUs) {
        row.clockOffsetUs = sample.clockOffsetUs;
        row.clockOffsetUncertaintyUs = sample.clockOffsetUncertaintyUs;
    }
    // The uptime goes on between two reads of INFO: shown as of now, refreshed with every sample.
    emit dataChanged(index(sample.node, LatencyColumn), index(sample.node, UptimeColumn));
    if (sample.commandsPerSecond >= 0 && sample.node < m_load.size()) {
        m_load[sample.node].sessionPerSecond = sample.commandsPerSecond;
        emit dataChanged(index(sample.node, LoadColumn), index(sample.node, LoadColumn));
    }
}

void NodesModel::setLoad(const QList<ObserverLoad>& load)
{
    for (const ObserverLoad& l : load) {
        if (l.node < 0 || l.node >= m_load.size())
            continue;
        m_load[l.node].inspector = l;
        m_load[l.node].inspectorKnown = true;
    }
    if (!m_nodes.isEmpty())
        emit dataChanged(index(0, LoadColumn), index(rowCount() - 1, LoadColumn));
}

void NodesModel::setFindings(const QList<AuditFinding>& findings)
{
    m_findings = findings;
    if (!m_nodes.isEmpty())
        emit dataChanged(index(0, AuditColumn), index(rowCount() - 1, AuditColumn));
}

QList<AuditFinding> NodesModel::findingsFor(int node) const
{
    QList<AuditFinding> out;
    for (const AuditFinding& finding : m_findings) {
        if (finding.nodes.contains(node))
            out.append(finding);
    }
    return out;
}

int NodesModel::rowCount(const QModelIndex& parent) const
{
    return parent.isValid() ? 0 : static_cast<int>(m_nodes.size());
}

int NodesModel::columnCount(const QModelIndex& parent) const
{
    return parent.isValid() ? 0 : ColumnCount;
}

void NodesModel::setStateNote(int node, const QString& note, bool warning)
{
    if (note.isEmpty()) {
        if (m_stateNotes.remove(node) == 0)
            return;
    } else {
        const auto old = m_stateNotes.value(node);
        if (old.first == note && old.second == warning && m_stateNotes.contains(node))
            return;
        m_stateNotes.insert(node, {note, warning});
    }
    for (int row = 0; row < m_nodes.size(); ++row)
        if (m_nodes[row].node == node)
            emit dataChanged(index(row, StateColumn), index(row, StateColumn));
}

QVariant NodesModel::data(const QModelIndex& index, int role) const
{
    if (!checkIndex(index, CheckIndexOption::IndexIsValid | CheckIndexOption::ParentIsInvalid))
        return {};
    const NodeFacts& facts = m_nodes[index.row()];
    switch (role) {
    case Qt::DisplayRole:
        return display(facts, index.column());
    case RawValueRole:
        return raw(facts, index.column());
    case Qt::ToolTipRole:
        return toolTip(facts, index.column());
    case SeverityRole:
        return index.column() == AuditColumn ? worstSeverity(index.row()) : QVariant();
    case Qt::DecorationRole:
        return decoration(facts, index.column());
    case Qt::ForegroundRole:
        if (index.column() == StateColumn && stateNoteIsWarning(facts.node))
            return StatePalette::current().color(StatePalette::Role::Danger);
        return {};
    case Qt::TextAlignmentRole:
        if (index.column() == LatencyColumn || index.column() == ClockOffsetColumn)
            return QVariant::fromValue(Qt::AlignRight | Qt::AlignVCenter);
        return {};
    default:
        return {};
    }
}

QVariant NodesModel::display(const NodeFacts& facts, int column) const
{
    switch (column) {
    case AddressColumn:
        if (!facts.endpoint.sshRoute.isEmpty())
            return tr("#%1 %2 (via %3)").arg(facts.node + 1).arg(facts.endpoint.displayName(), facts.endpoint.sshRoute);
        return tr("#%1 %2").arg(facts.node + 1).arg(facts.endpoint.displayName());
    case StateColumn: {
        if (const auto note = m_stateNotes.find(facts.node); note != m_stateNotes.end())
            return note->first;
        if (facts.health != NodeHealth::Up && m_tunnelProblems.contains(facts.node))
            return tr("unreachable: SSH tunnel not up");
        QString text = nodeHealthName(facts.health);
        if (facts.isDegraded())
            text += tr(" (degraded)");
        return text;
    }
    case RoleColumn:
        if (facts.role.isEmpty())
            return tr("?");
        if (facts.role == QLatin1String("master"))
            return facts.connectedReplicas > 0 ? tr("master, %n replica(s)", nullptr, facts.connectedReplicas)
                                               : tr("master");
        return facts.role == QLatin1String("slave") ? tr("replica") : facts.role;
    case LatencyColumn:
        return HumanUnits::latency(facts.latencyUs);
    case ClockOffsetColumn:
        if (!facts.clockOffsetUs)
            return tr("—");
        return formatClockOffset(*facts.clockOffsetUs, facts.clockOffsetUncertaintyUs);
    case UptimeColumn: {
        const qint64 uptimeMs = facts.uptimeMsAt(QDateTime::currentMSecsSinceEpoch());
        if (uptimeMs < 0)
            return tr("—");
        QString text = uptimeMs < 60'000 ? tr("%1 s").arg(uptimeMs / 1000) : HumanUnits::duration(uptimeMs);
        if (facts.restartSeenAtMs > 0)
            text = tr("%1, restarted at %2")
                       .arg(text, QDateTime::fromMSecsSinceEpoch(facts.restartSeenAtMs).toString(u"HH:mm:ss"));
        return text;
    }
    case LoadColumn: {
        const Load load = m_load.value(facts.node);
        if (!load.known())
            return tr("—");
        QString text = tr("%1 cmd/s").arg(QLocale().toString(load.total(), 'f', 0));
        if (load.inspectorKnown && !load.inspector.eventsLive && !load.inspector.eventsNote.isEmpty())
            text += tr(" · rescan only");
        // Where the node refuses the page script (when asked for), its pass costs it a few commands per key instead
        // of one per page.
        if (load.inspectorKnown && load.inspector.readPath == ReadPath::PerKey &&
            !load.inspector.readPathNote.isEmpty())
            text += tr(" · per key");
        return text;
    }
    case AuditColumn: {
        const QList<AuditFinding> findings = findingsFor(facts.node);
        if (findings.isEmpty())
            return tr("no findings");
        QStringList titles;
        for (const AuditFinding& f : findings)
            titles << f.title;
        return titles.join(QStringLiteral("; "));
    }
    default:
        return {};
    }
}

QVariant NodesModel::decoration(const NodeFacts& facts, int column) const
{
    switch (column) {
    case StateColumn:
        if (const auto note = m_stateNotes.find(facts.node); note != m_stateNotes.end())
            return note->second ? Icons::severity(AuditFinding::Severity::Warning)
                                : Icons::action(Icons::Action::Restart);
        return Icons::health(facts.health, facts.isDegraded());
    case AuditColumn: {
        const int worst = worstSeverity(facts.node);
        return Icons::severity(worst < 0 ? std::nullopt : std::optional(AuditFinding::Severity(worst)));
    }
    default:
        return {};
    }
}

QVariant NodesModel::raw(const NodeFacts& facts, int column) const
{
    switch (column) {
    case AddressColumn:
        return facts.node;
    case StateColumn:
        return int(facts.health);
    case RoleColumn:
        return facts.role;
    case LatencyColumn:
        return facts.latencyUs;
    case ClockOffsetColumn:
        return facts.clockOffsetUs ? *facts.clockOffsetUs : std::numeric_limits<qint64>::min();
    case UptimeColumn:
        return facts.uptimeMsAt(QDateTime::currentMSecsSinceEpoch());
    case LoadColumn:
        return m_load.value(facts.node).total();
    case AuditColumn:
        return worstSeverity(facts.node);
    default:
        return {};
    }
}

QString NodesModel::toolTip(const NodeFacts& facts, int column) const
{
    switch (column) {
    case AddressColumn:
        return pathText(facts.endpoint);
    case StateColumn: {
        QString tip = facts.reason;
        if (facts.health != NodeHealth::Up && m_tunnelProblems.contains(facts.node))
            tip = m_tunnelProblems.value(facts.node) + (tip.isEmpty() ? QString() : QStringLiteral("\n") + tip);
        if (!facts.refusedCommands.isEmpty())
            tip += (tip.isEmpty() ? QString() : QStringLiteral("\n")) +
                   tr("Refused by the node: %1").arg(facts.refusedCommands.join(QStringLiteral(", ")));
        return tip;
    }
    case RoleColumn:
        if (!facts.infoKnown)
            return {};
        return tr("Redis %1, run_id %2\nmaxmemory-policy %3, AOF %4, appendfsync %5")
            .arg(facts.redisVersion, QString::fromLatin1(facts.runId.left(12)), facts.maxmemoryPolicy,
                 facts.aofEnabled == 1   ? tr("on")
                 : facts.aofEnabled == 0 ? tr("off")
                                         : tr("?"),
                 facts.appendFsync.isEmpty() ? tr("?") : facts.appendFsync);
    case UptimeColumn:
        if (facts.restartSeenAtMs > 0)
            return tr("Restart seen at %1; estimated downtime %2")
                .arg(QDateTime::fromMSecsSinceEpoch(facts.restartSeenAtMs).toString(Qt::ISODate),
                     facts.downtimeMs < 0 ? tr("unknown") : HumanUnits::duration(facts.downtimeMs));
        return {};
    case LoadColumn: {
        const Load load = m_load.value(facts.node);
        if (!load.known())
            return {};
        QStringList lines;
        lines << tr("This console sends this node %1 commands/s.").arg(QLocale().toString(load.total(), 'f', 0));
        if (load.inspectorKnown) {
            const ObserverLoad& l = load.inspector;
            lines << (l.budgetPerSecond > 0
                          ? tr("Lock view: %1/s (changes %2/s, rescan %3/s within a budget of %4/s).")
                                .arg(QLocale().toString(l.commandsPerSecond, 'f', 0),
                                     QLocale().toString(l.eventReadsPerSecond, 'f', 0),
                                     QLocale().toString(l.rescanPerSecond, 'f', 0))
                                .arg(l.budgetPerSecond)
                          : tr("Lock view: %1/s (changes %2/s, rescan %3/s, no budget: full passes at full speed).")
                                .arg(QLocale().toString(l.commandsPerSecond, 'f', 0),
                                     QLocale().toString(l.eventReadsPerSecond, 'f', 0),
                                     QLocale().toString(l.rescanPerSecond, 'f', 0)));
            if (l.eventsLive)
                lines << tr("Changes show at once: keyspace events.");
            else if (!l.eventsNote.isEmpty())
                lines
                    << tr("No keyspace events (%1): changes show only when the rescan reaches them.").arg(l.eventsNote);
            if (l.readPath == ReadPath::PageScript)
                lines << tr("Lock keys are read with one read-only script per page of keys (EVALSHA_RO).");
            else if (l.readPath == ReadPath::PerKey && !l.readPathNote.isEmpty())
                lines << tr("Lock keys are read per key (a few commands each): %1").arg(l.readPathNote);
            if (l.fullRescanMs > 0)
                lines << tr("A full rescan takes about %1.").arg(HumanUnits::duration(l.fullRescanMs));
            if (l.rescanPercent >= 0)
                lines << tr("Rescan under way: %1%.").arg(l.rescanPercent);
        }
        if (load.sessionPerSecond >= 0)
            lines << tr("Node health (PING, TIME, INFO): %1/s.").arg(QLocale().toString(load.sessionPerSecond, 'f', 1));
        return lines.join(QLatin1Char('\n'));
    }
    case AuditColumn: {
        QStringList lines;
        for (const AuditFinding& f : findingsFor(facts.node))
            lines << QStringLiteral("%1 %2: %3").arg(severityName(f.severity), f.title, f.explanation);
        return lines.join(QLatin1Char('\n'));
    }
    default:
        return {};
    }
}

int NodesModel::worstSeverity(int node) const
{
    int worst = -1;
    for (const AuditFinding& f : m_findings) {
        if (f.nodes.contains(node))
            worst = std::max(worst, int(f.severity));
    }
    return worst;
}

QVariant NodesModel::headerData(int section, Qt::Orientation orientation, int role) const
{
    if (orientation != Qt::Horizontal || role != Qt::DisplayRole)
        return QAbstractTableModel::headerData(section, orientation, role);
    switch (section) {
    case AddressColumn:
        return tr("Node");
    case StateColumn:
        return tr("State");
    case RoleColumn:
        return tr("Role");
    case LatencyColumn:
        return tr("Latency");
    case ClockOffsetColumn:
        return tr("Clock offset");
    case UptimeColumn:
        return tr("Uptime");
    case LoadColumn:
        return tr("Console load");
    case AuditColumn:
        return tr("Safety audit");
    default:
        return {};
    }
}

} // namespace redlock
