// Issue 30 item 2 with issue 26 item 2: the console reads a deployment's shared history in PostgreSQL whose server
// wants a password that neither PGPASSWORD nor ~/.pgpass gives. The history panel asks for it ("Remember in
// keyring"), reads the history with it, and the next time takes it from the keyring without asking. A real
// PostgreSQL with password auth (support/PostgresTestSupport.h) and a real gnome-keyring-daemon in a private D-Bus
// session (support/KeyringTestSupport.h). And the console's own journal written there (--journal URL): its password
// from the keyring or asked once, and a server that is down said as such, nobody asked.
#include "controller/PasswordKeyring.h"
#include "history/DatabasePasswordDialog.h"
#include "history/HistoryModel.h"
#include "history/HistoryPanel.h"
#include "history/JournalStore.h"
#include "history/JournalWriterPassword.h"
#include "history/LockJournal.h"
#include "history/PostgresJournalPassword.h"
#include "support/JournalTestSupport.h"
#include "support/PostgresTestSupport.h"

#include "support/KeyringTestSupport.h"
#include "support/OperatorTestSupport.h"

#include <QApplication>
#include <QCheckBox>
#include <QLineEdit>
#include <QtTest>

using namespace redlock;

class TestHistoryPassword : public QObject
{
    Q_OBJECT

    test::LocalPostgres m_server;
    QTemporaryDir m_dir;

    QString keyringKey() const { return QStringLiteral("history ") + LockJournal::displayLocation(m_server.url()); }

private slots:
    void initTestCase()
    {
        qputenv("PGPASSFILE", m_dir.filePath(QStringLiteral("no-pgpass")).toUtf8());
        QString error;
        QVERIFY2(m_server.start(&error), qPrintable(error));
        // The history an always-on writer keeps (with its own password), then no password for the console.
        qputenv("PGPASSWORD", test::LocalPostgres::password().toUtf8());
        {
            JournalStore store(m_server.url(), 2000);
            JournalStore::Error e;
            JournalEvent acquired;
            acquired.atMs = QDateTime::currentMSecsSinceEpoch() - 60'000;
            acquired.key = "orders:12";
            acquired.kind = QStringLiteral("acquired");
            acquired.token = "tokA";
            QVERIFY2(store.open(false, &e) &&
                         store.beginSession(QStringLiteral("exporter"), acquired.atMs, acquired.atMs, &e) &&
                         store.write({acquired}, acquired.atMs, &e) && store.endSession(acquired.atMs + 1000, &e),
                     qPrintable(e.message));
        }
        qunsetenv("PGPASSWORD");
    }

    void asksRemembersAndTakesItFromTheKeyringNextTime()
    {
        LockJournal own(JournalOptions{.path = m_dir.filePath(QStringLiteral("own.sqlite"))});
        {
            HistoryPanel panel(&own);
            panel.setReadOnlySource(m_server.url());
            panel.search();
            DatabasePasswordDialog* dialog = nullptr;
            QTRY_VERIFY_WITH_TIMEOUT((dialog = panel.findChild<DatabasePasswordDialog*>()) != nullptr, 20000);
            QVERIFY(panel.model()->result().intervals.isEmpty());
            auto* password = dialog->findChild<QLineEdit*>(QStringLiteral("password"));
            auto* remember = dialog->findChild<QCheckBox*>(QStringLiteral("rememberPassword"));
            QVERIFY(password && remember);
            QVERIFY(remember->isChecked());
            QTest::keyClicks(password, test::LocalPostgres::password());
            screenshot(dialog, QStringLiteral("history-password"));
            dialog->accept();
            QTRY_COMPARE_WITH_TIMEOUT(panel.model()->result().intervals.size(), 1, 20000);
            QCOMPARE(panel.model()->result().intervals.first().token, QByteArray("tokA"));
        }
        const PasswordKeyring::Result stored = PasswordKeyring().read(keyringKey());
        QVERIFY2(stored.ok, qPrintable(stored.error));
        QCOMPARE(stored.password, test::LocalPostgres::password());

        // Another console: the keyring gives it, nobody is asked.
        HistoryPanel panel(&own);
        panel.setReadOnlySource(m_server.url());
        panel.search();
        QTRY_COMPARE_WITH_TIMEOUT(panel.model()->result().intervals.size(), 1, 20000);
        QVERIFY(!panel.findChild<DatabasePasswordDialog*>());
        QVERIFY(PasswordKeyring().remove(keyringKey()).ok);
    }

    void cleanupTestCase() { QDir(test::keyringHome()).removeRecursively(); }

    // Not remembered: used for this panel, not in the keyring.
    void notRememberedStaysOutOfTheKeyring()
    {
        LockJournal own(JournalOptions{.path = m_dir.filePath(QStringLiteral("own2.sqlite"))});
        HistoryPanel panel(&own);
        panel.setReadOnlySource(m_server.url());
        panel.search();
        DatabasePasswordDialog* dialog = nullptr;
        QTRY_VERIFY_WITH_TIMEOUT((dialog = panel.findChild<DatabasePasswordDialog*>()) != nullptr, 20000);
        dialog->findChild<QCheckBox*>(QStringLiteral("rememberPassword"))->setChecked(false);
        QTest::keyClicks(dialog->findChild<QLineEdit*>(QStringLiteral("password")), test::LocalPostgres::password());
        dialog->accept();
        QTRY_COMPARE_WITH_TIMEOUT(panel.model()->result().intervals.size(), 1, 20000);
        const PasswordKeyring::Result stored = PasswordKeyring().read(keyringKey());
        QVERIFY(!stored.ok && stored.notFound);
    }

    // The console's own journal writes to PostgreSQL (--journal URL) and neither PGPASSWORD, ~/.pgpass nor the keyring
    // has the password: the history is not written and says why, the operator is asked once, and what waited
    // meanwhile is written with the password given, which the keyring keeps. The next console's journal takes it
    // from the keyring, nobody asked.
    void consoleJournalAsksOnceThenTakesTheKeyringPassword()
    {
        QVERIFY(PasswordKeyring().read(keyringKey()).notFound);
        const qint64 now = QDateTime::currentMSecsSinceEpoch();
        {
            QWidget window;
            JournalOptions options;
            options.path = m_server.url();
            options.retryIntervalMs = 3600'000; // the password given, not a retry, gets it written
            LockJournal journal(options);
            new JournalWriterPassword(&journal, &window);
            QSignalSpy problems(&journal, &LockJournal::problem);
            journal.record(QList<JournalEvent>{journalEvent(now, "console:1", "acquired", "tokW")});
            journal.start();
            DatabasePasswordDialog* dialog = nullptr;
            QTRY_VERIFY_WITH_TIMEOUT((dialog = window.findChild<DatabasePasswordDialog*>()) != nullptr, 20000);
            QTRY_VERIFY_WITH_TIMEOUT(problems.count() >= 1, 20000);
            const QString problem = problems.first().first().toString();
            QVERIFY2(problem.contains(QLatin1String("Lock history is not being written")) &&
                         problem.contains(QLatin1String("password")),
                     qPrintable(problem));
            QCOMPARE(journal.status().written, 0);
            QTest::keyClicks(dialog->findChild<QLineEdit*>(QStringLiteral("password")),
                             test::LocalPostgres::password());
            screenshot(dialog, QStringLiteral("journal-writer-password"));
            dialog->accept();
            QTRY_VERIFY_WITH_TIMEOUT(journal.status().written == 1 && !journal.status().failing, 20000);
        }
        const PasswordKeyring::Result stored = PasswordKeyring().read(keyringKey());
        QVERIFY2(stored.ok, qPrintable(stored.error));
        QCOMPARE(stored.password, test::LocalPostgres::password());
        HistoryQuery q;
        q.keyPattern = "console:*";
        q.sinceMs = now - 1000;
        q.untilMs = now + 3600'000;
        bool refused = false;
        const HistoryResult r = queryDatabaseJournal(m_server.url(), stored.password, q, now + 1000, &refused);
        QVERIFY2(r.error.isEmpty(), qPrintable(r.error));
        QCOMPARE(r.intervals.size(), 1);
        QCOMPARE(r.intervals.first().token, QByteArray("tokW"));
        QCOMPARE(r.intervals.first().writer.source, QStringLiteral("console"));

        // The next console: the keyring's password, no dialog.
        QWidget window;
        JournalOptions options;
        options.path = m_server.url();
        options.retryIntervalMs = 3600'000; // the keyring's password, not a retry, gets it written
        LockJournal journal(options);
        QSignalSpy asked(&journal, &LockJournal::passwordNeeded);
        new JournalWriterPassword(&journal, &window);
        journal.record(QList<JournalEvent>{journalEvent(now + 10, "console:2", "acquired", "tokX")});
        journal.start();
        QTRY_VERIFY_WITH_TIMEOUT(journal.status().written == 1 && !journal.status().failing, 20000);
        QCOMPARE(asked.count(), 1); // the first attempt, before the keyring was read
        QVERIFY(!window.findChild<DatabasePasswordDialog*>());
        QVERIFY(PasswordKeyring().remove(keyringKey()).ok);
    }

    // A server that is down: the journal says it cannot connect, retries, and nobody is asked for a password.
    void consoleJournalToAServerThatIsDownAsksNothing()
    {
        QTcpServer probe;
        QVERIFY(probe.listen(QHostAddress::LocalHost, 0));
        const quint16 closed = probe.serverPort();
        probe.close();
        QWidget window;
        JournalOptions options;
        options.path =
            QStringLiteral("postgresql://%1@127.0.0.1:%2/postgres").arg(test::LocalPostgres::user()).arg(closed);
        LockJournal journal(options);
        new JournalWriterPassword(&journal, &window);
        QSignalSpy asked(&journal, &LockJournal::passwordNeeded);
        QSignalSpy problems(&journal, &LockJournal::problem);
        journal.record(
            QList<JournalEvent>{journalEvent(QDateTime::currentMSecsSinceEpoch(), "console:3", "acquired", "tokY")});
        journal.start();
        QTRY_VERIFY_WITH_TIMEOUT(problems.count() >= 1, 20000);
        const QString problem = problems.first().first().toString();
        QVERIFY2(problem.contains(QLatin1String("cannot connect")) &&
                     problem.contains(QLatin1String("Monitoring goes on")),
                 qPrintable(problem));
        // passwordNeeded() would have come before problem(), from the same thread.
        QCOMPARE(asked.count(), 0);
        QVERIFY(!window.findChild<DatabasePasswordDialog*>());
        QCOMPARE(journal.status().pending, 1);
    }
};

int main(int argc, char** argv)
{
    if (const int code = test::enterPrivateKeyringSession(argc, argv); code != 0)
        return code;
    QApplication app(argc, argv);
    TestHistoryPassword test;
    return QTest::qExec(&test, argc, argv);
}

#include "TestHistoryPassword.moc"
