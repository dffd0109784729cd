#include "controller/MetricsEndpoint.h"

#include "controller/ClusterController.h"
#include "export/PrometheusExporter.h"

namespace redlock {

MetricsEndpoint::MetricsEndpoint(ClusterController* controller, QObject* parent)
    : QObject(parent), m_controller(controller), m_server(new MetricsHttpServer([this] { return exposition(); }, this))
{
    connect(controller, &ClusterController::started, this, [this] {
        const ClusterSettings& settings = m_controller->settings();
        ExporterOptions options;
        options.nodes = settings.nodes;
        options.driftFactor = settings.driftFactor;
        options.budgetPerNode = m_controller->rescanBudget();
        m_exporter = std::make_unique<PrometheusExporter>(options);
    });
    connect(controller, &ClusterController::stopped, this, [this] { m_exporter.reset(); });
    connect(controller, &ClusterController::nodeFactsChanged, this, [this](int node) {
        if (m_exporter)
            m_exporter->addFacts(m_controller->nodeFacts().value(node));
    });
    connect(controller, &ClusterController::nodeSampled, this, [this](const NodeSample& sample) {
        if (m_exporter)
            m_exporter->addSample(sample);
    });
    connect(controller, &ClusterController::nodeRestarted, this, [this](const NodeFacts& facts) {
        if (m_exporter)
            m_exporter->addRestart(facts);
    });
    connect(controller, &ClusterController::locksChanged, this, [this](const LockChangeSet& changes) {
        if (m_exporter)
            m_exporter->addChanges(changes);
    });
    connect(controller, &ClusterController::lockEvents, this, [this](const QList<LockEvent>& events) {
        if (m_exporter)
            m_exporter->addEvents(events);
    });
    connect(controller, &ClusterController::inspectionFinished, this, [this](const InspectionSummary& summary) {
        if (m_exporter)
            m_exporter->addInspection(summary);
    });
    connect(controller, &ClusterController::observerLoad, this, [this](const QList<ObserverLoad>& load) {
        if (m_exporter)
            m_exporter->addObserverLoad(load);
    });
    // The console's audit (against the max TTL the operator configured) is the one its window shows.
    connect(controller, &ClusterController::auditChanged, this, [this] {
        if (m_exporter)
            m_exporter->setFindings(m_controller->findings());
    });
}

MetricsEndpoint::~MetricsEndpoint() = default;

bool MetricsEndpoint::listen(const ListenAddress& where, QString* error)
{
    return m_server->listen(where, error);
}

QByteArray MetricsEndpoint::exposition() const
{
    if (!m_exporter)
        return {};
    m_exporter->setBudgetPerNode(m_controller->rescanBudget());
    m_exporter->setQuarantinedNodes(m_controller->quarantinedNodes());
    return m_exporter->exposition();
}

} // namespace redlock
