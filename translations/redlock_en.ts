<?xml version="1.0" encoding="utf-8"?>
<!DOCTYPE TS>
<TS version="2.1" language="en_US">
<context>
    <name>ConnectionProfile</name>
    <message>
        <source>&quot;%1&quot;: put no password in the address; name an environment variable or ask at connect</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>the profile needs a name</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>add at least one node</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>node %1: %2</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>the refresh interval must be at least 200 ms</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>the key pattern is empty (use * for every key)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>node %1: the environment variable %2 is not set</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>node %1: no password given</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>profile &quot;%1&quot; in %2: %3</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>node %1: the password could not be read from the keyring: %2</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>SSH route: %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>node %1 is a unix socket: it cannot be reached over SSH</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>an ssh config file needs an SSH route</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The password could not be read from the keyring: %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1: %2</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>main</name>
    <message>
        <source>Monitoring and admin console for Redlock distributed locks over N independent Redis masters.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Comma-separated nodes: host:port, unix:/path, redis://…</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>list</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Key pattern of the locks to watch (SCAN MATCH glob).</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>glob</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Connect with a saved profile.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>name</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Start a local 5-node cluster with contending clients.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Render the window after the first full refresh to a PNG file and exit.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>file</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>User interface language, e.g. zh_CN or en.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>locale</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Refuse every action that writes to the nodes.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Clock drift factor (default 0.01).</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>factor</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>With --screenshot: wait this many seconds after the first full refresh, so the live charts have a history (default 0).</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>seconds</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>--screenshot-delay must be a number of seconds from 0 to 600</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Dark colours (the Fusion style with a dark palette) whatever the desktop&apos;s theme.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Also serve the watched cluster&apos;s state to Prometheus on http://ADDRESS:PORT/metrics (as `redlock exporter` does), e.g. 127.0.0.1:9721.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>address:port</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>bad --metrics-listen: %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Keep no lock history.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>--journal and --no-journal exclude each other</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Show this dock at start: history, alerts or testBench (may be given more than once).</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>&quot;%1&quot; is not a number</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>file|URL</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>With --screenshot: render the connection profiles dialog (with --profile selected) instead of the window, connecting nowhere.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>--screenshot-profiles needs --screenshot</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The lock history journal to write and show (default: history.sqlite in the application data folder; with --demo a temporary one), or a team&apos;s shared history in PostgreSQL: postgresql://user@host[:port]/database (the password from PGPASSWORD or ~/.pgpass, else from the desktop keyring or asked once; never in the URL or the profile).</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>redlock::AlertMonitor</name>
    <message>
        <source>lock held too long</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>lock contested</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>minority leftover</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>quorum lost</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>node down</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>severe audit finding</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>clock offset</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>node %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>node %1 (%2)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1 is down (%2)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1 is down (%2: %3)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>the clock of %1 is %2 ms off, beyond the drift budget of %3 ms</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>only %1 of %2 nodes are up (quorum %3): no lock can be granted or released</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1: %2</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>lock %1 held by %2 for longer than %3</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>lock %1 contested by %2 tokens, none on a quorum, for longer than %3</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>lock %1: a leftover on %2 of %3 nodes, older than %4 (a failed or half-released acquire)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>lock %1: a value without expiry on %2 of %3 nodes (%4): it never goes away by itself</source>
        <translation type="unfinished"></translation>
    </message>
    <message numerus="yes">
        <source>%n lock(s), e.g. %1</source>
        <translation type="unfinished">
            <numerusform></numerusform>
            <numerusform></numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>%n alert(s), e.g. %1</source>
        <translation type="unfinished">
            <numerusform></numerusform>
            <numerusform></numerusform>
        </translation>
    </message>
</context>
<context>
    <name>redlock::AlertThresholdsDialog</name>
    <message>
        <source>One holder keeps a lock longer than:</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>A lock stays contested (no token on a quorum) longer than:</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>A minority leftover is older than:</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Fewer than a quorum of nodes are up for:</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>A node is unreachable for:</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The safety audit has a severe finding for:</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>A node&apos;s clock is off by more than the drift budget for:</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Alert thresholds</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>An alert is raised when its condition has lasted the time given here, and cleared when the condition has been gone for the hysteresis below. The clock-offset budget is the Redlock drift of the largest TTL in use.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source> s</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Clear an alert when its condition has been gone for:</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source> min</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>never</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Remind of an unacknowledged alert every:</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>redlock::AlertsFeature</name>
    <message>
        <source>Alerts</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>A&amp;lerts</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>&amp;Alerts panel</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>&amp;Thresholds…</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>&amp;Unmute all</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Redlock Console</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Notifications go to the system tray.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>No system tray here: alerts notify in the status bar and open this panel.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Alerts (%1)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Redlock alert (reminder): %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Redlock alert: %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1 — %2</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>alert</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>alert cleared</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1: %2</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>redlock::AlertsModel</name>
    <message>
        <source>cleared</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>acknowledged</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>muted</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>active</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>State</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Rule</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Alert</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Since</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Raised</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Cleared</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1 (%2)</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>redlock::AlertsPanel</name>
    <message>
        <source>&amp;Acknowledge</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The alert stays listed and stops notifying</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Mute rule</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Mute key or node</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>&amp;Unmute all</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>&amp;Thresholds…</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>for 15 minutes</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>for 1 hour</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>for 8 hours</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>for 24 hours</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>redlock::AuditLog</name>
    <message>
        <source>cannot open the audit log %1: %2</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>cannot write the audit log %1: %2</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>cannot sync the audit log %1 to disk: %2</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>cannot sync the audit log folder %1 to disk: %2</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>cannot create the audit log folder %1 (%2)</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>redlock::AuditLogDialog</name>
    <message>
        <source>Audit log</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Time</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>User</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Profile</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Action</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Key</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Per-node result</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Reload</source>
        <translation type="unfinished"></translation>
    </message>
    <message numerus="yes">
        <source>%n entr(ies) in %1</source>
        <translation type="unfinished">
            <numerusform></numerusform>
            <numerusform></numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>%n unreadable line(s) skipped</source>
        <translation type="unfinished">
            <numerusform></numerusform>
            <numerusform></numerusform>
        </translation>
    </message>
</context>
<context>
    <name>redlock::BenchPanel</name>
    <message>
        <source> ms</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Fencing token</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Auto-extend</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Resource:</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>TTL:</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Retries:</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Retry delay:</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Retry jitter:</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Drift factor:</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Clients (K):</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Iterations:</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Settings</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Acquire</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Extend</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Release</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>No lock held.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Node</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Outcome</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Latency</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Detail</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Extensions:</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Run K × iterations</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Export CSV…</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Export JSON…</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>No run yet.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Errors</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Acquire latency</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Single lock</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Run</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Read-only mode: the test bench writes locks and is disabled.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Acquiring…</source>
        <translation type="unfinished"></translation>
    </message>
    <message numerus="yes">
        <source>Not acquired after %n attempt(s): %1</source>
        <translation type="unfinished">
            <numerusform></numerusform>
            <numerusform></numerusform>
        </translation>
    </message>
    <message>
        <source>Released on %1 of %2 nodes.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Release incomplete (%1 of %2 nodes): %3</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>held by %1 (PTTL %2 ms)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>fence %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>; fencing token %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>; auto-extended</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1 extended on %2 of %3 nodes in %4, validity %5 ms</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1 extension failed (%2 of %3 nodes): %4</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>the lock could not be kept</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>LOST: %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Running %1 clients × %2 iterations…</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1 of %2 acquires succeeded (%3 %) in %4 ms · latency p50 %5, p99 %6 · contention seen in %7 acquire(s)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Acquires</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>latency from (ms)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>acquires</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Export run as JSON</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Export run as CSV</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>JSON (*.json)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>CSV (*.csv)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Export failed</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Cannot write %1: %2</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Held: validity %1 ms of TTL %2 ms; token %3</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>redlock::ChartsPanel</name>
    <message>
        <source>Latency per node</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>ms</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Clock offset per node</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Lock activity</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>per s</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>#%1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>acquired</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>released/expired</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>contention</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>failed (own)</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>redlock::ClusterController</name>
    <message>
        <source>SSH: %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>connecting through the SSH tunnel via %1</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>redlock::ClusterWatch</name>
    <message>
        <source>no nodes to watch</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>redlock::CommandRestartBackend</name>
    <message>
        <source>no program configured</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1 could not be started: %2</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1 did not finish within %2 ms and was killed</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1 crashed</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1 exited with code %2</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>redlock::ConnectionCheck</name>
    <message>
        <source>unix socket %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>TCP %1:%2</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>connect</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>TLS handshake</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>certificate verified</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1: %2</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>handshake</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>default user</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>database %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>PONG</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>unknown</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>role</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>master</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1: a replica cannot hold Redlock locks</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>keyspace events</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>off: the console refreshes by scanning only</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>&quot;%1&quot;</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>unknown (CONFIG refused)</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>redlock::ConsoleLauncher</name>
    <message>
        <source>Demo: local 5-node cluster with contending clients</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>--nodes: %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>no profile named &quot;%1&quot; (saved profiles: %2)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Password</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Password for node %1 (%2):</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>--screenshot needs something to show: --demo, --nodes or --profile</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Cannot connect</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>cannot write the screenshot to %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>screenshot saved to %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Redlock Console</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>--metrics-listen: %1</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>redlock::DatabasePasswordDialog</name>
    <message>
        <source>Remember in keyring</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Lock history password</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The lock history at %1 needs a password (none in PGPASSWORD or ~/.pgpass).</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Kept in the desktop keyring (Secret Service), never in the profile file.</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>redlock::DemoWorkload</name>
    <message>
        <source>cannot start the demo cluster: %1</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>redlock::EventLogModel</name>
    <message>
        <source>previous token %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>token %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>operator: %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Time</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Event</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Lock key</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Holder</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Detail</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>token %1; nodes %2 restarted without it: its holder may still think it holds it</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>token %1; already held when first seen: acquired earlier, when is not known</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>; changed hands between %1 and %2, not observed</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>token %1; ended between %2 and %3, not observed</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>redlock::EventLogPanel</name>
    <message>
        <source>Filter events by key, holder or detail</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>All events</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Lock events</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Operator actions</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>redlock::ForceRelease</name>
    <message>
        <source>no nodes configured</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>per-node timeout must be positive</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>shutting down</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>read-only mode: force release refused</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>no lock key given</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>the expected token is required: force release deletes only the token you saw</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>a hash (Redisson-style lock): force release handles string locks only</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>a %1, not a lock value</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1 (the compare-and-delete may or may not have run)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>the audit log could not be written, so nothing was deleted: %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>unexpected reply from the node</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>the lock-delay must be between 1 ms and %1 ms (0 deletes)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>no expiry: give the lock-delay in milliseconds, or 0 to delete</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>the expected token was set again after the compare-and-set ran</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1 (the compare-and-set may or may not have run)</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>redlock::ForceReleaseDialog</name>
    <message>
        <source>Force release</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Key:</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Holder:</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>(unknown)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Token seen:</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Node</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>What happens</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Value found</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>PTTL</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Latency</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Reading the key on every node…</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Type the key name to confirm</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Why (written to the audit log)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Read-only mode: the preview is shown, nothing can be released.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>not attempted</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>delete: the token still equals the one shown</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>skip: the token changed</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>token changed: left to the new holder</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>skip: the key is gone</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>gone: nothing to delete</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>not a string lock (%1): left alone</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>unreachable: %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>unreachable (the delete may or may not have run): %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>refused by the node: %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Releasing…</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Close</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1 ms</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Refused: %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Preview: the lock would be deleted on %1 of %2 nodes; %3 unreachable.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Deleted on %1 of %2 nodes; left to a new holder on %3; gone on %4; unreachable %5.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>No node holds the token shown: there is nothing to release.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Production profile. Release the lock “%1” held by %2 on %3 node(s)? Type the key name to confirm.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Release the lock “%1” held by %2 on %3 node(s)? Nodes where the token changed are left alone.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The deletes ran, but their result could not be written to the audit log (the intent line is there): %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>deleted</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>automatic: the lock&apos;s remaining validity plus drift (recommended)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>fixed duration</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>none: delete the key, free at once</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source> ms</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Lock-delay:</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Lock-delay</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>free at once</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>not free by itself, or not known (nodes without expiry or unreachable)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>free at %1 (in %2)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>tombstone: the token still equals the one shown</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>released: tombstone in place</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>skip: no expiry to measure</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Preview: the token would be replaced by a tombstone on %1 of %2 nodes; %3 unreachable.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The lock-delay lasts up to %1.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>No expiry on %1 node(s): an automatic lock-delay has nothing to measure; choose a fixed duration, or none.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Afterwards the lock is %1.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Released with a lock-delay on %1 of %2 nodes; left to a new holder on %3; gone on %4; unreachable %5.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The lock is %1.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The lock has no expiry: choose a fixed lock-delay, or none, to release it.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>On a node where the lock&apos;s remaining validity plus the clock drift is longer, the tombstone gets that instead: a fixed lock-delay never frees the lock before the old holder&apos;s validity is over. A key without expiry gets exactly this duration.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1 ms (raised)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The fixed lock-delay is raised on %1 node(s) to cover the old holder&apos;s remaining validity plus drift.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Instead of deleting the key, the token is replaced by a tombstone that expires after the lock-delay: the old holder can no longer extend or release it, and nobody can acquire the lock before the old holder&apos;s validity is over, even if that holder is still running (a fixed duration is raised to that where needed; a lock without expiry stays blocked for the duration you choose).</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>This token holds a quorum of nodes with %1 of validity left: a running holder&apos;s lock. Releasing it takes the lock from that holder.</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>redlock::ForceReleaseNode</name>
    <message>
        <source>not attempted</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>delete: the token still matches</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>deleted</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>skipped: another token holds the key (untouched)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>skipped: no such key</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>skipped: not a string lock (untouched)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>unreachable</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Redis error (untouched)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>lock-delay: the token still matches, a tombstone replaces it</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>released with lock-delay (tombstone)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>skipped: the lock has no expiry, an automatic lock-delay cannot be measured (untouched)</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>redlock::HistoryFeature</name>
    <message>
        <source>Lock history</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Lock &amp;history</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>History of the selected &amp;lock</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Hi&amp;story</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>by the operator</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>history recovered</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>history not written</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>history warning</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>History not written</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>redlock::HistoryModel</name>
    <message>
        <source>Token: %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Key</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Holder</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>From</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>To</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Held for</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Ended</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Extended</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>at least since %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>at least %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Already held when first seen (watching started, or the lock&apos;s state was unknown until then): it was acquired earlier, when is not known.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Last seen held at this time; when watching resumed, another holder had it or nobody did: it ended after this, when is not known.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Watching stopped while it was held: whether and when it ended is not known.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>between %1 and %2</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Held at least until it was last seen; it ended after that, when is not known.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Nobody saw it end (no keyspace event: notify-keyspace-events is off, or the rescan found it gone first): still held when last seen at %1, gone when read again at %2.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1 (pid %2)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>not watched since %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>not watched %1–%2</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>nobody watched</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>not watched</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>after %1 stopped</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>No writer watched the locks from %1 to %2 (the exporter, `redlock watch` or the console stopped, restarted or died): what happened then is not in the history. A tenure that ended in it ends &quot;while not watched&quot;, never as a release.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>now</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Seen by</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>redlock::HistoryPanel</name>
    <message>
        <source>every key; a glob such as orders:*</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>any holder; part of its name or token</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Last 15 minutes</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Last hour</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Last 24 hours</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Last 7 days</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>From … to …</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Search</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Key:</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Holder:</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>No lock history is kept (the console was started with --no-journal).</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Searching…</source>
        <translation type="unfinished"></translation>
    </message>
    <message numerus="yes">
        <source>%n interval(s)</source>
        <translation type="unfinished">
            <numerusform></numerusform>
            <numerusform></numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>%n event(s)</source>
        <translation type="unfinished">
            <numerusform></numerusform>
            <numerusform></numerusform>
        </translation>
    </message>
    <message>
        <source>more matched: narrow the filters</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1, the deployment&apos;s history: reading only, its own writers keep it</source>
        <translation type="unfinished"></translation>
    </message>
    <message numerus="yes">
        <source>%n span(s) nobody watched: what happened then is not known</source>
        <translation type="unfinished">
            <numerusform></numerusform>
            <numerusform></numerusform>
        </translation>
    </message>
    <message>
        <source>The password was not remembered: %1</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>redlock::HistoryTimeline</name>
    <message>
        <source>Select an interval to see the key&apos;s timeline</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>held, released or taken over</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>expired</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>lost or force-released</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>No holder in this time range</source>
        <translation type="unfinished"></translation>
    </message>
    <message numerus="yes">
        <source>%n more holder(s) not shown: enlarge the panel</source>
        <translation type="unfinished">
            <numerusform></numerusform>
            <numerusform></numerusform>
        </translation>
    </message>
    <message>
        <source>end not seen</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>held before first seen</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>at least %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>seen by %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>not watched</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>redlock::HistoryWriter</name>
    <message>
        <source>%1 (pid %2)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1 (pid %2 on %3)</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>redlock::HolderFormat</name>
    <message>
        <source>unrecognised</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Redlock Console core</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>node-redlock (hex)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Redsync (base64)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>pottery / RedLock.net (uuid)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>redlock-rb (uuid)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Redisson RLock</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>lock-delay tombstone</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>redlock::HolderInfo</name>
    <message>
        <source>%1 pid %2</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1 pid %2 (%3)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1 thread %2 ×%3</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Redisson %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message numerus="yes">
        <source>hash with %n field(s)</source>
        <translation type="unfinished">
            <numerusform></numerusform>
            <numerusform></numerusform>
        </translation>
    </message>
    <message>
        <source>released by %1 at %2</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>redlock::HumanUnits</name>
    <message>
        <source>—</source>
        <extracomment>A duration or latency that is not known (not measured, no TTL).</extracomment>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1 ms</source>
        <extracomment>Milliseconds, e.g. &quot;850 ms&quot; (a duration) or &quot;0.25 ms&quot; (a round trip).</extracomment>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1 s</source>
        <extracomment>A duration in seconds with one decimal, e.g. &quot;1.5 s&quot;.</extracomment>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1 min</source>
        <extracomment>Whole minutes, e.g. &quot;5 min&quot;.</extracomment>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1 min %2 s</source>
        <extracomment>Minutes and seconds, e.g. &quot;3 min 20 s&quot;.</extracomment>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1 h</source>
        <extracomment>Whole hours, e.g. &quot;2 h&quot;.</extracomment>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1 h %2 min</source>
        <extracomment>Hours and minutes, e.g. &quot;2 h 5 min&quot;.</extracomment>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1 d</source>
        <extracomment>Whole days, e.g. &quot;3 d&quot;.</extracomment>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1 d %2 h</source>
        <extracomment>Days and hours, e.g. &quot;3 d 4 h&quot;.</extracomment>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>redlock::JournalImport</name>
    <message>
        <source>%1: no such file</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1: not a file: a SQLite lock history journal is</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>the Qt SQLite driver is missing (Debian: libqt6sql6-sqlite)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1: not a lock history journal (the file the console, `redlock watch --journal FILE` and `redlock exporter --journal FILE` write)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1: cannot open (%2)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1: the journal has schema version %2, written by a newer Redlock Console; this one reads up to %3: import it with the newer one</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1: not a postgresql://user@host[:port]/database URL: the import goes into a shared history in PostgreSQL</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1: cannot read (%2)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>cannot import</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source> Nothing was imported: the shared history is as it was.</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>redlock::JournalStore</name>
    <message>
        <source>the file is not a SQLite database or is damaged (%1): move it away or choose another file</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>the file is locked by another process (waited %1 ms: %2)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>the disk is full or the journal reached its size limit (%1)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>unknown error</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1: %2: %3</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>cannot write</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1: no such journal (the console and `redlock watch --journal` write it)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>the Qt SQLite driver is missing (Debian: libqt6sql6-sqlite)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>cannot open</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>cannot read</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1: not a lock history journal</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1: cannot switch to WAL mode (the journal mode stays %2)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>cannot create the tables</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>cannot prune</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1: cannot create the writer lock %2: %3</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1: cannot lock %2: %3</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>process %1 (%2 on %3)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>another process</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1: %2 writes this journal: one writer per journal, or the two would end each other&apos;s tenures; this one writes once that one stops</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1: not a regular file (%2): the journal must be a file</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>a folder</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>a FIFO</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>a device or socket</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1: %2</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1: the Qt SQLite driver gives no SQLite handle</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>redlock::JournalWriterPassword</name>
    <message>
        <source>The password was not remembered: %1</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>redlock::KeyReader</name>
    <message>
        <source>%1 refused: %2</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>no TTL</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>not a lock format</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>page scripts off</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>unexpected reply to the page script</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>redlock::ListenAddress</name>
    <message>
        <source>&quot;%1&quot;: expected [IPv6 address]:port</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>&quot;%1&quot;: expected address:port, e.g. 127.0.0.1:9721</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>&quot;%1&quot;: write an IPv6 address in brackets, e.g. [::1]:9721</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>&quot;%1&quot;: no address (127.0.0.1 serves this machine only, 0.0.0.0 every interface)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>&quot;%1&quot;: the port must be a number from 0 to 65535</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>&quot;%1&quot;: %2 is not an IP address (host names are not resolved)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>cannot listen on %1: %2</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>redlock::LocalCluster</name>
    <message>
        <source>a cluster needs at least one node</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>cannot create a temporary directory: %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>cannot create %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>redis-server not found (install redis-server or set REDLOCK_REDIS_SERVER)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>no free loopback port</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>cannot start %1: %2</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>redis-server on port %1 did not become ready: %2</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>no port could be bound after several attempts</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>no node %1</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>redlock::LocalClusterRestartBackend</name>
    <message>
        <source>no such node in the local cluster</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>the process could not be stopped</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>redlock::LockDetailPanel</name>
    <message>
        <source>No lock selected</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Select a row in the locks table to see it on every node.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Node</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Presence</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Token / holder</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>PTTL now</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Last read</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Read latency</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Time</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Event</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Holder</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Recent holders of this key (live events)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>This key is gone from every reachable node.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>absent</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>#%1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1 — holder: %2 (%3). Rests on nodes %4; quorum %5 of %6.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>none</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>no TTL</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>PTTL read at %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>no expiry: stuck</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>majority</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>other</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>unreachable</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>no permission</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>not a lock</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>tombstone (lock-delay)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source> (not counted)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Quarantined for a delayed restart: not counted by the verdict.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>other, no expiry (leftover)</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>redlock::LockEvent</name>
    <message>
        <source>acquired</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>released</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>expired</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>token changed</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>contested</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>lost on node restart</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>extended</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>seen held</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>released or expired</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>evicted</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>redlock::LockInspector</name>
    <message>
        <source>unexpected SCAN reply</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Pub/Sub connection lost: %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>reconnected: checking whether the node restarted</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>PSUBSCRIBE refused: %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>notify-keyspace-events is off</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>notify-keyspace-events &quot;%1&quot; lacks some of &quot;%2&quot;</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>notify-keyspace-events unknown (CONFIG GET: %1)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>unexpected reply</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>keyspace events not used</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>redlock::LockJournal</name>
    <message>
        <source>force-released</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>still held</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>taken over</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>observation ended</source>
        <translation type="unfinished"></translation>
    </message>
    <message numerus="yes">
        <source>Lock history is not being written: %1. Monitoring goes on; %n event(s) wait in memory and are written when the journal can take them again.</source>
        <translation type="unfinished">
            <numerusform></numerusform>
            <numerusform></numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>%n event(s) were dropped (the oldest, observed from %1 to %2): the memory holds at most %3.</source>
        <translation type="unfinished">
            <numerusform></numerusform>
            <numerusform></numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>Lock history is written again to %1: %n event(s) written late</source>
        <translation type="unfinished">
            <numerusform></numerusform>
            <numerusform></numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>, %n dropped while it failed.</source>
        <translation type="unfinished">
            <numerusform></numerusform>
            <numerusform></numerusform>
        </translation>
    </message>
    <message>
        <source>, none lost.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>ended while not watched</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>force-released on a minority (still held)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>&quot;%1&quot; is out of range: at most %2 years back</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1 still takes %2 MiB after pruning, beyond its size target of %3 MiB: the locks held now take that much, and their tenures are kept until they end</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>redlock::LockKeeper</name>
    <message>
        <source>less than the safety margin (%1 ms) of validity left and no extension has succeeded</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>redlock::LockVerdict</name>
    <message>
        <source>held</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>expiring</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>contested</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>minority leftover</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>free</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>unknown</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>stuck (no expiry)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>released by operator</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>redlock::LocksModel</name>
    <message numerus="yes">
        <source>%n tokens</source>
        <translation type="unfinished">
            <numerusform></numerusform>
            <numerusform></numerusform>
        </translation>
    </message>
    <message>
        <source>unreachable</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>absent</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>not a lock</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>no TTL</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>other %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1 %2/%3</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>—</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1
format: %2
token: %3</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>#%1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1; rests on nodes %2 (quorum %3 of %4)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Observed validity: the quorum-th longest remaining TTL among the holders, minus clock drift</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Node #%1: %2</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>token: %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Lock key</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Holder</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Verdict</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Validity</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>TTL #%1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>no permission</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Remaining TTL on node #%1. Solid bar: majority token; hatched with %2: another token; %3 absent; %4 unreachable</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>lock-delay %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Released by an operator with a lock-delay; when it is free is not known (nodes unreachable or without expiry).</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Released by an operator with a lock-delay: free at %1 (in %2).</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Not counted: node(s) %1 quarantined for a delayed restart; the verdict treats them as unreachable, whatever they hold.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>free in %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1: validity ended, reading again</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1 · no expiry on %2</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>No expiry on node(s) %1: a value that never goes away by itself (%2) sits beside the verdict&apos;s holder. Force release on this lock replaces that value, not the holder&apos;s token.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The observed validity of its quorum ran out after the last read: extended unseen, or expired. The key is being read again.</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>redlock::MainWindow</name>
    <message>
        <source>Redlock Console</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>&amp;Connect…</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Choose, edit and check connection profiles</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>&amp;Refresh now</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Scan every node for locks now instead of at the next interval</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>&amp;Quit</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>&amp;Cluster</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Cluster</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Filter locks by key, holder or verdict</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Locks</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Charts</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Event log</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>node restarted</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>node #%1 %2 restarted (downtime %3)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>unknown</source>
        <translation type="unfinished"></translation>
    </message>
    <message numerus="yes">
        <source>%n node(s)</source>
        <translation type="unfinished">
            <numerusform></numerusform>
            <numerusform></numerusform>
        </translation>
    </message>
    <message>
        <source>Profile: %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source> — read-only</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Not connected</source>
        <translation type="unfinished"></translation>
    </message>
    <message numerus="yes">
        <source>%n lock(s)</source>
        <translation type="unfinished">
            <numerusform></numerusform>
            <numerusform></numerusform>
        </translation>
    </message>
    <message>
        <source>%1 of %2 shown</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Scanned %1 keys in %2 ms at %3</source>
        <translation type="unfinished"></translation>
    </message>
    <message numerus="yes">
        <source> · %n non-lock key(s) skipped</source>
        <translation type="unfinished">
            <numerusform></numerusform>
            <numerusform></numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source> · %n node error(s)</source>
        <translation type="unfinished">
            <numerusform></numerusform>
            <numerusform></numerusform>
        </translation>
    </message>
    <message>
        <source>&amp;Filter locks</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>&amp;Help</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>&amp;Keyboard shortcuts</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>&amp;About Redlock Console</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Keyboard shortcuts</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Action</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Shortcut</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>&lt;h3&gt;Redlock Console %1&lt;/h3&gt;&lt;p&gt;Monitoring and admin console for Redlock distributed locks over N independent Redis masters.&lt;/p&gt;&lt;p&gt;Built with Qt %2, running on Qt %3.&lt;/p&gt;&lt;p&gt;The source code is under the MIT licence. The console links Qt Charts, which Debian ships under the GNU GPL version 3, so the console in binary form is distributed under the terms of the GPL-3 as well.&lt;/p&gt;</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>About Redlock Console</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>held %1 · expiring %2 · contested %3 · minority leftover %4 · unknown %5 · stuck %6</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Quorum: yes — %1 of %2 nodes up (quorum %3)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Quorum: NO — %1 of %2 nodes up (quorum %3)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source> · released by operator %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message numerus="yes">
        <source> · %n key(s) not in a lock format passed over</source>
        <translation type="unfinished">
            <numerusform></numerusform>
            <numerusform></numerusform>
        </translation>
    </message>
    <message>
        <source>Under the pattern * only values in a lock format the console recognises (its own tokens, node-redlock, Redsync, uuids, Redisson) count as locks; keys with other values are passed over. A profile pattern other than * names the lock keys: then every value with a TTL under it counts.</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>redlock::NodeEndpoint</name>
    <message>
        <source>empty node address</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>bad database index in &quot;%1&quot;</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>unix socket path must be absolute: &quot;%1&quot;</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>bad node URL &quot;%1&quot;</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>bad port in &quot;%1&quot;</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>bad database index &quot;%1&quot; in &quot;%2&quot;</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>missing &apos;]&apos; in &quot;%1&quot;</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>unexpected text after &apos;]&apos; in &quot;%1&quot;</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>IPv6 addresses need brackets: &quot;[%1]:port&quot;</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>bad host &quot;%1&quot;</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>node &quot;%1&quot;: %2</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>no nodes given</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>nodes %1 and %2 are the same server (%3 and %4): its vote would count twice towards the quorum</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>bad port &quot;%1&quot;: expected a number from 1 to 65535</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>redlock::NodeHealth</name>
    <message>
        <source>connecting</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>up</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>authentication failed</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>no permission</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>down</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>not answering</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>redlock::NodeOutcome</name>
    <message>
        <source>not attempted</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>no answer before the decision</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>acquired</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>held by another token</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>released</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>extended</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>not held: nothing changed</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>timeout</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>connection error</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Redis error</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>redlock::NodeRestartScheduler</name>
    <message>
        <source>read-only mode: node restart refused</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>no node %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>node %1 already has a restart pending</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>a delay of %1 ms is shorter than the %2 ms the node must stay out (the largest lock TTL plus drift): locks it voted for could still be live when it votes again</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>refused: %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>SHUTDOWN NOSAVE needs an explicit confirmation: the node loses its data and must be brought back by something else</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>both a stop and a start program are needed</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>abandoned before the stop step</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>node %1 is not a node of the local cluster</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>unknown restart method</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source> (new run_id %1)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>read-only mode: node %1 is due but was not started; start it yourself or leave read-only mode</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>node %1 is being stopped or started right now</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>node %1 has no pending restart</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>node %1 still answers and its run_id cannot be read: the delay counts from when it stops answering</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>node %1 still answers as the same instance (run_id %2): it has not gone down, and the delay counts from when it stops answering</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>node %1 answers again %2 ms before the delay has passed%3: clients count it again and it may vote for locks it lost. The console cannot keep it out; it only flags it</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>the start step failed</source>
        <translation type="unfinished"></translation>
    </message>
    <message numerus="yes">
        <source>node %1 could not be started (%n attempt(s)); last error: %2</source>
        <translation type="unfinished">
            <numerusform></numerusform>
            <numerusform></numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>node %1 is back (new run_id %2), started by something else after %n failed start(s)</source>
        <translation type="unfinished">
            <numerusform></numerusform>
            <numerusform></numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>node %1 is back (a new instance answers; its run_id cannot be read yet, e.g. while it loads its data) after %n failed start(s)</source>
        <translation type="unfinished">
            <numerusform></numerusform>
            <numerusform></numerusform>
        </translation>
    </message>
    <message>
        <source>the audit log could not be written, so node %1 was not stopped: %2</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>the pending restarts could not be saved, so node %1 was not stopped (a console restart would forget that it is kept down): %2</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>the restart of node %1 %2 was saved just before its stop step, and the node still answers as the same instance (run_id %3): the console went away before stopping it. The restart is dropped and the node counts again; schedule it again if it is still needed</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>not started, because the audit log could not be written: %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>the audit log could not be written, so the restart of node %1 is still tracked (the node stays out of the count): %2</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>the pending restarts could not be saved: %1. A console restarted now may not know which nodes it keeps down</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>cannot create the folder %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>cannot write %1: %2</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>cannot sync the folder %1 to disk: %2</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>the pending restarts are saved again in %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1 is damaged and could not be renamed to %2, so it is not written over and no restart can be scheduled: move it away, then reconnect</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>named in a damaged pending-restart file (%1): how and when it was stopped is not known, so the console keeps it out and does not start it; check the node, then abandon its restart</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The pending-restart file %1 is damaged: %2.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>It was kept as %1, and a new one is started.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>It names no node of this profile.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Node(s) named in it are kept out of the count and not started by the console: %1. Check each one (start it if it is down), then abandon its restart.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1 cannot be read (%2), so it is not written over and no restart can be scheduled: fix its permissions, then reconnect</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>it is not a JSON object (%1)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>its version (%1) is not one this console reads (1 or %2)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>it has no list of restarts</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>a pending restart of %1 stays in %2 for the profile it belongs to: not a node of this profile</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>entry %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>node %1 %2 is still kept out: %3</source>
        <translation type="unfinished"></translation>
    </message>
    <message numerus="yes">
        <source>%n of its entries cannot be read (%1)</source>
        <translation type="unfinished">
            <numerusform></numerusform>
            <numerusform></numerusform>
        </translation>
    </message>
    <message>
        <source>node %1: the audit log could not be written (%2 not recorded): %3</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>node %1 is the same Redis server as node %2 (same run_id), which already has a restart pending</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>redlock::NodeSession</name>
    <message>
        <source>read-only mode: enabling keyspace events refused</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>unexpected reply</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>notify-keyspace-events set to &quot;%1&quot;</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>no reply to PING within %1 ms</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>redlock::NodesModel</name>
    <message>
        <source>#%1 %2</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source> (degraded)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>?</source>
        <translation type="unfinished"></translation>
    </message>
    <message numerus="yes">
        <source>master, %n replica(s)</source>
        <translation type="unfinished">
            <numerusform></numerusform>
            <numerusform></numerusform>
        </translation>
    </message>
    <message>
        <source>master</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>replica</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>—</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1 ms</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1, restarted at %2</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Refused by the node: %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Redis %1, run_id %2
maxmemory-policy %3, AOF %4, appendfsync %5</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>on</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>off</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Restart seen at %1; estimated downtime %2</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>unknown</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Node</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>State</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Role</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Latency</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Clock offset</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Uptime</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Safety audit</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1 s</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1 cmd/s</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source> · rescan only</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>This console sends this node %1 commands/s.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Lock view: %1/s (changes %2/s, rescan %3/s within a budget of %4/s).</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Lock view: %1/s (changes %2/s, rescan %3/s, no budget: full passes at full speed).</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Changes show at once: keyspace events.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>No keyspace events (%1): changes show only when the rescan reaches them.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>A full rescan takes about %1.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Rescan under way: %1%.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Node health (PING, TIME, INFO): %1/s.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Console load</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>no findings</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1 ms ± %2</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>via %1 → %2</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>#%1 %2 (via %3)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>unreachable: SSH tunnel not up</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source> · per key</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Lock keys are read with one read-only script per page of keys (EVALSHA_RO).</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Lock keys are read per key (a few commands each): %1</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>redlock::NodesPanel</name>
    <message>
        <source>#%1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>cluster</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>unlimited</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source> commands/s per node</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>How many commands per second the lock view&apos;s background rescan may send each node. Live changes come from keyspace events; the rescan catches what they miss, and is the only source on nodes without them. 0: no limit (a full pass at full speed).</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>&amp;Rescan budget:</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Safety audit: no findings</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1 [%2]: %3</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>redlock::OperatorFeature</name>
    <message>
        <source>&amp;Force release…</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Delete the selected lock on the nodes where it still holds the token shown</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Restart node with &amp;delay…</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>&amp;Abandon delayed restart</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Stop tracking the selected node&apos;s restart; it is not started again</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>A&amp;udit log…</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Test bench</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>&amp;Test bench</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>&amp;Operations</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Force release…</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>delayed restart</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>node #%1 %2: %3</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>node back early</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Read-only mode: destructive actions are disabled</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>force release</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>refused: %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>deleted on %1 of %2 nodes, left to a new holder on %3, unreachable %4</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Take the selected node out for longer than the largest TTL, then start it again (kept down by the console; with SHUTDOWN NOSAVE only watched)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>node #%1 %2 answered %3 before its delay has passed: %4</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>answers — %1 of the delay left</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>kept down — %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>watched — %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>released with a lock-delay on %1 of %2 nodes (up to %3 ms), left to a new holder on %4, unreachable %5</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>restart given up</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>start failed</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>node #%1 %2 could not be started (%3), kept out; next attempt in %4</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>operator action failed</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>kept out — check it, then abandon its restart</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source> — its result could not be written to the audit log (the intent line is there): %1</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>redlock::PasswordKeyring</name>
    <message>
        <source>the keyring holds no password for this node</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>no keyring is running (Secret Service: gnome-keyring or KWallet); choose &quot;Ask at connect&quot; or an environment variable instead (%1)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>the keyring refused: %1</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>redlock::PostgresJournalStore</name>
    <message>
        <source>%1: not a postgresql://user@host[:port]/database URL</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>a --journal URL holds no password (the command line is visible to every user of this machine): remove it from the URL and give it in PGPASSWORD or ~/.pgpass</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1: the URL names no user or no database: postgresql://user@host[:port]/database</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1: %2</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>unknown error</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>the database server&apos;s disk is full (%1)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>the server is read-only (a standby replica?): point --journal at the primary (%1)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1 (the password comes from PGPASSWORD or ~/.pgpass, never from the URL)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>the server does not answer (%1); the journal connects again</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>the Qt PostgreSQL driver is missing (Debian: libqt6sql6-psql)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>cannot connect</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>cannot open</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>cannot read</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>no lock history in this database yet (the console, `redlock watch --journal URL` and `redlock exporter --journal URL` write it)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>the history there has schema version %1, written by a newer Redlock Console; this one reads up to %2: upgrade it</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>the server is read-only (a standby replica?): the history is written to the primary; point --journal at it</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>cannot create the tables</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>the history there has schema version %1, written by a newer Redlock Console; this one writes version %2 and leaves it alone: upgrade this writer</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>cannot write</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>no session</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>cannot prune</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>redlock::PrivateFile</name>
    <message>
        <source>%1 holds lock tokens and others may read it (mode %2), and it cannot be made private (%3): make it readable by its owner only (chmod 600)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>cannot create the folder %1: %2</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1 is not a folder</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>cannot create %1: %2</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>redlock::ProfilesDialog</name>
    <message>
        <source>TLS</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Read-only: no action may write to the nodes</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Connection profiles</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Saved profiles</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>New</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Delete</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Address</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>DB</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>ACL user</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Password</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Add node</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Remove node</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Check connection</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>host:port, [v6]:port, unix:/path/redis.sock</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>default</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>No password</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Ask at connect</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>From environment variable</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>e.g. REDIS_PASSWORD_1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>CA bundle (PEM); empty = system store</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>client certificate (PEM)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>client key (PEM)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>name to verify; empty = host</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Selected node</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Database</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Password for the check</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>CA file</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Client certificate</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Client key</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>TLS server name</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>*</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source> ms</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Watching</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Key pattern</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Clock drift factor</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Full refresh every</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>&quot;Check connection&quot; reports every node here, step by step.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Profile name</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Save</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Connect</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Delete profile</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Delete the profile &quot;%1&quot;?</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Cannot connect</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>$%1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>ask at connect</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>none</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>yes</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>no</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Cannot save the profile</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Saved &quot;%1&quot; (passwords are not saved).</source>
        <translation type="unfinished"></translation>
    </message>
    <message numerus="yes">
        <source>Checking %n node(s)…</source>
        <translation type="unfinished">
            <numerusform></numerusform>
            <numerusform></numerusform>
        </translation>
    </message>
    <message>
        <source>address</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>    %1 %2: %3</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>    failing step: %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Production: force release and restarts need the key or node typed in</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>add at least one node</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>node %1 (%2): ready for Redlock</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>node %1 (%2): failed</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Cannot open the profile</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Remember in the keyring</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>for the check; saved only in the keyring, when chosen above</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>keyring</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Node %1: the password could not be kept in the keyring: %2</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Saved &quot;%1&quot; (passwords only in the keyring, not in the profile).</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Rename…</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>this console&apos;s own journal</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The deployment&apos;s lock history: the journal `redlock exporter --journal` writes. The history view shows it, including what happened while this console was closed; the console reads it only.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Lock history</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>direct; or user@bastion, or jump1,jump2</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Reach every TCP node through this SSH jump host (ProxyJump chain: hops separated by commas), with the system&apos;s ssh client: your ~/.ssh/config, ssh-agent and known_hosts; an unknown or changed host key is refused.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>~/.ssh/config</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>SSH jump host</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>SSH route</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>ssh config file</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Rename profile</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>New name:</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Deleted &quot;%1&quot;.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Deleted &quot;%1&quot;; these passwords could not be removed from the keyring: %2</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>A profile named &quot;%1&quot; exists already.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Renamed &quot;%1&quot; to &quot;%2&quot;; these passwords could not be moved in the keyring: %3</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>SSH tunnel</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Starting the SSH tunnel via %1…</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>redlock::RedisConnection</name>
    <message>
        <source>connect timed out after %1 ms</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>connection closed</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>server closed the connection</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>no CA certificate could be read from %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>no client certificate could be read from %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>the client key in %1 could not be read</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>cannot open client key %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>TLS verification failed: %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1 failed: %2</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>timed out while connecting</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>cannot buffer reply</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>malformed reply: %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>reply without a command</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>empty command</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>not connected</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>node down: %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>no reply in time</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>connection lost</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>no CA certificate could be read from the directory %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>reply larger than %1: connection dropped</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>no reply within %1 ms after a command timed out: connection dropped</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>SSH tunnel down (%1)</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>redlock::RedisErrorKind</name>
    <message>
        <source>no error</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>connection refused</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>host not found</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>unreachable</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>timeout</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>authentication failed</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>no permission</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>read-only replica</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>wrong type</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>script not loaded</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>loading data set</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>connection lost</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>not connected</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>TLS error</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>protocol error</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>server error</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>redlock::RedlockClient</name>
    <message>
        <source>no nodes configured: Redlock needs N independent Redis masters</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>per-node timeout must be positive</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>retry count, delay and jitter must not be negative</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>TTL %1 ms is not larger than the drift allowance %2 ms</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>the per-node timeout (%1 ms) is not small against the TTL (%2 ms)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>the client is shutting down</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>invalid configuration: %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>unexpected reply from the node</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>read-only mode: acquire refused</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>no resource given</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>quorum not reached: %1 of %2 nodes, %3 needed</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>quorum reached too late: %1 ms elapsed leave no validity of a %2 ms TTL</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>conflict on resource #%1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>fencing token written to %1 nodes only, %2 needed</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>no validity left after writing the fencing token</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1 of %2 keys still held the token</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>the token was not found on any node (expired or taken over): nothing was deleted</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>released on %1 node(s) only: the lock had already lost its quorum</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>read-only mode: release refused</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>no lock given</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>read-only mode: extend refused</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>extension cap reached (%1 extensions)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>extending by %1 ms would exceed the maximum hold time of %2 ms</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>the lock&apos;s validity has already run out: it may be held by someone else now</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>extended on %1 node(s), %2 needed: the lock is lost</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>the extension came after the lock&apos;s validity ran out: the lock is lost</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>no node answered (or every one refused): nothing was released, and the lock may still be held until it expires</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>the token was not found on the %1 node(s) that answered; %2 node(s) did not answer or refused, and may still hold it</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>released on %1 node(s) only; %2 node(s) did not answer or refused, and may still hold it</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>&quot;%1&quot; is the key of the fencing counters: no lock can take that name</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>the extension took longer than the new validity (%1 ms TTL): the lock is lost</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>a blocking call on the client&apos;s own thread would deadlock</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>the client was shut down</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>the same server as node %1 (run_id %2): its vote counts once</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>redlock::RestartDialog</name>
    <message>
        <source>Delayed restart of node #%1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source> s</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Allow a delay shorter than the default</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Default %1 = max(configured max TTL %2, largest PTTL seen on the node %3) + drift %4</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>none</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>e.g. systemctl stop redis-server@7001</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>e.g. systemctl start redis-server@7001</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Stop command:</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Start command:</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Run without a shell: the first word is the program, the rest its arguments.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Lock</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Holder</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Holders now → while down</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1 → %2</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>No lock held now falls below quorum while the node is out.</source>
        <translation type="unfinished"></translation>
    </message>
    <message numerus="yes">
        <source>%n lock(s) fall below quorum (quorum %1) while the node is out:</source>
        <translation type="unfinished">
            <numerusform></numerusform>
            <numerusform></numerusform>
        </translation>
    </message>
    <message>
        <source>Type %1 to restart anyway</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Refused: %1. Type “%2” to override.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1 of %2 nodes stay counted while the node is out (quorum %3).</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Why (written to the audit log)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Read-only mode: nodes cannot be restarted.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Delay:</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>How:</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Restart with delay</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Stopping the node…</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Refused: %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Send SHUTDOWN NOSAVE: the node drops its data and comes back when something else (a supervisor) starts it, perhaps at once</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Node #%1 %2 is stopped and kept down until the delay has passed, counted from the confirmed stop; then it is started again. Meanwhile the console does not count it for quorum. A node that may have lost its data must stay out longer than the largest TTL of any lock it voted for.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Node #%1 %2 is sent SHUTDOWN NOSAVE. Nothing here keeps it down: a supervisor (systemd Restart=always, Kubernetes) usually starts it again at once, empty, and clients count it as soon as it answers. The delay is only watched: if the node answers before it has passed, it is flagged in the event log, the nodes table and the audit log. To enforce the delay, use stop and start commands instead.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Node #%1 is stopped and kept down until %2.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>SHUTDOWN NOSAVE sent to node #%1. Watched until %2: if it answers earlier, it is flagged.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Note: %1.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>(the first %1 by key are listed)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Counting the locks… (%1 of %2)</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>redlock::RestartMethod</name>
    <message>
        <source>local cluster process</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>stop and start commands</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>SHUTDOWN NOSAVE (a supervisor restarts it; the delay is only watched)</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>redlock::RestartPlanner</name>
    <message>
        <source>with node %1 out, %2 of %3 nodes would be counted (%4 already down or quarantined): fewer than the quorum of %5, so no lock could be acquired or extended until it is back</source>
        <translation type="unfinished"></translation>
    </message>
    <message numerus="yes">
        <source>node %1 is the same Redis server as node(s) %2 (same run_id): taking it out takes %n other name(s) out too</source>
        <translation type="unfinished">
            <numerusform></numerusform>
            <numerusform></numerusform>
        </translation>
    </message>
</context>
<context>
    <name>redlock::RestartState</name>
    <message>
        <source>stopping</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>waiting out the delay</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>starting</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>restarted</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>failed</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>abandoned</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>redlock::SafetyAudit</name>
    <message>
        <source>Even number of nodes</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Node is a replica</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1 replicate(s) another server: a replica refuses lock writes, and its data is not independent of its master. Redlock needs N independent masters.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Node has replicas</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1 replicate(s) to other servers. Replication is asynchronous: after a failover the promoted replica may lack a lock the old master granted, and a second client gets it.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Node restarted within the lock TTL</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Node started within the lock TTL</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1 started less than the largest TTL (%2 ms) ago without fsync&apos;ed AOF. If it came back from a crash sooner than that after it went down, locks it had granted are gone and can be granted twice. The downtime was not observed here.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Persistence can lose locks</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1 run(s) without AOF or with appendfsync other than &quot;always&quot;: a crash loses recent locks. Safe only if restarts are delayed by more than the max TTL.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Lock keys can be evicted</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1 evict(s) keys under memory pressure (maxmemory-policy is not noeviction and a memory limit is set): a held lock can vanish.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Eviction policy allows evicting locks</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1 use(s) a maxmemory-policy other than noeviction; once a memory limit is set, lock keys can be evicted.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Clock offset beyond the drift budget</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The clock of %1 differs from this machine&apos;s by more than the drift budget (%2 ms). A clock step (NTP) on a node expires locks early; check time synchronisation (this machine&apos;s clock may be the one that is off).</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Same server listed twice</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1 are the same Redis server (same run_id): its vote counts twice, so a quorum can be reached with fewer independent nodes than required.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Node could not be audited</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>No quorum of nodes could be audited</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The facts of %1 could not be read (node down, or INFO / CONFIG GET refused): only %2 of %3 nodes were audited, fewer than the quorum of %4. The safety of these locks cannot be judged.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The facts of %1 could not be read (node down, or INFO / CONFIG GET refused); the checks do not cover it.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1 lost its locks on restart (no fsync&apos;ed AOF) and came back before the largest TTL plus clock drift (%2 ms) had passed: a lock it had granted can now be granted again, breaking mutual exclusion. Delay restarts by at least the max TTL plus drift.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Persistence can lose fencing counters</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Fencing is in use (counters found on %1), and %2 run(s) without AOF or with appendfsync other than &quot;always&quot;: a crash loses recent locks and fencing counters. Delaying the restart protects the locks but not the counters, so fencing tokens can go backwards. Use appendonly yes with appendfsync always on every node.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Fewer than %1 nodes</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Node not yet audited</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The facts of %1 have not been read yet (connecting, or the first INFO round is on its way); the checks cover it once they are.</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>redlock::Severity</name>
    <message>
        <source>info</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>warning</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>severe</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>redlock::ShutdownRestartBackend</name>
    <message>
        <source>SHUTDOWN NOSAVE failed: %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>SHUTDOWN NOSAVE was answered instead of closing the connection</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>redlock::SshTunnel</name>
    <message>
        <source>SSH to %1: no tunnel within %2 s</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>bad SSH hop &quot;%1&quot;: expected [user@]host[:port], hops separated by commas</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>SSH to %1: cannot run %2: %3</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>SSH to %1: refused: the host key has CHANGED since it was recorded in known_hosts (someone may be intercepting the connection, or the host was reinstalled). Check the new key with the host&apos;s administrator before replacing the old one (ssh-keygen -R).</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>SSH to %1: refused: the host key is not known (not in known_hosts). Check it, then record it by connecting once with ssh.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>SSH to %1: login refused (no key accepted; is ssh-agent running, is the key authorised?)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>ssh exited (status %1)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>SSH to %1: %2</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>node %1 is a unix socket: it cannot be reached over SSH</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>cannot make a private directory for the SSH tunnel&apos;s sockets in %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>SSH to %1: refused: the host key of %2 is not known (not in known_hosts). Check it, then record it by connecting once with ssh.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>SSH route %1: the ProxyJump settings of the ssh config make a loop: %2</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>SSH route %1: the ProxyJump settings of the ssh config nest deeper than %2 jump hosts: %3</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>SSH route %1: cannot run %2: %3</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>SSH route %1: ssh -G %2 did not finish within %3 s</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>SSH route %1: ssh cannot read its settings for %2: %3</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>ssh -G failed</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>SSH route %1: the ssh config gives %2 a ProxyCommand (%3); redlock cannot make that command check host keys strictly, so it does not run it. Use ProxyJump in the config, or name the jump hosts in the route (jump,%2).</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>SSH route %1: the ssh config gives %2 a ProxyJump redlock cannot use: %3</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1 (through %2)</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>redlock::ValidityTimeline</name>
    <message>
        <source>Select a lock to see its validity timeline</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>now</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>+%1 s</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>#%1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>no TTL</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>validity %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>quorum ends %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>drift margin %1 ms</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>No quorum holds this key (%1): no validity</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>absent</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>unreachable</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>no permission: %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>not a lock (%1)</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>redlock::WebConfig</name>
    <message>
        <source>line %1: %2</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>a tab in the indentation (YAML indents with spaces)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>lists and flow collections are not supported here</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>expected &quot;key: value&quot;</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>only plain or quoted values are supported here</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>a quoted value is not closed, or text follows it</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>indented, but not under a section</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>indentation of %1 spaces, but %2 above (only two levels are supported)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>&quot;%1&quot; appears twice</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>tls_server_config must be a section of keys</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>min_version: &quot;%1&quot; is not supported (TLS12 or TLS13)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>unknown key tls_server_config.%1 (known: cert_file, key_file, client_ca_file, client_auth_type, min_version)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>tls_server_config.%1 has no value</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>tls_server_config needs both cert_file and key_file</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>client_auth_type RequireAndVerifyClientCert needs client_ca_file</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>client_auth_type &quot;%1&quot; is not supported (NoClientCert or RequireAndVerifyClientCert)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>basic_auth_users must be a section of user: bcrypt-hash lines</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>the password of user &quot;%1&quot; is not a bcrypt hash ($2y$, $2b$ or $2a$, 60 characters; htpasswd -nBC 10 USER makes one)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>a user name cannot contain &quot;:&quot; in basic auth</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>unknown key &quot;%1&quot; (known: tls_server_config, basic_auth_users)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1: %2</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>this build of Qt has no TLS backend</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1: no PEM certificate in it</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1: not an unencrypted PEM RSA or EC private key</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>redlock::cli::BenchCommand</name>
    <message>
        <source>%1 acquire failures in a row, the last: %2</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Instead of --nodes, start a local cluster of N redis-server nodes for the run.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>N</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>With --local: connect to the nodes over unix domain sockets instead of TCP.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Measured acquire+release pairs (default 20000).</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Unmeasured pairs first (default 1000).</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Lock TTL in ms (default 10000).</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>MS</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Per-node timeout in ms (default 50).</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>With --baseline: run the two clients in N alternating blocks (default 10).</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Lock key to use (default redlock-bench:&lt;pid&gt;).</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>KEY</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>KIND</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Print the figures as one JSON object.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Read-only mode: the benchmark writes lock keys, so it is refused (exit code 2).</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>bench [options] (--nodes LIST | --local N)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>read-only mode: bench writes lock keys; nothing was sent</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>unknown --baseline &quot;%1&quot; (known: raw)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>give either --nodes LIST or --local N</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>--unix-socket goes with --local; with --nodes, name the sockets (unix:/path,...)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>cannot start the local cluster: %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>warning: %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>configuration error: %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>, %1 alternating blocks</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>benchmark stopped: %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>no acquire succeeded (%1 failures): nothing to measure</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>acquire p50 µs</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>acquire p99 µs</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>release p50 µs</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>release p99 µs</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>pairs/s</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>failures</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>redlock core</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>raw hiredis</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>resident memory after the run: %1 kB (peak %2 kB)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>K lockers in this process, each on its own key (KEY:0 ... KEY:K-1), each in its own closed loop on one shared client (default 1).</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>K</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Also measure a baseline client; &quot;raw&quot;: a minimal hiredis client that sends SET NX PX to all nodes at once and waits for a majority, then releases with the same compare-and-delete script as the core (EVALSHA) on all. One locker only.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Measure the Redlock client: a client in a closed loop acquires a lock (one resource, no retry) and releases it, --iterations times after a warm-up (with --concurrency K, K such loops on distinct keys share the client and the pairs). Prints acquire and release latency p50/p99 in microseconds, acquire+release pairs per second and the process&apos;s resident memory. Latencies are measured around the API calls, as a user of the library sees them.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>the raw baseline runs one locker: --baseline goes with --concurrency 1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>redlock bench: %1 nodes, %2 acquire+release pairs after %3 warm-up pairs, %4 locker(s) on distinct keys, closed loops, TTL %5 ms%6</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>acquire p50 ours/raw: %1 (target: at most 1.1)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>release p50 ours/raw (both compare-and-delete): %1 (target: at most 1.2)</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>redlock::cli::ClusterCommand</name>
    <message>
        <source>Number of redis-server nodes (default 5).</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>N</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Print the nodes as one JSON object instead of one line.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The nodes also listen on a unix domain socket in their directory; the node list names the sockets (unix:/path,...) instead of the TCP ports.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>cluster [options]</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Start N redis-server processes on free loopback ports in a temporary directory, print the node list (host:port,... on one line, ready for --nodes) and keep them running until SIGINT or SIGTERM; then stop them and remove the directory. The servers also die if this process is killed. Persistence is off: a demo, not a deployment.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>redis-server not found on PATH (or set REDLOCK_REDIS_SERVER)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>cannot install signal handlers: %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>cannot start the cluster: %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1 redis-server node(s) running in %2; Ctrl+C (SIGINT) or SIGTERM stops them</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>node %1 (%2) exited</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>stopping the cluster</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>redlock::cli::CommandLine</name>
    <message>
        <source>Exit codes:
  0  success
  1  lock not acquired / not held / not released (the nodes answered)
  2  usage or configuration error (nothing was sent to any node)
  3  no quorum reachable: too many nodes timed out or refused the connection
  4  audit: at least one severe finding
  5  the result could not be written to stdout (acquire: the lock was released again)
</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Show this help.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Try &apos;%1 --help&apos;.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Usage: redlock %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>--%1 is given %2 times: give it once (--nodes takes one comma-separated list)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>--%1 expects a whole number from %2 to %3, not &quot;%4&quot;</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>--%1 expects a number from %2 to %3, not &quot;%4&quot;</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>LIST</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>VAR</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>ACL user for every node that names none.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>NAME</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>--nodes is required (e.g. --nodes 127.0.0.1:7001,127.0.0.1:7002,127.0.0.1:7003)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>bad --nodes: %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>environment variable %1 (from --password-env) is not set</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>node</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>outcome</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>holder token</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>PTTL ms</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>latency µs</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>error</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>acquire a lock on one or several resources</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>extend a lock you hold (by its token)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>release a lock (compare-and-delete by its token)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>run a local redis-server cluster until Ctrl+C</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>measure acquire/release latency and throughput</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>show every lock merged over the nodes, with its verdict</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>print lock events live until Ctrl+C</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>check the nodes for what breaks Redlock</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>delete a stuck lock where it still holds TOKEN</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Usage: redlock &lt;command&gt; [options] ...

Redlock distributed locks over N independent Redis masters.

Commands:
</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>
&apos;redlock &lt;command&gt; --help&apos; describes a command&apos;s options.

</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>unknown command &quot;%1&quot;
</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>cannot write the output: %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>serve the cluster&apos;s state to Prometheus (/metrics) until Ctrl+C</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>who held a lock when, from the lock history journal</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>--drift-factor: %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>&quot;%1&quot; is not a number</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Connect to every TCP node over TLS (as rediss://).</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>CA certificate(s) (PEM) to verify the nodes with, instead of the system store (default: $SSL_CERT_FILE when set).</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>FILE</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Directory of CA certificates (PEM) to verify the nodes with (default: $SSL_CERT_DIR when set).</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>DIR</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Client certificate (PEM) for nodes that require one (tls-auth-clients).</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Private key (PEM) of --cert (default: in --cert&apos;s file).</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Server name to send and verify the certificate against, for every TLS node (default: the host as given).</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Do not verify the nodes&apos; certificates at all: encrypted, but anyone in the path can pose as a node. For tests only; a warning says so.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>--%1 needs TLS: add --tls or use rediss:// node URLs</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>--key needs --cert</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1 is not a directory</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>cannot read %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>warning: --insecure: the nodes&apos; certificates are not verified; anyone in the path can pose as a node and see the traffic</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>run a command while holding a lock (flock for Redlock)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Comma-separated Redis masters: host:port, [v6]:port, redis://[user@]host:port/db, rediss://... (TLS), unix:/path. Duplicates are refused, and so is a password in a URL (use REDISCLI_AUTH or --password-env). -u is redis-cli&apos;s spelling.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Instead of --nodes: the nodes&apos; host, or a comma-separated list of hosts that all listen on -p&apos;s port (default 127.0.0.1).</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>HOST</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Instead of --nodes: the nodes&apos; port, or a comma-separated list of ports on -h&apos;s host (default 6379).</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>PORT</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Password of every node that names none. It shows in the process list and the shell history: prefer REDISCLI_AUTH or --password-env (a warning says so).</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>PASSWORD</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>No warning for -a (as in redis-cli).</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Read the password of every node from environment variable VAR (never pass a password as an argument: it would show in the process list). Without -a and this option, REDISCLI_AUTH is read when set.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Database number for every node that names none (default 0).</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>DB</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Reach every TCP node through this SSH jump host, with the system&apos;s ssh client (your ~/.ssh/config, ssh-agent and known_hosts; host keys checked strictly): [user@]host[:port], or a ProxyJump chain a,b. One tunnel carries every node; node addresses are as the last host resolves them.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>ROUTE</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>ssh configuration file to use instead of ~/.ssh/config (ssh -F).</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>--ssh-config needs --ssh</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>bad --ssh: %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>--ssh: node %1 is a unix socket: it cannot be reached over SSH</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>--ssh: %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1 (its nodes are unreachable; restarting the tunnel)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>SSH tunnel through %1 is up again</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>-h and -p are both lists: give a list of hosts with one port, one host with a list of ports, or host:port pairs with --nodes</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>bad -h/-p: &quot;%1&quot; port &quot;%2&quot;</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>name the nodes either with --nodes (-u) or with -h/-p, not both</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>bad -h/-p: %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>bad --nodes: node %1 (%2) has a password in its URL, where the process list and the shell history show it: put it in REDISCLI_AUTH, or in an environment variable named with --password-env VAR</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>-a and --password-env both name a password: give one</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Warning: Using a password with &apos;-a&apos; or &apos;-u&apos; option on the command line interface may not be safe. Set REDISCLI_AUTH or use --password-env instead.</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>redlock::cli::ExporterCommand</name>
    <message>
        <source>Address and port to serve /metrics on (default 127.0.0.1:9721: this machine only; 0.0.0.0:9721 every interface; port 0 any free port).</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>ADDRESS:PORT</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>MS</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>bad --listen: %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>cannot install signal handlers</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1 is not a loopback address: whoever reaches it can read the metrics (lock counts, node names)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Largest lock TTL in use, in ms, for the audit&apos;s restart rule (default %1); a larger PTTL seen on the nodes raises it.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Per-node timeout of each observing command, in ms (default 1000 for the per-second PING and TIME and the INFO, 2000 for the lock reads): for nodes far away. A node that does not answer within it counts as down until it does.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Also export one series per lock key (redlock_lock_holders{key,verdict}): one series per key, up to --max-series.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>With --key-labels, the most per-key series a scrape exports (default %1): past it the keys after the first N in key order are left out, redlock_key_series_dropped says how many, and a warning is printed once.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>N</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>more lock keys than --max-series %1: only the first %1 in key order get a per-key series, redlock_key_series_dropped counts the others</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>TLS and basic auth for the scrapes, in the format of Prometheus&apos;s exporters (exporter-toolkit): tls_server_config (cert_file, key_file, client_ca_file, client_auth_type, min_version) serves HTTPS only; basic_auth_users (user: bcrypt hash) asks every request for a user&apos;s password. Read once at start.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>FILE</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Serve the cluster&apos;s state on http://ADDRESS:PORT/metrics in the Prometheus text format until Ctrl+C: locks by verdict; per node up, latency, clock offset, restarts and what observing costs it; audit findings by rule and severity; lock age, remaining validity and hold duration histograms; lock event counters (contention: contested, token-changed). It watches like `watch` (keyspace events where the nodes send them, a background rescan within --budget) and adds one PING and TIME per second and one INFO per 5 s per node; a scrape is answered from memory and never waits for a node. Labels name nodes as host:port, never users, passwords or lock values; lock keys only with --key-labels. With --journal it also keeps the lock history (`redlock history` reads it) for as long as it runs; the journal is written on a thread of its own and never delays a scrape.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Exit codes:
  0  stopped by SIGINT or SIGTERM
  2  usage error, --listen bad or busy, or --web.config.file unreadable or refused: nothing was sent to any node
</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>bad --web.config.file: %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>serving %1://%2/metrics</source>
        <translation type="unfinished"></translation>
    </message>
    <message numerus="yes">
        <source>basic auth for %n user(s)</source>
        <translation type="unfinished">
            <numerusform></numerusform>
            <numerusform></numerusform>
        </translation>
    </message>
</context>
<context>
    <name>redlock::cli::HistoryCommand</name>
    <message>
        <source>Lock key or glob (*, ?, [a-z]); default * (every key).</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>From this time (default -24h): ISO 8601 such as 2026-11-23T14:03 (local time) or 2026-11-23T14:03:00Z, or relative: -90s, -30m, -1h, -2d, -1w.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>TIME</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Up to this time (default now), written as for --since. --since and --until the same instant: who held the key at that instant.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Only holders whose summary or token contains this text (any case).</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>TEXT</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>At most this many intervals (default 1000).</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>N</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Also list every journaled event in the range.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Print JSON instead of text.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>history takes one KEY (a glob matches several)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>--%1: &quot;%2&quot; is no time: write ISO 8601 (2026-11-23T14:03, 2026-11-23T14:03:00Z) or relative (-30m, -1h, -2d)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>--until is before --since</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>No holder of %1 between %2 and %3 in %4.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>KEY</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>HOLDER</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>FROM</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>TO</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>HELD</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>ENDED</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>EXTENDED</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>more than %1 matched; the first %1 are shown (--limit)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>at least since %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>at least %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>--%1: %2</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>--journal needs a file name</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>between %1 and %2</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>  (not observed: between %1 and %2)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Who held a lock when: every holder&apos;s interval (from the moment its token was seen on a quorum to the moment it was not), how it ended (released, expired, taken over, lost on a node restart, force-released, observation ended, or ended while not watched) and how often it was extended, from the lock history journal that the console, `redlock watch --journal FILE` and `redlock exporter --journal FILE` write. Intervals that overlap the time range are listed; &quot;still held&quot; means held when last observed. A holder that already held the lock when watching started is shown &quot;at least since&quot; the moment it was first seen (JSON: &quot;atLeastSince&quot;: true): when it acquired the lock is not known. A holder seen again by the next watch keeps one interval; one that was gone by then &quot;ended while not watched&quot;, after the time shown. The spans when no writer watched (a console closed, a watch or exporter stopped, restarted or killed) are listed as &quot;not watched&quot; (JSON: &quot;unwatched&quot;): what happened then is not in the journal.

The console&apos;s journal: %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>not watched since %1 (%2 stopped or died; no writer since)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>not watched from %1 to %2 (%3; %4 stopped or died): what happened then is not in the journal</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The journal to read (default: the console&apos;s, named below): a file, or a shared history in PostgreSQL, postgresql://user@host[:port]/database (the password from PGPASSWORD or ~/.pgpass, never in the URL).</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>FILE|URL</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>--import FILE goes into a shared history: --journal postgresql://user@host[:port]/database, and no KEY</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Imported %1 into %2: %3 holder intervals, %4 events, %5 writer sessions; already there: %6 intervals, %7 events, %8 sessions.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>FILE</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>SEEN BY</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>--%1 selects what history reads; --import copies the whole journal and takes no query options</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Instead of reading: copy this SQLite journal (the console&apos;s, or one `redlock watch` or `redlock exporter` wrote) into the shared history that --journal postgresql://... names, every holder, event, writer and span nobody watched at its own time. Importing it again adds only what is new; a file that is no journal, or a failure part-way, writes nothing. Takes none of the query options (KEY, --since, --until, --holder, --limit, --events). Stop the journal&apos;s writer first.</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>redlock::cli::LockCommands</name>
    <message>
        <source>New time to live in milliseconds (default 10000).</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Time to live in milliseconds (default 10000).</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>MS</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Clock drift allowance: drift = ttl * F + 2 ms (default 0.01).</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>F</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Per-node timeout in milliseconds, small against the TTL (default 50). It includes connecting, since a CLI process starts without connections.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Name written into the lock token and CLIENT SETNAME (default: redlock-cli).</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>NAME</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Print one JSON object instead of text.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Read-only mode: the client refuses to write, nothing is sent to the nodes (exit code 2).</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>name at least one resource (the lock key)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>a resource name cannot be empty</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>warning: %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>configuration error: %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The lock&apos;s token, as printed by &apos;redlock acquire&apos; (the whole value stored in the keys).</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>token: %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>fencing token: %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>not acquired %1: %2</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>attempt %1: %2 of %3 nodes in %4 µs</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>fencing token write-back:</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Attempts after the first (default 3).</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>N</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Base wait between attempts in ms (default 200).</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Random extra wait of 0..MS between attempts (default 100).</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Also issue a fencing token that strictly increases across acquisitions of the resource(s) while a majority of nodes keep their data.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Lock key(s). Several resources make one lock over all of them (all or nothing on each node).</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>RESOURCE...</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>acquire [options] --nodes LIST RESOURCE...</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Acquire a Redlock lock: the same random token is set with NX PX on all nodes at once; the lock is held when a quorum (N/2+1) set it and validity (ttl - elapsed - drift) is left. A failed attempt is undone on all nodes. Prints the token that extend and release need.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>the client stopped without a result</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>the token could not be written to stdout (%1): the lock was released again on %2 of %3 nodes</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>TOKEN</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The lock&apos;s current validity deadline in ms since the epoch (validUntilEpochMs of acquire&apos;s or extend&apos;s JSON output). When given, the extension is refused or reported lost if it cannot land before that moment.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>EPOCH_MS</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The lock&apos;s key(s), in the order given to acquire.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Extend a lock: compare-and-pexpire on all nodes; only keys that still hold the token are renewed, and the extension succeeds only if a quorum renewed it.

The process that acquired the lock has exited, so this command cannot know how much of the lock&apos;s validity is left. Without --valid-until it trusts you that the lock is still valid: success means a quorum of nodes still held the token when it was renewed, not that the lock never lapsed in between (another client may have held it meanwhile if it had expired). The new validity is measured from the start of the extend round: ttl - elapsed - drift.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Release a lock: compare-and-delete on all nodes; a key is deleted only if it still holds the token, so a lock that expired and was taken by someone else is never removed. Succeeds when a quorum of nodes held and released the token.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>extend [options] --nodes LIST --token TOKEN RESOURCE...</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>release [options] --nodes LIST --token TOKEN RESOURCE...</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>--token is required</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>released %1 on %2 of %3 nodes (quorum %4)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>not extended %1: %2</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>not released %1: %2</source>
        <translation type="unfinished"></translation>
    </message>
    <message numerus="yes">
        <source>; %n more had not answered when it was decided</source>
        <translation type="unfinished">
            <numerusform></numerusform>
            <numerusform></numerusform>
        </translation>
    </message>
    <message>
        <source>warning: the output after %1 could not be written: %2</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>acquired %1 on %2 of %3 nodes (quorum %4%5): validity %6 ms</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The text output starts with the result line and the &quot;token:&quot; line, each written and flushed before the rest: once the token line is written the lock is the caller&apos;s, even when the rest cannot be (`| head -2` and `| grep -m1 token:` keep the lock, exit 0). If the token line itself cannot be written (`&gt; /dev/full`, a reader gone before it), nobody has the token: the lock is released again (exit 5). --json is one object: the lock is kept only when all of it was written.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>the token</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>extended %1 on %2 of %3 nodes (quorum %4%5): validity %6 ms</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>the result line</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>node-redlock&apos;s jitter: wait --retry-delay ± MS between attempts (instead of --jitter; MS at most --retry-delay).</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>--jitter and --retryJitter both set the jitter: give one</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>redlock::cli::ObserveCommands</name>
    <message>
        <source>GLOB</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>SCAN COUNT per call (default 1000).</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>N</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Clock drift allowance: drift = ttl * F + 2 ms (default 0.01).</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>F</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>A held lock with less observed validity than this is &quot;expiring&quot; (default 1000).</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>MS</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Print JSON instead of text.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>--pattern cannot be empty (it would match no key; * matches every key)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>KEY</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>VERDICT</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>HOLDERS</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>VALIDITY</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>HOLDER</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1 ms</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>unreachable</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>no permission</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>not a lock</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>no expiry</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>other %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message numerus="yes">
        <source>%1: %n key(s) not read: %2</source>
        <translation type="unfinished">
            <numerusform></numerusform>
            <numerusform></numerusform>
        </translation>
    </message>
    <message>
        <source>cannot install signal handlers</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>(restarted without it: %1)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1: restarted (new run_id): the locks it held are gone unless it persisted them</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1: reachable again</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1: unreachable</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1: unreachable (%2)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>no node reachable: no lock events can be seen</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>only %1 of %2 nodes reachable (quorum %3): locks read as unknown</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>a quorum of nodes is reachable again (%1 of %2)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Check the nodes against what breaks Redlock: replicas, persistence and early restarts, eviction, clock offset, the same server listed twice, N even or below 3. Exit code %1 when a finding is severe.</source>
        <translation type="unfinished"></translation>
    </message>
    <message numerus="yes">
        <source>No findings: %n node(s) checked, max TTL %1 ms.</source>
        <translation type="unfinished">
            <numerusform></numerusform>
            <numerusform></numerusform>
        </translation>
    </message>
    <message>
        <source>only %1 of %2 nodes reachable, quorum %3: the cluster cannot grant locks</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Pause between two background rescans, in ms (default 5000).</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Commands per second the background rescan may send each node (default %1; 0 = no limit, a full SCAN at full speed).</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>the background rescan (%1 commands/s)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>the background rescan (no budget)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1: keyspace events: changes show live</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1: no keyspace events (%2): changes show only through %3</source>
        <translation type="unfinished"></translation>
    </message>
    <message numerus="yes">
        <source>%n lock(s) on %1 of %2 nodes in %3 ms; %4 key(s) skipped (no TTL, other type, helpers).</source>
        <translation type="unfinished">
            <numerusform></numerusform>
            <numerusform></numerusform>
        </translation>
    </message>
    <message>
        <source>(more than %1 locks: listed in the order found, not sorted)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>free in %1 ms</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>--alert %1: expected RULE=MS, RULE=off or clear=MS, RULE one of %2</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>ALERT</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>CLEARED</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Alert thresholds, comma-separated: RULE=MS (raised once the condition lasted MS) or RULE=off; clear=MS: how long a condition must be gone before its alert clears (default 5000). Rules: lock-held, lock-contested, minority-leftover, quorum-lost, node-down, severe-finding, clock-offset.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>RULE=MS,...</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Print lock events only, no alerts.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>With --journal: prune what is older than this many days (default 30; 0 = keep).</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>DAYS</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>MB</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>--journal needs a file name</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>the journal %1 did not take %2 event(s) (%3 dropped earlier): %4</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Largest lock TTL in use, in ms, for the drift budget of the clock-offset alert and the audit (default %1); a larger PTTL seen on the nodes raises it.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Print lock events (acquired, extended, released, expired, token changed, contested, lost on a node restart) as they happen, until Ctrl+C; first, each lock already held when watching starts, as &quot;seen held&quot; (its acquisition was not seen: held at least since then). Live changes come from keyspace notifications where the nodes have them enabled (this command never enables them); a background rescan within a budget of commands per second per node catches the rest, and is the only source on nodes without them. Alerts (a lock held, contested or left over too long, a node down, quorum lost, a severe audit finding, a clock offset beyond the drift budget) are printed when raised and when cleared. A reader that has gone ends the watch at once, with exit code 5 (`watch --json | head -1` ends with head).</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Largest lock TTL in use, in ms, for the restart rule and the drift budget (default %1); a larger PTTL seen on the nodes raises it.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>SCAN MATCH pattern of the lock keys (default *: then only values in a lock format this tool recognises count as locks; under any other pattern every value with a TTL does).</source>
        <translation type="unfinished"></translation>
    </message>
    <message numerus="yes">
        <source>%n key(s) with a TTL passed over: not in a lock format this tool recognises (under the default pattern * only recognised lock values count; --pattern names your lock keys, and then every value with a TTL under it counts).</source>
        <translation type="unfinished">
            <numerusform></numerusform>
            <numerusform></numerusform>
        </translation>
    </message>
    <message>
        <source>Find the lock keys on every node (SCAN, never KEYS) and show one merged view per lock: verdict, holder, observed validity and what each node holds. Output is streamed: up to %1 locks are sorted by key; past that, locks are written in the order the inspection finds them, and memory grows only by the names of the keys read (kept so that each is read once).

--json writes JSON Lines: one compact object per line. First one line per lock (&quot;type&quot;: &quot;lock&quot;; key, verdict, token, holders, quorum, validityMs, freeInMs (verdict released-by-operator only: ms until a newcomer can acquire, -1 unknown), format, holder, restsOn, noExpiryOn and noExpiryValue (only when some node holds a value without expiry, beside the verdict or as it: stuck), validityEnded (only when true), and nodes: per node its node, state, and value, pttlMs and note where they apply), then one summary line (&quot;type&quot;: &quot;summary&quot;; locks, sorted, nodesReachable, nodes, elapsedMs, skipped, errors). Keys, tokens and values are the printable form of their bytes: valid UTF-8 as is, and each byte of a control character, a line separator, a bidirectional override, an invalid sequence or a backslash as \xNN; replacing every \xNN by its byte gives the exact bytes back.

A reader that has gone (`inspect | head -3`) stops the scan at once: exit code 5.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>(not observed: between %1 and %2)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Also write every event to this lock history journal: a file (SQLite; `redlock history --journal FILE` reads it; `redlock history --help` names the console&apos;s) or a team&apos;s shared history in PostgreSQL, postgresql://user@host[:port]/database (the password from PGPASSWORD or ~/.pgpass, never in the URL).</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>FILE|URL</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>With --journal: then prune the oldest until the journal holds at most this many MiB (default 256 for a file, no limit for PostgreSQL: a shared history is trimmed by size only where this is given; 0 = no limit).</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>redlock::cli::OperatorCommands</name>
    <message>
        <source>node</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>endpoint</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>action</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>found</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>PTTL ms</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>detail</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Type the key name to delete it where the token matches: </source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>TOKEN</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Execute without asking (needed when stdin is not a terminal).</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Print one JSON object instead of text.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Per-node timeout in milliseconds (default 2000).</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>MS</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Why, for the audit log.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>TEXT</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Profile name written to the audit log (default: cli).</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>NAME</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Audit log file (JSON lines; default: %1).</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>PATH</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The lock key.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>KEY</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>force-release [options] --nodes LIST --token TOKEN KEY</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>name exactly one lock key</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>the lock key cannot be empty</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>--token is required: force release deletes only the token you saw</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>configuration error: %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>preview of force release of &quot;%1&quot; with token %2:</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>not confirmed: pass --yes to execute (or --dry-run for the preview only)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>deleted on %1 of %2 nodes:</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>lock-delay ms</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>lock-delay 0: the key is deleted</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>lock-delay auto (remaining validity + drift): tombstones for up to %1 ms</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>lock-delay auto (remaining validity + drift)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>lock-delay %1 ms: tombstones for that long</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>free at once</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>free now</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>free at %1 (in %2 ms)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>free: not by itself, or unknown (nodes without expiry or unreachable)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Type the key name to release it with the lock-delay where the token matches: </source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The token you saw on the lock (required): only keys that still hold it are released.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>MS|auto</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>F</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Show what each node would do; change nothing.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Refuse to change anything (the preview still runs).</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>--lock-delay takes &quot;auto&quot; or milliseconds from 0 to %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>read-only mode: nothing changed</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>released with lock-delay on %1 of %2 nodes:</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>error: the release ran, but its result could not be written to the audit log (the intent line is there): %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>lock-delay %1 ms, raised to up to %2 ms on %3 node(s) to cover the holder&apos;s remaining validity plus drift</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>How long the released lock stays unavailable: &quot;auto&quot; (the default) replaces the token with a tombstone for the key&apos;s remaining PTTL on each node plus the clock drift, so the old holder&apos;s validity ends before anyone else can acquire; MS gives the tombstone that many milliseconds, raised on a node where the key&apos;s remaining PTTL plus the drift is longer (so MS never ends the old holder&apos;s validity early; a key without expiry gets exactly MS); 0 deletes the key (free at once, even for a holder that is only paused).</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Clock drift allowance for the lock-delay (auto, and the floor of MS): drift = PTTL * F + 2 ms (default 0.01).</source>
        <translation type="unfinished"></translation>
    </message>
    <message numerus="yes">
        <source>not released everywhere: %n node(s) may still hold the token (unreachable, a Redis error, or no expiry): run force-release again once they answer</source>
        <translation type="unfinished">
            <numerusform></numerusform>
            <numerusform></numerusform>
        </translation>
    </message>
    <message>
        <source>not freed: another token holds the lock on %1 of %2 nodes (quorum %3), %4: the lock is left to its holder</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>nothing to release: no node holds the token (the key is gone, or other tokens hold it on fewer than a quorum of nodes)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>nothing released: the token is there but could not be released (see the table: no expiry with --lock-delay auto, or a Redis error)</source>
        <translation type="unfinished"></translation>
    </message>
    <message numerus="yes">
        <source>nothing released where nodes answered: %n node(s) did not answer and may still hold the token</source>
        <translation type="unfinished">
            <numerusform></numerusform>
            <numerusform></numerusform>
        </translation>
    </message>
    <message>
        <source>the token was released (tombstone or deleted) on every node that held it</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>no node holds the token: the key is gone, or other tokens hold it on fewer than a quorum of nodes; nothing was changed</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>the token is there but was not released: it has no expiry and --lock-delay is auto (give MS), or the nodes answered with an error</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>usage error, read-only, configuration, the audit intent could not be written, or not confirmed: nothing was changed</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>nothing released where nodes answered, and some did not answer (they may still hold the token)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>the result could not be written to stdout</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>another token holds the lock on a quorum of nodes (it changed hands since the preview, or the token given is not the holder&apos;s): left to its holder, not freed</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>released on some nodes; others may still hold the token (unreachable, a Redis error, no expiry): run it again once they answer</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Outcomes (&quot;outcome&quot; in the JSON) and exit codes:</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Force release a stuck lock safely: first a preview of what each node will do (release where the token still matches; skip where another token holds the key, the key is gone or is not a string lock; unreachable), how long the lock-delay lasts and when the lock is free, then a compare-and-set with that token on every node, never a bare DEL. With a lock-delay (the default) the token is replaced by a tombstone (rl1-released:&lt;user@host&gt;:&lt;unix-ms&gt;) that expires after the lock-delay: the old holder can no longer extend or release, and no client (node-redlock, Redsync, Redisson, this one) can acquire before the old holder&apos;s validity is over (a fixed MS is raised to that where needed; a lock without expiry stays blocked for MS). A lock that changed hands in between is left to its new holder. Every execution is appended to the audit log. Redisson hash locks are reported and left alone.

The outcome says what became of the lock as a whole (the table says what each node did); --dry-run has the outcome the release would have now. With --json, &quot;executed&quot; is true when at least one node was changed, and &quot;freeAt&quot;, &quot;freeInMs&quot; and &quot;tombstone&quot; are there only when the release frees the lock (released, released-partially).</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>nothing changed: the result could not be reported</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>redlock::cli::RawHiredisBaseline</name>
    <message>
        <source>the raw baseline speaks plain TCP or unix sockets to database 0, without TLS or AUTH: %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>raw baseline: cannot connect to %1: %2</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>out of memory</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>raw baseline: write failed: %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>raw baseline: no reply within %1 ms</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>raw baseline: read failed: %1</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>redlock::cli::RunCommand</name>
    <message>
        <source>Exit codes:
  the command&apos;s own exit status, or 128+N if it died of signal N (as shells report it)
  1    the lock was not acquired within --wait (the command did not run)
  2    usage or configuration error (nothing was sent to any node)
  3    no quorum reachable: too many nodes timed out or refused the connection
  8    the lock was lost while the command ran (whatever the command&apos;s own status)
  126  the command was found but could not be started
  127  the command was not found
An acquired lock is released when the command ends, whatever the exit code.
</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1: command not found</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1: not an executable file</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Time to live in milliseconds (default 10000). The lock is extended by this much each time a third of it is left, for as long as the command runs.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>MS</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Keep trying to acquire for up to MS milliseconds (default 0: one attempt).</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Base wait between attempts in ms (default 200).</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Random extra wait of 0..MS between attempts (default 100).</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Clock drift allowance: drift = ttl * F + 2 ms (default 0.01).</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>F</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Per-node timeout in milliseconds, small against the TTL (default 50).</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Name written into the lock token and CLIENT SETNAME (default: redlock-run).</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>NAME</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Also issue a fencing token, passed to the command as REDLOCK_FENCING_TOKEN.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>What the command gets when the lock is lost: term (SIGTERM, the default), kill (SIGKILL) or none. Either way redlock waits for it to end and exits 8.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>ACTION</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The lock key.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>KEY</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The command to run while holding the lock.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>-- COMMAND [ARG...]</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>run [options] --nodes LIST KEY -- COMMAND [ARG...]</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Run a command while holding a Redlock lock, like flock(1) across machines: acquire KEY (trying for up to --wait ms), start the command with REDLOCK_TOKEN (and, with --fencing, REDLOCK_FENCING_TOKEN) in its environment, extend the lock automatically while it runs, and release it when the command ends.

If an extension fails (the nodes lost the key, or too many cannot be reached) the lock counts as lost a safety margin (a tenth of the TTL) before its validity ends: the command gets --on-lost&apos;s signal, so that it can stop touching the resource before another holder may take it, and redlock exits 8 once it has ended. SIGINT, SIGTERM and SIGHUP sent to redlock are passed on to the command (Ctrl+C at the terminal reaches it directly). stdin, stdout and stderr are the command&apos;s; redlock&apos;s own messages go to stderr.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>give the command after &quot;--&quot;: redlock run [options] KEY -- COMMAND</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>name exactly one lock key before &quot;--&quot;</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>a resource name cannot be empty</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>no command given after &quot;--&quot;</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>--on-lost takes term, kill or none, not &quot;%1&quot;</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>warning: %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>configuration error: %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>stopped by signal %1 before the command started</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>not acquired %1: %2</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>the client stopped</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>sending SIGTERM to the command</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>sending SIGKILL to the command</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>the command goes on (--on-lost none)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>the lock on %1 is lost (%2): %3</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>the lock on %1 was acquired with too little validity left to run the command</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>cannot start %1: %2</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>warning: the lock on %1 was not released on a quorum (%2); it expires with its TTL</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>redlock::rules</name>
    <message>
        <source>the drift factor must be at least 0 and below %1, not %2</source>
        <translation type="unfinished"></translation>
    </message>
    <message numerus="yes">
        <source>with %n node(s) the quorum cannot survive the loss of any node: Redlock needs at least 3 independent masters</source>
        <translation type="unfinished">
            <numerusform></numerusform>
            <numerusform></numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>with %n nodes the quorum tolerates no more failures than with one node fewer: use an odd number</source>
        <translation type="unfinished">
            <numerusform></numerusform>
            <numerusform></numerusform>
        </translation>
    </message>
    <message>
        <source>%1 nodes listed: at most %2 are accepted</source>
        <translation type="unfinished"></translation>
    </message>
</context>
</TS>
