#include "dialogs/ForceReleaseDialog.h"

#include "controller/OperatorActions.h"
#include "observe/ObservationTypes.h"
#include "runtime/OwnThreadFuture.h"
#include "theme/Icons.h"
#include "theme/StatePalette.h"

#include <QDialogButtonBox>
#include <QFormLayout>
#include <QHeaderView>
#include <QLabel>
#include <QLineEdit>
#include <QPushButton>
#include <QTableWidget>
#include <QVBoxLayout>

namespace redlock {

namespace {
enum Column { NodeColumn, OutcomeColumn, FoundColumn, PttlColumn, LatencyColumn, ColumnCount };
}

ForceReleaseDialog::ForceReleaseDialog(OperatorActions* actions, const QByteArray& key, const QByteArray& token,
                                       const QString& holder, QWidget* parent)
    : QDialog(parent), m_actions(actions), m_key(key), m_token(token), m_holder(holder)
{
    setObjectName(QStringLiteral("forceReleaseDialog"));
    setWindowTitle(tr("Force release"));
    auto* form = new QFormLayout;
    // Plain text everywhere a key or holder is shown: a key that looks like HTML must not render as another key.
    auto* keyLabel = new QLabel(printableBytes(key), this);
    keyLabel->setTextFormat(Qt::PlainText);
    keyLabel->setTextInteractionFlags(Qt::TextSelectableByMouse);
    QFont bold = keyLabel->font();
    bold.setBold(true);
    keyLabel->setFont(bold);
    form->addRow(tr("Key:"), keyLabel);
    auto* holderLabel = new QLabel(holder.isEmpty() ? tr("(unknown)") : holder, this);
    holderLabel->setTextFormat(Qt::PlainText);
    form->addRow(tr("Holder:"), holderLabel);
    auto* tokenLabel = new QLabel(printableBytes(token, 80), this);
    tokenLabel->setTextFormat(Qt::PlainText);
    tokenLabel->setTextInteractionFlags(Qt::TextSelectableByMouse);
    form->addRow(tr("Token seen:"), tokenLabel);

    m_table = new QTableWidget(0, ColumnCount, this);
    m_table->setObjectName(QStringLiteral("forceReleaseNodes"));
    m_table->setHorizontalHeaderLabels({tr("Node"), tr("What happens"), tr("Value found"), tr("PTTL"), tr("Latency")});
    m_table->verticalHeader()->hide();
    m_table->setEditTriggers(QAbstractItemView::NoEditTriggers);
    m_table->setSelectionMode(QAbstractItemView::NoSelection);
    m_table->horizontalHeader()->setSectionResizeMode(OutcomeColumn, QHeaderView::Stretch);
    m_table->setWordWrap(false);

    m_summary = new QLabel(tr("Reading the key on every node…"), this);
    m_summary->setObjectName(QStringLiteral("forceReleaseSummary"));
    m_summary->setWordWrap(true);

    m_confirmText = new QLabel(this);
    m_confirmText->setTextFormat(Qt::PlainText);
    m_confirmText->setWordWrap(true);
    m_confirm = new QLineEdit(this);
    m_confirm->setObjectName(QStringLiteral("forceReleaseConfirm"));
    m_confirm->setPlaceholderText(tr("Type the key name to confirm"));
    m_confirm->setVisible(actions->production());
    m_reason = new QLineEdit(this);
    m_reason->setObjectName(QStringLiteral("forceReleaseReason"));
    m_reason->setPlaceholderText(tr("Why (written to the audit log)"));

    auto* buttons = new QDialogButtonBox(this);
    m_release = buttons->addButton(tr("Force release"), QDialogButtonBox::DestructiveRole);
    m_release->setObjectName(QStringLiteral("forceReleaseButton"));
    m_release->setEnabled(false);
    m_close = buttons->addButton(QDialogButtonBox::Cancel);
    connect(m_release, &QPushButton::clicked, this, &ForceReleaseDialog::execute);
    connect(m_close, &QPushButton::clicked, this, &QDialog::reject);
    connect(m_confirm, &QLineEdit::textChanged, this, &ForceReleaseDialog::updateButtons);

    auto* layout = new QVBoxLayout(this);
    layout->addLayout(form);
    layout->addWidget(m_table, 1);
    layout->addWidget(m_summary);
    layout->addWidget(m_confirmText);
    layout->addWidget(m_confirm);
    layout->addWidget(m_reason);
    layout->addWidget(buttons);
    resize(760, 420);

    if (actions->readOnly())
        m_confirmText->setText(tr("Read-only mode: the preview is shown, nothing can be released."));
    runPreview();
}

QString ForceReleaseDialog::nodeText(const ForceReleaseNode& node, ForceReleaseReport::Stage stage)
{
    const bool preview = stage == ForceReleaseReport::Stage::Preview;
    switch (node.kind) {
    case ForceReleaseNode::Kind::NotAttempted:
        return tr("not attempted");
    case ForceReleaseNode::Kind::WillDelete:
        return tr("delete: the token still equals the one shown");
    case ForceReleaseNode::Kind::Deleted:
        return Icons::severityGlyph(std::nullopt) + QLatin1Char(' ') + tr("deleted");
    case ForceReleaseNode::Kind::TokenChanged:
        return preview ? tr("skip: the token changed") : tr("token changed: left to the new holder");
    case ForceReleaseNode::Kind::Gone:
        return preview ? tr("skip: the key is gone") : tr("gone: nothing to delete");
    case ForceReleaseNode::Kind::OtherType:
        return tr("not a string lock (%1): left alone").arg(node.foundType);
    case ForceReleaseNode::Kind::Unreachable:
        return preview ? tr("unreachable: %1").arg(node.error)
                       : tr("unreachable (the delete may or may not have run): %1").arg(node.error);
    case ForceReleaseNode::Kind::RedisError:
        return tr("refused by the node: %1").arg(node.error);
    }
    return {};
}

void ForceReleaseDialog::runPreview()
{
    if (m_running)
        return;
    m_running = true;
    whenFinished(this, m_actions->previewForceRelease(m_key, m_token), [this](const ForceReleaseReport& report) {
        m_running = false;
        m_preview = report;
        m_havePreview = true;
        showReport(report);
        emit previewShown();
    });
}

void ForceReleaseDialog::execute()
{
    if (m_running || !m_havePreview || !m_release->isEnabled())
        return;
    m_running = true;
    updateButtons();
    m_summary->setText(tr("Releasing…"));
    whenFinished(this, m_actions->executeForceRelease(m_key, m_token, m_reason->text()),
                 [this](const ForceReleaseReport& report) {
                     m_running = false;
                     m_result = report;
                     m_haveResult = true;
                     showReport(report);
                     m_close->setText(tr("Close"));
                     emit resultShown();
                 });
}

void ForceReleaseDialog::showReport(const ForceReleaseReport& report)
{
    const QList<NodeEndpoint>& nodes = m_actions->settings().cluster.nodes;
    m_table->setRowCount(int(report.nodes.size()));
    for (int row = 0; row < report.nodes.size(); ++row) {
        const ForceReleaseNode& n = report.nodes[row];
        auto set = [&](int column, const QString& text) {
            auto* item = new QTableWidgetItem(text);
            item->setToolTip(text);
            m_table->setItem(row, column, item);
        };
        set(NodeColumn, QStringLiteral("#%1 %2").arg(n.node + 1).arg(nodes.value(n.node).displayName()));
        set(OutcomeColumn, nodeText(n, report.stage));
        set(FoundColumn, n.foundToken.isEmpty() ? QString() : printableBytes(n.foundToken, 60));
        set(PttlColumn, n.pttlMs >= 0 ? tr("%1 ms").arg(n.pttlMs) : QString());
        set(LatencyColumn, n.latencyUs >= 0 ? tr("%1 ms").arg(double(n.latencyUs) / 1000.0, 0, 'f', 1) : QString());
        std::optional<StatePalette::Role> role;
        if (n.kind == ForceReleaseNode::Kind::Deleted || n.kind == ForceReleaseNode::Kind::WillDelete)
            role = StatePalette::Role::Success;
        else if (n.kind == ForceReleaseNode::Kind::Unreachable || n.kind == ForceReleaseNode::Kind::RedisError)
            role = StatePalette::Role::Danger;
        if (role)
            m_table->item(row, OutcomeColumn)->setForeground(StatePalette::forPalette(palette()).color(*role));
    }
    m_table->resizeColumnToContents(NodeColumn);
    m_table->resizeColumnToContents(FoundColumn);

    const int total = int(report.nodes.size());
    const bool failed = report.refused || (report.stage == ForceReleaseReport::Stage::Execute && !report.audited);
    StatePalette::setTextRole(m_summary, failed ? std::optional(StatePalette::Role::Danger) : std::nullopt);
    QFont font = m_summary->font();
    font.setBold(failed);
    m_summary->setFont(font);
    if (report.refused) {
        m_summary->setText(tr("Refused: %1").arg(report.error));
    } else if (report.stage == ForceReleaseReport::Stage::Preview) {
        m_summary->setText(tr("Preview: the lock would be deleted on %1 of %2 nodes; %3 unreachable.")
                               .arg(report.matched())
                               .arg(total)
                               .arg(report.unreachable()));
    } else {
        QString text = tr("Deleted on %1 of %2 nodes; left to a new holder on %3; gone on %4; unreachable %5.")
                           .arg(report.matched())
                           .arg(total)
                           .arg(report.count(ForceReleaseNode::Kind::TokenChanged))
                           .arg(report.count(ForceReleaseNode::Kind::Gone))
                           .arg(report.unreachable());
        if (!report.audited)
            text += QLatin1Char(' ') + tr("The deletes ran, but their result could not be written to the audit log "
                                          "(the intent line is there): %1")
                                           .arg(report.auditError);
        m_summary->setText(text);
    }
    updateButtons();
}

void ForceReleaseDialog::updateButtons()
{
    const bool canAct = m_havePreview && !m_haveResult && !m_running && !m_actions->readOnly() && !m_preview.refused &&
                        m_preview.matched() > 0;
    if (m_havePreview && !m_haveResult && !m_actions->readOnly()) {
        if (m_preview.matched() == 0)
            m_confirmText->setText(tr("No node holds the token shown: there is nothing to release."));
        else if (m_actions->production())
            m_confirmText->setText(tr("Production profile. Release the lock “%1” held by %2 on %3 node(s)? Type "
                                      "the key name to confirm.")
                                       .arg(printableBytes(m_key), m_holder, QString::number(m_preview.matched())));
        else
            m_confirmText->setText(tr("Release the lock “%1” held by %2 on %3 node(s)? Nodes where the token "
                                      "changed are left alone.")
                                       .arg(printableBytes(m_key), m_holder, QString::number(m_preview.matched())));
    }
    if (m_haveResult) {
        m_confirmText->clear();
        m_confirm->setEnabled(false);
    }
    const bool typed = !m_actions->production() || m_confirm->text() == printableBytes(m_key);
    m_release->setEnabled(canAct && typed);
}

} // namespace redlock
