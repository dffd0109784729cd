#pragma once

#include "operate/NodeRestartScheduler.h"

#include <QPointer>

namespace redlock {

class LocalCluster;

// Restarts a node of this process' LocalCluster: stops the redis-server process and starts it again on the same
// port and directory. Plugged into NodeRestartScheduler through RestartSchedulerOptions::localClusterBackend.
class LocalClusterRestartBackend final : public RestartBackend
{
    Q_OBJECT

public:
    LocalClusterRestartBackend(LocalCluster* cluster, int index, QObject* parent = nullptr);
    // For RestartSchedulerOptions::localClusterBackend: null for an index that is not a node of the cluster.
    static std::function<RestartBackend*(int localIndex, QObject* parent)> factory(LocalCluster* cluster);
    void stop(Done done) override;
    void start(Done done) override;
    bool startsNode() const override { return true; }
    bool confirmsStop() const override { return true; } // stopNode() waits for the process to exit

private:
    QPointer<LocalCluster> m_cluster;
    int m_index;
};

} // namespace redlock
