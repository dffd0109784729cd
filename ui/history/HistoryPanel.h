#pragma once

#include <QWidget>

#include <memory>

class QComboBox;
class QDateTimeEdit;
class QLabel;
class QLineEdit;
class QPushButton;
class QSortFilterProxyModel;
class QTableView;
class QTimer;

namespace redlock {

class HistoryModel;
class HistoryTimeline;
class IoThread;
class LockJournal;

// The lock history view: filters (key glob, holder, time range), the holder intervals that match, and the
// selected key's timeline. Queries run on the journal's query thread (LockJournal::query); the panel only
// shows what comes back, and a query that is overtaken by a newer one is dropped.
class HistoryPanel final : public QWidget
{
    Q_OBJECT
    Q_DISABLE_COPY_MOVE(HistoryPanel)

public:
    // journal may be null: the panel says that no history is kept.
    explicit HistoryPanel(LockJournal* journal, QWidget* parent = nullptr);
    ~HistoryPanel() override;

    QSize sizeHint() const override { return {900, 380}; }

    HistoryModel* model() const { return m_model; }
    HistoryTimeline* timeline() const { return m_timeline; }

    // The history of one key (its glob characters escaped), over the range chosen.
    void showKey(const QByteArray& key);
    // Says on the panel that the journal cannot be written now (or is again: an empty message).
    void setJournalProblem(const QString& message);
    // Shows another journal than the console's (a deployment's, which its always-on writer keeps), read only, on a
    // thread of the panel's own: a writer holding its lock does not stop the reading. Empty: the console's own.
    void setReadOnlySource(const QString& journal);
    QString readOnlySource() const { return m_readPath; }

public slots:
    void search();

signals:
    void searchFinished();

protected:
    void showEvent(QShowEvent* event) override;
    void hideEvent(QHideEvent* event) override;

private:
    void onResult(quint64 generation, qint64 sinceMs, qint64 untilMs);
    void onCurrentChanged();
    void applyRange();
    void updateStatus();
    bool hasSource() const;
    void applySource();

    LockJournal* m_journal;
    HistoryModel* m_model;
    QSortFilterProxyModel* m_proxy;
    QLineEdit* m_key;
    QLineEdit* m_holder;
    QComboBox* m_range;
    QDateTimeEdit* m_since;
    QDateTimeEdit* m_until;
    QPushButton* m_search;
    QTableView* m_table;
    HistoryTimeline* m_timeline;
    QLabel* m_status;
    QTimer* m_live;       // while shown with a range up to now: the search again, every few seconds
    QByteArray m_keepKey; // the key whose row stays selected across a refresh
    quint64 m_generation = 0;
    qint64 m_shownSinceMs = 0;
    qint64 m_shownUntilMs = 0;
    QString m_resultText;
    QString m_problem;
    QString m_readPath; // setReadOnlySource()
    // A deployment history in PostgreSQL whose server wants a password PGPASSWORD and ~/.pgpass do not give: the
    // one from the keyring (read once per source) or asked (DatabasePasswordDialog); in memory only.
    void askDatabasePassword(const QString& problem);
    QString m_readPassword;
    bool m_keyringRead = false;
    bool m_passwordDeclined = false; // the operator cancelled: not asked again until the source changes
    class DatabasePasswordDialog* m_passwordDialog = nullptr;
    std::unique_ptr<IoThread> m_readThread; // its queries
    QObject* m_readContext = nullptr;
};

} // namespace redlock
