// "Remember password" (issue 26 item 2): node passwords in a real Secret Service keyring (gnome-keyring-daemon),
// never in the profile file. The test runs itself in a private D-Bus session with its own unlocked keyring in a
// temporary HOME, so it never touches the user's keyring: main() re-executes the binary as
//   dbus-run-session -- sh -c 'echo -n PW | gnome-keyring-daemon --unlock --components=secrets; exec TEST'

#include "controller/ConnectionProfile.h"
#include "controller/PasswordKeyring.h"
#include "launch/ProfilesDialog.h"

#include "support/KeyringTestSupport.h"

#include <QApplication>
#include <QComboBox>
#include <QDir>
#include <QFile>
#include <QLineEdit>
#include <QSettings>
#include <QStandardPaths>
#include <QTemporaryDir>
#include <QtTest>

#include <unistd.h>

using namespace redlock;

namespace {

const QString kService = QStringLiteral("redlock-console-test");
const QString kSecret = QStringLiteral("kr-s3cret-Pw");

} // namespace

class TestPasswordKeyring : public QObject
{
    Q_OBJECT

private slots:
    void storeReadAndRemove()
    {
        const PasswordKeyring keyring(kService);
        const QString key =
            PasswordKeyring::nodeKey(QStringLiteral("prod"), QStringLiteral("10.0.0.5:6379"), QStringLiteral("locker"));
        const PasswordKeyring::Result stored = keyring.store(key, kSecret);
        QVERIFY2(stored.ok, qPrintable(stored.error));
        const PasswordKeyring::Result read = keyring.read(key);
        QVERIFY2(read.ok, qPrintable(read.error));
        QCOMPARE(read.password, kSecret);
        // Another node, another user: another entry.
        const PasswordKeyring::Result other =
            keyring.read(PasswordKeyring::nodeKey(QStringLiteral("prod"), QStringLiteral("10.0.0.5:6379"), {}));
        QVERIFY(!other.ok && other.notFound);
        QVERIFY(keyring.remove(key).ok);
        const PasswordKeyring::Result gone = keyring.read(key);
        QVERIFY(!gone.ok && gone.notFound && !gone.error.isEmpty());
    }

    // The profile says "in the keyring" and nothing more; connecting reads the password from the keyring.
    void profileKeepsNoSecret()
    {
        ConnectionProfile profile;
        profile.name = QStringLiteral("kr");
        for (int i = 0; i < 3; ++i) {
            NodeProfile node;
            node.address = QStringLiteral("127.0.0.1:%1").arg(7101 + i);
            node.user = QStringLiteral("locker");
            node.keyringPassword = true;
            profile.nodes.append(node);
            QVERIFY(PasswordKeyring(kService)
                        .store(PasswordKeyring::nodeKey(profile.name, node.address, node.user),
                               kSecret + QString::number(i))
                        .ok);
        }
        const QString file = QDir(m_dir.path()).filePath(QStringLiteral("profiles.ini"));
        {
            QSettings settings(file, QSettings::IniFormat);
            ProfileStore::save(settings, profile);
        }
        QFile saved(file);
        QVERIFY(saved.open(QIODevice::ReadOnly));
        const QByteArray contents = saved.readAll();
        QVERIFY2(contents.contains("keyringPassword=true"), contents.constData());
        QVERIFY2(!contents.contains(kSecret.toUtf8()), contents.constData());

        QSettings settings(file, QSettings::IniFormat);
        const auto loaded = ProfileStore::load(settings, profile.name);
        QVERIFY(loaded);
        QCOMPARE(*loaded, profile);
        bool asked = false;
        QString error;
        const auto resolved = resolveProfile(
            *loaded,
            [&asked](int, const QString&, const QString&) {
                asked = true;
                return std::optional<QString>();
            },
            &error, kService);
        QVERIFY2(resolved, qPrintable(error));
        QVERIFY(!asked);
        for (int i = 0; i < 3; ++i)
            QCOMPARE(resolved->nodes[i].password, kSecret + QString::number(i));

        // An entry the keyring does not have: a clear error, no connect with an empty password.
        QVERIFY(PasswordKeyring(kService)
                    .remove(PasswordKeyring::nodeKey(profile.name, profile.nodes[1].address, profile.nodes[1].user))
                    .ok);
        QVERIFY(!resolveProfile(*loaded, {}, &error, kService));
        QVERIFY2(error.contains(QLatin1String("node 2")) && error.contains(QLatin1String("keyring")),
                 qPrintable(error));
    }

    // The dialog's "Remember in the keyring": Save puts the typed password in the keyring, not in the file.
    void dialogRemembersInTheKeyring()
    {
        const QString file = QDir(m_dir.path()).filePath(QStringLiteral("dialog.ini"));
        QSettings settings(file, QSettings::IniFormat);
        ProfilesDialog dialog(&settings);
        dialog.setKeyringService(kService);
        ConnectionProfile p;
        p.name = QStringLiteral("dialog");
        NodeProfile node;
        node.address = QStringLiteral("127.0.0.1:7201");
        node.user = QStringLiteral("locker");
        p.nodes = {node};
        dialog.setProfile(p);
        auto* source = dialog.findChild<QComboBox*>(QStringLiteral("passwordSource"));
        auto* password = dialog.findChild<QLineEdit*>(QStringLiteral("checkPassword"));
        QVERIFY(source && password);
        source->setCurrentIndex(source->findText(QStringLiteral("Remember in the keyring")));
        QTest::keyClicks(password, kSecret);
        QVERIFY(dialog.saveProfile());
        settings.sync();

        QFile saved(file);
        QVERIFY(saved.open(QIODevice::ReadOnly));
        const QByteArray contents = saved.readAll();
        QVERIFY2(contents.contains("keyringPassword=true"), contents.constData());
        QVERIFY2(!contents.contains(kSecret.toUtf8()), contents.constData());
        const PasswordKeyring::Result read =
            PasswordKeyring(kService).read(PasswordKeyring::nodeKey(p.name, node.address, node.user));
        QVERIFY2(read.ok, qPrintable(read.error));
        QCOMPARE(read.password, kSecret);
    }

    // Issue 26 review: a deleted profile left its passwords in the keyring, a renamed one left them under the old
    // name (its nodes then found none). They go with the profile now.
    void deletingOrRenamingAProfileTakesItsKeyringEntries()
    {
        const QString file = QDir(m_dir.path()).filePath(QStringLiteral("lifecycle.ini"));
        QSettings settings(file, QSettings::IniFormat);
        ProfilesDialog dialog(&settings);
        dialog.setKeyringService(kService);
        ConnectionProfile p;
        p.name = QStringLiteral("old-name");
        NodeProfile node;
        node.address = QStringLiteral("127.0.0.1:7301");
        node.user = QStringLiteral("locker");
        node.keyringPassword = true;
        p.nodes = {node};
        dialog.setProfile(p);
        auto* password = dialog.findChild<QLineEdit*>(QStringLiteral("checkPassword"));
        QVERIFY(password);
        QTest::keyClicks(password, kSecret);
        QVERIFY(dialog.saveProfile());
        const PasswordKeyring keyring(kService);
        const QString oldKey = PasswordKeyring::nodeKey(QStringLiteral("old-name"), node.address, node.user);
        const QString newKey = PasswordKeyring::nodeKey(QStringLiteral("new-name"), node.address, node.user);
        QVERIFY(keyring.read(oldKey).ok);

        QVERIFY(dialog.renameProfile(QStringLiteral("old-name"), QStringLiteral("new-name")));
        QCOMPARE(ProfileStore::names(settings), QStringList{QStringLiteral("new-name")});
        const PasswordKeyring::Result moved = keyring.read(newKey);
        QVERIFY2(moved.ok, qPrintable(moved.error));
        QCOMPARE(moved.password, kSecret);
        const PasswordKeyring::Result left = keyring.read(oldKey);
        QVERIFY2(!left.ok && left.notFound, "the old name's entry stayed behind");
        // The renamed profile still connects with the password from the keyring, nobody asked.
        const auto renamed = ProfileStore::load(settings, QStringLiteral("new-name"));
        QVERIFY(renamed);
        QString error;
        const auto resolved = resolveProfile(*renamed, {}, &error, kService);
        QVERIFY2(resolved, qPrintable(error));
        QCOMPARE(resolved->nodes[0].password, kSecret);

        QVERIFY(dialog.deleteProfile(QStringLiteral("new-name")));
        QVERIFY(ProfileStore::names(settings).isEmpty());
        const PasswordKeyring::Result gone = keyring.read(newKey);
        QVERIFY2(!gone.ok && gone.notFound, "the deleted profile's entry stayed behind");
    }

    // Issue 26 item 2: the keyring cannot give the password (here: no entry; the same path for no daemon or a locked
    // keyring): the operator is asked, told why, and the typed password is used; cancelling is an error, never a
    // connect without the password.
    void aKeyringThatCannotGiveThePasswordAsksTheOperator()
    {
        ConnectionProfile p;
        p.name = QStringLiteral("no-entry");
        NodeProfile node;
        node.address = QStringLiteral("127.0.0.1:7401");
        node.keyringPassword = true;
        p.nodes = {node};
        QString why;
        QString error;
        const auto resolved = resolveProfile(
            p,
            [&why](int index, const QString&, const QString& reason) -> std::optional<QString> {
                why = reason;
                return index == 0 ? std::optional<QString>(QStringLiteral("typed-pw")) : std::nullopt;
            },
            &error, kService);
        QVERIFY2(resolved, qPrintable(error));
        QCOMPARE(resolved->nodes[0].password, QStringLiteral("typed-pw"));
        QVERIFY2(why.contains(QLatin1String("keyring")), qPrintable(why));
        const auto cancelled = resolveProfile(
            p, [](int, const QString&, const QString&) { return std::optional<QString>(); }, &error, kService);
        QVERIFY(!cancelled);
        QVERIFY2(error.contains(QLatin1String("keyring")), qPrintable(error));
    }

    void cleanupTestCase() { QDir(test::keyringHome()).removeRecursively(); }

private:
    QTemporaryDir m_dir;
};

int main(int argc, char** argv)
{
    if (const int code = test::enterPrivateKeyringSession(argc, argv); code != 0)
        return code;
    QApplication app(argc, argv);
    TestPasswordKeyring test;
    return QTest::qExec(&test, argc, argv);
}

#include "TestPasswordKeyring.moc"
