#include "bench/BenchPanel.h"

#include "controller/BenchController.h"
#include "observe/ObservationTypes.h"
#include "redlock/RedlockRules.h"
#include "runtime/HumanUnits.h"
#include "theme/Icons.h"
#include "theme/StatePalette.h"

#include <QBarCategoryAxis>
#include <QBarSeries>
#include <QBarSet>
#include <QChart>
#include <QChartView>
#include <QCheckBox>
#include <QDateTime>
#include <QDoubleSpinBox>
#include <QFileDialog>
#include <QFormLayout>
#include <QGroupBox>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QLabel>
#include <QLineEdit>
#include <QListWidget>
#include <QMessageBox>
#include <QProgressBar>
#include <QPushButton>
#include <QSpinBox>
#include <QTabWidget>
#include <QTableWidget>
#include <QVBoxLayout>
#include <QValueAxis>

namespace redlock {

namespace {

QSpinBox* spin(QWidget* parent, int min, int max, int value, const QString& suffix = {})
{
    auto* box = new QSpinBox(parent);
    box->setRange(min, max);
    box->setValue(value);
    box->setSuffix(suffix);
    return box;
}
} // namespace

BenchPanel::BenchPanel(QWidget* parent) : QWidget(parent), m_bench(new BenchController(this))
{
    setObjectName(QStringLiteral("testBench"));
    m_resource = new QLineEdit(QStringLiteral("bench:lock"), this);
    m_ttl = spin(this, 10, 3600000, 10000, tr(" ms"));
    m_retryCount = spin(this, 0, 1000, 3);
    m_retryDelay = spin(this, 0, 60000, 200, tr(" ms"));
    m_retryJitter = spin(this, 0, 60000, 100, tr(" ms"));
    m_drift = new QDoubleSpinBox(this);
    m_drift->setDecimals(3);
    m_drift->setRange(0, rules::kMaxDriftFactor - 0.001); // the rule's maximum is excluded (3 decimals)
    m_drift->setSingleStep(0.005);
    m_drift->setValue(rules::kDefaultDriftFactor);
    m_fencing = new QCheckBox(tr("Fencing token"), this);
    m_autoExtend = new QCheckBox(tr("Auto-extend"), this);
    m_clients = spin(this, 1, 256, 4);
    m_iterations = spin(this, 1, 100000, 20);

    auto* form = new QFormLayout;
    form->addRow(tr("Resource:"), m_resource);
    form->addRow(tr("TTL:"), m_ttl);
    form->addRow(tr("Retries:"), m_retryCount);
    form->addRow(tr("Retry delay:"), m_retryDelay);
    form->addRow(tr("Retry jitter:"), m_retryJitter);
    form->addRow(tr("Drift factor:"), m_drift);
    form->addRow(QString(), m_fencing);
    form->addRow(QString(), m_autoExtend);
    form->addRow(tr("Clients (K):"), m_clients);
    form->addRow(tr("Iterations:"), m_iterations);
    auto* settingsBox = new QGroupBox(tr("Settings"), this);
    settingsBox->setLayout(form);

    // Single lock.
    m_acquireButton = new QPushButton(tr("Acquire"), this);
    m_extendButton = new QPushButton(tr("Extend"), this);
    m_releaseButton = new QPushButton(tr("Release"), this);
    m_lockState = new QLabel(tr("No lock held."), this);
    m_lockState->setObjectName(QStringLiteral("benchLockState"));
    m_lockState->setWordWrap(true);
    m_lockState->setTextInteractionFlags(Qt::TextSelectableByMouse);
    m_nodesTable = new QTableWidget(0, 4, this);
    m_nodesTable->setObjectName(QStringLiteral("benchNodes"));
    m_nodesTable->setHorizontalHeaderLabels({tr("Node"), tr("Outcome"), tr("Latency"), tr("Detail")});
    m_nodesTable->verticalHeader()->hide();
    m_nodesTable->setEditTriggers(QAbstractItemView::NoEditTriggers);
    m_nodesTable->horizontalHeader()->setStretchLastSection(true);
    m_nodesTable->setWordWrap(false);
    m_extensions = new QListWidget(this);
    m_extensions->setObjectName(QStringLiteral("benchExtensions"));
    auto* singleButtons = new QHBoxLayout;
    singleButtons->addWidget(m_acquireButton);
    singleButtons->addWidget(m_extendButton);
    singleButtons->addWidget(m_releaseButton);
    singleButtons->addStretch(1);
    auto* single = new QWidget(this);
    auto* singleLayout = new QVBoxLayout(single);
    singleLayout->addLayout(singleButtons);
    singleLayout->addWidget(m_lockState);
    singleLayout->addWidget(m_nodesTable, 2);
    singleLayout->addWidget(new QLabel(tr("Extensions:"), single));
    singleLayout->addWidget(m_extensions, 1);

    // Run.
    m_runButton = new QPushButton(tr("Run K × iterations"), this);
    m_csvButton = new QPushButton(tr("Export CSV…"), this);
    m_jsonButton = new QPushButton(tr("Export JSON…"), this);
    m_progress = new QProgressBar(this);
    m_statsLabel = new QLabel(tr("No run yet."), this);
    m_statsLabel->setObjectName(QStringLiteral("benchStats"));
    m_statsLabel->setWordWrap(true);
    m_statsLabel->setTextInteractionFlags(Qt::TextSelectableByMouse);
    m_nodeErrors = new QTableWidget(0, 2, this);
    m_nodeErrors->setHorizontalHeaderLabels({tr("Node"), tr("Errors")});
    m_nodeErrors->verticalHeader()->hide();
    m_nodeErrors->setEditTriggers(QAbstractItemView::NoEditTriggers);
    m_nodeErrors->horizontalHeader()->setStretchLastSection(true);
    m_nodeErrors->setMaximumWidth(260);
    auto* chart = new QChart;
    StatePalette::applyToChart(chart, palette());
    chart->setTitle(tr("Acquire latency"));
    chart->legend()->hide();
    chart->setMargins(QMargins(4, 4, 4, 4));
    m_chart = new QChartView(chart, this);
    m_chart->setRenderHint(QPainter::Antialiasing);
    m_chart->setMinimumHeight(200);
    auto* runButtons = new QHBoxLayout;
    runButtons->addWidget(m_runButton);
    runButtons->addWidget(m_progress, 1);
    runButtons->addWidget(m_csvButton);
    runButtons->addWidget(m_jsonButton);
    auto* runBody = new QHBoxLayout;
    runBody->addWidget(m_chart, 1);
    runBody->addWidget(m_nodeErrors);
    auto* run = new QWidget(this);
    auto* runLayout = new QVBoxLayout(run);
    runLayout->addLayout(runButtons);
    runLayout->addWidget(m_statsLabel);
    runLayout->addLayout(runBody, 1);

    auto* tabs = new QTabWidget(this);
    tabs->addTab(single, tr("Single lock"));
    tabs->addTab(run, tr("Run"));
    auto* layout = new QHBoxLayout(this);
    layout->addWidget(settingsBox);
    layout->addWidget(tabs, 1);

    connect(m_acquireButton, &QPushButton::clicked, this, &BenchPanel::acquire);
    connect(m_extendButton, &QPushButton::clicked, this, &BenchPanel::extend);
    connect(m_releaseButton, &QPushButton::clicked, this, &BenchPanel::release);
    connect(m_runButton, &QPushButton::clicked, this, &BenchPanel::startRun);
    connect(m_csvButton, &QPushButton::clicked, this, [this] { exportWithDialog(false); });
    connect(m_jsonButton, &QPushButton::clicked, this, [this] { exportWithDialog(true); });
    connect(m_bench, &BenchController::acquired, this, &BenchPanel::onAcquired);
    connect(m_bench, &BenchController::extended, this, &BenchPanel::onExtended);
    connect(m_bench, &BenchController::released, this, &BenchPanel::onReleased);
    connect(m_bench, &BenchController::autoExtended, this, &BenchPanel::addExtension);
    connect(m_bench, &BenchController::lost, this, &BenchPanel::onLost);
    connect(m_bench, &BenchController::runProgress, m_progress, [this](int done, int) { m_progress->setValue(done); });
    connect(m_bench, &BenchController::runFinished, this, [this](const BenchStats& stats) {
        showRun(stats);
        updateButtons();
        emit runFinished();
    });
    updateButtons();
}

BenchPanel::~BenchPanel()
{
    stop();
}

void BenchPanel::setCluster(const QList<NodeEndpoint>& nodes, bool readOnly)
{
    stop();
    m_nodes = nodes;
    m_readOnly = readOnly;
    m_lockState->setText(readOnly ? tr("Read-only mode: the test bench writes locks and is disabled.")
                                  : tr("No lock held."));
    updateButtons();
}

void BenchPanel::stop()
{
    m_bench->stop();
    m_lock = {};
    m_busy = false;
    updateButtons();
}

BenchConfig BenchPanel::config() const
{
    BenchConfig c;
    c.nodes = m_nodes;
    c.resource = m_resource->text().toUtf8();
    c.ttlMs = m_ttl->value();
    c.retryCount = m_retryCount->value();
    c.retryDelayMs = m_retryDelay->value();
    c.retryJitterMs = m_retryJitter->value();
    c.driftFactor = m_drift->value();
    c.fencing = m_fencing->isChecked();
    c.autoExtend = m_autoExtend->isChecked();
    c.clients = m_clients->value();
    c.iterations = m_iterations->value();
    c.readOnly = m_readOnly;
    return c;
}

void BenchPanel::acquire()
{
    if (m_busy || isHolding() || m_nodes.isEmpty() || m_readOnly)
        return;
    m_busy = true;
    m_lostReason.clear();
    m_extensions->clear();
    m_lockState->setText(tr("Acquiring…"));
    showLockStateAs(std::nullopt);
    updateButtons();
    m_bench->acquire(config());
}

void BenchPanel::onAcquired(const AcquireResult& result)
{
    m_busy = false;
    if (!result.attempts.isEmpty())
        showOutcomes(result.attempts.last().nodes);
    if (result.ok) {
        m_lock = result.lock;
        showLockState();
    } else {
        m_lockState->setText(
            tr("Not acquired after %n attempt(s): %1", nullptr, int(result.attempts.size())).arg(result.error));
        showLockStateAs(StatePalette::Role::Danger);
    }
    updateButtons();
    emit acquireFinished(result.ok);
}

void BenchPanel::extend()
{
    if (m_busy || !isHolding() || !m_bench->hasClient() || m_bench->isAutoExtending())
        return;
    m_busy = true;
    updateButtons();
    m_bench->extend(m_lock, m_ttl->value());
}

void BenchPanel::onExtended(const ExtendResult& result)
{
    m_busy = false;
    showOutcomes(result.nodes);
    addExtension(result);
    if (result.ok)
        m_lock = result.lock;
    else
        onLost(result.error);
    showLockState();
    updateButtons();
    emit extendFinished(result.ok);
}

void BenchPanel::release()
{
    if (m_busy || !isHolding() || !m_bench->hasClient())
        return;
    m_busy = true;
    updateButtons();
    m_bench->release(m_lock);
}

void BenchPanel::onReleased(const ReleaseResult& result)
{
    m_busy = false;
    showOutcomes(result.nodes);
    m_lock = {};
    m_lockState->setText(result.ok
                             ? tr("Released on %1 of %2 nodes.").arg(result.succeededCount).arg(result.nodes.size())
                             : tr("Release incomplete (%1 of %2 nodes): %3")
                                   .arg(result.succeededCount)
                                   .arg(result.nodes.size())
                                   .arg(result.error));
    showLockStateAs(std::nullopt);
    updateButtons();
    emit releaseFinished(result.ok);
}

void BenchPanel::showOutcomes(const QList<NodeOutcome>& nodes)
{
    m_nodesTable->setRowCount(int(nodes.size()));
    for (int row = 0; row < nodes.size(); ++row) {
        const NodeOutcome& n = nodes[row];
        QString detail = n.error;
        if (n.kind == NodeOutcome::Kind::HeldByOther)
            detail = tr("held by %1 (PTTL %2 ms)").arg(printableBytes(n.holderToken, 60)).arg(n.holderPttlMs);
        if (n.fenceValue >= 0)
            detail = tr("fence %1").arg(n.fenceValue) + (detail.isEmpty() ? QString() : QStringLiteral("; ") + detail);
        const QString cells[] = {QStringLiteral("#%1 %2").arg(n.node + 1).arg(m_nodes.value(n.node).displayName()),
                                 outcomeKindName(n.kind), HumanUnits::latency(n.latencyUs), detail};
        for (int c = 0; c < 4; ++c) {
            auto* item = new QTableWidgetItem(cells[c]);
            item->setToolTip(cells[c]);
            if (c == 1)
                item->setForeground(StatePalette::forPalette(palette()).color(
                    n.succeeded() ? StatePalette::Role::Success : StatePalette::Role::Danger));
            m_nodesTable->setItem(row, c, item);
        }
    }
    m_nodesTable->resizeColumnsToContents();
}

void BenchPanel::showLockState()
{
    if (!m_lostReason.isEmpty()) {
        m_lockState->setText(Icons::severityGlyph(AuditFinding::Severity::Severe) + QLatin1Char(' ') +
                             tr("LOST: %1").arg(m_lostReason));
        showLockStateAs(StatePalette::Role::Danger, true, 1.4);
        return;
    }
    if (!isHolding())
        return;
    const qint64 validity = m_lock.remainingValidityMs(SteadyClock::system()->nowNs());
    QString text = Icons::verdictGlyph(LockVerdict::Held) + QLatin1Char(' ') +
                   tr("Held: validity %1 ms of TTL %2 ms; token %3")
                       .arg(validity)
                       .arg(m_lock.ttlMs)
                       .arg(printableBytes(m_lock.token, 60));
    if (m_lock.fencingToken >= 0)
        text += tr("; fencing token %1").arg(m_lock.fencingToken);
    if (m_bench->isAutoExtending())
        text += tr("; auto-extended");
    m_lockState->setText(text);
    showLockStateAs(StatePalette::Role::Success, true);
}

void BenchPanel::showLockStateAs(std::optional<StatePalette::Role> role, bool bold, double scale)
{
    StatePalette::setTextRole(m_lockState, role);
    QFont font = this->font();
    font.setBold(bold);
    if (scale != 1.0)
        font.setPointSizeF(font.pointSizeF() * scale);
    m_lockState->setFont(font);
}

void BenchPanel::addExtension(const ExtendResult& result)
{
    const QString time = QDateTime::currentDateTime().toString(u"HH:mm:ss.zzz");
    auto* item =
        new QListWidgetItem(result.ok ? tr("%1 extended on %2 of %3 nodes in %4, validity %5 ms")
                                            .arg(time)
                                            .arg(result.succeededCount)
                                            .arg(result.nodes.size())
                                            .arg(HumanUnits::latency(result.elapsedUs))
                                            .arg(result.lock.remainingValidityMs(SteadyClock::system()->nowNs()))
                                      : tr("%1 extension failed (%2 of %3 nodes): %4")
                                            .arg(time)
                                            .arg(result.succeededCount)
                                            .arg(result.nodes.size())
                                            .arg(result.error));
    if (!result.ok)
        item->setForeground(StatePalette::forPalette(palette()).color(StatePalette::Role::Danger));
    m_extensions->addItem(item);
    m_extensions->scrollToBottom();
    if (result.ok) {
        m_lock = result.lock;
        showLockState();
    }
}

void BenchPanel::onLost(const QString& reason)
{
    m_lostReason = reason.isEmpty() ? tr("the lock could not be kept") : reason;
    m_lock = {};
    showLockState();
    auto* item = new QListWidgetItem(tr("LOST: %1").arg(m_lostReason));
    item->setForeground(StatePalette::forPalette(palette()).color(StatePalette::Role::Danger));
    m_extensions->addItem(item);
    updateButtons();
    emit lockLost(m_lostReason);
}

void BenchPanel::startRun()
{
    if (m_bench->isRunning() || m_nodes.isEmpty() || m_readOnly)
        return;
    const BenchConfig c = config();
    m_progress->setRange(0, c.clients * c.iterations);
    m_progress->setValue(0);
    m_statsLabel->setText(tr("Running %1 clients × %2 iterations…").arg(c.clients).arg(c.iterations));
    m_bench->startRun(c);
    updateButtons();
}

void BenchPanel::showRun(const BenchStats& stats)
{
    m_stats = stats;
    m_haveRun = true;
    m_statsLabel->setText(
        tr("%1 of %2 acquires succeeded (%3 %) in %4 ms · latency p50 %5, p99 %6 · contention "
           "seen in %7 acquire(s)")
            .arg(stats.succeeded())
            .arg(stats.samples.size())
            .arg(stats.successRate() * 100.0, 0, 'f', 1)
            .arg(stats.elapsedMs)
            .arg(HumanUnits::latency(stats.percentileUs(50)), HumanUnits::latency(stats.percentileUs(99)))
            .arg(stats.contended()));
    m_nodeErrors->setRowCount(int(stats.nodeErrors.size()));
    for (int i = 0; i < stats.nodeErrors.size(); ++i) {
        m_nodeErrors->setItem(
            i, 0, new QTableWidgetItem(QStringLiteral("#%1 %2").arg(i + 1).arg(m_nodes.value(i).displayName())));
        m_nodeErrors->setItem(i, 1, new QTableWidgetItem(QString::number(stats.nodeErrors[i])));
    }
    m_nodeErrors->resizeColumnToContents(0);

    QChart* chart = m_chart->chart();
    chart->removeAllSeries();
    for (QAbstractAxis* axis : chart->axes())
        chart->removeAxis(axis);
    qint64 width = 1;
    const QList<int> bins = stats.histogram(12, &width);
    auto* set = new QBarSet(tr("Acquires"));
    QStringList labels;
    int highest = 0;
    for (int i = 0; i < bins.size(); ++i) {
        *set << bins[i];
        highest = std::max(highest, bins[i]);
        labels << QString::number(double(width * i) / 1000.0, 'f', 1);
    }
    set->setColor(StatePalette::forPalette(palette()).color(StatePalette::Role::Accent));
    auto* series = new QBarSeries;
    series->append(set);
    series->setBarWidth(0.95);
    chart->addSeries(series);
    auto* x = new QBarCategoryAxis;
    x->append(labels);
    x->setTitleText(tr("latency from (ms)"));
    auto* y = new QValueAxis;
    y->setRange(0, std::max(1, highest));
    y->setLabelFormat(QStringLiteral("%d"));
    y->setTitleText(tr("acquires"));
    chart->addAxis(x, Qt::AlignBottom);
    chart->addAxis(y, Qt::AlignLeft);
    series->attachAxis(x);
    series->attachAxis(y);
}

bool BenchPanel::exportCsv(const QString& path, QString* error) const
{
    return m_stats.exportCsv(path, error);
}

bool BenchPanel::exportJson(const QString& path, QString* error) const
{
    return m_stats.exportJson(path, error);
}

void BenchPanel::exportWithDialog(bool json)
{
    const QString path = QFileDialog::getSaveFileName(this, json ? tr("Export run as JSON") : tr("Export run as CSV"),
                                                      json ? QStringLiteral("bench.json") : QStringLiteral("bench.csv"),
                                                      json ? tr("JSON (*.json)") : tr("CSV (*.csv)"));
    if (path.isEmpty())
        return;
    QString error;
    if (!(json ? exportJson(path, &error) : exportCsv(path, &error)))
        QMessageBox::warning(this, tr("Export failed"), tr("Cannot write %1: %2").arg(path, error));
}

void BenchPanel::updateButtons()
{
    const bool connected = !m_nodes.isEmpty() && !m_readOnly;
    m_acquireButton->setEnabled(connected && !m_busy && !isHolding());
    m_extendButton->setEnabled(connected && !m_busy && isHolding() && !m_bench->isAutoExtending());
    m_releaseButton->setEnabled(connected && !m_busy && isHolding());
    m_runButton->setEnabled(connected && !m_bench->isRunning());
    m_csvButton->setEnabled(m_haveRun);
    m_jsonButton->setEnabled(m_haveRun);
}

} // namespace redlock
