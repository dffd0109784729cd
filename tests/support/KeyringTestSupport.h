#pragma once

// A real Secret Service keyring of the test's own: main() re-executes the test binary as
//   dbus-run-session -- sh -c 'echo -n PW | gnome-keyring-daemon --unlock --components=secrets; exec TEST'
// with a temporary HOME, so that a test never touches the user's keyring. cleanupTestCase() removes keyringHome().

#include <QByteArray>
#include <QDir>
#include <QList>
#include <QString>

#include <cstdio>
#include <cstdlib>
#include <unistd.h>

namespace redlock::test {

inline constexpr const char* kKeyringSessionVariable = "REDLOCK_TEST_KEYRING_HOME"; // set inside the session

inline QString keyringHome()
{
    return qEnvironmentVariable(kKeyringSessionVariable);
}

// Outside the private session: starts it around this binary and never returns (or returns 1 when it cannot).
// Inside it: returns 0, and main() goes on.
inline int enterPrivateKeyringSession(int argc, char** argv)
{
    if (qEnvironmentVariableIsSet(kKeyringSessionVariable))
        return 0;
    // A HOME of its own: the keyring files gnome-keyring writes go there, and it is removed at the end.
    QByteArray home = QDir::tempPath().toLocal8Bit() + "/redlock-keyring-XXXXXX";
    if (!::mkdtemp(home.data())) {
        std::perror("mkdtemp");
        return 1;
    }
    ::setenv(kKeyringSessionVariable, home.constData(), 1);
    ::setenv("HOME", home.constData(), 1);
    ::setenv("XDG_DATA_HOME", QByteArray(home + "/data").constData(), 1);
    ::setenv("XDG_CONFIG_HOME", QByteArray(home + "/config").constData(), 1);
    ::unsetenv("XDG_RUNTIME_DIR"); // the user's: its keyring sockets are not ours
    ::unsetenv("DBUS_SESSION_BUS_ADDRESS");
    // The daemon's output goes nowhere: it would keep a pipe reading our output open after we end.
    const char* script = "echo -n test-keyring-pw | gnome-keyring-daemon --unlock --components=secrets "
                         ">/dev/null 2>&1 || { echo 'gnome-keyring-daemon did not start' >&2; exit 1; }; "
                         "exec \"$0\" \"$@\"";
    QList<char*> args{const_cast<char*>("dbus-run-session"), const_cast<char*>("--"), const_cast<char*>("sh"),
                      const_cast<char*>("-c"), const_cast<char*>(script)};
    for (int i = 0; i < argc; ++i)
        args.append(argv[i]);
    args.append(nullptr);
    ::execvp("dbus-run-session", args.data());
    std::perror("dbus-run-session (Debian package dbus-daemon)");
    return 1;
}

} // namespace redlock::test
