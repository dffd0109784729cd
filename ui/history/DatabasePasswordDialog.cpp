#include "history/DatabasePasswordDialog.h"

#include "history/LockJournal.h"

#include <QCheckBox>
#include <QDialogButtonBox>
#include <QLabel>
#include <QLineEdit>
#include <QVBoxLayout>

namespace redlock {

QString DatabasePasswordDialog::keyringKey(const QString& url)
{
    return QStringLiteral("history ") + LockJournal::displayLocation(url);
}

DatabasePasswordDialog::DatabasePasswordDialog(const QString& location, const QString& problem, QWidget* parent)
    : QDialog(parent), m_password(new QLineEdit(this)), m_remember(new QCheckBox(tr("Remember in keyring"), this))
{
    setObjectName(QStringLiteral("databasePasswordDialog"));
    setWindowTitle(tr("Lock history password"));
    // Plain text: the location and the server's answer are shown as they are, never read as markup.
    auto* text = new QLabel(
        tr("The lock history at %1 needs a password (none in PGPASSWORD or ~/.pgpass).").arg(location), this);
    text->setTextFormat(Qt::PlainText);
    text->setWordWrap(true);
    auto* detail = new QLabel(problem, this);
    detail->setObjectName(QStringLiteral("serverAnswer"));
    detail->setTextFormat(Qt::PlainText);
    detail->setWordWrap(true);
    detail->setTextInteractionFlags(Qt::TextSelectableByMouse);
    m_password->setObjectName(QStringLiteral("password"));
    m_password->setEchoMode(QLineEdit::Password);
    m_remember->setObjectName(QStringLiteral("rememberPassword"));
    m_remember->setToolTip(tr("Kept in the desktop keyring (Secret Service), never in the profile file."));
    m_remember->setChecked(true);
    auto* buttons = new QDialogButtonBox(QDialogButtonBox::Ok | QDialogButtonBox::Cancel, this);
    connect(buttons, &QDialogButtonBox::accepted, this, &QDialog::accept);
    connect(buttons, &QDialogButtonBox::rejected, this, &QDialog::reject);
    // Wide enough for a postgresql:// URL and libpq's answer to wrap into a few lines, not a column.
    setMinimumWidth(fontMetrics().averageCharWidth() * 70);
    auto* layout = new QVBoxLayout(this);
    layout->addWidget(text);
    layout->addWidget(detail);
    layout->addWidget(m_password);
    layout->addWidget(m_remember);
    layout->addWidget(buttons);
}

QString DatabasePasswordDialog::password() const
{
    return m_password->text();
}

bool DatabasePasswordDialog::remember() const
{
    return m_remember->isChecked();
}

} // namespace redlock
