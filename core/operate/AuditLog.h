#pragma once

#include <QByteArray>
#include <QCoreApplication>
#include <QJsonObject>
#include <QList>
#include <QString>

namespace redlock {

// The operator audit trail: one JSON object per line, appended (never rewritten) to a file in the
// application data folder. Every destructive operator action writes a line: force release, node stop,
// node start, shutdown, abandoned restart. Binary-safe: keys and tokens are stored as base64 plus a
// printable form.
//
// A line: {"time": "2024-05-01T12:00:00.123Z", "user": "alice", "profile": "prod", "action": "force-release",
//          "key": {"base64": "...", "printable": "..."}, "token": {...}, ...details}
class AuditLog final
{
    Q_DECLARE_TR_FUNCTIONS(redlock::AuditLog)

public:
    // path empty = defaultPath().
    explicit AuditLog(QString path = {});

    // <AppDataLocation>/audit.jsonl
    static QString defaultPath();
    // The user this process runs as (from the environment, else the uid), for the "user" field.
    static QString osUser();
    // {"base64": ..., "printable": ...}
    static QJsonObject bytesJson(const QByteArray& bytes);

    const QString& path() const { return m_path; }

    // Appends one line; thread-safe within the process (one write per line, O_APPEND). Creates the folder.
    // `key` and `token` may be empty (then the fields are left out); details are merged into the line.
    // True only when the line reached the disk: written whole and fsynced (and, for a new file, its folder
    // fsynced too); otherwise false with *error saying which step failed.
    bool append(const QString& action, const QString& profile, const QByteArray& key, const QByteArray& token,
                const QJsonObject& details, QString* error = nullptr) const;

    // Every line of the file, oldest first; unparseable lines are skipped and counted in *badLines.
    static QList<QJsonObject> read(const QString& path, QString* error = nullptr, int* badLines = nullptr);

private:
    QString m_path;
};

} // namespace redlock
