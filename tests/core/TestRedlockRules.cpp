// The quorum and the clock drift, the two numbers every part of the project takes from the algorithm
// (core/redlock/RedlockRules.h), against values worked out by hand from the algorithm's text.

#include "redlock/RedlockClient.h"
#include "redlock/RedlockRules.h"

#include <QtTest>

using namespace redlock;

class TestRedlockRules : public QObject
{
    Q_OBJECT

private slots:
    // "the majority of the instances (at least 3)" of N = 5; N/2+1 in general.
    void quorumIsTheMajority_data()
    {
        QTest::addColumn<int>("nodes");
        QTest::addColumn<int>("quorum");
        QTest::addColumn<int>("tolerated"); // nodes that may fail while a quorum is left
        QTest::newRow("1") << 1 << 1 << 0;
        QTest::newRow("2") << 2 << 2 << 0;
        QTest::newRow("3") << 3 << 2 << 1;
        QTest::newRow("4") << 4 << 3 << 1; // an even N tolerates no more failures than N-1
        QTest::newRow("5") << 5 << 3 << 2;
        QTest::newRow("6") << 6 << 4 << 2;
        QTest::newRow("7") << 7 << 4 << 3;
    }

    void quorumIsTheMajority()
    {
        QFETCH(int, nodes);
        QFETCH(int, quorum);
        QFETCH(int, tolerated);
        QCOMPARE(rules::quorum(nodes), quorum);
        QCOMPARE(nodes - rules::quorum(nodes), tolerated);
        // A strict majority: two quorums always share a node, so two clients cannot both hold the lock.
        QVERIFY(2 * rules::quorum(nodes) > nodes);
        QVERIFY(2 * (rules::quorum(nodes) - 1) <= nodes);
    }

    // drift = TTL × driftFactor + 2 ms, the fraction dropped: the 2 ms keep a margin for Redis' 1 ms expire
    // resolution even where the proportional part is nothing.
    void clockDriftForSmallAndLargeTtls_data()
    {
        QTest::addColumn<qint64>("ttlMs");
        QTest::addColumn<double>("driftFactor");
        QTest::addColumn<qint64>("driftMs");
        QTest::newRow("0 ms") << qint64(0) << 0.01 << qint64(2);
        QTest::newRow("10 ms") << qint64(10) << 0.01 << qint64(2);
        QTest::newRow("99 ms") << qint64(99) << 0.01 << qint64(2);
        QTest::newRow("100 ms") << qint64(100) << 0.01 << qint64(3);
        QTest::newRow("1 s") << qint64(1000) << 0.01 << qint64(12);
        QTest::newRow("10 s") << qint64(10000) << 0.01 << qint64(102);
        QTest::newRow("30 s") << qint64(30000) << 0.01 << qint64(302);
        QTest::newRow("1 h") << qint64(3'600'000) << 0.01 << qint64(36'002);
        QTest::newRow("1 day") << qint64(86'400'000) << 0.01 << qint64(864'002);
        QTest::newRow("no factor") << qint64(10000) << 0.0 << qint64(2);
        QTest::newRow("factor 0.1") << qint64(10000) << 0.1 << qint64(1002);
    }

    void clockDriftForSmallAndLargeTtls()
    {
        QFETCH(qint64, ttlMs);
        QFETCH(double, driftFactor);
        QFETCH(qint64, driftMs);
        QCOMPARE(rules::clockDriftMs(ttlMs, driftFactor), driftMs);
    }

    // A newcomer acquires once SET NX can succeed on a quorum of servers: no more than servers - quorum of them may
    // still have something in the key. The blocked ones clear in PTTL order; a negative entry never clears. One
    // entry per node (0: free); names of one server count once.
    void quorumFreesWhenEnoughBlockedNodesClear_data()
    {
        QTest::addColumn<QList<qint64>>("blocked");
        QTest::addColumn<QList<QByteArray>>("runIds");
        QTest::addColumn<qint64>("freeInMs");
        const QList<QByteArray> unknown;
        QTest::newRow("nothing blocked") << QList<qint64>{0, 0, 0, 0, 0} << unknown << qint64(0);
        QTest::newRow("a minority blocked") << QList<qint64>{9000, 0, 8000, 0, 0} << unknown << qint64(0);
        // 3 of 5 tombstones: one must go, the shortest.
        QTest::newRow("3 of 5") << QList<qint64>{10000, 9000, 8000, 0, 0} << unknown << qint64(8000);
        // 5 of 5: three must go; the third shortest decides.
        QTest::newRow("5 of 5") << QList<qint64>{6000, 10000, 7000, 9000, 8000} << unknown << qint64(8000);
        QTest::newRow("3 of 3") << QList<qint64>{3000, 1000, 2000} << unknown << qint64(2000);
        // An indefinite entry (no expiry, unreadable) is the last to clear, i.e. never.
        QTest::newRow("one indefinite, not needed") << QList<qint64>{-1, 9000, 8000, 0, 0} << unknown << qint64(8000);
        QTest::newRow("indefinite not needed either")
            << QList<qint64>{-1, -1, 8000, 7000, 0} << unknown << qint64(8000);
        QTest::newRow("indefinite needed") << QList<qint64>{-1, -1, -1, 7000, 0} << unknown << qint64(-1);
        QTest::newRow("all indefinite") << QList<qint64>{-1, -1, -1} << unknown << qint64(-1);
        // Four names of three servers (a and its alias): tombstones on a (twice) and b. By servers, a quorum of 2
        // of 3 lets one stay: free when b's clears. By names it would be 3 of 4 and wait for a's.
        QTest::newRow("alias counted once")
            << QList<qint64>{9000, 8000, 0, 9000} << QList<QByteArray>{"a", "b", "c", "a"} << qint64(8000);
        // Unknown run_ids: each name is a server of its own.
        QTest::newRow("aliases not known") << QList<qint64>{9000, 8000, 0, 9000} << unknown << qint64(9000);
    }

    void quorumFreesWhenEnoughBlockedNodesClear()
    {
        QFETCH(QList<qint64>, blocked);
        QFETCH(QList<QByteArray>, runIds);
        QFETCH(qint64, freeInMs);
        QCOMPARE(rules::quorumFreeInMs(blocked, runIds), freeInMs);
    }

    // One drift-factor range for every front end: [0, 0.5). The client refused only 1 and more, the CLI took up to 1
    // inclusive, the console stopped below 0.5: a profile the console refused was a valid `redlock acquire`.
    void driftFactorHasOneRange_data()
    {
        QTest::addColumn<double>("factor");
        QTest::addColumn<bool>("valid");
        QTest::newRow("0") << 0.0 << true;
        QTest::newRow("default") << rules::kDefaultDriftFactor << true;
        QTest::newRow("0.49") << 0.49 << true;
        QTest::newRow("0.5") << 0.5 << false;
        QTest::newRow("0.7") << 0.7 << false;
        QTest::newRow("1") << 1.0 << false;
        QTest::newRow("negative") << -0.01 << false;
        QTest::newRow("nan") << std::numeric_limits<double>::quiet_NaN() << false;
    }

    void driftFactorHasOneRange()
    {
        QFETCH(double, factor);
        QFETCH(bool, valid);
        QCOMPARE(rules::driftFactorValid(factor), valid);
        QCOMPARE(rules::driftFactorError(factor).isEmpty(), valid);
        RedlockOptions options;
        options.nodes = {NodeEndpoint::parse(QStringLiteral("127.0.0.1:1")).value(),
                         NodeEndpoint::parse(QStringLiteral("127.0.0.1:2")).value(),
                         NodeEndpoint::parse(QStringLiteral("127.0.0.1:3")).value()};
        options.driftFactor = factor;
        const ConfigCheck check = RedlockClient::validate(options);
        QVERIFY2(check.ok() == valid, qPrintable(check.errors.join(u'\n')));
        if (!valid)
            QVERIFY2(check.errors.contains(rules::driftFactorError(factor)), qPrintable(check.errors.join(u'\n')));
    }

    // The max TTL the audit judges restarts by: the operator's (or 10 s when none), raised to the largest PTTL seen.
    void auditMaxTtlIsTheLargerOfConfiguredAndSeen()
    {
        QCOMPARE(rules::auditMaxTtlMs(0, 0), rules::kDefaultMaxTtlMs);
        QCOMPARE(rules::auditMaxTtlMs(0, 4000), rules::kDefaultMaxTtlMs);
        QCOMPARE(rules::auditMaxTtlMs(0, 25000), qint64(25000));
        QCOMPARE(rules::auditMaxTtlMs(30000, 25000), qint64(30000));
        QCOMPARE(rules::auditMaxTtlMs(3000, 25000), qint64(25000)); // a configured value below what is seen is wrong
        QCOMPARE(rules::auditMaxTtlMs(3000, 0), qint64(3000));
    }

    // One server, one vote: names with one run_id count once; an unknown run_id is a server of its own.
    void oneServerUnderTwoNamesCountsOnce()
    {
        const QList<QByteArray> runIds{"a", "b", "", "a", ""};
        QCOMPARE(rules::distinctServers(runIds, QList<int>{0, 1, 2, 3, 4}), 4);
        QCOMPARE(rules::distinctServers(runIds, QList<int>{0, 3}), 1);
        QCOMPARE(rules::distinctServers(runIds, QList<int>{2, 4}), 2); // unknown: not the same server
        QCOMPARE(rules::distinctServers(runIds, QList<int>{}), 0);
        QCOMPARE(rules::distinctServers(QList<QByteArray>{}, QList<int>{0, 3}), 2); // no alias map: names
        QCOMPARE(rules::sameServerAs(runIds, 3, QList<int>{1, 0}), 0);
        QCOMPARE(rules::sameServerAs(runIds, 0, QList<int>{0, 1}), -1); // never itself
        QCOMPARE(rules::sameServerAs(runIds, 2, QList<int>{4}), -1);
    }

    // The node count: fewer than 3 is the severe problem, an even N the warning, in one wording.
    void nodeCountHasOneRule()
    {
        QCOMPARE(rules::nodeCountProblem(1), rules::NodeCountProblem::TooFew);
        QCOMPARE(rules::nodeCountProblem(2), rules::NodeCountProblem::TooFew);
        QCOMPARE(rules::nodeCountProblem(3), rules::NodeCountProblem::None);
        QCOMPARE(rules::nodeCountProblem(4), rules::NodeCountProblem::Even);
        QCOMPARE(rules::nodeCountProblem(5), rules::NodeCountProblem::None);
        QVERIFY(rules::nodeCountSevere(2));
        QVERIFY(!rules::nodeCountSevere(4));
        QVERIFY(rules::nodeCountWarning(5).isEmpty());
        RedlockOptions options;
        options.nodes = {NodeEndpoint::parse(QStringLiteral("127.0.0.1:1")).value(),
                         NodeEndpoint::parse(QStringLiteral("127.0.0.1:2")).value()};
        QCOMPARE(RedlockClient::validate(options).warnings, QStringList{rules::nodeCountWarning(2)});
    }
};

QTEST_APPLESS_MAIN(TestRedlockRules)
#include "TestRedlockRules.moc"
