// Issue 30 item 2 with issue 26 item 2: the console reads a deployment's shared history in PostgreSQL whose server
// wants a password that neither PGPASSWORD nor ~/.pgpass gives. The history panel asks for it ("Remember in
// keyring"), reads the history with it, and the next time takes it from the keyring without asking. A real
// PostgreSQL with password auth (support/PostgresTestSupport.h) and a real gnome-keyring-daemon in a private D-Bus
// session (support/KeyringTestSupport.h).
#include "controller/PasswordKeyring.h"
#include "history/DatabasePasswordDialog.h"
#include "history/HistoryModel.h"
#include "history/HistoryPanel.h"
#include "history/JournalStore.h"
#include "history/LockJournal.h"
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
