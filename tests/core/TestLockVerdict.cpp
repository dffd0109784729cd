#include "observe/LockVerdict.h"
#include "observe/PackedLockView.h"
#include "redlock/LockToken.h"
#include "redlock/RedlockRules.h"
#include "runtime/SteadyClock.h"

#include <QRandomGenerator>
#include <QtTest>

#include <limits>
#include <thread>
#include <vector>

using namespace redlock;

// core/observe/LockVerdict: judgeLock, pure (no nodes, no clock but the instants given).
namespace {

using Presence = NodeLockState::Presence;

QList<int> range(int from, int to)
{
    QList<int> out;
    for (int i = from; i < to; ++i)
        out << i;
    return out;
}

// One node of a table row: "-" absent, "!" unreachable, anything else the token held, with its PTTL.
struct Node
{
    const char* token;
    qint64 pttlMs = -2;
};

LockView viewOf(const QList<Node>& nodes)
{
    LockView view;
    view.key = "k";
    for (const Node& n : nodes) {
        NodeLockState s;
        const QByteArray token(n.token);
        if (token == "-") {
            s.presence = Presence::Absent;
        } else if (token == "!") {
            s.presence = Presence::Unreachable;
        } else {
            s.presence = Presence::Holding;
            s.token = token;
            s.pttlMs = n.pttlMs;
        }
        view.nodes.append(s);
    }
    return view;
}

} // namespace

class TestLockVerdict : public QObject
{
    Q_OBJECT

private slots:
    // The verdict of five nodes at quorum 3, what it rests on and the observed validity: the quorum-th largest PTTL
    // among the holders, minus the drift on that PTTL.
    void judgeIsPure_data()
    {
        QTest::addColumn<QList<Node>>("nodes");
        QTest::addColumn<LockVerdict>("verdict");
        QTest::addColumn<QList<int>>("restsOn");
        QTest::addColumn<qint64>("validityMs");
        const QList<Node> absent5{{"-"}, {"-"}, {"-"}, {"-"}, {"-"}};
        QTest::newRow("all absent: free") << absent5 << LockVerdict::Free << range(0, 5) << qint64(-1);
        // Two unreachable nodes cannot hide a quorum of 3: still free, resting on the three that answered.
        QTest::newRow("two unreachable: free")
            << QList<Node>{{"!"}, {"!"}, {"-"}, {"-"}, {"-"}} << LockVerdict::Free << range(2, 5) << qint64(-1);
        // Three unreachable could: unknown, never free.
        QTest::newRow("three unreachable: unknown")
            << QList<Node>{{"!"}, {"!"}, {"!"}, {"-"}, {"-"}} << LockVerdict::Unknown << range(0, 3) << qint64(-1);
        QTest::newRow("held on all five")
            << QList<Node>{{"t", 10000}, {"t", 9000}, {"t", 8000}, {"t", 7000}, {"t", 6000}} << LockVerdict::Held
            << range(0, 5) << qint64(8000 - 80 - 2);
        QTest::newRow("held on a bare quorum") << QList<Node>{{"t", 10000}, {"t", 9000}, {"t", 8000}, {"-"}, {"-"}}
                                               << LockVerdict::Held << range(0, 3) << qint64(8000 - 80 - 2);
        QTest::newRow("held with less than the threshold left: expiring")
            << QList<Node>{{"t", 900}, {"t", 900}, {"t", 900}, {"-"}, {"-"}} << LockVerdict::Expiring << range(0, 3)
            << qint64(900 - rules::clockDriftMs(900, 0.01));
        QTest::newRow("one token on a minority: leftover")
            << QList<Node>{{"t", 10000}, {"t", 10000}, {"-"}, {"-"}, {"-"}} << LockVerdict::MinorityLeftover
            << range(0, 2) << qint64(-1);
        // A value without expiry beside a token that the unreachable node could make a quorum of: that holder may hold
        // the lock, so it is not known stuck (driven: a SIGSTOPped node showed "stuck" naming the leftover's holder).
        QTest::newRow("no expiry beside a token an unreachable node may make a quorum: unknown")
            << QList<Node>{{"old", -1}, {"t", 10000}, {"t", 10000}, {"!"}, {"-"}} << LockVerdict::Unknown << range(3, 4)
            << qint64(-1);
        QTest::newRow("no expiry beside a token no quorum can be made of: stuck")
            << QList<Node>{{"old", -1}, {"t", 10000}, {"-"}, {"-"}, {"!"}} << LockVerdict::Stuck << range(0, 1)
            << qint64(-1);
        QTest::newRow("two tokens, neither a quorum: contested")
            << QList<Node>{{"a", 10000}, {"a", 10000}, {"b", 10000}, {"b", 10000}, {"-"}} << LockVerdict::Contested
            << range(0, 4) << qint64(-1);
    }
    void judgeIsPure()
    {
        QFETCH(QList<Node>, nodes);
        QFETCH(LockVerdict, verdict);
        QFETCH(QList<int>, restsOn);
        QFETCH(qint64, validityMs);
        LockView view = viewOf(nodes);
        judgeLock(view, {3, 0.01, 1000});
        QCOMPARE(view.verdict, verdict);
        QCOMPARE(view.restsOn, restsOn);
        if (validityMs >= 0)
            QCOMPARE(view.observedValidityMs, validityMs);
    }

    // Judged at a later instant than it was read, a quorum whose observed validity has run out by then is no longer
    // held: expiring first, then unknown (its holder may have extended it unseen), never held.
    void validityEndsBetweenReads_data()
    {
        QTest::addColumn<qint64>("laterMs");
        QTest::addColumn<LockVerdict>("verdict");
        QTest::addColumn<bool>("validityEnded");
        QTest::newRow("just read") << qint64(0) << LockVerdict::Held << false;
        QTest::newRow("less than the threshold left") << qint64(2500) << LockVerdict::Expiring << false;
        QTest::newRow("validity over") << qint64(3000) << LockVerdict::Unknown << true;
    }
    void validityEndsBetweenReads()
    {
        QFETCH(qint64, laterMs);
        QFETCH(LockVerdict, verdict);
        QFETCH(bool, validityEnded);
        LockView view = viewOf({{"t", 3000}, {"t", 3000}, {"t", 3000}});
        view.observedAtNs = 1'000'000'000;
        judgeLock(view, {2, 0.01, 1000}, view.observedAtNs + laterMs * 1'000'000);
        QCOMPARE(view.verdict, verdict);
        QCOMPARE(view.validityEnded, validityEnded);
        QCOMPARE(view.isHeld(), verdict == LockVerdict::Held || verdict == LockVerdict::Expiring);
    }

    // A force release's tombstone is nobody's token: on a quorum it is not held, beside a leftover it is not a
    // contest; it is its own verdict, free once SET NX can succeed on a quorum again.
    void tombstoneIsItsOwnVerdict()
    {
        using Presence = NodeLockState::Presence;
        LockTombstone t;
        t.releasedBy = QStringLiteral("alice@ops");
        t.releasedAtMs = 1795000000000;
        const QByteArray tombstone = t.encode();
        LockView view;
        view.key = "orders:12";
        view.nodes.resize(5);
        auto set = [&](int i, Presence p, const QByteArray& value = {}, qint64 pttl = -2) {
            view.nodes[i].presence = p;
            view.nodes[i].token = value;
            view.nodes[i].pttlMs = pttl;
        };
        // Tombstones on 3 of 5 (a quorum's worth): released, free when the first of them goes.
        set(0, Presence::Holding, tombstone, 10000);
        set(1, Presence::Holding, tombstone, 9000);
        set(2, Presence::Holding, tombstone, 8000);
        set(3, Presence::Absent);
        set(4, Presence::Absent);
        judgeLock(view, {3, 0.01, 1000});
        QCOMPARE(view.verdict, LockVerdict::ReleasedByOperator);
        QVERIFY(!view.isHeld());
        QVERIFY(!view.hasQuorum());
        QCOMPARE(view.holders, 0);
        QCOMPARE(view.tokenCount, 0);
        QCOMPARE(view.token, tombstone);
        QCOMPARE(view.restsOn, range(0, 3));
        QCOMPARE(view.freeInMs, 8000);
        QCOMPARE(view.observedValidityMs, -1);
        QCOMPARE(view.holder->format, HolderFormat::Tombstone);
        QVERIFY(view.holder->summary.contains(QStringLiteral("alice@ops")));
        QCOMPARE(lockVerdictId(view.verdict), QStringLiteral("released-by-operator"));

        // The old token left on a node the release could not reach: still released, not a minority leftover.
        set(2, Presence::Holding, "old-token", 7000);
        judgeLock(view, {3, 0.01, 1000});
        QCOMPARE(view.verdict, LockVerdict::ReleasedByOperator);
        QCOMPARE(view.tokenCount, 1);
        QCOMPARE(view.restsOn, (QList<int>{0, 1}));
        QCOMPARE(view.freeInMs, 7000);
        // An unreachable node may hold anything: it never clears by itself in this count.
        set(3, Presence::Unreachable);
        judgeLock(view, {3, 0.01, 1000});
        QCOMPARE(view.verdict, LockVerdict::ReleasedByOperator);
        QCOMPARE(view.freeInMs, 9000);
        set(4, Presence::Unreachable);
        judgeLock(view, {3, 0.01, 1000}); // old token 1 + 2 unreachable could be a quorum: unknown
        QCOMPARE(view.verdict, LockVerdict::Unknown);

        // Two real tokens beside the tombstones: a contest of those two, the tombstone not counted.
        set(3, Presence::Holding, "newcomer-a", 5000);
        set(4, Presence::Holding, "newcomer-b", 5000);
        judgeLock(view, {3, 0.01, 1000});
        QCOMPARE(view.verdict, LockVerdict::Contested);
        QCOMPARE(view.tokenCount, 3);
        // It rests on the nodes holding a token; the tombstones on 0 and 1 are nobody's.
        QCOMPARE(view.restsOn, (QList<int>{2, 3, 4}));
        // A newcomer on a quorum after the tombstones went on some nodes: held by it.
        set(2, Presence::Holding, "newcomer-a", 5000);
        set(4, Presence::Holding, "newcomer-a", 5000);
        judgeLock(view, {3, 0.01, 1000});
        QCOMPARE(view.verdict, LockVerdict::Held);
        QCOMPARE(view.token, QByteArray("newcomer-a"));
        QCOMPARE(view.holders, 3);
        QCOMPARE(view.tokenCount, 1);
    }

    // A quarantined node (out for a delayed restart) is judged as if unreachable, whatever it answers: a lock
    // whose quorum rests on it is not held, and the view names the nodes it did not count.
    void quarantinedNodesAreNotCounted()
    {
        using Presence = NodeLockState::Presence;
        LockView view;
        view.key = "k";
        view.nodes.resize(5);
        for (int i = 0; i < 5; ++i) {
            view.nodes[i].presence = i < 3 ? Presence::Holding : Presence::Absent;
            view.nodes[i].token = i < 3 ? QByteArray("t") : QByteArray();
            view.nodes[i].pttlMs = i < 3 ? 10000 : -2;
        }
        judgeLock(view, {3, 0.01, 1000});
        QCOMPARE(view.verdict, LockVerdict::Held);
        QVERIFY(view.uncounted.isEmpty());

        VerdictRules rules{3, 0.01, 1000, {1}};
        judgeLock(view, rules);
        QCOMPARE(view.verdict, LockVerdict::Unknown);
        QCOMPARE(view.uncounted, QList<int>{1});
        QCOMPARE(view.restsOn, QList<int>{1});
        QCOMPARE(view.holders, 2);
        QCOMPARE(view.observedValidityMs, -1);

        // Four holders with one of them quarantined: still a quorum without it.
        view.nodes[3] = view.nodes[0];
        judgeLock(view, rules);
        QCOMPARE(view.verdict, LockVerdict::Held);
        QCOMPARE(view.holders, 3);
        QCOMPARE(view.restsOn, (QList<int>{0, 2, 3}));
        QCOMPARE(view.uncounted, QList<int>{1});
        // An absent quarantined node is not taken as free either.
        for (int i = 0; i < 5; ++i)
            view.nodes[i] = NodeLockState{Presence::Absent, {}, {}, -2, {}};
        judgeLock(view, {3, 0.01, 1000, {0, 1, 2}});
        QCOMPARE(view.verdict, LockVerdict::Unknown);
    }

    // One server, one vote (issue 24 item 6): names that are one server (the alias map: one run_id) count one
    // holder, and an unreachable name of a server that answered under another name hides nothing.
    // Three nodes, quorum 2: a leftover without expiry on one, a live hold on another, the third unreachable (the live
    // holder may hold it there): unknown, and the token named is the live one whichever node comes first; the value
    // without expiry is named apart.
    void unknownBesideNoExpiryNamesTheLiveToken()
    {
        for (const QList<Node>& nodes :
             {QList<Node>{{"old", -1}, {"t", 10000}, {"!"}}, QList<Node>{{"t", 10000}, {"old", -1}, {"!"}}}) {
            LockView view = viewOf(nodes);
            judgeLock(view, {2, 0.01, 1000});
            QCOMPARE(view.verdict, LockVerdict::Unknown);
            QCOMPARE(view.token, QByteArray("t"));
            QCOMPARE(view.noExpiryToken, QByteArray("old"));
        }
    }

    void namesOfOneServerAreOneHolder()
    {
        using Presence = NodeLockState::Presence;
        LockView view;
        view.key = "k";
        view.nodes.resize(4);
        for (int i = 0; i < 4; ++i) // nodes 0 and 3 are one server: the token on three names, two servers
            view.nodes[i] = i == 2 ? NodeLockState{Presence::Absent, {}, {}, -2, {}}
                                   : NodeLockState{Presence::Holding, "t", {}, 10000, {}};
        VerdictRules rules{3, 0.01, 1000};
        judgeLock(view, rules);
        QCOMPARE(view.verdict, LockVerdict::Held); // run_ids not known: four servers
        rules.runIds = {"server-a", "server-b", "server-c", "server-a"};
        judgeLock(view, rules);
        QCOMPARE(view.verdict, LockVerdict::MinorityLeftover);
        QCOMPARE(view.holders, 2);
        QCOMPARE(view.restsOn, (QList<int>{0, 1, 3}));
        QCOMPARE(view.observedValidityMs, -1);

        // The other name of server a unreachable: its state is what node 0 read, not one more unknown vote.
        view.nodes[3] = NodeLockState{Presence::Unreachable, {}, {}, -2, {}};
        judgeLock(view, rules);
        QCOMPARE(view.verdict, LockVerdict::MinorityLeftover);
        rules.runIds = {};
        judgeLock(view, rules);
        QCOMPARE(view.verdict, LockVerdict::Unknown); // four servers: the unreachable one could be the third

        // All three servers: held, the validity taken from the servers, not from a name counted twice.
        rules.runIds = {"server-a", "server-b", "server-c", "server-a"};
        view.nodes[2] = NodeLockState{Presence::Holding, "t", {}, 10000, {}};
        view.nodes[3] = NodeLockState{Presence::Holding, "t", {}, 10000, {}};
        view.nodes[1].pttlMs = 4000;
        judgeLock(view, rules);
        QCOMPARE(view.verdict, LockVerdict::Held);
        QCOMPARE(view.holders, 3);
        QCOMPARE(view.observedValidityMs, 4000 - rules::clockDriftMs(4000, 0.01)); // third largest of a, b, c
    }

    // A lock held on five nodes by this project's token, read now, packs in about 68 bytes and its token's rest
    // (pid, host, client): the instant, validity and time until free as varints take 6 bytes here, not 24, and each
    // node's PTTL after the first as its difference from the previous one a byte, not four (98 and the rest when
    // they were written fixed-width and whole: 2.6 MB of `redlock watch`'s peak at 100,000 locks). 4 bytes of
    // slack: a wall clock stepped since the process started makes the instant's varint longer.
    void heldViewPacksSmall()
    {
        // A token as LockToken writes it, fixed here: its rest (pid, host, client) varies with the machine.
        const QByteArray token = "rl1:7f3a9c0e12b45d6e8f90a1b2c3d4e5f6:48213:web-7:orders";
        LockView view;
        view.key = "lk:12345";
        view.observedAtNs = SteadyClock::system()->nowNs();
        view.observedAtMs = QDateTime::currentMSecsSinceEpoch();
        for (int i = 0; i < 5; ++i) {
            NodeLockState s;
            s.presence = Presence::Holding;
            s.token = token;
            s.pttlMs = 3'599'000 - i;
            view.nodes.append(s);
        }
        judgeLock(view, VerdictRules{rules::quorum(5), 0.01, 1000}, view.observedAtNs);
        QCOMPARE(view.verdict, LockVerdict::Held);
        const PackedLockView packed(view);
        const qsizetype rest = token.size() - qsizetype(strlen("rl1:7f3a9c0e12b45d6e8f90a1b2c3d4e5f6"));
        QVERIFY2(packed.byteSize() <= 72 + rest, qPrintable(QString::number(packed.byteSize())));
        QCOMPARE(packed.observedAtMs(), view.observedAtMs);
    }

    // The inspector keeps its views packed (observe/PackedLockView.h): what it unpacks must be the view it packed,
    // every field, the holder decoded again from the same node, for every kind of view judgeLock makes.
    void packedViewIsLossless()
    {
        QRandomGenerator random(29); // fixed seed: the same views every run
        LockToken ours = LockToken::generate(QStringLiteral("orders-service"));
        LockToken theirs = LockToken::generate(QStringLiteral("billing"));
        LockTombstone tombstone{QStringLiteral("alice@ops"), 1795000000000};
        // Redlock tokens are packed as their digits' bytes and their rest; what only looks like one is kept as it is.
        const QList<QByteArray> values{ours.encode(),
                                       theirs.encode(),
                                       tombstone.encode(),
                                       QByteArray("0123456789abcdef0123456789abcdef"),
                                       QByteArray("evil\x1b]0;x\x07\xff"),
                                       QByteArray("rl1:0123456789ABCDEF0123456789abcdef:1:h:c"),
                                       QByteArray("rl1:0123456789abcdef0123456789abcdef"),
                                       QByteArray("rl1:0123456789abcdef0123456789abcdef:"),
                                       QByteArray("rl1:0123456789abcdef0123456789abcdeg:1:h:c")};
        const QList<std::pair<QByteArray, QByteArray>> redisson{{"6f1c2a:42", "2"}};
        QSet<int> verdictsSeen;
        for (int round = 0; round < 3000; ++round) {
            const int nodeCount = 1 + int(random.bounded(7));
            LockView view;
            view.key = round % 7 == 0 ? QByteArray("redlock:k\x01") : QByteArray("orders:") + QByteArray::number(round);
            view.observedAtNs = qint64(random.bounded(1'000'000)) * 1'000'000;
            view.observedAtMs = 1795000000000 + round;
            if (round % 11 == 0) // the wall instant far from the steady one (a clock set years away): still exact
                view.observedAtMs =
                    round % 2 ? std::numeric_limits<qint64>::min() + round : std::numeric_limits<qint64>::max() - round;
            for (int i = 0; i < nodeCount; ++i) {
                NodeLockState s;
                const quint32 kind = random.bounded(10);
                if (kind < 5) {
                    s.presence = Presence::Holding;
                    if (kind == 4 && random.bounded(2) == 0) {
                        s.hashFields = redisson;
                        s.token = redisson.first().first;
                    } else {
                        s.token = values[qsizetype(random.bounded(kind < 3 ? 2 : int(values.size())))];
                    }
                    const quint32 ttl = random.bounded(4);
                    s.pttlMs = ttl == 0   ? -1
                               : ttl == 1 ? qint64(random.bounded(1500))
                                          : qint64(random.bounded(1u << 30));
                    if (round % 17 == 0) // PTTLs are packed as differences: the extremes still come back exact
                        s.pttlMs = i % 2 ? std::numeric_limits<qint64>::min() : std::numeric_limits<qint64>::max();
                } else if (kind < 7) {
                    s.presence = Presence::Absent;
                } else if (kind == 7) {
                    s.presence = Presence::Unreachable;
                    s.note = QStringLiteral("connection refused — 连接被拒绝");
                } else if (kind == 8) {
                    s.presence = Presence::Refused;
                    s.note = QStringLiteral("NOPERM");
                } else {
                    s.presence = Presence::NotALock;
                    s.note = QStringLiteral("list");
                    s.pttlMs = 5000;
                }
                view.nodes.append(s);
            }
            VerdictRules rules{rules::quorum(nodeCount), 0.01, 1000};
            if (random.bounded(4) == 0)
                rules.quarantined = {int(random.bounded(nodeCount))};
            if (random.bounded(4) == 0)
                rules.down = {int(random.bounded(nodeCount))};
            if (nodeCount >= 2 && random.bounded(4) == 0) {
                rules.runIds = QList<QByteArray>(nodeCount);
                rules.runIds[0] = rules.runIds[1] = "one-server"; // one server under two names
            }
            judgeLock(view, rules, view.observedAtNs + qint64(random.bounded(3)) * 1'000'000'000);
            verdictsSeen.insert(int(view.verdict));
            if (round % 19 == 0) { // any values pack exactly: the extremes, a negative steady instant
                view.observedAtNs = -qint64(random.bounded(1'000'000)) * 1'000'003;
                view.observedAtMs = round % 2 ? std::numeric_limits<qint64>::min() : view.observedAtMs;
                view.observedValidityMs =
                    round % 2 ? std::numeric_limits<qint64>::min() : std::numeric_limits<qint64>::max();
                view.freeInMs = round % 2 ? std::numeric_limits<qint64>::max() : std::numeric_limits<qint64>::min();
            }

            const PackedLockView packed(view);
            QCOMPARE(packed.verdict(), view.verdict);
            QCOMPARE(packed.isHeld(), view.isHeld());
            QCOMPARE(packed.nodeCount(), nodeCount);
            QCOMPARE(packed.observedAtNs(), view.observedAtNs);
            QCOMPARE(packed.observedAtMs(), view.observedAtMs);
            QCOMPARE(packed.observedValidityMs(), view.observedValidityMs);
            for (int i = 0; i < nodeCount; ++i) {
                QCOMPARE(packed.presence(i), view.nodes[i].presence);
                QCOMPARE(packed.pttlMs(i), view.nodes[i].pttlMs);
            }
            QCOMPARE(packed.pttlMs(nodeCount), -2);
            QCOMPARE(packed.freeInMs(), view.freeInMs);
            // What the restart planner reads without unpacking.
            QCOMPARE(packed.hasQuorum(), view.hasQuorum());
            QList<int> tokenHolders{-1}; // cleared first
            packed.tokenHolders(&tokenHolders);
            QList<int> expectedHolders;
            for (int i = 0; i < nodeCount; ++i) {
                if (view.nodes[i].presence == Presence::Holding && view.nodes[i].token == view.token)
                    expectedHolders.append(i);
            }
            QCOMPARE(tokenHolders, expectedHolders);
            // Each distinct token by its number, and no number for one that differs in a digit or its rest.
            for (const NodeLockState& s : std::as_const(view.nodes)) {
                if (s.token.isEmpty())
                    continue;
                const int number = packed.tokenNumber(s.token);
                QVERIFY(number > 0);
                QCOMPARE(packed.token(number), s.token);
                QByteArray near = s.token;
                near[near.size() > 20 ? 20 : 0] = near[near.size() > 20 ? 20 : 0] == '7' ? '8' : '7';
                if (!std::any_of(view.nodes.cbegin(), view.nodes.cend(),
                                 [&](const NodeLockState& n) { return n.token == near; }) &&
                    view.token != near && view.noExpiryToken != near)
                    QCOMPARE(packed.tokenNumber(near), 0);
                QCOMPARE(packed.tokenNumber(QByteArray(s.token + "x")), 0); // no value ends in "x"
            }
            const LockView back = packed.unpack(view.key);
            QCOMPARE(back.key, view.key);
            QCOMPARE(back.nodes, view.nodes);
            QCOMPARE(back.verdict, view.verdict);
            QCOMPARE(back.token, view.token);
            QCOMPARE(back.holders, view.holders);
            QCOMPARE(back.tokenCount, view.tokenCount);
            QCOMPARE(back.quorum, view.quorum);
            QCOMPARE(back.restsOn, view.restsOn);
            QCOMPARE(back.observedValidityMs, view.observedValidityMs);
            QCOMPARE(back.observedAtMs, view.observedAtMs);
            QCOMPARE(back.observedAtNs, view.observedAtNs);
            QCOMPARE(back.freeInMs, view.freeInMs);
            QCOMPARE(back.uncounted, view.uncounted);
            QCOMPARE(back.noExpiryNodes, view.noExpiryNodes);
            QCOMPARE(back.noExpiryToken, view.noExpiryToken);
            QCOMPARE(back.validityEnded, view.validityEnded);
            QCOMPARE(back.holder.isNull(), view.holder.isNull());
            QCOMPARE(back.holder.fromNode(), view.holder.fromNode());
            QCOMPARE(back.holder->format, view.holder->format);
            QCOMPARE(back.holder->summary, view.holder->summary);
            QCOMPARE(back.holder->reentrancy, view.holder->reentrancy);
            QVERIFY(back.sameStateAs(view) && view.sameStateAs(back));
        }
        QCOMPARE(verdictsSeen.size(), int(LockVerdict::ReleasedByOperator) + 1); // every kind of view was packed

        // What a lock costs packed: five nodes holding one token (the store's per-lock figure in benchmarks.md).
        LockView held = viewOf({{"x", 3600000}, {"x", 3599000}, {"x", 3598000}, {"x", 3597000}, {"x", 3596000}});
        for (NodeLockState& s : held.nodes)
            s.token = ours.encode();
        judgeLock(held, {3, 0.01, 1000});
        QCOMPARE(held.verdict, LockVerdict::Held);
        // 77 bytes and the token's rest (pid, host, client): the fixed part and presences, the times, the counts
        // and node lists, the token's digits, each node's PTTL (the first whole, the others as differences of a
        // second) and token number. (It was 98 and the rest with the times fixed-width and the PTTLs whole.)
        QVERIFY2(
            PackedLockView(held).byteSize() <= 80 + (ours.encode().size() - 36),
            qPrintable(QStringLiteral("%1, token %2").arg(PackedLockView(held).byteSize()).arg(ours.encode().size())));

        // Copies share the bytes (one pointer and a count) and outlive the view they were copied from, on other
        // threads too; a view moved from is null.
        auto original = std::make_unique<PackedLockView>(held);
        PackedLockView copy = *original;
        PackedLockView assigned;
        assigned = copy;
        QCOMPARE(assigned.byteSize(), original->byteSize());
        original.reset();
        QList<LockView> fromThreads(4);
        std::vector<std::thread> threads;
        for (qsizetype t = 0; t < fromThreads.size(); ++t)
            threads.emplace_back([&fromThreads, &held, t, mine = assigned] { fromThreads[t] = mine.unpack(held.key); });
        for (std::thread& thread : threads)
            thread.join();
        copy = PackedLockView();
        QVERIFY(copy.isNull());
        for (const LockView& v : std::as_const(fromThreads))
            QVERIFY(v.sameStateAs(held) && v.token == held.token);
        PackedLockView moved(std::move(assigned));
        QVERIFY(assigned.isNull()); // NOLINT(bugprone-use-after-move): what a move leaves is part of the contract
        QVERIFY(moved.unpack(held.key).sameStateAs(held));
    }

    // A view's holder is decoded when first asked for, from whichever thread asks (a view crosses from the inspector's
    // thread to the GUI's and the journal's): every copy, on every thread, gets the one decoding, equal to
    // decodeHolder's, and the Redisson form decodes the hash's fields.
    void holderIsDecodedOnceWhenFirstAsked()
    {
        const LockToken token = LockToken::generate(QStringLiteral("orders-service"));
        const QByteArray key("orders:1");
        const HolderInfo expected = decodeHolder(key, token.encode());
        const SharedHolder holder = SharedHolder::ofValue(key, token.encode(), 2);
        QCOMPARE(holder.fromNode(), 2);
        QVERIFY(!holder.isNull());
        std::vector<std::thread> threads;
        std::vector<const HolderInfo*> seen(8, nullptr);
        for (size_t i = 0; i < seen.size(); ++i)
            threads.emplace_back([copy = holder, &seen, i] { seen[i] = &*copy; });
        for (std::thread& t : threads)
            t.join();
        for (const HolderInfo* info : seen) {
            QCOMPARE(info, &*holder); // one decoding, shared by the copies
            QCOMPARE(info->summary, expected.summary);
            QCOMPARE(info->format, HolderFormat::RedlockConsole);
        }
        const QList<std::pair<QByteArray, QByteArray>> fields{{"6f1c2a:42", "2"}};
        const SharedHolder redisson = SharedHolder::ofRedissonHash(fields, 0);
        QCOMPARE(redisson->summary, decodeRedissonHolder(fields).summary);
        QCOMPARE(redisson->reentrancy, 2);
        QVERIFY(SharedHolder().isNull());
        QVERIFY(SharedHolder()->summary.isEmpty());
    }
};

QTEST_GUILESS_MAIN(TestLockVerdict)
#include "TestLockVerdict.moc"
