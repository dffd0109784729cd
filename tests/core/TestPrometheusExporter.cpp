// The Prometheus exporter's core units, without a Redis or a Prometheus: the text format (escaping, values,
// histograms), what PrometheusExporter makes of the observation's signals (verdict counts, hold times, labels
// without secrets, per-key labels only on request), the --listen parser and the HTTP endpoint's answers.
// tests/system/TestExporter.cpp runs the real thing against redis-servers and a real Prometheus.

#include "export/MetricsHttpServer.h"
#include "export/PrometheusExporter.h"
#include "export/PrometheusText.h"
#include "export/WebConfig.h"
#include "observe/SafetyAudit.h"
#include "redlock/LockToken.h"
#include "support/ManualClock.h"
#include "support/TestCa.h"

#include <QElapsedTimer>
#include <QFile>
#include <QRegularExpression>
#include <QSslKey>
#include <QSslSocket>
#include <QTcpSocket>
#include <QTemporaryDir>
#include <QTest>
#include <QTimer>

#include <algorithm>
#include <cmath>
#include <functional>
#include <memory>
#include <vector>

#include <arpa/inet.h>
#include <netinet/in.h>
#include <sys/socket.h>
#include <unistd.h>

#include <hiredis/hiredis.h>

using namespace redlock;

namespace {

NodeEndpoint endpoint(quint16 port)
{
    NodeEndpoint e;
    e.host = QStringLiteral("127.0.0.1");
    e.port = port;
    return e;
}

// A view of `key` as the inspector would merge it on 3 nodes, stamped at the clock's now.
LockView view(const QByteArray& key, LockVerdict verdict, const QByteArray& token, qint64 validityMs,
              const SteadyClock& clock)
{
    LockView v;
    v.key = key;
    v.verdict = verdict;
    v.token = token;
    v.quorum = 2;
    v.holders = token.isEmpty() ? 0 : 2;
    v.observedValidityMs = validityMs;
    v.observedAtNs = clock.nowNs();
    for (int i = 0; i < 3; ++i) {
        NodeLockState s;
        s.presence = i < v.holders ? NodeLockState::Presence::Holding : NodeLockState::Presence::Absent;
        s.token = i < v.holders ? token : QByteArray();
        s.pttlMs = i < v.holders ? validityMs + 10 : -2;
        v.nodes.append(s);
    }
    return v;
}

// The value of the one sample `series` (name and labels exactly as written) in an exposition; NaN if absent.
double sampleValue(const QByteArray& exposition, const QByteArray& series)
{
    for (const QByteArray& line : exposition.split('\n')) {
        if (line.startsWith(QByteArray(series + ' ')))
            return line.mid(series.size() + 1).toDouble();
    }
    return std::numeric_limits<double>::quiet_NaN();
}

// One HTTP exchange with a server on this thread: the whole answer, once the server has closed the connection.
QByteArray exchange(quint16 port, const QByteArray& request, int timeoutMs = 10000)
{
    QTcpSocket socket;
    socket.connectToHost(QHostAddress::LocalHost, port);
    QByteArray answer;
    QObject::connect(&socket, &QTcpSocket::readyRead, [&] { answer += socket.readAll(); });
    QObject::connect(&socket, &QTcpSocket::connected, [&] { socket.write(request); });
    QDeadlineTimer deadline(timeoutMs);
    while (socket.state() != QAbstractSocket::UnconnectedState && !deadline.hasExpired())
        QTest::qWait(10);
    answer += socket.readAll();
    return answer;
}

// The same over TLS, trusting `ca`: the answer, once the server has closed the connection. Empty when the handshake
// fails. With readBufferSize, a client that takes at most that much of its answer (a non-reader over TLS).
// With clientCert, the client presents it (and its key, <name>.key beside it) for mutual TLS.
QByteArray tlsExchange(quint16 port, const QByteArray& request, const QList<QSslCertificate>& ca,
                       qint64 readBufferSize = 0, QSslSocket* keep = nullptr, const QString& clientCert = {})
{
    QSslSocket local;
    QSslSocket& socket = keep ? *keep : local;
    QSslConfiguration ssl = QSslConfiguration::defaultConfiguration();
    ssl.setCaCertificates(ca);
    if (!clientCert.isEmpty()) {
        ssl.setLocalCertificateChain(QSslCertificate::fromPath(clientCert + QStringLiteral(".crt")));
        QFile key(clientCert + QStringLiteral(".key"));
        if (key.open(QIODevice::ReadOnly))
            ssl.setPrivateKey(QSslKey(key.readAll(), QSsl::Rsa));
    }
    socket.setSslConfiguration(ssl);
    if (readBufferSize > 0) {
        socket.setReadBufferSize(readBufferSize);
        socket.connectToHostEncrypted(QStringLiteral("localhost"), port);
        QObject::connect(&socket, &QSslSocket::encrypted, [&socket, request] { socket.write(request); });
        return {};
    }
    QByteArray answer;
    QObject::connect(&socket, &QSslSocket::readyRead, [&] { answer += socket.readAll(); });
    QObject::connect(&socket, &QSslSocket::encrypted, [&] { socket.write(request); });
    socket.connectToHostEncrypted(QStringLiteral("localhost"), port);
    QDeadlineTimer deadline(10000);
    while (socket.state() != QAbstractSocket::UnconnectedState && !deadline.hasExpired())
        QTest::qWait(10);
    answer += socket.readAll();
    return answer;
}

// The bcrypt hashes of "scrape-pw-Q4" (cost 5: fast tests), as htpasswd ($2y$) and Python's bcrypt ($2b$) write them.
const QByteArray kHash2y = "$2y$05$ehZGpWk9bDGiNuUZjqH5QOhwAEcNfGbWrKg2Xj0HLIquwVcNeaCuG";
const QByteArray kHash2b = "$2b$05$HAKjclSu.yx6Nj240a3vPOOOeQbqsI4yz8ctzeuzuX6mjRcvxp2R2";

// "scrape-pw-Q4" at cost 11 (about half a second per check here): slow enough that bad logins pile up.
const QByteArray kHashCost11 = "$2b$11$UqJc0Cc3VWxK4TITV1glFewt1sap6K3wysEfVLynyQZPoT422V1s2";

QByteArray basic(const QByteArray& user, const QByteArray& password)
{
    return "Authorization: Basic " + QByteArray(user + ':' + password).toBase64() + "\r\n";
}

// A client that sends `GET /metrics` and never reads its answer, with a small receive buffer (a plain socket: a
// QTcpSocket would read into its own buffer behind the test's back). Closed when it goes.
class NonReader
{
public:
    explicit NonReader(quint16 port)
    {
        m_fd = ::socket(AF_INET, SOCK_STREAM, 0);
        const int small = 4096;
        ::setsockopt(m_fd, SOL_SOCKET, SO_RCVBUF, &small, sizeof small);
        sockaddr_in to{};
        to.sin_family = AF_INET;
        to.sin_port = htons(port);
        to.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
        static const char request[] = "GET /metrics HTTP/1.1\r\nHost: x\r\n\r\n";
        m_ok = ::connect(m_fd, reinterpret_cast<const sockaddr*>(&to), sizeof to) == 0 &&
               ::send(m_fd, request, sizeof request - 1, MSG_NOSIGNAL) == qint64(sizeof request - 1);
    }
    ~NonReader() { ::close(m_fd); }
    NonReader(const NonReader&) = delete;
    NonReader& operator=(const NonReader&) = delete;
    bool ok() const { return m_ok; }

private:
    int m_fd = -1;
    bool m_ok = false;
};

} // namespace

class TestPrometheusExporter : public QObject
{
    Q_OBJECT

private slots:
    // ---- the text format --------------------------------------------------------------------------------

    void labelValuesAndHelpAreEscapedAsTheFormatSays()
    {
        // Label values: backslash, double quote and line feed; nothing else (a tab, UTF-8 go through).
        QCOMPARE(PrometheusText::escapeLabelValue(u"a\\b\"c\nd\te\u00e9"), QByteArray("a\\\\b\\\"c\\nd\te\xc3\xa9"));
        // HELP: backslash and line feed; a double quote stays.
        QCOMPARE(PrometheusText::escapeHelp(u"say \"x\\y\"\nnext"), QByteArray("say \"x\\\\y\"\\nnext"));
        QCOMPARE(PrometheusText::escapeLabelValue(u""), QByteArray());
    }

    void valuesReadBackExactly()
    {
        QCOMPARE(PrometheusText::formatValue(3), QByteArray("3"));
        QCOMPARE(PrometheusText::formatValue(0.1), QByteArray("0.1"));
        QCOMPARE(PrometheusText::formatValue(-2.5), QByteArray("-2.5"));
        QCOMPARE(PrometheusText::formatValue(1e-05), QByteArray("1e-05"));
        QCOMPARE(PrometheusText::formatValue(1234567890123.0), QByteArray("1234567890123"));
        QCOMPARE(PrometheusText::formatValue(100000), QByteArray("100000")); // not "1e+05"
        QCOMPARE(PrometheusText::formatValue(-0.0), QByteArray("0"));
        QCOMPARE(PrometheusText::formatValue(1e20), QByteArray("1e+20"));
        QCOMPARE(PrometheusText::formatValue(std::numeric_limits<double>::infinity()), QByteArray("+Inf"));
        QCOMPARE(PrometheusText::formatValue(-std::numeric_limits<double>::infinity()), QByteArray("-Inf"));
        QCOMPARE(PrometheusText::formatValue(std::numeric_limits<double>::quiet_NaN()), QByteArray("NaN"));
        QCOMPARE(PrometheusText::formatValue(0.1 + 0.2).toDouble(), 0.1 + 0.2); // shortest, yet exact
    }

    void namesAreChecked()
    {
        QVERIFY(PrometheusText::isValidMetricName("redlock_locks"));
        QVERIFY(PrometheusText::isValidMetricName("a:b_c9"));
        QVERIFY(!PrometheusText::isValidMetricName("9a"));
        QVERIFY(!PrometheusText::isValidMetricName("a-b"));
        QVERIFY(!PrometheusText::isValidMetricName(""));
        QVERIFY(PrometheusText::isValidLabelName("node"));
        QVERIFY(!PrometheusText::isValidLabelName("a:b"));
        QVERIFY(!PrometheusText::isValidLabelName("__name__"));
    }

    void familiesSamplesAndHistogramsInTheFormat()
    {
        PrometheusText text;
        text.family("x_total", PrometheusText::Type::Counter, u"Help with \\ and\na line feed.");
        text.sample({{"node", QStringLiteral("a\"b\\c\nd")}}, 3);
        text.sample({}, 4);
        text.family("h_seconds", PrometheusText::Type::Histogram, u"H.");
        auto h = PrometheusText::Histogram::withBounds({0.5, 1});
        h.observe(0.25);
        h.observe(0.75);
        h.observe(2);
        h.observe(0.5); // on a bound: counted in it (le = less or equal)
        text.histogram({{"k", QStringLiteral("v")}}, h);
        text.family("g", PrometheusText::Type::Gauge, u"No samples yet.");
        QCOMPARE(text.text(), QByteArray("# HELP x_total Help with \\\\ and\\na line feed.\n"
                                         "# TYPE x_total counter\n"
                                         "x_total{node=\"a\\\"b\\\\c\\nd\"} 3\n"
                                         "x_total 4\n"
                                         "# HELP h_seconds H.\n"
                                         "# TYPE h_seconds histogram\n"
                                         "h_seconds_bucket{k=\"v\",le=\"0.5\"} 2\n"
                                         "h_seconds_bucket{k=\"v\",le=\"1\"} 3\n"
                                         "h_seconds_bucket{k=\"v\",le=\"+Inf\"} 4\n"
                                         "h_seconds_sum{k=\"v\"} 3.5\n"
                                         "h_seconds_count{k=\"v\"} 4\n"
                                         "# HELP g No samples yet.\n"
                                         "# TYPE g gauge\n"));
    }

    // ---- what the exporter makes of the observation -----------------------------------------------------

    void nodeLabelsCarryNoSecrets()
    {
        ExporterOptions options;
        NodeEndpoint secret = endpoint(7001);
        secret.user = QStringLiteral("alice-acl-user");
        secret.password = QStringLiteral("s3cret-password");
        secret.db = 2;
        secret.tls = true;
        secret.caFile = QStringLiteral("/etc/ssl/private-ca.pem");
        secret.certFile = QStringLiteral("/etc/ssl/client-cert.pem");
        secret.keyFile = QStringLiteral("/etc/ssl/client-key.pem");
        options.nodes = {secret, endpoint(7002), endpoint(7003)};
        auto clock = std::make_shared<ManualClock>();
        options.clock = clock;
        PrometheusExporter exporter(options);
        NodeFacts up;
        up.node = 0;
        up.endpoint = secret;
        up.health = NodeHealth::Up;
        up.latencyUs = 1500;
        exporter.addFacts(up);
        LockChangeSet changes;
        changes.appeared = {view("orders:1", LockVerdict::Held, "token-value-secret", 5000, *clock)};
        exporter.addChanges(changes);

        const QByteArray out = exporter.exposition();
        QCOMPARE(sampleValue(out, "redlock_node_up{node=\"127.0.0.1:7001/2\"}"), 1.0);
        QCOMPARE(sampleValue(out, "redlock_node_latency_seconds{node=\"127.0.0.1:7001/2\"}"), 0.0015);
        QCOMPARE(sampleValue(out, "redlock_node_up{node=\"127.0.0.1:7002\"}"), 0.0);
        for (const char* secretText : {"alice", "s3cret", "/etc/ssl", "pem", "token-value-secret", "orders:1"})
            QVERIFY2(!out.contains(secretText), secretText);
    }

    // redlock_exporter_build_info: 1, with the versions of the exporter, Qt and hiredis as labels.
    void buildInfo()
    {
        QCoreApplication::setApplicationVersion(QStringLiteral("9.8.7"));
        const QByteArray out = PrometheusExporter(ExporterOptions{}).exposition();
        QVERIFY(out.contains("# TYPE redlock_exporter_build_info gauge\n"));
        const QByteArray series = "redlock_exporter_build_info{version=\"9.8.7\",qt=\"" + QByteArray(qVersion()) +
                                  "\",hiredis=\"" + QByteArray::number(HIREDIS_MAJOR) + '.' +
                                  QByteArray::number(HIREDIS_MINOR) + '.' + QByteArray::number(HIREDIS_PATCH) + "\"}";
        QCOMPARE(sampleValue(out, series), 1.0);
    }

    // redlock_servers_up: the nodes up, one server under two names (one run_id) counted once, as the quorum is.
    void serversUpCountsOneServerOnce()
    {
        ExporterOptions options;
        options.nodes = {endpoint(7001), endpoint(7002), endpoint(7003), endpoint(7004)};
        PrometheusExporter exporter(options);
        QCOMPARE(sampleValue(exporter.exposition(), "redlock_servers_up"), 0.0); // nothing read: nothing up
        const QList<QByteArray> runIds{"run-a", "run-b", "run-c", "run-a"};      // node 4 is node 1 under another name
        for (int i = 0; i < 4; ++i) {
            NodeFacts f;
            f.node = i;
            f.endpoint = options.nodes[i];
            f.health = i == 2 ? NodeHealth::Down : NodeHealth::Up;
            f.runId = runIds[i];
            exporter.addFacts(f);
        }
        const QByteArray out = exporter.exposition();
        QCOMPARE(sampleValue(out, "redlock_servers_up"), 2.0);
        QCOMPARE(sampleValue(out, "redlock_node_up{node=\"127.0.0.1:7004\"}"), 1.0); // each name still answers
        QCOMPARE(sampleValue(out, "redlock_node_quarantined{node=\"127.0.0.1:7002\"}"), 0.0);

        // A delayed restart keeps node 2 out: it still answers, but a quorum is not counted from it (the console's
        // endpoint, as its window and ClusterWatch::nodesUp).
        exporter.setQuarantinedNodes({1});
        const QByteArray held = exporter.exposition();
        QCOMPARE(sampleValue(held, "redlock_servers_up"), 1.0);
        QCOMPARE(sampleValue(held, "redlock_node_up{node=\"127.0.0.1:7002\"}"), 1.0);
        QCOMPARE(sampleValue(held, "redlock_node_quarantined{node=\"127.0.0.1:7002\"}"), 1.0);
        // Quarantining the alias's other name leaves the server counted once through the name still in.
        exporter.setQuarantinedNodes({3});
        QCOMPARE(sampleValue(exporter.exposition(), "redlock_servers_up"), 2.0);
    }

    void locksByVerdictAndHoldTimes()
    {
        ExporterOptions options;
        options.nodes = {endpoint(7001), endpoint(7002), endpoint(7003)};
        auto clock = std::make_shared<ManualClock>();
        options.clock = clock;
        PrometheusExporter exporter(options);

        LockChangeSet first;
        first.appeared = {view("a", LockVerdict::Held, "t1", 10000, *clock),
                          view("b", LockVerdict::Contested, {}, -1, *clock),
                          view("c", LockVerdict::Expiring, "t3", 1000, *clock)};
        first.locksPerNode = {3, 2, 0};
        exporter.addChanges(first);
        QByteArray out = exporter.exposition();
        QCOMPARE(sampleValue(out, "redlock_locks{verdict=\"held\"}"), 1.0);
        QCOMPARE(sampleValue(out, "redlock_locks{verdict=\"expiring\"}"), 1.0);
        QCOMPARE(sampleValue(out, "redlock_locks{verdict=\"contested\"}"), 1.0);
        QCOMPARE(sampleValue(out, "redlock_locks{verdict=\"free\"}"), 0.0);
        // Always exported, a zero included: the lock-delay verdict of a force release.
        QCOMPARE(sampleValue(out, "redlock_locks{verdict=\"released-by-operator\"}"), 0.0);
        QCOMPARE(sampleValue(out, "redlock_node_locks{node=\"127.0.0.1:7001\"}"), 3.0);

        // 2 s later: both held locks are 2 s old; a has 8 s of validity left, c none (clamped at 0). Gauges, not
        // histograms: these counts go down again when the locks go.
        clock->advanceMs(2000);
        out = exporter.exposition();
        QVERIFY(out.contains("# TYPE redlock_held_locks_older_than gauge\n"));
        QVERIFY(!out.contains("redlock_lock_age_seconds"));
        QVERIFY(!out.contains("redlock_lock_remaining_validity_seconds"));
        QCOMPARE(sampleValue(out, "redlock_held_locks_older_than{seconds=\"1\"}"), 2.0);
        QCOMPARE(sampleValue(out, "redlock_held_locks_older_than{seconds=\"5\"}"), 0.0);
        QCOMPARE(sampleValue(out, "redlock_oldest_lock_age_seconds"), 2.0);
        QCOMPARE(sampleValue(out, "redlock_held_locks_expiring_within{seconds=\"0.1\"}"), 1.0);
        QCOMPARE(sampleValue(out, "redlock_held_locks_expiring_within{seconds=\"5\"}"), 1.0);
        QCOMPARE(sampleValue(out, "redlock_held_locks_expiring_within{seconds=\"10\"}"), 2.0);
        QCOMPARE(sampleValue(out, "redlock_lock_hold_duration_seconds_count"), 0.0);

        // At 3 s another holder takes a: t1's hold lasted 3 s. At 5 s c is gone: it expired unseen at 1 s.
        clock->advanceMs(1000);
        LockChangeSet taken;
        taken.changed = {view("a", LockVerdict::Held, "t2", 10000, *clock)};
        exporter.addChanges(taken);
        clock->advanceMs(2000);
        LockChangeSet gone;
        gone.disappeared = {"c"};
        exporter.addChanges(gone);
        out = exporter.exposition();
        QCOMPARE(sampleValue(out, "redlock_lock_hold_duration_seconds_count"), 2.0);
        QCOMPARE(sampleValue(out, "redlock_lock_hold_duration_seconds_sum"), 4.0);
        QCOMPARE(sampleValue(out, "redlock_lock_hold_duration_seconds_bucket{le=\"1\"}"), 1.0);
        QCOMPARE(sampleValue(out, "redlock_locks{verdict=\"held\"}"), 1.0);
        QCOMPARE(sampleValue(out, "redlock_locks{verdict=\"expiring\"}"), 0.0);
        // t2 is a new hold: 2 s old, not 5.
        QCOMPARE(sampleValue(out, "redlock_oldest_lock_age_seconds"), 2.0);
        QCOMPARE(sampleValue(out, "redlock_held_locks_older_than{seconds=\"1\"}"), 1.0);

        // a released (free), b gone: nothing held, every gauge back to 0.
        LockChangeSet released;
        released.changed = {view("a", LockVerdict::Free, {}, -1, *clock)};
        released.disappeared = {"b"};
        exporter.addChanges(released);
        out = exporter.exposition();
        QCOMPARE(sampleValue(out, "redlock_locks{verdict=\"held\"}"), 0.0);
        QCOMPARE(sampleValue(out, "redlock_locks{verdict=\"contested\"}"), 0.0);
        QCOMPARE(sampleValue(out, "redlock_locks{verdict=\"free\"}"), 1.0);
        QCOMPARE(sampleValue(out, "redlock_held_locks_older_than{seconds=\"0.1\"}"), 0.0);
        QVERIFY(std::isnan(sampleValue(out, "redlock_oldest_lock_age_seconds")));
        QCOMPARE(sampleValue(out, "redlock_lock_hold_duration_seconds_count"), 3.0);
    }

    // The holds' times are kept in one array a scrape walks; a hold that ends gives its place to the last one. The
    // moved hold keeps its key's times, and ends with the right duration.
    void holdsKeepTheirTimesWhenAnotherEnds()
    {
        ExporterOptions options;
        options.nodes = {endpoint(7001), endpoint(7002), endpoint(7003)};
        auto clock = std::make_shared<ManualClock>();
        options.clock = clock;
        PrometheusExporter exporter(options);
        const auto add = [&](const LockView& v, bool changed = false) {
            LockChangeSet set;
            (changed ? set.changed : set.appeared) = {v};
            exporter.addChanges(set);
        };
        add(view("x", LockVerdict::Held, "tx", 10000, *clock)); // at 0 s
        clock->advanceMs(1000);
        add(view("y", LockVerdict::Held, "ty", 20000, *clock)); // at 1 s
        clock->advanceMs(1000);
        add(view("z", LockVerdict::Held, "tz", 30000, *clock)); // at 2 s
        clock->advanceMs(1000);
        LockChangeSet gone;
        gone.disappeared = {"x"}; // the first hold ends at 3 s: z's takes its place
        exporter.addChanges(gone);
        QByteArray out = exporter.exposition();
        QCOMPARE(sampleValue(out, "redlock_lock_hold_duration_seconds_count"), 1.0);
        QCOMPARE(sampleValue(out, "redlock_lock_hold_duration_seconds_sum"), 3.0);
        QCOMPARE(sampleValue(out, "redlock_held_locks_older_than{seconds=\"0.5\"}"), 2.0); // y 2 s, z 1 s
        QCOMPARE(sampleValue(out, "redlock_held_locks_older_than{seconds=\"1\"}"), 1.0);   // y only
        QCOMPARE(sampleValue(out, "redlock_oldest_lock_age_seconds"), 2.0);
        QCOMPARE(sampleValue(out, "redlock_held_locks_expiring_within{seconds=\"10\"}"), 0.0); // 18 s, 29 s left
        QCOMPARE(sampleValue(out, "redlock_held_locks_expiring_within{seconds=\"30\"}"), 2.0);

        clock->advanceMs(1000); // 4 s: another token takes z; its hold (moved) lasted 2 s
        add(view("z", LockVerdict::Held, "tz2", 30000, *clock), true);
        clock->advanceMs(1000); // 5 s: y released after 4 s
        add(view("y", LockVerdict::Free, {}, -1, *clock), true);
        out = exporter.exposition();
        QCOMPARE(sampleValue(out, "redlock_lock_hold_duration_seconds_count"), 3.0);
        QCOMPARE(sampleValue(out, "redlock_lock_hold_duration_seconds_sum"), 9.0);
        QCOMPARE(sampleValue(out, "redlock_oldest_lock_age_seconds"), 1.0); // tz2, held since 4 s
        QCOMPARE(sampleValue(out, "redlock_held_locks_older_than{seconds=\"0.1\"}"), 1.0);
        LockChangeSet last;
        last.disappeared = {"z"};
        exporter.addChanges(last);
        out = exporter.exposition();
        QCOMPARE(sampleValue(out, "redlock_lock_hold_duration_seconds_count"), 4.0);
        QVERIFY(std::isnan(sampleValue(out, "redlock_oldest_lock_age_seconds")));
    }

    // A held lock whose holder node becomes unreachable is Unknown, not released: the hold does not end (no
    // hold duration recorded), and when it is Held again by the same token its age goes on from the first sight.
    // Meanwhile it is not held either: it is out of the held-lock histograms, and its holders are today's.
    void unknownDoesNotEndAHold()
    {
        ExporterOptions options;
        options.nodes = {endpoint(7001), endpoint(7002), endpoint(7003)};
        auto clock = std::make_shared<ManualClock>();
        options.clock = clock;
        options.perKeyMetrics = true;
        PrometheusExporter exporter(options);
        LockChangeSet first;
        first.appeared = {view("a", LockVerdict::Held, "t1", 60000, *clock),
                          view("b", LockVerdict::Held, "t2", 60000, *clock)};
        exporter.addChanges(first);

        // a's holder node 0 unreachable: node 1 still holds t1, one of the two needed.
        clock->advanceMs(3000);
        LockView unknown = view("a", LockVerdict::Unknown, "t1", -1, *clock);
        unknown.holders = 1;
        unknown.nodes[0].presence = NodeLockState::Presence::Unreachable;
        unknown.nodes[0].token.clear();
        LockChangeSet lost;
        lost.changed = {unknown};
        exporter.addChanges(lost);
        QByteArray out = exporter.exposition();
        QCOMPARE(sampleValue(out, "redlock_locks{verdict=\"unknown\"}"), 1.0);
        QCOMPARE(sampleValue(out, "redlock_locks{verdict=\"held\"}"), 1.0);
        QCOMPARE(sampleValue(out, "redlock_lock_hold_duration_seconds_count"), 0.0);
        // Not held now: only b is in the held-lock gauges (b: 3 s old, 57 s of validity left).
        QCOMPARE(sampleValue(out, "redlock_held_locks_older_than{seconds=\"0.1\"}"), 1.0);
        QCOMPARE(sampleValue(out, "redlock_held_locks_expiring_within{seconds=\"3600\"}"), 1.0);
        QCOMPARE(sampleValue(out, "redlock_held_locks_expiring_within{seconds=\"60\"}"), 1.0);
        QCOMPARE(sampleValue(out, "redlock_held_locks_expiring_within{seconds=\"30\"}"), 0.0);
        // Its holders as seen now, not the 2 from when it was held.
        QCOMPARE(sampleValue(out, "redlock_lock_holders{key=\"a\",verdict=\"unknown\"}"), 1.0);
        QCOMPARE(sampleValue(out, "redlock_lock_holders{key=\"b\",verdict=\"held\"}"), 2.0);
        LockChangeSet bGone;
        bGone.disappeared = {"b"};
        exporter.addChanges(bGone);
        QCOMPARE(sampleValue(exporter.exposition(), "redlock_lock_hold_duration_seconds_count"), 1.0);

        clock->advanceMs(2000);
        LockChangeSet back;
        back.changed = {view("a", LockVerdict::Held, "t1", 55000, *clock)};
        exporter.addChanges(back);
        out = exporter.exposition();
        QCOMPARE(sampleValue(out, "redlock_locks{verdict=\"unknown\"}"), 0.0);
        QCOMPARE(sampleValue(out, "redlock_locks{verdict=\"held\"}"), 1.0);
        QCOMPARE(sampleValue(out, "redlock_lock_hold_duration_seconds_count"), 1.0); // b's
        QCOMPARE(sampleValue(out, "redlock_held_locks_older_than{seconds=\"0.1\"}"), 1.0);
        QCOMPARE(sampleValue(out, "redlock_oldest_lock_age_seconds"), 5.0); // since first seen, not since back
        QCOMPARE(sampleValue(out, "redlock_lock_holders{key=\"a\",verdict=\"held\"}"), 2.0);

        // Released afterwards: a hold of 7 s.
        clock->advanceMs(2000);
        LockChangeSet released;
        released.changed = {view("a", LockVerdict::Free, {}, -1, *clock)};
        exporter.addChanges(released);
        out = exporter.exposition();
        QCOMPARE(sampleValue(out, "redlock_lock_hold_duration_seconds_count"), 2.0);
        QCOMPARE(sampleValue(out, "redlock_lock_hold_duration_seconds_sum"), 10.0); // b: 3 s, a: 7 s
    }

    // A node that is not up has no latency and no clock offset: the last ones measured are not exported as if
    // current (the help says absent while failing), and a sample arriving while it is down changes nothing.
    void downNodeHasNoLatencyOrClockOffset()
    {
        ExporterOptions options;
        options.nodes = {endpoint(7001), endpoint(7002), endpoint(7003)};
        PrometheusExporter exporter(options);
        NodeFacts f;
        f.node = 0;
        f.endpoint = options.nodes[0];
        f.health = NodeHealth::Up;
        exporter.addFacts(f);
        NodeSample sample;
        sample.node = 0;
        sample.latencyUs = 2000;
        sample.clockOffsetUs = 250000;
        exporter.addSample(sample);
        QByteArray out = exporter.exposition();
        QCOMPARE(sampleValue(out, "redlock_node_latency_seconds{node=\"127.0.0.1:7001\"}"), 0.002);
        QCOMPARE(sampleValue(out, "redlock_node_clock_offset_seconds{node=\"127.0.0.1:7001\"}"), 0.25);

        f.health = NodeHealth::Down;
        exporter.addFacts(f);
        exporter.addSample(sample); // a stale sample queued before the loss
        out = exporter.exposition();
        QCOMPARE(sampleValue(out, "redlock_node_up{node=\"127.0.0.1:7001\"}"), 0.0);
        QVERIFY2(!out.contains("redlock_node_latency_seconds{node=\"127.0.0.1:7001\"}"), out.constData());
        QVERIFY2(!out.contains("redlock_node_clock_offset_seconds{node=\"127.0.0.1:7001\"}"), out.constData());

        // Up again: measured afresh.
        f.health = NodeHealth::Up;
        exporter.addFacts(f);
        QVERIFY(!exporter.exposition().contains("redlock_node_clock_offset_seconds{node=\"127.0.0.1:7001\"}"));
        sample.clockOffsetUs = -1000;
        exporter.addSample(sample);
        QCOMPARE(sampleValue(exporter.exposition(), "redlock_node_clock_offset_seconds{node=\"127.0.0.1:7001\"}"),
                 -0.001);
    }

    // The largest PTTL seen stands for the largest lock TTL in use (the audit's max TTL) when none is
    // configured: a tombstone of a force release with a long lock-delay is not a lock and must not raise it
    // (a node up for a minute would be "started within the lock TTL" of an hour).
    void tombstonesDoNotRaiseTheAuditTtl()
    {
        ExporterOptions options;
        options.nodes = {endpoint(7001), endpoint(7002), endpoint(7003)};
        auto clock = std::make_shared<ManualClock>();
        options.clock = clock;
        PrometheusExporter exporter(options);
        for (int i = 0; i < 3; ++i) {
            NodeFacts f;
            f.node = i;
            f.endpoint = options.nodes[i];
            f.health = NodeHealth::Up;
            f.infoKnown = true;
            f.role = QStringLiteral("master");
            f.runId = "run" + QByteArray::number(i);
            f.aofEnabled = 0;
            f.uptimeSeconds = 60;
            exporter.addFacts(f);
        }
        QVERIFY(!exporter.exposition().contains("rule=\"recent-start\""));
        LockView released = view("a", LockVerdict::ReleasedByOperator, {}, -1, *clock);
        const QByteArray tombstone = LockTombstone{QStringLiteral("alice@host"), 1700000000000}.encode();
        for (int i = 0; i < 3; ++i) {
            released.nodes[i].presence = NodeLockState::Presence::Holding;
            released.nodes[i].token = tombstone;
            released.nodes[i].pttlMs = 3600000;
        }
        LockChangeSet changes;
        changes.appeared = {released, view("b", LockVerdict::Held, "t", 5000, *clock)};
        exporter.addChanges(changes);
        const QByteArray out = exporter.exposition();
        QVERIFY2(!out.contains("rule=\"recent-start\""), out.constData());
        QCOMPARE(SafetyAudit::largestPttlMs(changes.appeared), 5010);
    }

    void eventCountersOnlyGrow()
    {
        ExporterOptions options;
        options.nodes = {endpoint(7001), endpoint(7002), endpoint(7003)};
        PrometheusExporter exporter(options);
        LockEvent contested;
        contested.kind = LockEvent::Kind::Contested;
        LockEvent changed;
        changed.kind = LockEvent::Kind::TokenChanged;
        exporter.addEvents({contested, changed, contested});
        exporter.addEvents({changed});
        const QByteArray out = exporter.exposition();
        QCOMPARE(sampleValue(out, "redlock_lock_events_total{event=\"contested\"}"), 2.0);
        QCOMPARE(sampleValue(out, "redlock_lock_events_total{event=\"token-changed\"}"), 2.0);
        QCOMPARE(sampleValue(out, "redlock_lock_events_total{event=\"acquired\"}"), 0.0);
        QVERIFY(out.contains("# TYPE redlock_lock_events_total counter\n"));
    }

    // What watching costs a node is a counter (interop.md §2: a rate exported as a gauge cannot be summed or
    // rate()d over any window): it only grows, also when a reconnect starts a connection's count again from 0.
    void observerCommandsAreCounters()
    {
        ExporterOptions options;
        options.nodes = {endpoint(7001), endpoint(7002), endpoint(7003)};
        PrometheusExporter exporter(options);
        const QByteArray inspector = "redlock_observer_commands_total{node=\"127.0.0.1:7002\",source=\"inspector\"}";
        const QByteArray session = "redlock_observer_commands_total{node=\"127.0.0.1:7002\",source=\"session\"}";
        QVERIFY(std::isnan(sampleValue(exporter.exposition(), inspector))); // nothing reported yet
        ObserverLoad load;
        load.node = 1;
        load.commandsPerSecond = 50;
        load.commandsWritten = 100;
        exporter.addObserverLoad({load});
        load.commandsWritten = 150;
        exporter.addObserverLoad({load});
        load.commandsWritten = 20; // reconnected: a new connection counts from 0
        exporter.addObserverLoad({load});
        NodeSample sample;
        sample.node = 1;
        sample.commandsPerSecond = 2;
        sample.commandsWritten = 7;
        exporter.addSample(sample);
        const QByteArray out = exporter.exposition();
        QVERIFY(out.contains("# TYPE redlock_observer_commands_total counter\n"));
        QVERIFY(!out.contains("redlock_observer_commands_per_second{"));
        QCOMPARE(sampleValue(out, inspector), 170.0);
        QCOMPARE(sampleValue(out, session), 7.0);
    }

    // The help names every event, extended included (interop.md §2 item 7).
    void eventsAreDocumentedInTheHelp()
    {
        ExporterOptions options;
        options.nodes = {endpoint(7001)};
        const QByteArray out = PrometheusExporter(options).exposition();
        const qsizetype help = out.indexOf("# HELP redlock_lock_events_total ");
        QVERIFY(help >= 0);
        const QByteArray helpLine = out.mid(help, out.indexOf('\n', help) - help);
        for (const char* event : {"acquired", "released", "expired", "released-or-expired", "evicted", "token-changed",
                                  "contested", "lost-on-restart", "extended"}) {
            const QByteArray quoted = QByteArray("\"") + event + "\"";
            QVERIFY2(helpLine.contains(quoted), event);
        }
    }

    // Interop t10: the keys the last pass did not count as locks, by reason; not_a_lock_format is what the default
    // pattern passed over (a cache entry, a session). Absent until a pass is done.
    void skippedKeysByReason()
    {
        ExporterOptions options;
        options.nodes = {endpoint(7001), endpoint(7002), endpoint(7003)};
        PrometheusExporter exporter(options);
        QVERIFY(std::isnan(sampleValue(exporter.exposition(), "redlock_keys_skipped{reason=\"not_a_lock_format\"}")));
        InspectionSummary summary;
        summary.skipped.notALockFormat = 4;
        summary.skipped.noTtl = 2;
        exporter.addInspection(summary);
        const QByteArray out = exporter.exposition();
        QCOMPARE(sampleValue(out, "redlock_keys_skipped{reason=\"not_a_lock_format\"}"), 4.0);
        QCOMPARE(sampleValue(out, "redlock_keys_skipped{reason=\"no_ttl\"}"), 2.0);
        QCOMPARE(sampleValue(out, "redlock_keys_skipped{reason=\"other_type\"}"), 0.0);
        QVERIFY(out.contains("# TYPE redlock_keys_skipped gauge\n"));
        // The events nobody saw the cause of are counted as such.
        LockEvent untold;
        untold.kind = LockEvent::Kind::ReleasedOrExpired;
        exporter.addEvents({untold});
        QCOMPARE(sampleValue(exporter.exposition(), "redlock_lock_events_total{event=\"released-or-expired\"}"), 1.0);
    }

    void auditFindingsByRuleAndSeverity()
    {
        ExporterOptions options;
        options.nodes = {endpoint(7001), endpoint(7002), endpoint(7003)};
        PrometheusExporter exporter(options);
        for (int i = 0; i < 3; ++i) {
            NodeFacts f;
            f.node = i;
            f.endpoint = options.nodes[i];
            f.health = NodeHealth::Up;
            f.infoKnown = true;
            f.role = i == 1 ? QStringLiteral("slave") : QStringLiteral("master");
            f.runId = "run" + QByteArray::number(i);
            exporter.addFacts(f);
        }
        const QByteArray out = exporter.exposition();
        // Labelled with the node that breaks Redlock, so an alert can name it.
        QCOMPARE(
            sampleValue(out, "redlock_audit_findings{node=\"127.0.0.1:7002\",rule=\"replica\",severity=\"severe\"}"),
            1.0);
        QVERIFY(std::isnan(sampleValue(out, "redlock_audit_findings{rule=\"replica\",severity=\"severe\"}")));
    }

    void keysAreLabelsOnlyOnRequestAndEscaped()
    {
        ExporterOptions options;
        options.nodes = {endpoint(7001), endpoint(7002), endpoint(7003)};
        auto clock = std::make_shared<ManualClock>();
        options.clock = clock;
        const QByteArray hostile = QByteArray("k\"\\\n\x1b[31m\xff", 10);
        const QByteArray longA = QByteArray(300, 'a') + "1";
        const QByteArray longB = QByteArray(300, 'a') + "2";
        LockChangeSet changes;
        changes.appeared = {view(hostile, LockVerdict::Held, "t", 5000, *clock),
                            view(longA, LockVerdict::Held, "t", 5000, *clock),
                            view(longB, LockVerdict::Held, "t", 5000, *clock)};

        PrometheusExporter plain(options);
        plain.addChanges(changes);
        QVERIFY(!plain.exposition().contains("key="));

        options.perKeyMetrics = true;
        PrometheusExporter keyed(options);
        keyed.addChanges(changes);
        const QByteArray out = keyed.exposition();
        // printableBytes: quote kept, backslash, LF, ESC and the invalid byte as \xNN; then the format escapes
        // the quote and the backslashes.
        QCOMPARE(
            sampleValue(out, "redlock_lock_holders{key=\"k\\\"\\\\x5c\\\\x0a\\\\x1b[31m\\\\xff\",verdict=\"held\"}"),
            2.0);
        QVERIFY(!out.contains('\x1b'));
        // The two long keys cut to the same 200 characters: one series, not the same series twice.
        QCOMPARE(out.count("redlock_lock_holders{key=\"aaaa"), 1);
        for (const QByteArray& line : out.split('\n'))
            QVERIFY2(line.size() < 1000, line.constData());
    }

    // Past maxKeySeries, the per-key series are the first keys in key order (the same ones from scrape to scrape),
    // and the gauges say how many were left out (hostile N8: 100,000 keys made 6 MB scrapes).
    void keySeriesAreCapped()
    {
        ExporterOptions options;
        options.nodes = {endpoint(7001), endpoint(7002), endpoint(7003)};
        auto clock = std::make_shared<ManualClock>();
        options.clock = clock;
        options.perKeyMetrics = true;
        options.maxKeySeries = 5;
        LockChangeSet changes;
        for (int i = 0; i < 12; ++i)
            changes.appeared.append(view("k" + QByteArray::number(100 + i), LockVerdict::Held, "t", 5000, *clock));
        PrometheusExporter exporter(options);
        exporter.addChanges(changes);
        const QByteArray out = exporter.exposition();
        QCOMPARE(out.count("\nredlock_lock_holders{"), 5);
        for (int i = 0; i < 5; ++i)
            QCOMPARE(
                sampleValue(out, "redlock_lock_holders{key=\"k" + QByteArray::number(100 + i) + "\",verdict=\"held\"}"),
                2.0);
        QCOMPARE(sampleValue(out, "redlock_key_series_limit"), 5.0);
        QCOMPARE(sampleValue(out, "redlock_key_series_dropped"), 7.0);
        QCOMPARE(exporter.keysOverSeriesLimit(), 7);
        // Every lock is still counted by verdict.
        QCOMPARE(sampleValue(out, "redlock_locks{verdict=\"held\"}"), 12.0);

        // Under the limit: nothing dropped. Without --key-labels: no per-key series, no limit to report.
        options.maxKeySeries = 12;
        PrometheusExporter roomy(options);
        roomy.addChanges(changes);
        QCOMPARE(sampleValue(roomy.exposition(), "redlock_key_series_dropped"), 0.0);
        QCOMPARE(roomy.keysOverSeriesLimit(), 0);
        options.perKeyMetrics = false;
        PrometheusExporter plain(options);
        plain.addChanges(changes);
        QVERIFY(!plain.exposition().contains("redlock_key_series"));
        QCOMPARE(plain.keysOverSeriesLimit(), 0);
    }

    // The per-key series are made again when keys come and go, and show a verdict changed since the last scrape.
    void keySeriesFollowKeysAndVerdicts()
    {
        ExporterOptions options;
        options.nodes = {endpoint(7001), endpoint(7002), endpoint(7003)};
        auto clock = std::make_shared<ManualClock>();
        options.clock = clock;
        options.perKeyMetrics = true;
        options.maxKeySeries = 2;
        PrometheusExporter exporter(options);
        const auto add = [&](const LockView& v, bool changed = false) {
            LockChangeSet set;
            (changed ? set.changed : set.appeared) = {v};
            exporter.addChanges(set);
        };
        add(view("b", LockVerdict::Held, "t", 5000, *clock));
        add(view("c", LockVerdict::Held, "t", 5000, *clock));
        QByteArray out = exporter.exposition();
        QCOMPARE(sampleValue(out, "redlock_lock_holders{key=\"b\",verdict=\"held\"}"), 2.0);
        QCOMPARE(sampleValue(out, "redlock_lock_holders{key=\"c\",verdict=\"held\"}"), 2.0);
        QCOMPARE(sampleValue(out, "redlock_key_series_dropped"), 0.0);
        add(view("c", LockVerdict::Free, {}, -1, *clock), true); // no key came or went: the verdict still shows
        out = exporter.exposition();
        QCOMPARE(sampleValue(out, "redlock_lock_holders{key=\"c\",verdict=\"free\"}"), 0.0);
        QVERIFY(std::isnan(sampleValue(out, "redlock_lock_holders{key=\"c\",verdict=\"held\"}")));
        add(view("a", LockVerdict::Held, "t", 5000, *clock)); // first in key order: c is left out
        out = exporter.exposition();
        QCOMPARE(sampleValue(out, "redlock_lock_holders{key=\"a\",verdict=\"held\"}"), 2.0);
        QVERIFY(std::isnan(sampleValue(out, "redlock_lock_holders{key=\"c\",verdict=\"free\"}")));
        QCOMPARE(sampleValue(out, "redlock_key_series_dropped"), 1.0);
        LockChangeSet gone;
        gone.disappeared = {"a", "b"};
        exporter.addChanges(gone);
        out = exporter.exposition();
        QCOMPARE(out.count("\nredlock_lock_holders{"), 1);
        QCOMPARE(sampleValue(out, "redlock_lock_holders{key=\"c\",verdict=\"free\"}"), 0.0);
        QCOMPARE(sampleValue(out, "redlock_key_series_dropped"), 0.0);
    }

    // Whether a lock is held by the same holder as before is told by its whole token, whichever way the exporter keeps
    // it (this project's rl1 tokens as digits and a shared rest): a token that differs only in its digits, only in its
    // rest, or only in the case of its digits is another holder, whose hold starts anew.
    void sameHolderIsTheWholeToken()
    {
        ExporterOptions options;
        options.nodes = {endpoint(7001), endpoint(7002), endpoint(7003)};
        auto clock = std::make_shared<ManualClock>();
        options.clock = clock;
        PrometheusExporter exporter(options);
        const QByteArray digits = "0123456789abcdef0123456789abcdef";
        const QByteArray first = "rl1:" + digits + ":42:host:client";
        const QList<QByteArray> others{
            "rl1:" + digits + ":42:host:client", // the same again: the hold goes on
            "rl1:1123456789abcdef0123456789abcdef:42:host:client",
            "rl1:1123456789abcdef0123456789abcdef:43:host:client",
            "rl1:1123456789ABCDEF0123456789abcdef:43:host:client", // not the rl1 form (upper case)
            "rl1:1123456789abcdef0123456789abcdef:43:host:client", // the rl1 form again
            "other-token",
            "other-token",
        };
        const auto held = [&](const QByteArray& token) {
            LockChangeSet set;
            set.changed = {view("k", LockVerdict::Held, token, 60000, *clock)};
            exporter.addChanges(set);
        };
        held(first);
        double ended = 0;
        for (qsizetype i = 0; i < others.size(); ++i) {
            clock->advanceMs(1000);
            const bool same = others[i] == (i == 0 ? first : others[i - 1]);
            held(others[i]);
            ended += same ? 0 : 1;
            const QByteArray out = exporter.exposition();
            QCOMPARE(sampleValue(out, "redlock_lock_hold_duration_seconds_count"), ended);
        }
        QCOMPARE(ended, 5.0);
    }

    // ---- --listen ------------------------------------------------------------------------------------------

    void listenAddresses_data()
    {
        QTest::addColumn<QString>("text");
        QTest::addColumn<QString>("parsed"); // empty: refused
        QTest::newRow("v4") << "127.0.0.1:9721"
                            << "127.0.0.1:9721";
        QTest::newRow("any") << "0.0.0.0:9721"
                             << "0.0.0.0:9721";
        QTest::newRow("free port") << "127.0.0.1:0"
                                   << "127.0.0.1:0";
        QTest::newRow("v6") << "[::1]:9721"
                            << "[::1]:9721";
        QTest::newRow("localhost") << "localhost:9721"
                                   << "127.0.0.1:9721";
        QTest::newRow("spaces") << " 127.0.0.1:9721 "
                                << "127.0.0.1:9721";
        QTest::newRow("empty") << ""
                               << "";
        QTest::newRow("port only") << "9721"
                                   << "";
        QTest::newRow("no host") << ":9721"
                                 << "";
        QTest::newRow("bare v6") << "::1:9721"
                                 << "";
        QTest::newRow("v6 no port") << "[::1]9721"
                                    << "";
        QTest::newRow("port too big") << "127.0.0.1:65536"
                                      << "";
        QTest::newRow("port not a number") << "127.0.0.1:http"
                                           << "";
        QTest::newRow("negative port") << "127.0.0.1:-1"
                                       << "";
        QTest::newRow("host name") << "metrics.example.com:9721"
                                   << "";
        QTest::newRow("bad address") << "127.0.0.300:9721"
                                     << "";
    }

    void listenAddresses()
    {
        QFETCH(QString, text);
        QFETCH(QString, parsed);
        QString error;
        const auto address = ListenAddress::parse(text, &error);
        if (parsed.isEmpty()) {
            QVERIFY2(!address, qPrintable(address ? address->toString() : QString()));
            QVERIFY(!error.isEmpty());
        } else {
            QVERIFY2(address, qPrintable(error));
            QCOMPARE(address->toString(), parsed);
        }
    }

    // ---- the HTTP endpoint -----------------------------------------------------------------------------------

    void httpAnswers()
    {
        int provided = 0;
        MetricsHttpServer server([&provided] {
            ++provided;
            return QByteArray("# HELP x X.\n# TYPE x gauge\nx 1\n");
        });
        QString error;
        QVERIFY2(server.listen(*ListenAddress::parse(QStringLiteral("127.0.0.1:0"), nullptr), &error),
                 qPrintable(error));
        const quint16 port = server.serverAddress().port;
        QVERIFY(port != 0);

        QByteArray answer = exchange(port, "GET /metrics HTTP/1.1\r\nHost: x\r\nAccept: */*\r\n\r\n");
        QVERIFY2(answer.startsWith("HTTP/1.1 200 OK\r\n"), answer.constData());
        QVERIFY(answer.contains("\r\nContent-Type: text/plain; version=0.0.4; charset=utf-8\r\n"));
        QVERIFY(answer.contains("\r\nContent-Length: 31\r\n"));
        QVERIFY(answer.endsWith("\r\n\r\n# HELP x X.\n# TYPE x gauge\nx 1\n"));
        QCOMPARE(provided, 1);

        answer = exchange(port, "GET /metrics?name[]=x HTTP/1.0\r\n\r\n");
        QVERIFY2(answer.startsWith("HTTP/1.1 200 OK\r\n"), answer.constData());
        answer = exchange(port, "HEAD /metrics HTTP/1.1\r\n\r\n");
        QVERIFY2(answer.startsWith("HTTP/1.1 200 OK\r\n") && answer.endsWith("\r\n\r\n"), answer.constData());

        // The landing page: HTML that links the metrics, not counted as a scrape.
        answer = exchange(port, "GET / HTTP/1.1\r\n\r\n");
        QVERIFY2(answer.startsWith("HTTP/1.1 200 OK\r\n"), answer.constData());
        QVERIFY(answer.contains("\r\nContent-Type: text/html; charset=utf-8\r\n"));
        QVERIFY(answer.contains("<a href=\"/metrics\">"));
        answer = exchange(port, "GET /x HTTP/1.1\r\n\r\n");
        QVERIFY2(answer.startsWith("HTTP/1.1 404 Not Found\r\n"), answer.constData());
        answer = exchange(port, "GET /metricsx HTTP/1.1\r\n\r\n");
        QVERIFY2(answer.startsWith("HTTP/1.1 404 Not Found\r\n"), answer.constData());
        answer = exchange(port, "POST /metrics HTTP/1.1\r\nContent-Length: 3\r\n\r\nabc");
        QVERIFY2(answer.startsWith("HTTP/1.1 405 Method Not Allowed\r\n"), answer.constData());
        QVERIFY(answer.contains("\r\nAllow: GET, HEAD\r\n"));
        answer = exchange(port, "DELETE /metrics HTTP/1.1\r\n\r\n");
        QVERIFY2(answer.startsWith("HTTP/1.1 405 Method Not Allowed\r\n"), answer.constData());
        answer = exchange(port, "hello\r\n\r\n");
        QVERIFY2(answer.startsWith("HTTP/1.1 400 Bad Request\r\n"), answer.constData());
        // A head that never ends is cut off at the bound, not buffered.
        answer = exchange(port,
                          "GET /metrics HTTP/1.1\r\nX-Filler: " + QByteArray(MetricsHttpServer::kMaxRequestBytes, 'x'));
        QVERIFY2(answer.startsWith("HTTP/1.1 431 "), answer.left(200).constData());
        QCOMPARE(provided, 3);
        QCOMPARE(server.scrapes(), 3u);
    }

    // Slowloris: idle connections that never send a request neither hold a socket for long nor crowd out a
    // real scrape. More idle clients than kMaxConnections are open, and a scrape still gets its answer (the
    // oldest idle connection makes room); an idle one is closed by the server after kRequestHeadTimeoutMs.
    void idleConnectionsDoNotStarveAScrape()
    {
        MetricsHttpServer server([] { return QByteArray("x 1\n"); });
        QString error;
        QVERIFY2(server.listen(*ListenAddress::parse(QStringLiteral("127.0.0.1:0"), nullptr), &error),
                 qPrintable(error));
        const quint16 port = server.serverAddress().port;
        std::vector<std::unique_ptr<QTcpSocket>> idle;
        int connected = 0;
        for (int i = 0; i < MetricsHttpServer::kMaxConnections + 8; ++i) {
            idle.push_back(std::make_unique<QTcpSocket>());
            QObject::connect(idle.back().get(), &QTcpSocket::connected, [&connected] { ++connected; });
            idle.back()->connectToHost(QHostAddress::LocalHost, port);
        }
        QTRY_COMPARE_WITH_TIMEOUT(connected, int(idle.size()), 10000);
        QElapsedTimer sinceIdle;
        sinceIdle.start();
        const QByteArray answer = exchange(port, "GET /metrics HTTP/1.1\r\n\r\n");
        QVERIFY2(answer.startsWith("HTTP/1.1 200 OK\r\n"), answer.constData());
        QCOMPARE(server.scrapes(), 1u);
        // The idle connections are all closed by the server, in about kRequestHeadTimeoutMs (not 10 s).
        QTRY_VERIFY_WITH_TIMEOUT(
            std::all_of(idle.cbegin(), idle.cend(),
                        [](const auto& s) { return s->state() == QAbstractSocket::UnconnectedState; }),
            MetricsHttpServer::kConnectionTimeoutMs - 1000);
        QVERIFY2(sinceIdle.elapsed() >= MetricsHttpServer::kRequestHeadTimeoutMs - 1000,
                 qPrintable(QString::number(sinceIdle.elapsed())));
    }

    // Clients that send a request and never read its answer (core N5, hostile N8): once the body is larger than
    // the socket buffers (loopback takes about 3 MB per connection), every answer stays pending. More of them than
    // the bound on connections, each answered in turn, and a scrape still gets its whole body: the oldest unread
    // answer makes room, the newcomer is never refused. (A bound of 4 connections instead of 32: the same rule,
    // without a gigabyte of unread answers in the test.)
    void nonReadersDoNotStarveAScrape()
    {
        const QByteArray body = QByteArray(8 * 1024 * 1024, 'x') + '\n';
        MetricsHttpServer::Limits limits;
        limits.maxConnections = 4;
        limits.maxPendingBytes = 1024 * 1024 * 1024;                          // only the bound on connections acts
        limits.writeStallTimeoutMs = limits.connectionTimeoutMs = 600 * 1000; // idem
        MetricsHttpServer server([&body] { return body; }, limits);
        QString error;
        QVERIFY2(server.listen(*ListenAddress::parse(QStringLiteral("127.0.0.1:0"), nullptr), &error),
                 qPrintable(error));
        const quint16 port = server.serverAddress().port;
        std::vector<std::unique_ptr<NonReader>> clients;
        for (int i = 0; i < limits.maxConnections + 2; ++i) {
            clients.push_back(std::make_unique<NonReader>(port));
            QVERIFY(clients.back()->ok());
            QTRY_COMPARE_WITH_TIMEOUT(server.scrapes(), quint64(i + 1), 10000);
        }
        // Their answers wait in the server (the case this is about), and the bound on connections holds.
        QVERIFY(server.pendingBytes() > 0);
        QCOMPARE(server.openConnections(), limits.maxConnections);

        const QByteArray answer = exchange(port, "GET /metrics HTTP/1.1\r\n\r\n");
        QVERIFY2(answer.startsWith("HTTP/1.1 200 OK\r\n"), answer.left(200).constData());
        QVERIFY(answer.contains(QByteArray("\r\nContent-Length: " + QByteArray::number(body.size()) + "\r\n")));
        QVERIFY(answer.endsWith(QByteArray("\r\n\r\n" + body)));
    }

    // The answers nobody takes hold at most maxPendingBytes together: the oldest go first.
    void unreadAnswersHoldBoundedMemory()
    {
        const QByteArray body = QByteArray(8 * 1024 * 1024, 'y') + '\n';
        MetricsHttpServer::Limits limits;
        limits.maxPendingBytes = 2 * body.size();
        limits.writeStallTimeoutMs = limits.connectionTimeoutMs = 600 * 1000; // only the bound on bytes acts
        MetricsHttpServer server([&body] { return body; }, limits);
        QString error;
        QVERIFY2(server.listen(*ListenAddress::parse(QStringLiteral("127.0.0.1:0"), nullptr), &error),
                 qPrintable(error));
        const quint16 port = server.serverAddress().port;
        std::vector<std::unique_ptr<NonReader>> clients;
        for (int i = 0; i < 6; ++i) {
            clients.push_back(std::make_unique<NonReader>(port));
            QVERIFY(clients.back()->ok());
            QTRY_COMPARE_WITH_TIMEOUT(server.scrapes(), quint64(i + 1), 10000);
            QVERIFY2(server.pendingBytes() > 0 && server.pendingBytes() <= limits.maxPendingBytes,
                     qPrintable(QString::number(server.pendingBytes())));
        }
        QVERIFY(server.openConnections() < 6);
        // A reader is served whole all the same.
        const QByteArray answer = exchange(port, "GET /metrics HTTP/1.1\r\n\r\n");
        QVERIFY2(answer.endsWith(QByteArray("\r\n\r\n" + body)), answer.left(200).constData());
    }

    // A client that takes nothing of its answer for writeStallTimeoutMs is dropped, long before the connection's
    // own timeout.
    void stalledReadersAreDropped()
    {
        MetricsHttpServer::Limits limits;
        limits.writeStallTimeoutMs = 500;
        limits.connectionTimeoutMs = 600 * 1000;                         // not what closes them here
        const QByteArray body = QByteArray(8 * 1024 * 1024, 'z') + '\n'; // more than loopback's buffers take
        MetricsHttpServer server([&body] { return body; }, limits);
        QString error;
        QVERIFY2(server.listen(*ListenAddress::parse(QStringLiteral("127.0.0.1:0"), nullptr), &error),
                 qPrintable(error));
        std::vector<std::unique_ptr<NonReader>> clients;
        for (int i = 0; i < 3; ++i) {
            clients.push_back(std::make_unique<NonReader>(server.serverAddress().port));
            QVERIFY(clients.back()->ok());
        }
        QTRY_COMPARE_WITH_TIMEOUT(server.scrapes(), quint64(3), 10000);
        QTRY_COMPARE_WITH_TIMEOUT(server.openConnections(), 0, 30000);
        QCOMPARE(server.droppedConnections(), 3u);
        QCOMPARE(server.pendingBytes(), 0);
    }

    // ---- --web.config.file: exporter-toolkit's format, TLS and basic auth ------------------------------------

    void webConfigIsParsedStrictly()
    {
        QString error;
        const auto config = WebConfig::parse("# a comment\n"
                                             "tls_server_config:\n"
                                             "  cert_file: server.crt   # relative: from the file's folder\n"
                                             "  key_file: \"/etc/redlock/server.key\"\n"
                                             "  client_auth_type: 'RequireAndVerifyClientCert'\n"
                                             "  client_ca_file: ca.crt\n"
                                             "  min_version: TLS13\n"
                                             "\n"
                                             "basic_auth_users:\n"
                                             "  prometheus: " +
                                                 kHash2y +
                                                 "\n"
                                                 "  grafana: '" +
                                                 kHash2b + "'\n",
                                             QStringLiteral("/etc/redlock"), &error);
        QVERIFY2(config, qPrintable(error));
        QVERIFY(config->tls);
        QCOMPARE(config->certFile, QStringLiteral("/etc/redlock/server.crt"));
        QCOMPARE(config->keyFile, QStringLiteral("/etc/redlock/server.key"));
        QCOMPARE(config->clientCaFile, QStringLiteral("/etc/redlock/ca.crt"));
        QCOMPARE(config->clientAuth, WebConfig::ClientAuth::RequireAndVerify);
        QCOMPARE(config->minVersion, WebConfig::MinVersion::Tls13);
        QCOMPARE(config->basicAuthUsers.value(QStringLiteral("prometheus")), kHash2y);
        QCOMPARE(config->basicAuthUsers.value(QStringLiteral("grafana")), kHash2b);

        const auto authOnly = WebConfig::parse("basic_auth_users:\n    u: " + kHash2b + "\n", {}, &error);
        QVERIFY2(authOnly, qPrintable(error));
        QVERIFY(!authOnly->tls);

        // Refused with the line and what is wrong, never silently ignored, and never quoting a hash.
        const QList<std::pair<QByteArray, QString>> refused{
            {"http_server_config:\n  http2: true\n", QStringLiteral("line 1: unknown key \"http_server_config\"")},
            {"tls_server_config:\n  cert_file: a\n  key_file: b\n  cipher_suites: x\n",
             QStringLiteral("line 4: unknown key tls_server_config.cipher_suites")},
            {"tls_server_config:\n  cert_file: a\n", QStringLiteral("needs both cert_file and key_file")},
            {"tls_server_config:\n  cert_file: a\n  key_file: b\n  client_auth_type: RequireAnyClientCert\n",
             QStringLiteral("\"RequireAnyClientCert\" is not supported")},
            {"tls_server_config:\n  cert_file: a\n  key_file: b\n  client_auth_type: RequireAndVerifyClientCert\n",
             QStringLiteral("needs client_ca_file")},
            {"tls_server_config:\n\tcert_file: a\n", QStringLiteral("line 2: a tab")},
            {"basic_auth_users:\n  - u\n", QStringLiteral("line 2: lists")},
            {"basic_auth_users:\n  u: " + kHash2b + "\n  u: " + kHash2y + "\n",
             QStringLiteral("line 3: \"u\" appears twice")},
            {"basic_auth_users:\n  u: plain-password\n",
             QStringLiteral("line 2: the password of user \"u\" is not a bcrypt")},
            {"basic_auth_users:\n  u: $1$abc$" + kHash2b.mid(10) + "\n", QStringLiteral("is not a bcrypt")},
            {"basic_auth_users:\n  u: '" + kHash2b + "\n", QStringLiteral("line 2: a quoted value is not closed")},
            {"basic_auth_users:\n  u:\n    deeper: x\n", QStringLiteral("line 3: indentation")},
            {"basic_auth_users: x\n", QStringLiteral("must be a section")},
            {"  cert_file: a\n", QStringLiteral("line 1: indented, but not under a section")},
            {"just text\n", QStringLiteral("line 1: expected \"key: value\"")},
        };
        for (const auto& [text, expected] : refused) {
            error.clear();
            QVERIFY2(!WebConfig::parse(text, {}, &error), text.constData());
            QVERIFY2(error.contains(expected), qPrintable(error + QStringLiteral(" <- ") + QString::fromUtf8(text)));
            QVERIFY2(!error.contains(QLatin1String("HAKjclSu")) && !error.contains(QLatin1String("plain-password")),
                     qPrintable(error));
        }
    }

    // YAML comments are no part of a value: after a value, after a section's key, and in place of a value (then
    // there is none: "cert_file: # later" must not become the path "# later"). A '#' inside a word stays.
    void webConfigCommentsAreStripped()
    {
        QString error;
        const auto config = WebConfig::parse("tls_server_config:   # TLS for scrapes across the network\n"
                                             "  # the certificate and its key\n"
                                             "  cert_file: certs/server#1.crt\t# a '#' in a word is kept\n"
                                             "  key_file: 'server.key' # quoted, then a comment\n"
                                             "basic_auth_users: # user: bcrypt hash\n"
                                             "  prometheus: " +
                                                 kHash2y + " # htpasswd -nBC 5 prometheus\n",
                                             QStringLiteral("/etc/redlock"), &error);
        QVERIFY2(config, qPrintable(error));
        QCOMPARE(config->certFile, QStringLiteral("/etc/redlock/certs/server#1.crt"));
        QCOMPARE(config->keyFile, QStringLiteral("/etc/redlock/server.key"));
        QCOMPARE(config->basicAuthUsers.value(QStringLiteral("prometheus")), kHash2y);

        const auto noValue =
            WebConfig::parse("tls_server_config:\n  cert_file: # comment\n  key_file: server.key\n", {}, &error);
        QVERIFY2(!noValue, qPrintable(noValue ? noValue->certFile : QString()));
        QVERIFY2(error.contains(QLatin1String("line 2: tls_server_config.cert_file has no value")), qPrintable(error));
        const auto noHash = WebConfig::parse("basic_auth_users:\n  u: # set later\n", {}, &error);
        QVERIFY(!noHash);
        QVERIFY2(error.contains(QLatin1String("line 2: the password of user \"u\" is not a bcrypt")),
                 qPrintable(error));
    }

    void bcryptHashesAreChecked()
    {
        QVERIFY(BasicAuthenticator::bcryptMatches("scrape-pw-Q4", kHash2y));
        QVERIFY(BasicAuthenticator::bcryptMatches("scrape-pw-Q4", kHash2b));
        QVERIFY(!BasicAuthenticator::bcryptMatches("scrape-pw-Q5", kHash2b));
        QVERIFY(!BasicAuthenticator::bcryptMatches("", kHash2b));
        QVERIFY(!BasicAuthenticator::bcryptMatches(QByteArray("scrape-pw-Q4\0x", 14), kHash2b));
        QVERIFY(!BasicAuthenticator::bcryptMatches("scrape-pw-Q4", "scrape-pw-Q4"));

        // The users' map still shared with its source, as the exporter's is with its WebConfig.
        const QMap<QString, QByteArray> users{{QStringLiteral("prometheus"), kHash2y}};
        BasicAuthenticator auth(users);
        const QByteArray good = QByteArray("Basic " + QByteArray("prometheus:scrape-pw-Q4").toBase64());
        QVERIFY(auth.check(good));
        QVERIFY(auth.check(good)); // remembered: the same answer without a bcrypt
        QVERIFY(!auth.check(QByteArray("Basic " + QByteArray("prometheus:scrape-pw-Q").toBase64())));
        QVERIFY(!auth.check(QByteArray("Basic " + QByteArray("grafana:scrape-pw-Q4").toBase64())));
        QVERIFY(!auth.check(QByteArray("Basic " + QByteArray("prometheusscrape-pw-Q4").toBase64())));
        QVERIFY(!auth.check("Basic !!not-base64!!"));
        QVERIFY(!auth.check(QByteArray("Bearer " + QByteArray("prometheus:scrape-pw-Q4").toBase64())));
    }

    // A flood of bad logins (hostile: bcrypt on the event loop made each one stall every scrape for its length):
    // clients with wrong passwords keep coming, each replaced as soon as it is answered, so bcrypt checks are
    // always in flight. A scraper whose credentials were verified before still gets its metrics (within a bounded
    // wait), no more than maxAuthChecks checks ever run at once, and the requests beyond the bound get 429.
    void badLoginFloodDoesNotStallAScrape()
    {
        MetricsHttpServer::Limits limits;
        limits.authFailureBurst = 1000000; // only the bound on checks in flight acts here
        limits.authFailuresPerSecond = 1000000;
        MetricsHttpServer server([] { return QByteArray("x 1\n"); }, limits);
        server.setBasicAuth({{QStringLiteral("prometheus"), kHashCost11}});
        QString error;
        QVERIFY2(server.listen(*ListenAddress::parse(QStringLiteral("127.0.0.1:0"), nullptr), &error),
                 qPrintable(error));
        const quint16 port = server.serverAddress().port;
        const QByteArray good = "GET /metrics HTTP/1.1\r\n" + basic("prometheus", "scrape-pw-Q4") + "\r\n";
        QByteArray answer = exchange(port, good);
        QVERIFY2(answer.startsWith("HTTP/1.1 200 OK\r\n"), answer.constData()); // verified once, remembered

        bool flooding = true;
        int sent = 0;
        QMap<QByteArray, int> statuses; // of the bad logins' answers
        std::vector<std::unique_ptr<QTcpSocket>> clients;
        std::function<void()> launch = [&] {
            clients.push_back(std::make_unique<QTcpSocket>());
            QTcpSocket* client = clients.back().get();
            auto received = std::make_shared<QByteArray>();
            const QByteArray request =
                "GET /metrics HTTP/1.1\r\n" + basic("nobody", "guess-" + QByteArray::number(++sent)) + "\r\n";
            QObject::connect(client, &QTcpSocket::connected, client, [client, request] { client->write(request); });
            QObject::connect(client, &QTcpSocket::readyRead, client,
                             [client, received] { *received += client->readAll(); });
            QObject::connect(client, &QTcpSocket::disconnected, client, [&, received] {
                ++statuses[received->left(received->indexOf("\r\n"))];
                if (flooding)
                    QTimer::singleShot(0, &server, launch);
            });
            client->connectToHost(QHostAddress::LocalHost, port);
        };
        for (int i = 0; i < 24; ++i)
            launch();
        QTRY_COMPARE_WITH_TIMEOUT(server.authChecksInFlight(), limits.maxAuthChecks, 10000);
        QTRY_VERIFY_WITH_TIMEOUT(server.authChecksRefused() > 0, 10000);

        answer = exchange(port, good, 5000);
        QVERIFY2(answer.startsWith("HTTP/1.1 200 OK\r\n") && answer.endsWith("\r\n\r\nx 1\n"), answer.constData());
        // The same with the landing page, and again: the flood never gets in the way.
        answer = exchange(port, "GET / HTTP/1.1\r\n" + basic("prometheus", "scrape-pw-Q4") + "\r\n", 5000);
        QVERIFY2(answer.startsWith("HTTP/1.1 200 OK\r\n"), answer.constData());
        flooding = false;
        QTRY_COMPARE_WITH_TIMEOUT(server.authChecksInFlight(), 0, 10000);

        QCOMPARE(server.peakAuthChecksInFlight(), limits.maxAuthChecks);
        QVERIFY(statuses.value("HTTP/1.1 401 Unauthorized") > 0); // checks ran, and said no
        QVERIFY(statuses.value("HTTP/1.1 429 Too Many Requests") > 0);
        QCOMPARE(statuses.value("HTTP/1.1 200 OK"), 0);
        QCOMPARE(server.scrapes(), 2u);
    }

    // Failed checks spend a budget: once it is spent, a login that would need a bcrypt is answered 429 without one
    // (here the budget is never refilled), while credentials verified before still get in.
    void failedLoginsAreRateLimited()
    {
        MetricsHttpServer::Limits limits;
        limits.authFailureBurst = 3;
        limits.authFailuresPerSecond = 0;
        MetricsHttpServer server([] { return QByteArray("x 1\n"); }, limits);
        server.setBasicAuth({{QStringLiteral("prometheus"), kHash2y}});
        QString error;
        QVERIFY2(server.listen(*ListenAddress::parse(QStringLiteral("127.0.0.1:0"), nullptr), &error),
                 qPrintable(error));
        const quint16 port = server.serverAddress().port;
        const QByteArray good = "GET /metrics HTTP/1.1\r\n" + basic("prometheus", "scrape-pw-Q4") + "\r\n";
        QVERIFY(exchange(port, good).startsWith("HTTP/1.1 200 OK\r\n")); // a success spends nothing
        for (int i = 0; i < limits.authFailureBurst; ++i) {
            const QByteArray answer =
                exchange(port, "GET /metrics HTTP/1.1\r\n" + basic("prometheus", "wrong") + "\r\n");
            QVERIFY2(answer.startsWith("HTTP/1.1 401 Unauthorized\r\n"), answer.constData());
        }
        for (const QByteArray& credentials : {basic("prometheus", "wrong"), basic("nobody", "scrape-pw-Q4")}) {
            const QByteArray answer = exchange(port, "GET /metrics HTTP/1.1\r\n" + credentials + "\r\n");
            QVERIFY2(answer.startsWith("HTTP/1.1 429 Too Many Requests\r\n"), answer.constData());
            QVERIFY(answer.contains("\r\nRetry-After: 1\r\n"));
        }
        QCOMPARE(server.authChecksRefused(), 2u);
        QVERIFY(exchange(port, good).startsWith("HTTP/1.1 200 OK\r\n"));
        // No credentials at all need no bcrypt: still a plain 401.
        QVERIFY(exchange(port, "GET /metrics HTTP/1.1\r\n\r\n").startsWith("HTTP/1.1 401 Unauthorized\r\n"));
        QCOMPARE(server.scrapes(), 2u);
    }

    // HTTPS with a private CA and basic auth: the right password gets the metrics, a wrong or missing one 401 with
    // WWW-Authenticate (the landing page too), and plain HTTP to the TLS port gets no HTTP answer at all.
    void tlsAndBasicAuth()
    {
        QVERIFY(QSslSocket::supportsSsl());
        QTemporaryDir dir;
        QVERIFY(dir.isValid());
        test::TestCa ca(dir.path());
        QVERIFY(ca.makeCa(QStringLiteral("ca")));
        QVERIFY(
            ca.makeCert(QStringLiteral("server"), QStringLiteral("ca"), QStringLiteral("DNS:localhost,IP:127.0.0.1")));
        QString error;
        const auto config = WebConfig::parse("tls_server_config:\n  cert_file: server.crt\n  key_file: server.key\n"
                                             "basic_auth_users:\n  prometheus: " +
                                                 kHash2y + "\n",
                                             dir.path(), &error);
        QVERIFY2(config, qPrintable(error));
        const auto ssl = config->sslConfiguration(&error);
        QVERIFY2(ssl, qPrintable(error));
        int provided = 0;
        MetricsHttpServer server([&provided] {
            ++provided;
            return QByteArray("x 1\n");
        });
        server.setTls(*ssl);
        server.setBasicAuth(config->basicAuthUsers);
        QVERIFY2(server.listen(*ListenAddress::parse(QStringLiteral("127.0.0.1:0"), nullptr), &error),
                 qPrintable(error));
        const quint16 port = server.serverAddress().port;
        const QList<QSslCertificate> trusted = QSslCertificate::fromPath(ca.path(QStringLiteral("ca.crt")));
        QCOMPARE(trusted.size(), 1);

        QByteArray answer =
            tlsExchange(port, "GET /metrics HTTP/1.1\r\n" + basic("prometheus", "scrape-pw-Q4") + "\r\n", trusted);
        QVERIFY2(answer.startsWith("HTTP/1.1 200 OK\r\n") && answer.endsWith("\r\n\r\nx 1\n"), answer.constData());
        for (const QByteArray& credentials :
             {QByteArray(), basic("prometheus", "wrong"), basic("nobody", "scrape-pw-Q4")}) {
            for (const QByteArray path : {"/metrics", "/"}) {
                answer = tlsExchange(port, "GET " + path + " HTTP/1.1\r\n" + credentials + "\r\n", trusted);
                QVERIFY2(answer.startsWith("HTTP/1.1 401 Unauthorized\r\n"),
                         QByteArray(path + " [" + credentials + "] " + answer).constData());
                QVERIFY(answer.contains("\r\nWWW-Authenticate: Basic realm=\"redlock exporter\""));
            }
        }
        QCOMPARE(provided, 1);
        // Plain HTTP to the TLS port: the handshake fails and the server closes, with no HTTP answer.
        answer = exchange(port, "GET /metrics HTTP/1.1\r\n" + basic("prometheus", "scrape-pw-Q4") + "\r\n");
        QVERIFY2(!answer.contains("HTTP/1.1"), answer.constData());
        QCOMPARE(provided, 1);
        // A client that does not trust the server's CA does not get through either.
        QVERIFY(tlsExchange(port, "GET /metrics HTTP/1.1\r\n" + basic("prometheus", "scrape-pw-Q4") + "\r\n", {})
                    .isEmpty());
        QCOMPARE(provided, 1);
    }

    // client_auth_type RequireAndVerifyClientCert: a client with a certificate from client_ca_file gets through, one
    // without a certificate or with one from another CA does not.
    void mutualTls()
    {
        QTemporaryDir dir;
        QVERIFY(dir.isValid());
        test::TestCa ca(dir.path());
        QVERIFY(ca.makeCa(QStringLiteral("ca")));
        QVERIFY(ca.makeCa(QStringLiteral("clients")));
        QVERIFY(ca.makeCa(QStringLiteral("other")));
        QVERIFY(ca.makeCert(QStringLiteral("server"), QStringLiteral("ca"), QStringLiteral("DNS:localhost")));
        QVERIFY(ca.makeCert(QStringLiteral("scraper"), QStringLiteral("clients"), QStringLiteral("DNS:scraper")));
        QVERIFY(ca.makeCert(QStringLiteral("stranger"), QStringLiteral("other"), QStringLiteral("DNS:stranger")));
        QString error;
        const auto config = WebConfig::parse("tls_server_config:\n  cert_file: server.crt\n  key_file: server.key\n"
                                             "  client_auth_type: RequireAndVerifyClientCert\n"
                                             "  client_ca_file: clients.crt\n",
                                             dir.path(), &error);
        QVERIFY2(config, qPrintable(error));
        const auto ssl = config->sslConfiguration(&error);
        QVERIFY2(ssl, qPrintable(error));
        MetricsHttpServer server([] { return QByteArray("x 1\n"); });
        server.setTls(*ssl);
        QVERIFY2(server.listen(*ListenAddress::parse(QStringLiteral("127.0.0.1:0"), nullptr), &error),
                 qPrintable(error));
        const quint16 port = server.serverAddress().port;
        const QList<QSslCertificate> trusted = QSslCertificate::fromPath(ca.path(QStringLiteral("ca.crt")));
        QByteArray answer =
            tlsExchange(port, "GET /metrics HTTP/1.1\r\n\r\n", trusted, 0, nullptr, ca.path(QStringLiteral("scraper")));
        QVERIFY2(answer.startsWith("HTTP/1.1 200 OK\r\n"), answer.constData());
        QVERIFY(!tlsExchange(port, "GET /metrics HTTP/1.1\r\n\r\n", trusted).contains("HTTP/1.1"));
        QVERIFY(!tlsExchange(port, "GET /metrics HTTP/1.1\r\n\r\n", trusted, 0, nullptr,
                             ca.path(QStringLiteral("stranger")))
                     .contains("HTTP/1.1"));
        QCOMPARE(server.scrapes(), 1u);
    }

    // The bounds hold over TLS: a client that takes nothing of its answer is dropped after writeStallTimeoutMs (its
    // unsent answer waits as ciphertext in the socket), one that never completes its handshake after
    // requestHeadTimeoutMs.
    void tlsStalledReadersAndHandshakesAreDropped()
    {
        QTemporaryDir dir;
        QVERIFY(dir.isValid());
        test::TestCa ca(dir.path());
        QVERIFY(ca.makeCa(QStringLiteral("ca")));
        QVERIFY(ca.makeCert(QStringLiteral("server"), QStringLiteral("ca"), QStringLiteral("DNS:localhost")));
        QString error;
        const auto config = WebConfig::parse("tls_server_config:\n  cert_file: server.crt\n  key_file: server.key\n",
                                             dir.path(), &error);
        QVERIFY2(config, qPrintable(error));
        const auto ssl = config->sslConfiguration(&error);
        QVERIFY2(ssl, qPrintable(error));
        MetricsHttpServer::Limits limits;
        limits.writeStallTimeoutMs = 2000;
        limits.connectionTimeoutMs = 600 * 1000;
        const QByteArray body = QByteArray(8 * 1024 * 1024, 'z') + '\n';
        MetricsHttpServer server([&body] { return body; }, limits);
        server.setTls(*ssl);
        QVERIFY2(server.listen(*ListenAddress::parse(QStringLiteral("127.0.0.1:0"), nullptr), &error),
                 qPrintable(error));
        const QList<QSslCertificate> trusted = QSslCertificate::fromPath(ca.path(QStringLiteral("ca.crt")));
        std::vector<std::unique_ptr<QSslSocket>> clients;
        for (int i = 0; i < 3; ++i) {
            clients.push_back(std::make_unique<QSslSocket>());
            tlsExchange(server.serverAddress().port, "GET /metrics HTTP/1.1\r\n\r\n", trusted, 4096,
                        clients.back().get());
        }
        QTRY_COMPARE_WITH_TIMEOUT(server.scrapes(), quint64(3), 10000);
        // What the clients did not take counts, though it waits encrypted (the bound on pending bytes sees it).
        QVERIFY2(server.pendingBytes() > 0, qPrintable(QString::number(server.pendingBytes())));
        QTRY_COMPARE_WITH_TIMEOUT(server.openConnections(), 0, 30000);
        QCOMPARE(server.droppedConnections(), 3u);
        QCOMPARE(server.pendingBytes(), 0);

        // A client that connects and never says a word of TLS.
        NonReader silent(server.serverAddress().port); // sends a plain request: the handshake fails
        QTcpSocket idle;
        idle.connectToHost(QHostAddress::LocalHost, server.serverAddress().port);
        QVERIFY(idle.waitForConnected(10000));
        QTRY_COMPARE_WITH_TIMEOUT(idle.state(), QAbstractSocket::UnconnectedState,
                                  MetricsHttpServer::kConnectionTimeoutMs - 1000);
        QTRY_COMPARE_WITH_TIMEOUT(server.openConnections(), 0, 10000);
        QCOMPARE(server.scrapes(), 3u);
    }

    void busyAddressIsRefused()
    {
        MetricsHttpServer first([] { return QByteArray(); });
        QString error;
        QVERIFY(first.listen(*ListenAddress::parse(QStringLiteral("127.0.0.1:0"), nullptr), &error));
        MetricsHttpServer second([] { return QByteArray(); });
        QVERIFY(!second.listen(first.serverAddress(), &error));
        QVERIFY2(error.contains(first.serverAddress().toString()), qPrintable(error));
    }
};

QTEST_GUILESS_MAIN(TestPrometheusExporter)
#include "TestPrometheusExporter.moc"
