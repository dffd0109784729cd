#include "operate/NodeRestartScheduler.h"

#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QJsonArray>
#include <QJsonDocument>
#include <QSaveFile>

#include <cerrno>
#include <cstdlib>
#include <cstring>

#include <fcntl.h>
#include <unistd.h>

namespace redlock {

namespace {

// The state file's format; loadPending() also reads version 1 (no stopConfirmed).
constexpr int kStateFileVersion = 2;

using State = PendingRestart::State;

QJsonObject methodToJson(const RestartMethod& m)
{
    return {{QStringLiteral("kind"), restartMethodId(m.kind)},
            {QStringLiteral("localIndex"), m.localIndex},
            {QStringLiteral("stopProgram"), m.stopProgram},
            {QStringLiteral("stopArguments"), QJsonArray::fromStringList(m.stopArguments)},
            {QStringLiteral("startProgram"), m.startProgram},
            {QStringLiteral("startArguments"), QJsonArray::fromStringList(m.startArguments)},
            {QStringLiteral("commandTimeoutMs"), m.commandTimeoutMs}};
}

QStringList stringList(const QJsonValue& v)
{
    QStringList out;
    for (const QJsonValue& e : v.toArray())
        out << e.toString();
    return out;
}

std::optional<RestartMethod> methodFromJson(const QJsonObject& o)
{
    RestartMethod m;
    const QString kind = o.value(QStringLiteral("kind")).toString();
    if (kind == restartMethodId(RestartMethod::Kind::LocalCluster))
        m.kind = RestartMethod::Kind::LocalCluster;
    else if (kind == restartMethodId(RestartMethod::Kind::Commands))
        m.kind = RestartMethod::Kind::Commands;
    else if (kind == restartMethodId(RestartMethod::Kind::ShutdownNoSave))
        m.kind = RestartMethod::Kind::ShutdownNoSave;
    else
        return std::nullopt;
    m.localIndex = o.value(QStringLiteral("localIndex")).toInt(-1);
    m.stopProgram = o.value(QStringLiteral("stopProgram")).toString();
    m.stopArguments = stringList(o.value(QStringLiteral("stopArguments")));
    m.startProgram = o.value(QStringLiteral("startProgram")).toString();
    m.startArguments = stringList(o.value(QStringLiteral("startArguments")));
    m.commandTimeoutMs = o.value(QStringLiteral("commandTimeoutMs")).toInt(60000);
    return m;
}

// Steady-clock readings compare across processes only within one boot of the machine.
// The restart's other names by identity: the profile may list its nodes in another order after a reload.
QJsonArray sameServerToJson(const PendingRestart& r, const QList<NodeEndpoint>& nodes)
{
    QJsonArray out;
    for (const int i : r.sameServer) {
        if (i >= 0 && i < nodes.size())
            out.append(nodes[i].identity());
    }
    return out;
}

QString bootId()
{
    QFile file(QStringLiteral("/proc/sys/kernel/random/boot_id"));
    if (!file.open(QIODevice::ReadOnly))
        return {};
    return QString::fromLatin1(file.readAll().trimmed());
}

} // namespace

bool NodeRestartScheduler::save(QString* error)
{
    if (m_options.stateFile.isEmpty())
        return true;
    auto fail = [&](const QString& why) {
        if (error) {
            *error = why;
        } else if (why != m_lastSaveError) {
            // Once per failure until a save succeeds again: the node it keeps down could be forgotten by a
            // console restarted now.
            emit operatorAlert(-1, tr("the pending restarts could not be saved: %1. A console restarted now may "
                                      "not know which nodes it keeps down")
                                       .arg(why));
        }
        m_lastSaveError = why;
        return false;
    };
    if (!m_saveBlocked.isEmpty())
        return fail(m_saveBlocked);
    QJsonArray restarts;
    const QString boot = bootId();
    for (const auto& [id, entry] : m_entries) {
        const PendingRestart& r = entry.restart;
        if (!r.isActive())
            continue;
        restarts.append(
            QJsonObject{{QStringLiteral("id"), r.id},
                        {QStringLiteral("node"), r.node},
                        {QStringLiteral("endpoint"), r.endpoint},
                        {QStringLiteral("identity"), r.identity},
                        {QStringLiteral("sameServer"), sameServerToJson(r, m_options.nodes)},
                        {QStringLiteral("method"), methodToJson(r.method)},
                        {QStringLiteral("state"), restartStateId(r.state)},
                        {QStringLiteral("delayMs"), r.delayMs},
                        {QStringLiteral("stoppedAtMs"), r.stoppedAtMs},
                        {QStringLiteral("dueAtMs"), r.dueAtMs},
                        {QStringLiteral("stopConfirmed"), r.stopConfirmed},
                        {QStringLiteral("steady"),
                         QJsonObject{{QStringLiteral("bootId"), boot}, {QStringLiteral("dueAtMs"), r.dueAtSteadyMs}}},
                        {QStringLiteral("runIdBefore"), QString::fromLatin1(r.runIdBefore)},
                        {QStringLiteral("returnedEarly"), r.returnedEarly},
                        {QStringLiteral("startFailures"), r.startFailures},
                        {QStringLiteral("held"), r.held},
                        {QStringLiteral("error"), r.error},
                        {QStringLiteral("reason"), r.reason}});
    }
    for (const QJsonValue& foreign : std::as_const(m_foreign))
        restarts.append(foreign);
    const QString dir = QFileInfo(m_options.stateFile).absolutePath();
    if (!QDir().mkpath(dir))
        return fail(tr("cannot create the folder %1").arg(dir));
    QSaveFile file(m_options.stateFile);
    if (!file.open(QIODevice::WriteOnly))
        return fail(tr("cannot write %1: %2").arg(m_options.stateFile, file.errorString()));
    const QByteArray bytes = QJsonDocument(QJsonObject{{QStringLiteral("version"), kStateFileVersion},
                                                       {QStringLiteral("restarts"), restarts}})
                                 .toJson(QJsonDocument::Indented);
    if (file.write(bytes) != bytes.size()) {
        const QString why = tr("cannot write %1: %2").arg(m_options.stateFile, file.errorString());
        file.cancelWriting();
        return fail(why);
    }
    // QSaveFile syncs the file before it replaces the old one; the rename reaches the disk with the folder.
    if (!file.commit())
        return fail(tr("cannot write %1: %2").arg(m_options.stateFile, file.errorString()));
    const int dirFd = ::open(QFile::encodeName(dir).constData(), O_RDONLY | O_DIRECTORY | O_CLOEXEC);
    const bool synced = dirFd >= 0 && ::fsync(dirFd) == 0;
    const int savedErrno = errno;
    if (dirFd >= 0)
        ::close(dirFd);
    if (!synced)
        return fail(
            tr("cannot sync the folder %1 to disk: %2").arg(dir, QString::fromLocal8Bit(std::strerror(savedErrno))));
    if (!m_lastSaveError.isEmpty() && !error)
        emit operatorAlert(-1, tr("the pending restarts are saved again in %1").arg(m_options.stateFile));
    m_lastSaveError.clear();
    return true;
}

PendingRestart NodeRestartScheduler::heldRestart(int node, const QString& why) const
{
    PendingRestart r;
    r.id = QUuid::createUuid().toString(QUuid::WithoutBraces);
    r.node = node;
    r.endpoint = m_options.nodes[node].displayName();
    r.identity = m_options.nodes[node].identity();
    r.state = State::Quarantined;
    r.held = true;
    r.error = why;
    r.stoppedAtMs = nowMs();
    r.dueAtMs = r.stoppedAtMs;
    r.dueAtSteadyMs = steadyNowMs();
    return r;
}

QString NodeRestartScheduler::recoverDamaged(const QByteArray& bytes, const QString& damage)
{
    const QString path = m_options.stateFile;
    // Whatever it holds is kept: renamed aside (never written over), for the operator to read.
    QString aside = path + QStringLiteral(".damaged");
    for (int n = 2; QFileInfo::exists(aside); ++n)
        aside = path + QStringLiteral(".damaged.%1").arg(n);
    const bool kept = QFile::rename(path, aside);
    if (!kept)
        m_saveBlocked = tr("%1 is damaged and could not be renamed to %2, so it is not written over and no restart "
                           "can be scheduled: move it away, then reconnect")
                            .arg(path, aside);
    // The nodes it names, by their identity as a JSON string ("host|port", or "host|port|db" as older files
    // wrote it): a truncated or unknown-version file still names them.
    QList<int> named;
    QStringList names;
    for (int i = 0; i < nodeCount(); ++i) {
        const QByteArray array =
            QJsonDocument(QJsonArray{m_options.nodes[i].identity()}).toJson(QJsonDocument::Compact);
        const QByteArray quoted = array.mid(1, array.size() - 2);
        const QByteArray withDb = quoted.left(quoted.size() - 1) + '|';
        if (!bytes.contains(quoted) && !bytes.contains(withDb))
            continue;
        named << i;
        names << QStringLiteral("#%1 %2").arg(i + 1).arg(m_options.nodes[i].displayName());
        bool tracked = false;
        for (const auto& [id, entry] : m_entries)
            tracked = tracked || entry.restart.node == i;
        if (tracked)
            continue;
        const PendingRestart r = heldRestart(
            i, tr("named in a damaged pending-restart file (%1): how and when it was stopped is not known, so the "
                  "console keeps it out and does not start it; check the node, then abandon its restart")
                   .arg(kept ? aside : path));
        Entry& entry = m_entries[r.id];
        entry.restart = r;
        audit(QStringLiteral("node-restart-held"), r,
              {{QStringLiteral("stateFile"), kept ? aside : path}, {QStringLiteral("damage"), damage}});
        emit restartChanged(r);
    }
    QString message = tr("The pending-restart file %1 is damaged: %2.").arg(path, damage);
    message += u' ';
    message += kept ? tr("It was kept as %1, and a new one is started.").arg(aside) : m_saveBlocked + u'.';
    message += u' ';
    message += named.isEmpty()
                   ? tr("It names no node of this profile.")
                   : tr("Node(s) named in it are kept out of the count and not started by the console: %1. Check "
                        "each one (start it if it is down), then abandon its restart.")
                         .arg(names.join(QStringLiteral(", ")));
    return message;
}

int NodeRestartScheduler::loadPending(QString* error)
{
    m_foreign = {};
    if (m_options.stateFile.isEmpty())
        return 0;
    QFile file(m_options.stateFile);
    if (!file.exists())
        return 0;
    if (!file.open(QIODevice::ReadOnly)) {
        // What it holds is not known: nothing is written over it.
        m_saveBlocked = tr("%1 cannot be read (%2), so it is not written over and no restart can be scheduled: "
                           "fix its permissions, then reconnect")
                            .arg(m_options.stateFile, file.errorString());
        if (error)
            *error = m_saveBlocked;
        return 0;
    }
    const QByteArray bytes = file.readAll();
    file.close();
    QJsonParseError parseError;
    const QJsonDocument doc = QJsonDocument::fromJson(bytes, &parseError);
    const int version = doc.object().value(QStringLiteral("version")).toInt(0);
    QString damage;
    if (!doc.isObject())
        damage = tr("it is not a JSON object (%1)").arg(parseError.errorString());
    else if (version != 1 && version != kStateFileVersion)
        damage = tr("its version (%1) is not one this console reads (1 or %2)")
                     .arg(doc.object().value(QStringLiteral("version")).toVariant().toString())
                     .arg(kStateFileVersion);
    else if (!doc.object().value(QStringLiteral("restarts")).isArray())
        damage = tr("it has no list of restarts");
    QStringList problems;
    QStringList unreadable;
    int resumed = 0;
    const QString boot = bootId();
    const QJsonArray saved = damage.isEmpty() ? doc.object().value(QStringLiteral("restarts")).toArray() : QJsonArray{};
    for (const QJsonValue& v : saved) {
        const QJsonObject o = v.toObject();
        PendingRestart r;
        r.id = o.value(QStringLiteral("id")).toString();
        r.identity = o.value(QStringLiteral("identity")).toString();
        // Files from before one server was one vote name TCP nodes "host|port|db": the server is "host|port".
        static const QRegularExpression withDb(QStringLiteral("^([^|]+\\|\\d+)\\|\\d+$"));
        if (const QRegularExpressionMatch m = withDb.match(r.identity); m.hasMatch())
            r.identity = m.captured(1);
        r.endpoint = o.value(QStringLiteral("endpoint")).toString();
        r.node = -1;
        for (int i = 0; i < nodeCount(); ++i) {
            if (m_options.nodes[i].identity() == r.identity)
                r.node = i;
        }
        if (r.node < 0 && v.isObject() && !r.identity.isEmpty()) {
            // Another profile's node (the file is shared): its console resumes it; it is written back as it is.
            m_foreign.append(o);
            problems << tr("a pending restart of %1 stays in %2 for the profile it belongs to: not a node of this "
                           "profile")
                            .arg(r.endpoint.isEmpty() ? r.identity : r.endpoint, m_options.stateFile);
            continue;
        }
        const auto method = methodFromJson(o.value(QStringLiteral("method")).toObject());
        const QString savedState = o.value(QStringLiteral("state")).toString();
        const bool knownState = savedState == restartStateId(State::Stopping) ||
                                savedState == restartStateId(State::Quarantined) ||
                                savedState == restartStateId(State::Starting);
        if (r.node < 0 || !method || r.id.isEmpty() || m_entries.count(r.id) || !knownState) {
            unreadable << (r.endpoint.isEmpty() ? tr("entry %1").arg(unreadable.size() + 1) : r.endpoint);
            continue;
        }
        r.method = *method;
        // The other names of the server, kept out with it; a name no longer in this profile is not a node here.
        for (const QJsonValue& name : o.value(QStringLiteral("sameServer")).toArray()) {
            for (int i = 0; i < nodeCount(); ++i) {
                if (i != r.node && m_options.nodes[i].identity() == name.toString() && !r.sameServer.contains(i))
                    r.sameServer.append(i);
            }
        }
        std::sort(r.sameServer.begin(), r.sameServer.end());
        r.delayMs = o.value(QStringLiteral("delayMs")).toInteger();
        r.stoppedAtMs = o.value(QStringLiteral("stoppedAtMs")).toInteger();
        r.dueAtMs = o.value(QStringLiteral("dueAtMs")).toInteger();
        r.runIdBefore = o.value(QStringLiteral("runIdBefore")).toString().toLatin1();
        r.returnedEarly = o.value(QStringLiteral("returnedEarly")).toBool();
        r.reason = o.value(QStringLiteral("reason")).toString();
        // Failed starts so far (the backoff goes on from there; the next attempt runs at the next tick).
        r.startFailures = std::max(0, o.value(QStringLiteral("startFailures")).toInt());
        r.error = o.value(QStringLiteral("error")).toString();
        r.retryAtSteadyMs = 0;
        r.held = o.value(QStringLiteral("held")).toBool();
        if (r.held) {
            // Still waiting for the operator: said again at every start of the console.
            r.state = State::Quarantined;
            problems << tr("node %1 %2 is still kept out: %3").arg(r.node + 1).arg(r.endpoint, r.error);
            Entry& entry = m_entries[r.id];
            entry.restart = r;
            ++resumed;
            emit restartChanged(r);
            continue;
        }
        // Version 1 files had no stopConfirmed: a quarantined entry had its stop confirmed.
        r.stopConfirmed =
            savedState != restartStateId(State::Stopping) && o.value(QStringLiteral("stopConfirmed")).toBool(true);
        if (r.stopConfirmed) {
            // Resume on the later of the wall-clock due time and, within the same boot, the monotonic one: a
            // wall-clock step while the console was away cannot shorten the delay.
            qint64 remaining = r.dueAtMs - nowMs();
            const QJsonObject steady = o.value(QStringLiteral("steady")).toObject();
            if (!boot.isEmpty() && steady.value(QStringLiteral("bootId")).toString() == boot)
                remaining = std::max(remaining, steady.value(QStringLiteral("dueAtMs")).toInteger() - steadyNowMs());
            remaining = std::max<qint64>(0, remaining);
            r.dueAtSteadyMs = steadyNowMs() + remaining;
            if (nowMs() + remaining - r.dueAtMs > 1000) { // the wall clock stepped forward meanwhile
                r.stoppedAtMs += nowMs() + remaining - r.dueAtMs;
                r.dueAtMs = nowMs() + remaining;
            }
        } else {
            // The stop time was provisional (the console went away while the stop step ran): when the stop
            // really happened is not known, only that it was not before now. Count from now; the probe then
            // re-bases it while the old instance still answers.
            rebase(r);
            r.returnedEarly = false;
        }
        // Whatever step was running when the console went away, the node may be down: keep it out (a start
        // that was running is retried when due).
        r.state = State::Quarantined;
        Entry& entry = m_entries[r.id];
        entry.restart = r;
        entry.probe = makeProbe(r.node);
        entry.resumedStopping = savedState == restartStateId(State::Stopping);
        ++resumed;
        emit restartChanged(r);
    }
    if (!unreadable.isEmpty())
        damage = tr("%n of its entries cannot be read (%1)", nullptr, int(unreadable.size()))
                     .arg(unreadable.join(QStringLiteral(", ")));
    if (!damage.isEmpty()) {
        const qsizetype before = static_cast<qsizetype>(m_entries.size());
        problems.prepend(recoverDamaged(bytes, damage));
        resumed += static_cast<int>(static_cast<qsizetype>(m_entries.size()) - before);
    }
    if (error && !problems.isEmpty())
        *error = problems.join(u'\n');
    if (resumed > 0 && !m_tick.isActive())
        m_tick.start();
    save();
    for (auto& [id, entry] : m_entries) {
        if (entry.restart.state == State::Quarantined && !entry.restart.stopConfirmed && !entry.restart.held)
            probeEarly(entry);
    }
    return resumed;
}

} // namespace redlock
