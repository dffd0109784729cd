// `redlock exporter` against the real thing: redis-servers with ACL users and passwords (LocalCluster), the
// exporter as a process, and Debian's Prometheus: a real `prometheus` server scrapes it and is queried over its
// HTTP API, and `promtool check metrics` lints a scrape. scripts/setup-deps.sh installs the `prometheus` package.

#include "localcluster/LocalCluster.h"
#include "support/DirectRedis.h"
#include "support/TestCa.h"

#include <QDateTime>
#include <QDeadlineTimer>
#include <QElapsedTimer>
#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QMap>
#include <QProcess>
#include <QRegularExpression>
#include <QStandardPaths>
#include <QTcpServer>
#include <QTcpSocket>
#include <QTemporaryDir>
#include <QTest>
#include <QUrl>

#include <cmath>
#include <csignal>

using namespace redlock;

namespace {

const QByteArray kAdminPassword = "admin-pw-Xq7";
const QByteArray kUser = "alice-acl-user";
const QByteArray kUserPassword = "alice-s3cret-Zk9";
const char* kPasswordVariable = "REDLOCK_TEST_EXPORTER_PASSWORD";

quint16 freePort()
{
    QTcpServer probe;
    probe.listen(QHostAddress::LocalHost, 0);
    return probe.serverPort();
}

struct HttpAnswer
{
    int status = 0; // 0: no answer
    QByteArray headers;
    QByteArray body;
};

// One HTTP/1.0 exchange with a server in another process; the answer once it closes the connection.
HttpAnswer http(quint16 port, const QByteArray& method, const QByteArray& target, int timeoutMs = 20000)
{
    HttpAnswer answer;
    QTcpSocket socket;
    socket.connectToHost(QHostAddress::LocalHost, port);
    if (!socket.waitForConnected(timeoutMs))
        return answer;
    socket.write(method + ' ' + target + " HTTP/1.0\r\nHost: 127.0.0.1\r\n\r\n");
    QByteArray raw;
    const QDeadlineTimer deadline(timeoutMs);
    while (socket.state() == QAbstractSocket::ConnectedState && !deadline.hasExpired()) {
        socket.waitForReadyRead(static_cast<int>(std::max<qint64>(1, deadline.remainingTime())));
        raw += socket.readAll();
    }
    raw += socket.readAll();
    const qsizetype split = raw.indexOf("\r\n\r\n");
    if (!raw.startsWith("HTTP/1.") || split < 0)
        return answer;
    answer.status = raw.mid(9, 3).toInt();
    answer.headers = raw.left(split);
    answer.body = raw.mid(split + 4);
    return answer;
}

// A process of the test (the exporter, Prometheus), stopped when the test ends however it ends.
class ChildProcess
{
public:
    ChildProcess() { m_process.setProcessChannelMode(QProcess::MergedChannels); }
    ~ChildProcess()
    {
        if (m_process.state() != QProcess::NotRunning) {
            m_process.kill();
            m_process.waitForFinished(10000);
        }
    }
    QProcess& process() { return m_process; }
    // Everything it printed so far.
    QString output()
    {
        m_output += m_process.readAll();
        return QString::fromUtf8(m_output);
    }

private:
    QProcess m_process;
    QByteArray m_output;
};

// Starts `redlock exporter args... --listen 127.0.0.1:0` and reads the port it serves on from its stderr.
quint16 startExporter(ChildProcess& exporter, const QStringList& args)
{
    QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
    env.insert(QStringLiteral("LC_ALL"), QStringLiteral("C.UTF-8"));
    env.insert(QString::fromLatin1(kPasswordVariable), QString::fromLatin1(kUserPassword));
    exporter.process().setProcessEnvironment(env);
    exporter.process().start(QStringLiteral(REDLOCK_CLI_PATH),
                             QStringList{QStringLiteral("exporter")} + args +
                                 QStringList{QStringLiteral("--listen"), QStringLiteral("127.0.0.1:0")});
    static const QRegularExpression serving(QStringLiteral("serving https?://127\\.0\\.0\\.1:(\\d+)/metrics"));
    const QDeadlineTimer deadline(30000);
    while (!deadline.hasExpired() && exporter.process().state() != QProcess::NotRunning) {
        const QRegularExpressionMatch match = serving.match(exporter.output());
        if (match.hasMatch())
            return static_cast<quint16>(match.captured(1).toUInt());
        exporter.process().waitForReadyRead(200);
    }
    return 0;
}

// The value of the one sample `series` (name and labels as written) in an exposition; NaN when absent.
double sampleValue(const QByteArray& exposition, const QByteArray& series)
{
    for (const QByteArray& line : exposition.split('\n')) {
        if (line.startsWith(QByteArray(series + ' ')))
            return line.mid(series.size() + 1).toDouble();
    }
    return std::numeric_limits<double>::quiet_NaN();
}

// `promtool check metrics` on an exposition: its exit code and everything it said (problems, warnings).
std::pair<int, QString> promtoolCheck(const QByteArray& exposition)
{
    QProcess promtool;
    promtool.setProcessChannelMode(QProcess::MergedChannels);
    promtool.start(QStandardPaths::findExecutable(QStringLiteral("promtool")),
                   {QStringLiteral("check"), QStringLiteral("metrics")});
    if (!promtool.waitForStarted(30000))
        return {-1, QStringLiteral("promtool did not start")};
    promtool.write(exposition);
    promtool.closeWriteChannel();
    if (!promtool.waitForFinished(60000)) {
        promtool.kill();
        promtool.waitForFinished();
        return {-1, QStringLiteral("promtool did not finish")};
    }
    return {promtool.exitCode(), QString::fromUtf8(promtool.readAll())};
}

// Prometheus's instant query API: the value of each series the expression returns, by its labels (JSON).
QMap<QString, double> prometheusQuery(quint16 port, const QString& expression)
{
    QMap<QString, double> out;
    const HttpAnswer answer = http(port, "GET", "/api/v1/query?query=" + QUrl::toPercentEncoding(expression), 20000);
    const QJsonObject reply = QJsonDocument::fromJson(answer.body).object();
    if (reply.value(QStringLiteral("status")).toString() != u"success")
        return out;
    for (const QJsonValue& r :
         reply.value(QStringLiteral("data")).toObject().value(QStringLiteral("result")).toArray()) {
        const QJsonObject series = r.toObject();
        const QByteArray labels =
            QJsonDocument(series.value(QStringLiteral("metric")).toObject()).toJson(QJsonDocument::Compact);
        out.insert(QString::fromUtf8(labels),
                   series.value(QStringLiteral("value")).toArray().at(1).toString().toDouble());
    }
    return out;
}

// Every counter sample and every histogram _bucket/_sum/_count sample of an exposition, by series (name and
// labels as written): the samples Prometheus's rate() and increase() read as counters.
QMap<QByteArray, double> counterSamples(const QByteArray& exposition)
{
    QMap<QByteArray, QByteArray> types;
    static const QRegularExpression typeLine(QStringLiteral("^# TYPE (\\S+) (\\S+)$"));
    for (const QByteArray& line : exposition.split('\n')) {
        const QRegularExpressionMatch m = typeLine.match(QString::fromUtf8(line));
        if (m.hasMatch())
            types.insert(m.captured(1).toUtf8(), m.captured(2).toUtf8());
    }
    QMap<QByteArray, double> out;
    static const QRegularExpression histogramPart(QStringLiteral("_(bucket|sum|count)$"));
    for (const QByteArray& line : exposition.split('\n')) {
        if (line.isEmpty() || line.startsWith('#'))
            continue;
        const qsizetype split = line.lastIndexOf(' ');
        const QByteArray series = line.left(split);
        QString name = QString::fromUtf8(series.left(series.indexOf('{') < 0 ? series.size() : series.indexOf('{')));
        const QByteArray type = types.value(name.toUtf8());
        const bool counter = type == "counter";
        const bool histogram = type.isEmpty() && types.value(name.remove(histogramPart).toUtf8()) == "histogram";
        if (counter || histogram)
            out.insert(series, line.mid(split + 1).toDouble());
    }
    return out;
}

} // namespace

class TestExporter : public QObject
{
    Q_OBJECT

private slots:
    void initTestCase()
    {
        QVERIFY2(QFile::exists(QStringLiteral(REDLOCK_CLI_PATH)), REDLOCK_CLI_PATH);
        // Not a skip: scripts/setup-deps.sh installs Debian's prometheus package, which brings both.
        QVERIFY2(!QStandardPaths::findExecutable(QStringLiteral("prometheus")).isEmpty(),
                 "prometheus is not installed (scripts/setup-deps.sh installs it)");
        QVERIFY2(!QStandardPaths::findExecutable(QStringLiteral("promtool")).isEmpty(),
                 "promtool is not installed (scripts/setup-deps.sh installs the prometheus package)");
        LocalNodeOptions options;
        options.requirePass = QString::fromLatin1(kAdminPassword);
        options.notifyKeyspaceEvents = QStringLiteral("Kg$hxe");
        QString error;
        QVERIFY2(m_cluster.start(3, options, &error), qPrintable(error));
        for (int i = 0; i < 3; ++i) {
            DirectRedis admin(m_cluster.port(i), kAdminPassword);
            QCOMPARE(admin.command({"ACL", "SETUSER", kUser, "on", ">" + kUserPassword, "~*", "&*", "+@all"}).str,
                     QByteArray("OK"));
        }
        // One node names its user in the URL, the others get it from --user: both ways must stay out of labels.
        m_nodes = QStringLiteral("redis://%1@127.0.0.1:%2,127.0.0.1:%3,127.0.0.1:%4")
                      .arg(QString::fromLatin1(kUser))
                      .arg(m_cluster.port(0))
                      .arg(m_cluster.port(1))
                      .arg(m_cluster.port(2));
    }

    void init()
    {
        for (int i = 0; i < m_cluster.size(); ++i)
            DirectRedis(m_cluster.port(i), kAdminPassword).command({"FLUSHALL"});
    }

    void prometheusScrapesTheExporter()
    {
        // Three locks held on every node, one minority leftover (a failed acquire) on node 0 only.
        for (int i = 0; i < 3; ++i) {
            DirectRedis node(m_cluster.port(i), kAdminPassword);
            for (int k = 0; k < 3; ++k)
                QCOMPARE(node.command({"SET", "orders:" + QByteArray::number(k),
                                       "secret-token-" + QByteArray::number(k), "PX", "600000"})
                             .str,
                         QByteArray("OK"));
            if (i == 0)
                QCOMPARE(node.command({"SET", "orders:leftover", "secret-token-x", "PX", "600000"}).str,
                         QByteArray("OK"));
        }

        ChildProcess exporter;
        // The operator names the lock keys: their plain values count (under the default "*" only lock formats do).
        const quint16 port = startExporter(exporter, {QStringLiteral("--nodes"), m_nodes, QStringLiteral("--user"),
                                                      QString::fromLatin1(kUser), QStringLiteral("--password-env"),
                                                      QString::fromLatin1(kPasswordVariable),
                                                      QStringLiteral("--pattern"), QStringLiteral("orders:*")});
        QVERIFY2(port != 0, qPrintable(exporter.output()));
        // The first full pass is in once the counter says so: until then the lock metrics are partial.
        QByteArray scrape;
        QTRY_VERIFY2_WITH_TIMEOUT((scrape = http(port, "GET", "/metrics").body,
                                   sampleValue(scrape, "redlock_inspections_total") >= 1 &&
                                       sampleValue(scrape, "redlock_node_up{node=\"127.0.0.1:" +
                                                               QByteArray::number(m_cluster.port(2)) + "\"}") == 1),
                                  qPrintable(exporter.output() + QString::fromUtf8(scrape)), 60000);

        // Linted by Prometheus's own tool: no problem, not even a warning.
        const auto [lintExit, lintOutput] = promtoolCheck(scrape);
        QVERIFY2(lintExit == 0 && lintOutput.trimmed().isEmpty(), qPrintable(lintOutput));
        // No secret anywhere: not the ACL user, its password, the admin password, nor a lock value.
        for (const QByteArray& secret : {kUser, kUserPassword, kAdminPassword, QByteArray("secret-token")})
            QVERIFY2(!scrape.contains(secret), secret.constData());
        QVERIFY2(!exporter.output().contains(QString::fromLatin1(kUserPassword)), qPrintable(exporter.output()));
        QVERIFY(!scrape.contains("orders:")); // keys are labels only with --key-labels

        // A real Prometheus scrapes it every second.
        QTemporaryDir dir;
        QVERIFY(dir.isValid());
        const quint16 prometheusPort = freePort();
        QFile config(dir.filePath(QStringLiteral("prometheus.yml")));
        QVERIFY(config.open(QIODevice::WriteOnly));
        config.write("global:\n  scrape_interval: 1s\n  evaluation_interval: 1s\n"
                     "scrape_configs:\n  - job_name: redlock\n    static_configs:\n      - targets: ['127.0.0.1:" +
                     QByteArray::number(port) + "']\n");
        config.close();
        ChildProcess prometheus;
        prometheus.process().start(QStandardPaths::findExecutable(QStringLiteral("prometheus")),
                                   {QStringLiteral("--config.file=") + config.fileName(),
                                    QStringLiteral("--storage.tsdb.path=") + dir.filePath(QStringLiteral("data")),
                                    QStringLiteral("--web.listen-address=127.0.0.1:%1").arg(prometheusPort),
                                    QStringLiteral("--log.level=warn")});
        QVERIFY2(prometheus.process().waitForStarted(30000), qPrintable(prometheus.process().errorString()));

        const QString upKey =
            QStringLiteral(R"({"__name__":"up","instance":"127.0.0.1:%1","job":"redlock"})").arg(port);
        QMap<QString, double> up;
        QTRY_VERIFY2_WITH_TIMEOUT(
            (up = prometheusQuery(prometheusPort, QStringLiteral("up{job=\"redlock\"}")), up.value(upKey) == 1),
            qPrintable(prometheus.output()), 90000);
        QMap<QString, double> held;
        QTRY_VERIFY2_WITH_TIMEOUT(
            (held = prometheusQuery(prometheusPort, QStringLiteral("redlock_locks{verdict=\"held\"}")),
             held.size() == 1 && held.first() == 3),
            qPrintable(prometheus.output()), 60000);
        const QMap<QString, double> leftover =
            prometheusQuery(prometheusPort, QStringLiteral("redlock_locks{verdict=\"minority-leftover\"}"));
        QCOMPARE(leftover.size(), 1);
        QCOMPARE(leftover.first(), 1.0);
        const QMap<QString, double> nodesUp =
            prometheusQuery(prometheusPort, QStringLiteral("sum(redlock_node_up{job=\"redlock\"})"));
        QCOMPARE(nodesUp.size(), 1);
        QCOMPARE(nodesUp.first(), 3.0);

        // SIGTERM, as a service manager stops it: a clean exit.
        exporter.process().terminate();
        QVERIFY(exporter.process().waitForFinished(20000));
        QCOMPARE(exporter.process().exitStatus(), QProcess::NormalExit);
        QCOMPARE(exporter.process().exitCode(), 0);
    }

    // --web.config.file (exporter-toolkit's format): a real Prometheus scrapes over TLS (a private CA) with basic
    // auth; the same Prometheus with a wrong password gets 401, and one that speaks plain HTTP to the TLS port
    // gets no answer: both targets are down, with the reason in Prometheus's targets API.
    void prometheusScrapesOverTlsWithBasicAuth()
    {
        QTemporaryDir dir;
        QVERIFY(dir.isValid());
        test::TestCa ca(dir.path());
        QVERIFY(ca.makeCa(QStringLiteral("ca")));
        QVERIFY(ca.makeCert(QStringLiteral("exporter"), QStringLiteral("ca"), QStringLiteral("IP:127.0.0.1")));
        // bcrypt of "scrape-pw-Q4" as htpasswd -nBC 5 writes it.
        QFile web(dir.filePath(QStringLiteral("web.yml")));
        QVERIFY(web.open(QIODevice::WriteOnly));
        web.write("tls_server_config:\n  cert_file: exporter.crt\n  key_file: exporter.key\n"
                  "basic_auth_users:\n  prometheus: $2y$05$ehZGpWk9bDGiNuUZjqH5QOhwAEcNfGbWrKg2Xj0HLIquwVcNeaCuG\n");
        web.close();

        ChildProcess exporter;
        const quint16 port = startExporter(exporter, {QStringLiteral("--nodes"), m_nodes, QStringLiteral("--user"),
                                                      QString::fromLatin1(kUser), QStringLiteral("--password-env"),
                                                      QString::fromLatin1(kPasswordVariable),
                                                      QStringLiteral("--web.config.file"), web.fileName()});
        QVERIFY2(port != 0, qPrintable(exporter.output()));
        QVERIFY2(exporter.output().contains(QStringLiteral("serving https://")), qPrintable(exporter.output()));
        // Plain HTTP to the TLS port: no HTTP answer.
        QCOMPARE(http(port, "GET", "/metrics", 10000).status, 0);

        const quint16 prometheusPort = freePort();
        QFile config(dir.filePath(QStringLiteral("prometheus.yml")));
        QVERIFY(config.open(QIODevice::WriteOnly));
        const QByteArray target =
            "    static_configs:\n      - targets: ['127.0.0.1:" + QByteArray::number(port) + "']\n";
        const QByteArray tls =
            "    scheme: https\n    tls_config:\n      ca_file: " + ca.path(QStringLiteral("ca.crt")).toUtf8() + "\n";
        config.write("global:\n  scrape_interval: 1s\n  evaluation_interval: 1s\nscrape_configs:\n"
                     "  - job_name: tls-auth\n" +
                     tls + "    basic_auth:\n      username: prometheus\n      password: scrape-pw-Q4\n" + target +
                     "  - job_name: wrong-password\n" + tls +
                     "    basic_auth:\n      username: prometheus\n      password: scrape-pw-Q5\n" + target +
                     "  - job_name: plain-http\n    basic_auth:\n      username: prometheus\n"
                     "      password: scrape-pw-Q4\n" +
                     target);
        config.close();
        ChildProcess prometheus;
        prometheus.process().start(QStandardPaths::findExecutable(QStringLiteral("prometheus")),
                                   {QStringLiteral("--config.file=") + config.fileName(),
                                    QStringLiteral("--storage.tsdb.path=") + dir.filePath(QStringLiteral("data")),
                                    QStringLiteral("--web.listen-address=127.0.0.1:%1").arg(prometheusPort),
                                    QStringLiteral("--log.level=warn")});
        QVERIFY2(prometheus.process().waitForStarted(30000), qPrintable(prometheus.process().errorString()));

        auto up = [&](const char* job) {
            return prometheusQuery(prometheusPort, QStringLiteral("up{job=\"%1\"}").arg(QLatin1String(job)));
        };
        QTRY_VERIFY2_WITH_TIMEOUT(
            up("tls-auth")
                    .value(
                        QStringLiteral(R"({"__name__":"up","instance":"127.0.0.1:%1","job":"tls-auth"})").arg(port)) ==
                1,
            qPrintable(prometheus.output() + exporter.output()), 90000);
        QTRY_VERIFY2_WITH_TIMEOUT(
            (prometheusQuery(prometheusPort, QStringLiteral("redlock_exporter_build_info{job=\"tls-auth\"}")).size() ==
             1),
            qPrintable(prometheus.output()), 30000);
        // The other two are scraped and down, each for its reason.
        QTRY_VERIFY2_WITH_TIMEOUT(up("wrong-password").size() == 1 && up("plain-http").size() == 1,
                                  qPrintable(prometheus.output()), 30000);
        QCOMPARE(up("wrong-password").first(), 0.0);
        QCOMPARE(up("plain-http").first(), 0.0);
        const QJsonArray targets = QJsonDocument::fromJson(http(prometheusPort, "GET", "/api/v1/targets").body)
                                       .object()
                                       .value(QStringLiteral("data"))
                                       .toObject()
                                       .value(QStringLiteral("activeTargets"))
                                       .toArray();
        QMap<QString, QString> lastError;
        for (const QJsonValue& t : targets) {
            const QJsonObject active = t.toObject();
            lastError.insert(active.value(QStringLiteral("scrapePool")).toString(),
                             active.value(QStringLiteral("lastError")).toString());
        }
        QVERIFY2(lastError.value(QStringLiteral("wrong-password")).contains(QStringLiteral("401")),
                 qPrintable(lastError.value(QStringLiteral("wrong-password"))));
        QVERIFY2(!lastError.value(QStringLiteral("plain-http")).isEmpty(), "plain HTTP scrape without an error");
        QCOMPARE(lastError.value(QStringLiteral("tls-auth")), QString());
        // The password and its hash stay out of what the exporter prints.
        QVERIFY(!exporter.output().contains(QStringLiteral("ehZGpWk9")));
        QVERIFY(!exporter.output().contains(QStringLiteral("scrape-pw")));
    }

    // Counters and histogram buckets are counters to Prometheus: rate() and increase() read any drop as a reset
    // (interop.md §2). Two scrapes of a real exporter around locks being released: no such sample went down, and
    // what the exporter measures as a rate is exported as a counter.
    void countersAndHistogramsNeverGoDown()
    {
        for (int i = 0; i < 3; ++i) {
            DirectRedis node(m_cluster.port(i), kAdminPassword);
            for (int k = 0; k < 3; ++k)
                QCOMPARE(node.command({"SET", "mono:" + QByteArray::number(k), "token-" + QByteArray::number(k), "PX",
                                       "600000"})
                             .str,
                         QByteArray("OK"));
        }
        ChildProcess exporter;
        const quint16 port = startExporter(exporter, {QStringLiteral("--nodes"), m_nodes, QStringLiteral("--user"),
                                                      QString::fromLatin1(kUser), QStringLiteral("--password-env"),
                                                      QString::fromLatin1(kPasswordVariable),
                                                      QStringLiteral("--pattern"), QStringLiteral("mono:*")});
        QVERIFY2(port != 0, qPrintable(exporter.output()));
        QByteArray before;
        QTRY_VERIFY2_WITH_TIMEOUT((before = http(port, "GET", "/metrics").body,
                                   sampleValue(before, "redlock_inspections_total") >= 1 &&
                                       sampleValue(before, "redlock_locks{verdict=\"held\"}") == 3),
                                  qPrintable(exporter.output() + QString::fromUtf8(before)), 60000);

        // The three locks released: the held-lock counts go down, the events and hold durations go up.
        for (int i = 0; i < 3; ++i)
            QCOMPARE(
                DirectRedis(m_cluster.port(i), kAdminPassword).command({"DEL", "mono:0", "mono:1", "mono:2"}).integer,
                3);
        QByteArray after;
        QTRY_VERIFY2_WITH_TIMEOUT((after = http(port, "GET", "/metrics").body,
                                   sampleValue(after, "redlock_locks{verdict=\"held\"}") == 0 &&
                                       sampleValue(after, "redlock_lock_hold_duration_seconds_count") == 3),
                                  qPrintable(exporter.output() + QString::fromUtf8(after)), 60000);

        const QMap<QByteArray, double> first = counterSamples(before);
        const QMap<QByteArray, double> second = counterSamples(after);
        QVERIFY(first.contains("redlock_lock_hold_duration_seconds_count"));
        for (auto it = first.cbegin(); it != first.cend(); ++it) {
            QVERIFY2(second.contains(it.key()), it.key().constData());
            QVERIFY2(second.value(it.key()) >= it.value(), qPrintable(QStringLiteral("%1 went down: %2 -> %3")
                                                                          .arg(QString::fromUtf8(it.key()))
                                                                          .arg(it.value())
                                                                          .arg(second.value(it.key()))));
        }
        // What watching costs each node is a counter (read with rate()), not a rate sampled at report times.
        QVERIFY(after.contains("# TYPE redlock_observer_commands_total counter"));
        QVERIFY(!after.contains("redlock_observer_commands_per_second"));
        const QByteArray inspector =
            "redlock_observer_commands_total{node=\"127.0.0.1:" + QByteArray::number(m_cluster.port(1)) +
            "\",source=\"inspector\"}";
        QTRY_VERIFY2_WITH_TIMEOUT(
            (after = http(port, "GET", "/metrics").body, counterSamples(after).value(inspector) > 0), after.constData(),
            30000);
        for (const QByteArray& scrape : {before, after}) {
            const auto [lintExit, lintOutput] = promtoolCheck(scrape);
            QVERIFY2(lintExit == 0 && lintOutput.trimmed().isEmpty(), qPrintable(lintOutput));
        }
    }

    void hostileKeyLabelsParse()
    {
        static const char raw[] = "jobs:\"quoted\"\\back\nline\x1b[31mred\xff";
        const QByteArray hostile(raw, sizeof raw - 1);
        for (int i = 0; i < 3; ++i)
            DirectRedis(m_cluster.port(i), kAdminPassword).command({"SET", hostile, "secret-token", "PX", "600000"});
        ChildProcess exporter;
        const quint16 port = startExporter(
            exporter, {QStringLiteral("--nodes"), m_nodes, QStringLiteral("--user"), QString::fromLatin1(kUser),
                       QStringLiteral("--password-env"), QString::fromLatin1(kPasswordVariable),
                       QStringLiteral("--key-labels"), QStringLiteral("--pattern"), QStringLiteral("jobs:*")});
        QVERIFY2(port != 0, qPrintable(exporter.output()));
        QByteArray scrape;
        QTRY_VERIFY2_WITH_TIMEOUT(
            (scrape = http(port, "GET", "/metrics").body, sampleValue(scrape, "redlock_inspections_total") >= 1),
            qPrintable(exporter.output()), 60000);
        // The key in its printable form (\xNN for the backslash, the line feed, ESC and the invalid byte), then
        // escaped for the format (the quotes and the backslashes).
        QCOMPARE(sampleValue(scrape,
                             "redlock_lock_holders{key=\"jobs:\\\"quoted\\\"\\\\x5cback\\\\x0aline\\\\x1b[31mred"
                             "\\\\xff\",verdict=\"held\"}"),
                 3.0);
        QVERIFY(!scrape.contains('\x1b'));
        const auto [lintExit, lintOutput] = promtoolCheck(scrape);
        QVERIFY2(lintExit == 0 && lintOutput.trimmed().isEmpty(), qPrintable(lintOutput));

        // SIGINT (Ctrl+C): a clean exit too.
        ::kill(static_cast<pid_t>(exporter.process().processId()), SIGINT);
        QVERIFY(exporter.process().waitForFinished(20000));
        QCOMPARE(exporter.process().exitStatus(), QProcess::NormalExit);
        QCOMPARE(exporter.process().exitCode(), 0);
    }

    // --key-labels on more keys than --max-series (hostile N8): a scrape carries that many per-key series and no
    // more, says how many it left out, and the exporter warns once.
    void keyLabelsAreCappedBySeriesLimit()
    {
        constexpr int kKeys = 500;
        QVERIFY(setLocksOnEveryNode("many:%04d", kKeys));
        ChildProcess exporter;
        const quint16 port =
            startExporter(exporter, exporterArgs(QStringLiteral("many:*")) + QStringList{QStringLiteral("--key-labels"),
                                                                                         QStringLiteral("--max-series"),
                                                                                         QStringLiteral("40")});
        QVERIFY2(port != 0, qPrintable(exporter.output()));
        QByteArray scrape;
        QTRY_VERIFY2_WITH_TIMEOUT((scrape = http(port, "GET", "/metrics").body,
                                   sampleValue(scrape, "redlock_locks{verdict=\"held\"}") == kKeys),
                                  qPrintable(exporter.output() + QString::fromUtf8(scrape.left(2000))), 60000);
        QCOMPARE(scrape.count("\nredlock_lock_holders{"), 40);
        QCOMPARE(sampleValue(scrape, "redlock_lock_holders{key=\"many:0001\",verdict=\"held\"}"), 3.0);
        QCOMPARE(sampleValue(scrape, "redlock_lock_holders{key=\"many:0040\",verdict=\"held\"}"), 3.0);
        QVERIFY(std::isnan(sampleValue(scrape, "redlock_lock_holders{key=\"many:0041\",verdict=\"held\"}")));
        QCOMPARE(sampleValue(scrape, "redlock_key_series_limit"), 40.0);
        QCOMPARE(sampleValue(scrape, "redlock_key_series_dropped"), double(kKeys - 40));
        const auto [lintExit, lintOutput] = promtoolCheck(scrape);
        QVERIFY2(lintExit == 0 && lintOutput.trimmed().isEmpty(), qPrintable(lintOutput));
        // Said once on stderr, not at every change or scrape.
        QTRY_VERIFY2_WITH_TIMEOUT(exporter.output().contains(QStringLiteral("--max-series 40")),
                                  qPrintable(exporter.output()), 20000);
        http(port, "GET", "/metrics");
        QCOMPARE(exporter.output().count(QStringLiteral("--max-series")), 1);
    }

    // The first pass goes out in parts (2048 locks each, built as the previous ones are taken); its summary comes
    // before the last parts. redlock_inspections_total >= 1 says the lock metrics are whole: no scrape says so with
    // locks still missing. Scraped back to back from the start, to catch the moment between the summary and the last
    // part.
    void firstPassCountsOnceEveryLockIsIn()
    {
        constexpr int kKeys = 20000;
        QVERIFY(setLocksOnEveryNode("parts:%d", kKeys));
        ChildProcess exporter;
        const quint16 port = startExporter(exporter, exporterArgs(QStringLiteral("parts:*")));
        QVERIFY2(port != 0, qPrintable(exporter.output()));
        QElapsedTimer waited;
        waited.start();
        QByteArray scrape;
        int scrapes = 0;
        do {
            scrape = http(port, "GET", "/metrics").body;
            ++scrapes;
        } while (!(sampleValue(scrape, "redlock_inspections_total") >= 1) && waited.elapsed() < 60000);
        QVERIFY2(sampleValue(scrape, "redlock_inspections_total") >= 1, qPrintable(exporter.output()));
        QCOMPARE(sampleValue(scrape, "redlock_locks{verdict=\"held\"}"), double(kKeys));
        if (scrapes == 1) // not a failure: this run could not see the moment (the pass ended before the first scrape)
            qWarning("the first scrape already had the whole first pass");
    }

    void httpErrorsAndScrapesThatNeverWaitForNodes()
    {
        ChildProcess exporter;
        // Nodes given two minutes to answer: a scrape that waited for them would not be answered within the 20 s
        // the request below allows.
        const quint16 port = startExporter(exporter, {QStringLiteral("--nodes"), m_nodes, QStringLiteral("--user"),
                                                      QString::fromLatin1(kUser), QStringLiteral("--password-env"),
                                                      QString::fromLatin1(kPasswordVariable),
                                                      QStringLiteral("--node-timeout"), QStringLiteral("120000")});
        QVERIFY2(port != 0, qPrintable(exporter.output()));
        HttpAnswer answer = http(port, "GET", "/metrics");
        QCOMPARE(answer.status, 200);
        QVERIFY2(answer.headers.contains("\r\nContent-Type: text/plain; version=0.0.4; charset=utf-8"),
                 answer.headers.constData());
        answer = http(port, "GET", "/");
        QCOMPARE(answer.status, 200);
        QVERIFY(answer.body.contains("<a href=\"/metrics\">"));
        QCOMPARE(http(port, "GET", "/x").status, 404);
        QCOMPARE(http(port, "GET", "/metrics/../x").status, 404);
        answer = http(port, "POST", "/metrics");
        QCOMPARE(answer.status, 405);
        QVERIFY(answer.headers.contains("\r\nAllow: GET, HEAD"));
        QCOMPARE(http(port, "PUT", "/metrics").status, 405);

        // Every node stopped (SIGSTOP): a scrape is answered from memory at once, it does not wait for them.
        struct Resume
        {
            LocalCluster& cluster;
            ~Resume()
            {
                for (int i = 0; i < cluster.size(); ++i)
                    cluster.resumeNode(i);
            }
        } resume{m_cluster};
        for (int i = 0; i < m_cluster.size(); ++i)
            QVERIFY(m_cluster.pauseNode(i));
        answer = http(port, "GET", "/metrics", 20000);
        QCOMPARE(answer.status, 200);
        QVERIFY(answer.body.contains("# TYPE redlock_node_up gauge"));
    }

    void badListenIsRefused()
    {
        QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
        env.insert(QStringLiteral("LC_ALL"), QStringLiteral("C.UTF-8"));
        auto run = [&env](const QStringList& args) {
            QProcess p;
            p.setProcessEnvironment(env);
            p.start(QStringLiteral(REDLOCK_CLI_PATH), QStringList{QStringLiteral("exporter")} + args);
            if (!p.waitForFinished(30000)) {
                p.kill();
                p.waitForFinished();
                return std::pair<int, QString>{-1, QStringLiteral("did not finish")};
            }
            return std::pair<int, QString>{p.exitCode(), QString::fromUtf8(p.readAllStandardError())};
        };
        const QString nodes = QStringLiteral("127.0.0.1:%1").arg(m_cluster.port(0));
        for (const QString& listen : {QStringLiteral("9721"), QStringLiteral("metrics.example.com:9721"),
                                      QStringLiteral("127.0.0.1:99999"), QStringLiteral("::1:9721")}) {
            const auto [code, err] = run({QStringLiteral("--nodes"), nodes, QStringLiteral("--listen"), listen});
            QCOMPARE(code, 2);
            QVERIFY2(err.contains(QStringLiteral("bad --listen")), qPrintable(err));
        }
        for (const QString& timeout : {QStringLiteral("0"), QStringLiteral("-5"), QStringLiteral("1s")}) {
            const auto [code, err] = run({QStringLiteral("--nodes"), nodes, QStringLiteral("--node-timeout"), timeout});
            QCOMPARE(code, 2);
            QVERIFY2(err.contains(QStringLiteral("--node-timeout expects a whole number")), qPrintable(err));
        }
        for (const QString& limit : {QStringLiteral("0"), QStringLiteral("many")}) {
            const auto [code, err] = run({QStringLiteral("--nodes"), nodes, QStringLiteral("--max-series"), limit});
            QCOMPARE(code, 2);
            QVERIFY2(err.contains(QStringLiteral("--max-series expects a whole number")), qPrintable(err));
        }
        // A web config with a key this exporter does not know, or a password that is not a bcrypt hash: refused with
        // the file and the line, the hash never quoted.
        QTemporaryDir dir;
        QVERIFY(dir.isValid());
        const QString web = dir.filePath(QStringLiteral("web.yml"));
        for (const QByteArray& text : {QByteArray("tls_server_config:\n  cert_file: a.crt\n  key_file: a.key\n"
                                                  "  prefer_server_cipher_suites: true\n"),
                                       QByteArray("basic_auth_users:\n  u: $2y$05$notahash\n")}) {
            QFile file(web);
            QVERIFY(file.open(QIODevice::WriteOnly | QIODevice::Truncate));
            file.write(text);
            file.close();
            const auto [code, err] = run({QStringLiteral("--nodes"), nodes, QStringLiteral("--web.config.file"), web});
            QCOMPARE(code, 2);
            QVERIFY2(err.contains(QStringLiteral("bad --web.config.file: %1: line ").arg(web)), qPrintable(err));
            QVERIFY2(!err.contains(QStringLiteral("notahash")), qPrintable(err));
        }
        // An address in use: refused before any node is contacted, with the same exit code as a bad option.
        QTcpServer busy;
        QVERIFY(busy.listen(QHostAddress::LocalHost, 0));
        const auto [code, err] = run({QStringLiteral("--nodes"), nodes, QStringLiteral("--listen"),
                                      QStringLiteral("127.0.0.1:%1").arg(busy.serverPort())});
        QCOMPARE(code, 2);
        QVERIFY2(err.contains(QStringLiteral("cannot listen on 127.0.0.1:%1").arg(busy.serverPort())), qPrintable(err));
    }

    // Issue 30: the exporter is the always-on writer of the lock history. Under churn (locks acquired, released,
    // changing hands) `redlock history` shows every holder, while the exporter still runs: it journals as it goes.
    void exporterJournalsTheLockHistory()
    {
        QTemporaryDir dir;
        const QString journal = dir.filePath(QStringLiteral("history.sqlite"));
        ChildProcess exporter;
        const quint16 port = startExporter(exporter, exporterArgs(journal, QStringLiteral("jobs:*")));
        QVERIFY2(port != 0, qPrintable(exporter.output()));
        QTRY_VERIFY2_WITH_TIMEOUT(sampleValue(http(port, "GET", "/metrics").body, "redlock_inspections_total") >= 1,
                                  qPrintable(exporter.output()), 60000);

        // First holders of ten keys; then five of them released and the other five taken over by new holders.
        for (int k = 0; k < 10; ++k)
            setOnAll("jobs:" + QByteArray::number(k), "first-holder-" + QByteArray::number(k));
        QJsonObject history;
        const auto tokens = [&history] {
            QMap<QString, QJsonObject> byToken;
            for (const QJsonValue& v : history.value(QStringLiteral("intervals")).toArray())
                byToken.insert(v.toObject().value(QStringLiteral("token")).toString(), v.toObject());
            return byToken;
        };
        QTRY_VERIFY2_WITH_TIMEOUT((history = historyJson(journal, QStringLiteral("jobs:*")), tokens().size() == 10),
                                  qPrintable(dump(history) + exporter.output()), 60000);
        for (int k = 0; k < 5; ++k) {
            for (int i = 0; i < 3; ++i)
                DirectRedis(m_cluster.port(i), kAdminPassword).command({"DEL", "jobs:" + QByteArray::number(k)});
        }
        for (int k = 5; k < 10; ++k)
            setOnAll("jobs:" + QByteArray::number(k), "second-holder-" + QByteArray::number(k));
        const auto settled = [&] {
            const auto byToken = tokens();
            if (byToken.size() != 15)
                return false;
            for (int k = 0; k < 5; ++k) {
                if (byToken.value(QStringLiteral("first-holder-%1").arg(k))
                        .value(QStringLiteral("endedBy"))
                        .toString() != u"released")
                    return false;
            }
            return true;
        };
        QTRY_VERIFY2_WITH_TIMEOUT((history = historyJson(journal, QStringLiteral("jobs:*")), settled()),
                                  qPrintable(dump(history) + exporter.output()), 60000);
        const auto byToken = tokens();
        for (int k = 5; k < 10; ++k) {
            const QJsonObject first = byToken.value(QStringLiteral("first-holder-%1").arg(k));
            QCOMPARE(first.value(QStringLiteral("key")).toString(), QStringLiteral("jobs:%1").arg(k));
            QCOMPARE(first.value(QStringLiteral("endedBy")).toString(), QStringLiteral("token-changed"));
            QCOMPARE(byToken.value(QStringLiteral("second-holder-%1").arg(k)).value(QStringLiteral("stillHeld")),
                     QJsonValue(true));
        }
        // Nobody stopped watching: no span the history would have to call unwatched.
        QCOMPARE(history.value(QStringLiteral("unwatched")).toArray().size(), 0);
        // The scrapes went on meanwhile.
        QCOMPARE(http(port, "GET", "/metrics").status, 200);
        exporter.process().terminate();
        QVERIFY(exporter.process().waitForFinished(20000));
        QCOMPARE(exporter.process().exitCode(), 0);
    }

    // Issue 30: an exporter killed (SIGKILL: no goodbye written) and started again leaves a gap that the history
    // calls a gap: "not watched" from the dead writer's last write to the next one's start. A lock released meanwhile
    // ends "unobserved" when it was last seen held, one that changed hands "ended while not watched": never a
    // release at a made-up instant, never still held.
    void exporterKilledAndRestartedIsAGapNotARelease()
    {
        QTemporaryDir dir;
        const QString journal = dir.filePath(QStringLiteral("history.sqlite"));
        setOnAll("gap:kept", "kept-token");
        setOnAll("gap:gone", "gone-token");
        setOnAll("gap:swap", "old-swap-token");
        const auto intervalsOf = [](const QJsonObject& history) {
            QMap<QString, QJsonObject> byToken;
            for (const QJsonValue& v : history.value(QStringLiteral("intervals")).toArray())
                byToken.insert(v.toObject().value(QStringLiteral("token")).toString(), v.toObject());
            return byToken;
        };
        QJsonObject history;
        qint64 killedAt = 0;
        {
            ChildProcess exporter;
            QVERIFY2(startExporter(exporter, exporterArgs(journal, QStringLiteral("gap:*"))) != 0,
                     qPrintable(exporter.output()));
            QTRY_VERIFY2_WITH_TIMEOUT(
                (history = historyJson(journal, QStringLiteral("gap:*")), intervalsOf(history).size() == 3),
                qPrintable(dump(history) + exporter.output()), 60000);
            killedAt = QDateTime::currentMSecsSinceEpoch();
            exporter.process().kill();
            QVERIFY(exporter.process().waitForFinished(20000));
            QCOMPARE(exporter.process().exitStatus(), QProcess::CrashExit);
        }
        // While nobody watches: one lock released, one taken over by another holder, one kept.
        for (int i = 0; i < 3; ++i)
            DirectRedis(m_cluster.port(i), kAdminPassword).command({"DEL", "gap:gone"});
        setOnAll("gap:swap", "new-swap-token");
        const qint64 restartedAt = QDateTime::currentMSecsSinceEpoch();
        {
            ChildProcess exporter;
            QVERIFY2(startExporter(exporter, exporterArgs(journal, QStringLiteral("gap:*"))) != 0,
                     qPrintable(exporter.output()));
            QTRY_VERIFY2_WITH_TIMEOUT((history = historyJson(journal, QStringLiteral("gap:*")),
                                       intervalsOf(history).contains(QStringLiteral("new-swap-token"))),
                                      qPrintable(dump(history) + exporter.output()), 60000);
            const auto byToken = intervalsOf(history);
            // Asked while the second exporter runs: the dead one's tenures are not shown as still held.
            const QJsonObject gone = byToken.value(QStringLiteral("gone-token"));
            QCOMPARE(gone.value(QStringLiteral("endedBy")).toString(), QStringLiteral("unobserved"));
            QVERIFY2(gone.value(QStringLiteral("toMs")).toInteger() <= killedAt, qPrintable(dump(gone)));
            QCOMPARE(byToken.value(QStringLiteral("old-swap-token")).value(QStringLiteral("endedBy")).toString(),
                     QStringLiteral("ended-unwatched"));
            QCOMPARE(byToken.value(QStringLiteral("kept-token")).value(QStringLiteral("stillHeld")), QJsonValue(true));
            // The gap: from the dead writer's last write (before the kill) to the next one's start (after it).
            const QJsonArray unwatched = history.value(QStringLiteral("unwatched")).toArray();
            QVERIFY2(unwatched.size() == 1, qPrintable(dump(history)));
            const QJsonObject gap = unwatched[0].toObject();
            QVERIFY2(gap.value(QStringLiteral("fromMs")).toInteger() <= killedAt &&
                         gap.value(QStringLiteral("toMs")).toInteger() >= restartedAt,
                     qPrintable(dump(gap)));
            QCOMPARE(gap.value(QStringLiteral("before")).toString(), QStringLiteral("exporter"));
            exporter.process().terminate();
            QVERIFY(exporter.process().waitForFinished(20000));
            QCOMPARE(exporter.process().exitCode(), 0);
        }
        // No event made up for the gap: the journal holds what was seen, nothing ended as released.
        history = historyJson(journal, QStringLiteral("gap:*"), {QStringLiteral("--events")});
        for (const QJsonValue& v : history.value(QStringLiteral("events")).toArray()) {
            const QString kind = v.toObject().value(QStringLiteral("event")).toString();
            QVERIFY2(kind == u"seen-held", qPrintable(dump(history)));
        }
        // In text: the span, said as such; and since the second one stopped, not watched since.
        QProcess text;
        text.start(QStringLiteral(REDLOCK_CLI_PATH),
                   {QStringLiteral("history"), QStringLiteral("gap:*"), QStringLiteral("--journal"), journal,
                    QStringLiteral("--since"), QStringLiteral("-1h")});
        QVERIFY(text.waitForFinished(30000));
        const QString out = QString::fromUtf8(text.readAllStandardOutput());
        QVERIFY2(text.exitCode() == 0 && out.contains(QLatin1String("not watched from")) &&
                     out.contains(QLatin1String("not watched since")) && !out.contains(QLatin1String("released")),
                 qPrintable(out));
    }

private:
    // The watching user on the test's nodes, keys under `pattern`.
    QStringList exporterArgs(const QString& pattern) const
    {
        return {QStringLiteral("--nodes"),        m_nodes,
                QStringLiteral("--user"),         QString::fromLatin1(kUser),
                QStringLiteral("--password-env"), QString::fromLatin1(kPasswordVariable),
                QStringLiteral("--pattern"),      pattern};
    }
    QStringList exporterArgs(const QString& journal, const QString& pattern) const
    {
        return exporterArgs(pattern) + QStringList{QStringLiteral("--journal"), journal};
    }

    // `count` locks on every node, named string.format(keyFormat, 1..count), one script per node.
    bool setLocksOnEveryNode(const QByteArray& keyFormat, int count)
    {
        for (int i = 0; i < m_cluster.size(); ++i) {
            const QByteArray reply =
                DirectRedis(m_cluster.port(i), kAdminPassword)
                    .command({"EVAL",
                              "for i = 1, tonumber(ARGV[1]) do redis.call('SET', string.format(ARGV[2], i), "
                              "'secret-token', 'PX', 600000) end return 'OK'",
                              "0", QByteArray::number(count), keyFormat})
                    .str;
            if (reply != "OK")
                return false;
        }
        return true;
    }

    static QString dump(const QJsonObject& o) { return QString::fromUtf8(QJsonDocument(o).toJson()); }

    // One holder on every node.
    void setOnAll(const QByteArray& key, const QByteArray& token)
    {
        for (int i = 0; i < 3; ++i)
            DirectRedis(m_cluster.port(i), kAdminPassword).command({"SET", key, token, "PX", "600000"});
    }

    // `redlock history PATTERN --journal FILE --since -1h --json`, as an operator runs it beside the writer.
    static QJsonObject historyJson(const QString& journal, const QString& pattern, const QStringList& more = {})
    {
        QProcess history;
        history.start(QStringLiteral(REDLOCK_CLI_PATH),
                      QStringList{QStringLiteral("history"), pattern, QStringLiteral("--journal"), journal,
                                  QStringLiteral("--since"), QStringLiteral("-1h"), QStringLiteral("--json")} +
                          more);
        if (!history.waitForFinished(30000)) {
            history.kill();
            history.waitForFinished();
            return {};
        }
        return QJsonDocument::fromJson(history.readAllStandardOutput()).object();
    }

    LocalCluster m_cluster;
    QString m_nodes;
};

QTEST_GUILESS_MAIN(TestExporter)
#include "TestExporter.moc"
