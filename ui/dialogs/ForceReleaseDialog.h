#pragma once

#include "operate/ForceRelease.h"

#include <QDialog>

class QLabel;
class QLineEdit;
class QPushButton;
class QTableWidget;

namespace redlock {

class OperatorActions;

// Force release of one lock, in the order the issue asks for: the key, holder and token the operator saw;
// a preview per node (run on the I/O thread); a confirmation naming key and holder (production profiles:
// the key typed in); then compare-and-delete with that token and the per-node result. The core writes the
// audit line.
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
    QLabel* summaryLabel() const { return m_summary; }
    bool hasPreview() const { return m_havePreview; }
    bool hasResult() const { return m_haveResult; }
    const ForceReleaseReport& preview() const { return m_preview; }
    const ForceReleaseReport& result() const { return m_result; }

    void runPreview();
    void execute();

    static QString nodeText(const ForceReleaseNode& node, ForceReleaseReport::Stage stage);

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
};

} // namespace redlock
