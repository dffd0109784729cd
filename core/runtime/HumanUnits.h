#pragma once

#include <QString>

// Durations and latencies as people read them, in one place for the console, the CLI and the alerts (qBittorrent's
// Utils::Misc::userFriendlyDuration is the model). Translated under the context "redlock::HumanUnits"; numbers
// follow the default QLocale. Not part of the installed library: how an application words time is its own choice.
namespace redlock::HumanUnits {

// An elapsed or configured span: "0 ms", "850 ms", "1.5 s", "3 min 20 s", "2 h 5 min", "3 d 4 h". Two units at
// most, the smaller one left out when it is zero ("5 min", not "5 min 0 s"). Negative (unknown): "—".
QString duration(qint64 ms);

// Time left on a countdown (a lock's validity, a lock-delay): seconds with one decimal below a minute, sub-second
// included ("0.4 s", so a countdown keeps one unit as it runs out), then as duration(). Negative: "—".
QString remaining(qint64 ms);

// A round trip in microseconds: "0.25 ms" (two decimals below 10 ms), "42 ms". Negative (not measured): "—".
QString latency(qint64 us);

} // namespace redlock::HumanUnits
