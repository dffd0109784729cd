#pragma once

#include "export/MetricsHttpServer.h"

#include <QObject>

#include <memory>

namespace redlock {

class ClusterController;
class PrometheusExporter;

// The console's Prometheus endpoint (--metrics-listen): what the console watches, on http://ADDRESS:PORT/metrics,
// in the same exposition `redlock exporter` serves. Fed by the controller's signals on the GUI thread; a scrape
// renders what it holds and never reaches a node. A new cluster (start()) starts a new exposition; between
// two, or before the first, the exposition is empty.
class MetricsEndpoint final : public QObject
{
    Q_OBJECT
    Q_DISABLE_COPY_MOVE(MetricsEndpoint)

public:
    explicit MetricsEndpoint(ClusterController* controller, QObject* parent = nullptr);
    ~MetricsEndpoint() override;

    // False with *error when the address cannot be bound.
    bool listen(const ListenAddress& where, QString* error);
    ListenAddress address() const { return m_server->serverAddress(); }

private:
    QByteArray exposition() const;

    ClusterController* m_controller;
    std::unique_ptr<PrometheusExporter> m_exporter; // of the cluster watched now
    MetricsHttpServer* m_server;
};

} // namespace redlock
