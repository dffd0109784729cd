#pragma once

#include "operate/ForceRelease.h"

#include <QDialog>

class QComboBox;
class QLabel;
class QSpinBox;
class QLineEdit;
class QPushButton;
class QTableWidget;

namespace redlock {

class OperatorActions;

// Force release of one lock, in the order the issue asks for: the key, holder and token the operator saw;
// the lock-delay (automatic by default: the token becomes a tombstone for the lock's remaining validity plus
// drift; or a fixed duration; or none: delete); a preview per node (run on the I/O thread) with how long the
// lock-delay lasts and when the lock is free, run again whenever the lock-delay changes; a confirmation
// naming key and holder (production profiles: the key typed in); then the compare-and-set with that token and
// the per-node result. The core writes the audit line.
class ForceReleaseDialog final : public QDialog
{
    Q_OBJECT
    Q_DISABLE_COPY_MOVE(ForceReleaseDialog)

public:
    ForceReleaseDialog(OperatorActions* actions, const QByteArray& key, const QByteArray& token, const QString& holder,
                       QWidget* parent = nullptr);

    QTableWidget* nodesTable() const { return m_table; }
    QLineEdit* confirmEdit() const { return m_confirm; }
    QLineEdit* reasonEdit() const { return m_reason; }
    QPushButton* releaseButton() const { return m_release; }
    QComboBox* lockDelayMode() const { return m_delayMode; }
    QSpinBox* lockDelayMs() const { return m_delayMs; }
    // The lock-delay the controls select now.
    LockDelay lockDelay() const;
    QLabel* summaryLabel() const { return m_summary; }
    QLabel* lockDelayLabel() const { return m_lockDelayText; }
    bool hasPreview() const { return m_havePreview; }
    bool hasResult() const { return m_haveResult; }
    const ForceReleaseReport& preview() const { return m_preview; }
    const ForceReleaseReport& result() const { return m_result; }

    void runPreview();
    void execute();

    static QString nodeText(const ForceReleaseNode& node, ForceReleaseReport::Stage stage);
    // "free at 18:26:20 (in 20.2 s)", "free at once", or why it is not known.
    static QString freeText(const ForceReleaseReport& report);
    // How long the lock-delay lasts and where a fixed one was raised, each sentence followed by a space.
    static QString lockDelayText(const ForceReleaseReport& report);

signals:
    void previewShown();
    void resultShown();

private:
    void showReport(const ForceReleaseReport& report);
    void updateButtons();

    OperatorActions* m_actions;
    QByteArray m_key;
    QByteArray m_token;
    QString m_holder;
    QLabel* m_summary;
    QLabel* m_lockDelayText; // how long the lock-delay lasts, when the lock is free
    QComboBox* m_delayMode;
    QSpinBox* m_delayMs;
    QLabel* m_confirmText;
    QTableWidget* m_table;
    QLineEdit* m_confirm;
    QLineEdit* m_reason;
    QPushButton* m_release;
    QPushButton* m_close;
    ForceReleaseReport m_preview;
    ForceReleaseReport m_result;
    bool m_havePreview = false;
    bool m_haveResult = false;
    bool m_running = false;
    bool m_previewAgain = false; // the lock-delay changed while a preview ran
};

} // namespace redlock
