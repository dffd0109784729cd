#include "support/FaultProxy.h"

#include <QElapsedTimer>
#include <QPointer>
#include <QTcpServer>
#include <QTcpSocket>
#include <QThread>
#include <QTimer>

#include <deque>

namespace {

// One direction of one proxied connection: chunks wait in order until their due time.
class Pipe final : public QObject
{
public:
    Pipe(QTcpSocket* from, QTcpSocket* to, bool towardsClient, std::shared_ptr<FaultProxy::State> state,
         QObject* parent)
        : QObject(parent), m_from(from), m_to(to), m_towardsClient(towardsClient), m_state(std::move(state))
    {
        m_clock.start();
        m_timer.setSingleShot(true);
        m_timer.setTimerType(Qt::PreciseTimer);
        connect(&m_timer, &QTimer::timeout, this, &Pipe::drain);
        connect(from, &QTcpSocket::readyRead, this, &Pipe::onReadable);
        connect(to, &QTcpSocket::connected, this, &Pipe::drain);
    }

    void onReadable()
    {
        m_queue.push_back({m_clock.elapsed() + m_state->latencyMs, m_from->readAll()});
        drain();
    }

    void drain()
    {
        if (!m_to || m_to->state() != QAbstractSocket::ConnectedState)
            return; // held until the other side is connected (see the connected signal below)
        if (m_state->blackhole || (m_towardsClient && m_state->holdReplies)) {
            // A partition stalls the stream; it never drops bytes from the middle of it. That is what TCP
            // does: it retransmits until the path heals (then everything arrives, in order) or the
            // connection breaks. Dropping bytes would desynchronise the pipeline, a failure no real
            // network produces.
            if (!m_queue.empty())
                m_timer.start(5);
            return;
        }
        const qint64 now = m_clock.elapsed();
        while (!m_queue.empty() && m_queue.front().due <= now) {
            m_to->write(m_queue.front().data);
            m_queue.pop_front();
        }
        if (!m_queue.empty())
            m_timer.start(static_cast<int>(m_queue.front().due - now));
    }

private:
    struct Chunk
    {
        qint64 due;
        QByteArray data;
    };
    QPointer<QTcpSocket> m_from;
    QPointer<QTcpSocket> m_to;
    bool m_towardsClient;
    std::shared_ptr<FaultProxy::State> m_state;
    std::deque<Chunk> m_queue;
    QElapsedTimer m_clock;
    QTimer m_timer;
};

} // namespace

class FaultProxy::Server final : public QTcpServer
{
public:
    Server(quint16 upstream, std::shared_ptr<State> state) : m_upstream(upstream), m_state(std::move(state))
    {
        connect(this, &QTcpServer::newConnection, this, &Server::accept);
    }

    void cutAll()
    {
        for (const auto& c : findChildren<QTcpSocket*>())
            c->abort();
    }

private:
    void accept()
    {
        while (QTcpSocket* client = nextPendingConnection()) {
            client->setParent(this);
            auto* upstream = new QTcpSocket(this);
            auto* holder = new QObject(this); // owns both pipes; dies with the pair
            new Pipe(client, upstream, false, m_state, holder);
            new Pipe(upstream, client, true, m_state, holder);
            auto close = [client, upstream, holder] {
                client->deleteLater();
                upstream->deleteLater();
                holder->deleteLater();
            };
            connect(client, &QTcpSocket::disconnected, holder, [upstream] { upstream->disconnectFromHost(); });
            connect(upstream, &QTcpSocket::disconnected, holder, [client] { client->disconnectFromHost(); });
            connect(client, &QTcpSocket::disconnected, holder, close);
            connect(upstream, &QAbstractSocket::errorOccurred, holder,
                    [client](QAbstractSocket::SocketError) { client->abort(); });
            upstream->setSocketOption(QAbstractSocket::LowDelayOption, 1);
            client->setSocketOption(QAbstractSocket::LowDelayOption, 1);
            upstream->connectToHost(QHostAddress::LocalHost, m_upstream);
        }
    }

    quint16 m_upstream;
    std::shared_ptr<State> m_state;
};

FaultProxy::FaultProxy(quint16 upstreamPort) : m_state(std::make_shared<State>()), m_thread(std::make_unique<QThread>())
{
    m_thread->setObjectName(QStringLiteral("fault-proxy"));
    m_server = new Server(upstreamPort, m_state);
    m_server->moveToThread(m_thread.get());
    m_thread->start();
    QMetaObject::invokeMethod(
        m_server,
        [this] {
            m_server->listen(QHostAddress::LocalHost, 0);
            m_port = m_server->serverPort();
        },
        Qt::BlockingQueuedConnection);
}

FaultProxy::~FaultProxy()
{
    QMetaObject::invokeMethod(
        m_server, [this] { delete m_server; }, Qt::BlockingQueuedConnection);
    m_thread->quit();
    m_thread->wait();
}

void FaultProxy::cutConnections()
{
    QMetaObject::invokeMethod(
        m_server, [this] { m_server->cutAll(); }, Qt::BlockingQueuedConnection);
}
