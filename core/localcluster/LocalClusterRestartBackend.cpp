#include "localcluster/LocalClusterRestartBackend.h"

#include "localcluster/LocalCluster.h"

namespace redlock {

LocalClusterRestartBackend::LocalClusterRestartBackend(LocalCluster* cluster, int index, QObject* parent)
    : RestartBackend(parent), m_cluster(cluster), m_index(index)
{}

void LocalClusterRestartBackend::stop(Done done)
{
    if (!m_cluster || m_index < 0 || m_index >= m_cluster->size()) {
        done({false, tr("no such node in the local cluster"), {}});
        return;
    }
    const bool ok = m_cluster->stopNode(m_index);
    done({ok, ok ? QString() : tr("the process could not be stopped"), m_cluster->recentOutput(m_index)});
}

void LocalClusterRestartBackend::start(Done done)
{
    if (!m_cluster || m_index < 0 || m_index >= m_cluster->size()) {
        done({false, tr("no such node in the local cluster"), {}});
        return;
    }
    QString error;
    const bool ok = m_cluster->startNode(m_index, &error);
    done({ok, error, m_cluster->recentOutput(m_index)});
}

std::function<RestartBackend*(int, QObject*)> LocalClusterRestartBackend::factory(LocalCluster* cluster)
{
    QPointer<LocalCluster> guarded(cluster);
    return [guarded](int index, QObject* parent) -> RestartBackend* {
        if (!guarded || index < 0 || index >= guarded->size())
            return nullptr;
        return new LocalClusterRestartBackend(guarded, index, parent);
    };
}

} // namespace redlock
