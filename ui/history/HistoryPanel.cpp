#include "history/HistoryPanel.h"
#include "controller/PasswordKeyring.h"
#include "history/DatabasePasswordDialog.h"
#include "history/PostgresJournalPassword.h"

#include "history/HistoryModel.h"
#include "history/HistoryTimeline.h"
#include "history/LockJournal.h"
#include "runtime/IoThread.h"
#include "runtime/OwnThreadFuture.h"
#include "theme/StatePalette.h"

#include <QComboBox>
#include <QDateTime>
#include <QDateTimeEdit>
#include <QDir>
#include <QFormLayout>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QItemSelectionModel>
#include <QLabel>
#include <QLineEdit>
#include <QPushButton>
#include <QSortFilterProxyModel>
#include <QSplitter>
#include <QTableView>
#include <QTimer>
#include <QVBoxLayout>

#include <atomic>
#include <memory>

namespace redlock {

namespace {
// The range presets, in ms; 0 = the dates typed in.
constexpr qint64 kRanges[] = {15 * 60'000, 3600'000, 24 * 3600'000, 7 * 24 * 3600'000LL, 0};
} // namespace

HistoryPanel::HistoryPanel(LockJournal* journal, QWidget* parent)
    : QWidget(parent), m_journal(journal), m_model(new HistoryModel(this)), m_proxy(new QSortFilterProxyModel(this)),
      m_live(new QTimer(this))
{
    m_live->setInterval(5000);
    connect(m_live, &QTimer::timeout, this, &HistoryPanel::search);
    m_key = new QLineEdit;
    m_key->setObjectName(QStringLiteral("historyKey"));
    m_key->setPlaceholderText(tr("every key; a glob such as orders:*"));
    m_key->setClearButtonEnabled(true);
    m_holder = new QLineEdit;
    m_holder->setObjectName(QStringLiteral("historyHolder"));
    m_holder->setPlaceholderText(tr("any holder; part of its name or token"));
    m_holder->setClearButtonEnabled(true);
    m_range = new QComboBox;
    m_range->setObjectName(QStringLiteral("historyRange"));
    m_range->addItems(
        {tr("Last 15 minutes"), tr("Last hour"), tr("Last 24 hours"), tr("Last 7 days"), tr("From … to …")});
    m_range->setCurrentIndex(2);
    m_since = new QDateTimeEdit;
    m_since->setObjectName(QStringLiteral("historySince"));
    m_until = new QDateTimeEdit;
    m_until->setObjectName(QStringLiteral("historyUntil"));
    for (QDateTimeEdit* edit : {m_since, m_until}) {
        edit->setCalendarPopup(true);
        edit->setDisplayFormat(QStringLiteral("yyyy-MM-dd HH:mm:ss"));
    }
    m_search = new QPushButton(tr("Search"));
    m_search->setObjectName(QStringLiteral("historySearch"));
    m_search->setDefault(true);

    // Two rows, so that nothing is squeezed in a dock of half a window's width: what to look for, then when.
    for (QDateTimeEdit* edit : {m_since, m_until})
        edit->setMinimumWidth(edit->sizeHint().width());
    m_key->setMinimumWidth(fontMetrics().horizontalAdvance(m_key->placeholderText()) + 40);
    m_holder->setMinimumWidth(fontMetrics().horizontalAdvance(QStringLiteral("host-name pid 12345")) + 40);
    auto* what = new QHBoxLayout;
    what->addWidget(new QLabel(tr("Key:")));
    what->addWidget(m_key, 3);
    what->addSpacing(8);
    what->addWidget(new QLabel(tr("Holder:")));
    what->addWidget(m_holder, 2);
    auto* when = new QHBoxLayout;
    when->addWidget(m_range);
    when->addWidget(m_since);
    when->addWidget(new QLabel(QStringLiteral("–")));
    when->addWidget(m_until);
    when->addStretch(1);
    when->addWidget(m_search);
    auto* filters = new QVBoxLayout;
    filters->setSpacing(4);
    filters->addLayout(what);
    filters->addLayout(when);

    m_proxy->setSourceModel(m_model);
    m_proxy->setSortRole(HistoryModel::SortRole);
    m_table = new QTableView;
    m_table->setObjectName(QStringLiteral("historyTable"));
    m_table->setModel(m_proxy);
    m_table->setSelectionBehavior(QAbstractItemView::SelectRows);
    m_table->setSelectionMode(QAbstractItemView::SingleSelection);
    m_table->setSortingEnabled(true);
    m_table->sortByColumn(HistoryModel::FromColumn, Qt::DescendingOrder);
    m_table->verticalHeader()->hide();
    m_table->verticalHeader()->setDefaultSectionSize(m_table->fontMetrics().height() + 6);
    m_table->horizontalHeader()->setStretchLastSection(false);
    m_table->setWordWrap(false);
    m_table->setMinimumHeight(m_table->fontMetrics().height() * 5);

    m_timeline = new HistoryTimeline;
    m_timeline->setObjectName(QStringLiteral("historyTimeline"));
    // The timeline keeps room for its legend, the key and two holders whatever the height (it never collapses).
    auto* split = new QSplitter(Qt::Vertical);
    split->addWidget(m_table);
    split->addWidget(m_timeline);
    split->setStretchFactor(0, 1);
    split->setStretchFactor(1, 1);
    split->setCollapsible(0, false);
    split->setCollapsible(1, false);

    m_status = new QLabel;
    m_status->setObjectName(QStringLiteral("historyStatus"));
    m_status->setWordWrap(true);
    m_status->setTextInteractionFlags(Qt::TextSelectableByMouse);

    auto* layout = new QVBoxLayout(this);
    layout->addLayout(filters);
    layout->addWidget(split, 1);
    layout->addWidget(m_status);

    connect(m_search, &QPushButton::clicked, this, &HistoryPanel::search);
    connect(m_key, &QLineEdit::returnPressed, this, &HistoryPanel::search);
    connect(m_holder, &QLineEdit::returnPressed, this, &HistoryPanel::search);
    connect(m_range, &QComboBox::currentIndexChanged, this, [this] {
        applyRange();
        search();
    });
    connect(m_table, &QTableView::clicked, this,
            [this] { m_keepKey = m_table->currentIndex().data(HistoryModel::KeyRole).toByteArray(); });
    connect(m_table->selectionModel(), &QItemSelectionModel::currentRowChanged, this, &HistoryPanel::onCurrentChanged);
    applySource();
}

// The reading thread goes first: a query in flight finishes (or is dropped) before the panel's members go.
HistoryPanel::~HistoryPanel()
{
    m_readThread.reset();
}

bool HistoryPanel::hasSource() const
{
    return m_journal || !m_readPath.isEmpty();
}

void HistoryPanel::applySource()
{
    const bool has = hasSource();
    for (QWidget* w : std::initializer_list<QWidget*>{m_key, m_holder, m_range, m_search})
        w->setEnabled(has);
    applyRange();
    m_resultText = has ? QString() : tr("No lock history is kept (the console was started with --no-journal).");
    updateStatus();
}

void HistoryPanel::setReadOnlySource(const QString& journal)
{
    if (journal == m_readPath)
        return;
    m_readPath = journal;
    m_readPassword.clear();
    m_keyringRead = false;
    m_passwordDeclined = false;
    if (m_passwordDialog)
        m_passwordDialog->reject();
    if (!m_readPath.isEmpty() && !m_readThread) {
        m_readThread = std::make_unique<IoThread>(QStringLiteral("redlock-history-read"));
        m_readContext = m_readThread->create<QObject>();
    }
    ++m_generation; // a result of the other journal still in flight is not shown
    m_model->clear();
    m_timeline->clear();
    applySource();
    if (isVisible())
        search();
}

void HistoryPanel::applyRange()
{
    const qint64 range = kRanges[std::clamp(m_range->currentIndex(), 0, int(std::size(kRanges)) - 1)];
    const bool custom = range == 0;
    if (custom || !isVisible())
        m_live->stop();
    else if (hasSource())
        m_live->start();
    m_since->setEnabled(custom && hasSource());
    m_until->setEnabled(custom && hasSource());
    if (!custom) {
        const QDateTime now = QDateTime::currentDateTime();
        m_since->setDateTime(now.addMSecs(-range));
        m_until->setDateTime(now);
    }
}

void HistoryPanel::showKey(const QByteArray& key)
{
    QByteArray escaped;
    for (const char c : key) {
        if (c == '*' || c == '?' || c == '[' || c == ']' || c == '\\')
            escaped += '\\';
        escaped += c;
    }
    m_key->setText(QString::fromUtf8(escaped));
    m_keepKey = key;
    search();
}

void HistoryPanel::setJournalProblem(const QString& message)
{
    m_problem = message;
    updateStatus();
}

void HistoryPanel::showEvent(QShowEvent* event)
{
    QWidget::showEvent(event);
    if (hasSource()) {
        applyRange();
        search();
    }
}

void HistoryPanel::hideEvent(QHideEvent* event)
{
    QWidget::hideEvent(event);
    m_live->stop();
}

void HistoryPanel::search()
{
    if (!hasSource())
        return;
    if (m_range->currentIndex() != int(std::size(kRanges)) - 1)
        applyRange(); // "the last hour" is the last hour from now
    HistoryQuery q;
    q.keyPattern = m_key->text().trimmed().toUtf8();
    q.holder = m_holder->text().trimmed();
    q.sinceMs = m_since->dateTime().toMSecsSinceEpoch();
    q.untilMs = m_until->dateTime().toMSecsSinceEpoch();
    q.limit = 10000;
    const quint64 generation = ++m_generation;
    m_resultText = tr("Searching…");
    updateStatus();
    // A shared history in PostgreSQL: with the password the keyring or the operator gave, once libpq's own sources
    // (PGPASSWORD, ~/.pgpass) turned out to have none.
    const bool database = isDatabaseJournal(m_readPath);
    // Read only: a connection of its own that takes no lock, whoever writes the journal (LockJournal::queryFile).
    auto refused = std::make_shared<std::atomic<bool>>(false);
    const QFuture<HistoryResult> future =
        m_readPath.isEmpty() ? m_journal->query(q)
                             : runOnOwnThread<HistoryResult>(
                                   m_readContext, [path = m_readPath, password = m_readPassword, database, refused,
                                                   q](const std::function<void(const HistoryResult&)>& deliver) {
                                       const qint64 now = QDateTime::currentMSecsSinceEpoch();
                                       if (!database) {
                                           deliver(LockJournal::queryFile(path, q, now));
                                           return;
                                       }
                                       bool passwordRefused = false;
                                       HistoryResult r = queryDatabaseJournal(path, password, q, now, &passwordRefused);
                                       refused->store(passwordRefused);
                                       deliver(r);
                                   });
    whenFinished(this, future,
                 [this, generation, since = q.sinceMs, until = q.untilMs, refused](const HistoryResult& result) {
                     if (generation != m_generation)
                         return; // a newer search is under way
                     m_model->setResult(result);
                     onResult(generation, since, until);
                     if (refused->load())
                         askDatabasePassword(result.error);
                 });
}

void HistoryPanel::askDatabasePassword(const QString& problem)
{
    if (m_passwordDialog || m_passwordDeclined)
        return;
    // The keyring first, once per source, and only now: a locked keyring may prompt to be unlocked, which a server
    // that takes PGPASSWORD or ~/.pgpass must never cause (D-Bus, not Redis I/O).
    if (!m_keyringRead) {
        m_keyringRead = true;
        const PasswordKeyring::Result stored = PasswordKeyring().read(DatabasePasswordDialog::keyringKey(m_readPath));
        if (stored.ok && stored.password != m_readPassword) {
            m_readPassword = stored.password;
            search();
            return;
        }
    }
    m_passwordDialog = new DatabasePasswordDialog(LockJournal::displayLocation(m_readPath), problem, this);
    m_passwordDialog->setAttribute(Qt::WA_DeleteOnClose);
    connect(m_passwordDialog, &QDialog::finished, this, [this, dialog = m_passwordDialog, path = m_readPath](int code) {
        if (m_passwordDialog == dialog)
            m_passwordDialog = nullptr;
        if (path != m_readPath)
            return; // another source meanwhile
        if (code != QDialog::Accepted) {
            m_passwordDeclined = true;
            return;
        }
        m_readPassword = dialog->password();
        if (dialog->remember()) {
            const PasswordKeyring::Result stored =
                PasswordKeyring().store(DatabasePasswordDialog::keyringKey(path), m_readPassword);
            if (!stored.ok)
                setJournalProblem(tr("The password was not remembered: %1").arg(stored.error));
        }
        search();
    });
    m_passwordDialog->open();
}

void HistoryPanel::onResult(quint64, qint64 sinceMs, qint64 untilMs)
{
    const HistoryResult& r = m_model->result();
    m_shownSinceMs = sinceMs;
    m_shownUntilMs = untilMs;
    if (!r.error.isEmpty()) {
        m_resultText = r.error;
    } else {
        m_resultText = tr("%n interval(s)", nullptr, int(r.intervals.size())) + QStringLiteral(", ") +
                       tr("%n event(s)", nullptr, int(r.events.size()));
        if (r.truncated)
            m_resultText += QStringLiteral(" — ") + tr("more matched: narrow the filters");
        m_resultText +=
            QStringLiteral(" — ") + (m_readPath.isEmpty()
                                         ? QDir::toNativeSeparators(m_journal->path())
                                         : tr("%1, the deployment's history: reading only, its own writers keep it")
                                               .arg(QDir::toNativeSeparators(m_readPath)));
        if (!r.unwatched.isEmpty())
            m_resultText += QStringLiteral(" — ") + tr("%n span(s) nobody watched: what happened then is not known",
                                                       nullptr, int(r.unwatched.size()));
    }
    updateStatus();
    m_table->resizeColumnsToContents();
    // The key looked at before the refresh stays selected (its newest tenure), else the first row of a key (a span
    // nobody watched has no timeline of its own: it shows on every key's).
    int row = -1;
    for (int i = 0; i < m_proxy->rowCount(); ++i) {
        const QByteArray key = m_proxy->index(i, 0).data(HistoryModel::KeyRole).toByteArray();
        if (row < 0 && !key.isEmpty())
            row = i;
        if (!m_keepKey.isEmpty() && key == m_keepKey) {
            row = i;
            break;
        }
    }
    if (row >= 0)
        m_table->setCurrentIndex(m_proxy->index(row, 0));
    else
        m_timeline->clear();
    emit searchFinished();
}

void HistoryPanel::onCurrentChanged()
{
    const QModelIndex current = m_table->currentIndex();
    if (!current.isValid()) {
        m_timeline->clear();
        return;
    }
    const QByteArray key = current.data(HistoryModel::KeyRole).toByteArray();
    if (key.isEmpty())
        return; // a span nobody watched: the timeline shown stays
    const QList<HolderInterval> intervals = m_model->intervalsOf(key);
    const QList<JournalEvent> events = m_model->eventsOf(key);
    // The timeline spans the key's own history within the range (a day's range would shrink seconds to a dot).
    qint64 from = m_shownUntilMs, to = m_shownSinceMs;
    for (const HolderInterval& i : intervals) {
        from = std::min(from, i.fromMs);
        to = std::max(to, i.isOpen() ? m_model->result().queriedAtMs : i.toMs);
    }
    for (const JournalEvent& e : events) {
        from = std::min(from, e.atMs);
        to = std::max(to, e.atMs);
    }
    if (from > to) {
        from = m_shownSinceMs;
        to = m_shownUntilMs;
    }
    const qint64 pad = std::max<qint64>(1000, (to - from) / 20);
    m_timeline->setKey(key, intervals, events, std::max(m_shownSinceMs, from - pad), std::min(m_shownUntilMs, to + pad),
                       m_model->result().unwatched);
}

void HistoryPanel::updateStatus()
{
    const QString& error = m_model->result().error;
    const bool failing = !m_problem.isEmpty() || !error.isEmpty();
    // libpq's messages come in indented lines; one paragraph each. A search that failed for the reason the journal
    // already gives (the server is down) is not said twice.
    const QString problem = m_problem.simplified();
    const QString result = m_resultText.simplified();
    // The stores say "<journal>: cannot <open|read|connect>: <cause>": the same cause is the same failure.
    QString cause = error.simplified();
    if (const qsizetype cannot = cause.indexOf(QLatin1String(": cannot ")); cannot >= 0) {
        const qsizetype colon = cause.indexOf(QLatin1String(": "), cannot + 9);
        cause = colon < 0 ? QString() : cause.mid(colon + 2);
    }
    const bool sameCause = !cause.isEmpty() && problem.contains(cause.left(80));
    m_status->setText(problem.isEmpty() ? result : sameCause ? problem : problem + QLatin1Char('\n') + result);
    StatePalette::setTextRole(m_status, failing ? std::optional(StatePalette::Role::Danger) : std::nullopt);
}

} // namespace redlock
