#include "operate/AuditLogDialog.h"

#include "operate/AuditLog.h"

#include <QDateTime>
#include <QDialogButtonBox>
#include <QHeaderView>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QLabel>
#include <QPushButton>
#include <QTableWidget>
#include <QVBoxLayout>

namespace redlock {

namespace {
enum Column { TimeColumn, UserColumn, ProfileColumn, ActionColumn, KeyColumn, ResultColumn, ColumnCount };

// "#1 deleted, #2 token-changed, …" from the per-node array, else the remaining details.
QString resultText(const QJsonObject& line)
{
    for (const QString& field : {QStringLiteral("nodes"), QStringLiteral("results")}) {
        const QJsonArray nodes = line.value(field).toArray();
        if (nodes.isEmpty())
            continue;
        QStringList parts;
        for (const QJsonValue& v : nodes) {
            const QJsonObject n = v.toObject();
            const int node = n.value(QStringLiteral("node")).toInt(-1);
            QString what = n.value(QStringLiteral("result")).toString();
            if (what.isEmpty())
                what = n.value(QStringLiteral("kind")).toString();
            parts << (node >= 0 ? QStringLiteral("#%1 %2").arg(node + 1).arg(what) : what);
        }
        return parts.join(QStringLiteral(", "));
    }
    QJsonObject rest = line;
    for (const char* known : {"time", "user", "profile", "action", "key", "token"})
        rest.remove(QLatin1String(known));
    return QString::fromUtf8(QJsonDocument(rest).toJson(QJsonDocument::Compact));
}
} // namespace

AuditLogDialog::AuditLogDialog(const QString& path, QWidget* parent) : QDialog(parent), m_path(path)
{
    setObjectName(QStringLiteral("auditLogDialog"));
    setWindowTitle(tr("Audit log"));
    m_table = new QTableWidget(0, ColumnCount, this);
    m_table->setObjectName(QStringLiteral("auditTable"));
    m_table->setHorizontalHeaderLabels(
        {tr("Time"), tr("User"), tr("Profile"), tr("Action"), tr("Key"), tr("Per-node result")});
    m_table->verticalHeader()->hide();
    m_table->setEditTriggers(QAbstractItemView::NoEditTriggers);
    m_table->setSelectionBehavior(QAbstractItemView::SelectRows);
    m_table->setWordWrap(false);
    m_table->horizontalHeader()->setStretchLastSection(true);
    m_status = new QLabel(this);
    m_status->setTextInteractionFlags(Qt::TextSelectableByMouse);
    auto* buttons = new QDialogButtonBox(QDialogButtonBox::Close, this);
    QPushButton* reloadButton = buttons->addButton(tr("Reload"), QDialogButtonBox::ActionRole);
    connect(reloadButton, &QPushButton::clicked, this, &AuditLogDialog::reload);
    connect(buttons, &QDialogButtonBox::rejected, this, &QDialog::reject);
    auto* layout = new QVBoxLayout(this);
    layout->addWidget(m_table, 1);
    layout->addWidget(m_status);
    layout->addWidget(buttons);
    resize(1000, 420);
    reload();
}

void AuditLogDialog::reload()
{
    QString error;
    int bad = 0;
    QList<QJsonObject> lines = AuditLog::read(m_path, &error, &bad);
    std::reverse(lines.begin(), lines.end());
    m_table->setRowCount(int(lines.size()));
    for (int row = 0; row < lines.size(); ++row) {
        const QJsonObject& line = lines[row];
        const QDateTime time = QDateTime::fromString(line.value(QStringLiteral("time")).toString(), Qt::ISODateWithMs);
        const QString values[ColumnCount] = {
            time.isValid() ? time.toLocalTime().toString(QStringLiteral("yyyy-MM-dd HH:mm:ss"))
                           : line.value(QStringLiteral("time")).toString(),
            line.value(QStringLiteral("user")).toString(),
            line.value(QStringLiteral("profile")).toString(),
            line.value(QStringLiteral("action")).toString(),
            line.value(QStringLiteral("key")).toObject().value(QStringLiteral("printable")).toString(),
            resultText(line),
        };
        for (int c = 0; c < ColumnCount; ++c) {
            auto* item = new QTableWidgetItem(values[c]);
            item->setToolTip(values[c]);
            m_table->setItem(row, c, item);
        }
    }
    for (int c = 0; c < ResultColumn; ++c)
        m_table->resizeColumnToContents(c);
    QString status = tr("%n entr(ies) in %1", nullptr, int(lines.size())).arg(m_path);
    if (!error.isEmpty())
        status += QStringLiteral(" — ") + error;
    if (bad > 0)
        status += QStringLiteral(" — ") + tr("%n unreadable line(s) skipped", nullptr, bad);
    m_status->setText(status);
}

} // namespace redlock
