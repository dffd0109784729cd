#include "operate/ForceReleaseDialog.h"

#include "controller/OperatorActions.h"
#include "observe/ObservationTypes.h"
#include "runtime/HumanUnits.h"
#include "runtime/OwnThreadFuture.h"
#include "theme/Icons.h"
#include "theme/StatePalette.h"

#include <QComboBox>
#include <QDateTime>
#include <QDialogButtonBox>
#include <QFormLayout>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QLabel>
#include <QLineEdit>
#include <QPushButton>
#include <QSpinBox>
#include <QTableWidget>
#include <QVBoxLayout>

namespace redlock {

namespace {
enum Column { NodeColumn, OutcomeColumn, FoundColumn, PttlColumn, LockDelayColumn, LatencyColumn, ColumnCount };
// The lock-delay combo box's items, in this order.
enum DelayItem { AutoItem, FixedItem, DeleteItem };
} // namespace

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

    // Lock-delay: automatic by default. A lock deleted outright is free at once, and a holder that was only
    // paused (GC, a stalled VM, a partition) would overlap the next one; the tombstone waits that out.
    m_delayMode = new QComboBox(this);
    m_delayMode->setObjectName(QStringLiteral("forceReleaseLockDelayMode"));
    m_delayMode->addItem(tr("automatic: the lock's remaining validity plus drift (recommended)"));
    m_delayMode->addItem(tr("fixed duration"));
    m_delayMode->addItem(tr("none: delete the key, free at once"));
    m_delayMode->setToolTip(
        tr("Instead of deleting the key, the token is replaced by a tombstone that expires after the lock-delay: "
           "the old holder can no longer extend or release it, and nobody can acquire the lock before the old "
           "holder's validity is over, even if that holder is still running (a fixed duration is raised to that "
           "where needed; a lock without expiry stays blocked for the duration you choose)."));
    m_delayMs = new QSpinBox(this);
    m_delayMs->setObjectName(QStringLiteral("forceReleaseLockDelayMs"));
    m_delayMs->setRange(1, int(LockDelay::kMaxFixedMs));
    m_delayMs->setValue(30000);
    m_delayMs->setSuffix(tr(" ms"));
    m_delayMs->setToolTip(tr("On a node where the lock's remaining validity plus the clock drift is longer, the "
                             "tombstone gets that instead: a fixed lock-delay never frees the lock before the old "
                             "holder's validity is over. A key without expiry gets exactly this duration."));
    m_delayMs->setEnabled(false);
    auto* delayRow = new QHBoxLayout;
    delayRow->addWidget(m_delayMode, 1);
    delayRow->addWidget(m_delayMs);
    form->addRow(tr("Lock-delay:"), delayRow);

    m_table = new QTableWidget(0, ColumnCount, this);
    m_table->setObjectName(QStringLiteral("forceReleaseNodes"));
    m_table->setHorizontalHeaderLabels(
        {tr("Node"), tr("What happens"), tr("Value found"), tr("PTTL"), tr("Lock-delay"), tr("Latency")});
    m_table->verticalHeader()->hide();
    m_table->setEditTriggers(QAbstractItemView::NoEditTriggers);
    m_table->setSelectionMode(QAbstractItemView::NoSelection);
    m_table->horizontalHeader()->setSectionResizeMode(OutcomeColumn, QHeaderView::Stretch);
    m_table->setWordWrap(false);

    m_summary = new QLabel(tr("Reading the key on every node…"), this);
    m_summary->setObjectName(QStringLiteral("forceReleaseSummary"));
    m_summary->setWordWrap(true);
    m_lockDelayText = new QLabel(this);
    m_lockDelayText->setObjectName(QStringLiteral("forceReleaseLockDelayText"));
    m_lockDelayText->setWordWrap(true);
    m_liveWarning = new QLabel(this);
    m_liveWarning->setObjectName(QStringLiteral("forceReleaseLiveWarning"));
    m_liveWarning->setWordWrap(true);
    StatePalette::setTextRole(m_liveWarning, StatePalette::Role::Danger);
    QFont warningFont = m_liveWarning->font();
    warningFont.setBold(true);
    m_liveWarning->setFont(warningFont);
    m_liveWarning->hide();

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
    connect(m_delayMode, &QComboBox::currentIndexChanged, this, [this](int item) {
        m_delayMs->setEnabled(item == FixedItem);
        runPreview();
    });
    connect(m_delayMs, &QSpinBox::valueChanged, this, [this] {
        if (m_delayMode->currentIndex() == FixedItem)
            runPreview();
    });

    auto* layout = new QVBoxLayout(this);
    layout->addLayout(form);
    layout->addWidget(m_table, 1);
    layout->addWidget(m_summary);
    layout->addWidget(m_liveWarning);
    layout->addWidget(m_lockDelayText);
    layout->addWidget(m_confirmText);
    layout->addWidget(m_confirm);
    layout->addWidget(m_reason);
    layout->addWidget(buttons);
    resize(860, 460);

    if (actions->readOnly())
        m_confirmText->setText(tr("Read-only mode: the preview is shown, nothing can be released."));
    runPreview();
}

LockDelay ForceReleaseDialog::lockDelay() const
{
    switch (m_delayMode->currentIndex()) {
    case FixedItem:
        return LockDelay::fixed(m_delayMs->value());
    case DeleteItem:
        return LockDelay::deleteNow();
    default:
        return LockDelay::automatic();
    }
}

QString ForceReleaseDialog::lockDelayText(const ForceReleaseReport& report)
{
    QString delay;
    if (report.longestLockDelayMs() > 0)
        delay = tr("The lock-delay lasts up to %1.").arg(HumanUnits::remaining(report.longestLockDelayMs())) +
                QLatin1Char(' ');
    if (report.lockDelayRaisedCount() > 0)
        delay += tr("The fixed lock-delay is raised on %1 node(s) to cover the old holder's remaining validity "
                    "plus drift.")
                     .arg(report.lockDelayRaisedCount()) +
                 QLatin1Char(' ');
    return delay;
}

QString ForceReleaseDialog::freeText(const ForceReleaseReport& report)
{
    if (report.freeInMs == 0)
        return tr("free at once");
    if (report.freeInMs < 0)
        return tr("not free by itself, or not known (nodes without expiry or unreachable)");
    return tr("free at %1 (in %2)")
        .arg(QDateTime::fromMSecsSinceEpoch(report.freeAtMs()).toString(QStringLiteral("HH:mm:ss")),
             HumanUnits::remaining(report.freeInMs));
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
    case ForceReleaseNode::Kind::WillTombstone:
        return tr("tombstone: the token still equals the one shown");
    case ForceReleaseNode::Kind::Tombstoned:
        return Icons::severityGlyph(std::nullopt) + QLatin1Char(' ') + tr("released: tombstone in place");
    case ForceReleaseNode::Kind::NoExpiry:
        return tr("skip: no expiry to measure");
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
    if (m_haveResult)
        return;
    if (m_running) {
        m_previewAgain = true;
        return;
    }
    m_running = true;
    updateButtons();
    whenFinished(this, m_actions->previewForceRelease(m_key, m_token, lockDelay()),
                 [this](const ForceReleaseReport& report) {
                     m_running = false;
                     if (std::exchange(m_previewAgain, false)) {
                         runPreview(); // the lock-delay changed meanwhile: this preview is stale
                         return;
                     }
                     m_preview = report;
                     m_havePreview = true;
                     showReport(report);
                     emit previewShown();
                 });
}

void ForceReleaseDialog::execute()
{
    if (m_running || !m_havePreview || !m_release->isEnabled() || !(m_preview.lockDelay == lockDelay()))
        return;
    m_running = true;
    updateButtons();
    m_summary->setText(tr("Releasing…"));
    whenFinished(this, m_actions->executeForceRelease(m_key, m_token, m_reason->text(), m_preview.lockDelay),
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
        set(LockDelayColumn, n.lockDelayMs <= 0  ? QString()
                             : n.lockDelayRaised ? tr("%1 ms (raised)").arg(n.lockDelayMs)
                                                 : tr("%1 ms").arg(n.lockDelayMs));
        set(LatencyColumn, n.latencyUs >= 0 ? tr("%1 ms").arg(double(n.latencyUs) / 1000.0, 0, 'f', 1) : QString());
        std::optional<StatePalette::Role> role;
        if (n.kind == ForceReleaseNode::Kind::Deleted || n.kind == ForceReleaseNode::Kind::WillDelete ||
            n.kind == ForceReleaseNode::Kind::Tombstoned || n.kind == ForceReleaseNode::Kind::WillTombstone)
            role = StatePalette::Role::Success;
        else if (n.kind == ForceReleaseNode::Kind::NoExpiry)
            role = StatePalette::Role::Warning;
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
    if (report.stage == ForceReleaseReport::Stage::Execute || report.refused)
        m_liveWarning->hide();
    if (report.refused) {
        m_summary->setText(tr("Refused: %1").arg(report.error));
        m_lockDelayText->clear();
    } else if (report.stage == ForceReleaseReport::Stage::Preview) {
        QString text =
            report.lockDelay.mode == LockDelay::Mode::Delete
                ? tr("Preview: the lock would be deleted on %1 of %2 nodes; %3 unreachable.")
                      .arg(report.matched())
                      .arg(total)
                      .arg(report.unreachable())
                : tr("Preview: the token would be replaced by a tombstone on %1 of %2 nodes; %3 unreachable.")
                      .arg(report.matched())
                      .arg(total)
                      .arg(report.unreachable());
        m_summary->setText(text);
        // The operator may be looking at another value (a leftover beside a live holder): say whose lock this is.
        const qint64 live = report.liveQuorumValidityMs(m_actions->settings().cluster.driftFactor);
        m_liveWarning->setText(live > 0 ? tr("This token holds a quorum of nodes with %1 of validity left: a running "
                                             "holder's lock. Releasing it takes the lock from that holder.")
                                              .arg(HumanUnits::remaining(live))
                                        : QString());
        m_liveWarning->setVisible(live > 0);
        QString delay = lockDelayText(report);
        if (report.count(ForceReleaseNode::Kind::NoExpiry) > 0)
            delay += tr("No expiry on %1 node(s): an automatic lock-delay has nothing to measure; choose a fixed "
                        "duration, or none.")
                         .arg(report.count(ForceReleaseNode::Kind::NoExpiry)) +
                     QLatin1Char(' ');
        m_lockDelayText->setText(delay + tr("Afterwards the lock is %1.").arg(freeText(report)));
    } else {
        QString text = report.lockDelay.mode == LockDelay::Mode::Delete
                           ? tr("Deleted on %1 of %2 nodes; left to a new holder on %3; gone on %4; unreachable %5.")
                                 .arg(report.matched())
                                 .arg(total)
                                 .arg(report.count(ForceReleaseNode::Kind::TokenChanged))
                                 .arg(report.count(ForceReleaseNode::Kind::Gone))
                                 .arg(report.unreachable())
                           : tr("Released with a lock-delay on %1 of %2 nodes; left to a new holder on %3; gone on %4; "
                                "unreachable %5.")
                                 .arg(report.matched())
                                 .arg(total)
                                 .arg(report.count(ForceReleaseNode::Kind::TokenChanged))
                                 .arg(report.count(ForceReleaseNode::Kind::Gone))
                                 .arg(report.unreachable());
        QString delay = lockDelayText(report);
        m_lockDelayText->setText(delay + tr("The lock is %1.").arg(freeText(report)));
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
                        m_preview.matched() > 0 && m_preview.lockDelay == lockDelay();
    if (m_havePreview && !m_haveResult && !m_actions->readOnly()) {
        if (m_preview.matched() == 0 && m_preview.count(ForceReleaseNode::Kind::NoExpiry) > 0)
            m_confirmText->setText(tr("The lock has no expiry: choose a fixed lock-delay, or none, to release it."));
        else if (m_preview.matched() == 0)
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
        m_delayMode->setEnabled(false);
        m_delayMs->setEnabled(false);
    }
    const bool typed = !m_actions->production() || m_confirm->text() == printableBytes(m_key);
    m_release->setEnabled(canAct && typed);
}

} // namespace redlock
