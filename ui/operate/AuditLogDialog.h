#pragma once

#include <QDialog>

class QLabel;
class QTableWidget;

namespace redlock {

// The operator audit trail (AuditLog::read): time, user, profile, action, key and the per-node result,
// newest first.
class AuditLogDialog final : public QDialog
{
    Q_OBJECT
    Q_DISABLE_COPY_MOVE(AuditLogDialog)

public:
    explicit AuditLogDialog(const QString& path, QWidget* parent = nullptr);

    QTableWidget* table() const { return m_table; }
    void reload();

private:
    QString m_path;
    QTableWidget* m_table;
    QLabel* m_status;
};

} // namespace redlock
