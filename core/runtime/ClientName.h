#pragma once

#include <QByteArray>

namespace redlock {

// The name the core's own connections give themselves (CLIENT SETNAME): "<application>:<role>", the application
// being QCoreApplication::applicationName() as the embedding program set it ("redlock-console" for the console,
// "redlock" for the CLI). The core never names the console itself, so a service built on it shows up in CLIENT
// LIST under its own name. Characters CLIENT SETNAME refuses (spaces, control characters) become '-'.
QByteArray applicationClientName(const char* role);

} // namespace redlock
