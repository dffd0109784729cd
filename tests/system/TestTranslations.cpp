// The zh_CN translation is complete and is what the console loads.
//
// lupdate runs here over the same sources and include paths as the build's update_translations target, into a
// copy of translations/redlock_zh_CN.ts: a message added to the code without a translation comes out
// "unfinished", one whose text changed too, and one that is gone from the code "vanished". Any of them fails the
// test, named by context and text (never by line: the .ts has no locations). Then the translation built into
// both executables (:/i18n) is loaded and must give every translation of the .ts, and the core's messages, asked
// for by the running code under the contexts it writes, must come out translated.

#include "observe/ObservationTypes.h"
#include "observe/SafetyAudit.h"
#include "operate/ForceRelease.h"
#include "operate/NodeRestartScheduler.h"
#include "protocol/NodeEndpoint.h"
#include "redlock/RedlockTypes.h"
#include "translations/Translator.h"

#include <QFile>
#include <QProcess>
#include <QTemporaryDir>
#include <QTranslator>
#include <QXmlStreamReader>
#include <QtTest>

using namespace redlock;

namespace {

struct TsMessage
{
    QString context;
    QString source;
    QString comment;
    bool numerus = false;
    QString type;             // "", "unfinished", "vanished", "obsolete"
    QStringList translations; // the translation, or its numerus forms

    QString describe() const
    {
        return QStringLiteral("[%1] \"%2\"%3")
            .arg(context, source, comment.isEmpty() ? QString() : u" (" + comment + u')');
    }
};

bool readTs(const QString& path, QList<TsMessage>* messages, QString* language, QString* error)
{
    QFile file(path);
    if (!file.open(QIODevice::ReadOnly)) {
        *error = file.errorString();
        return false;
    }
    QXmlStreamReader xml(&file);
    QString context;
    TsMessage message;
    while (!xml.atEnd()) {
        xml.readNext();
        if (xml.isStartElement()) {
            const auto name = xml.name();
            if (name == u"TS") {
                *language = xml.attributes().value(QStringLiteral("language")).toString();
            } else if (name == u"context") {
                context.clear();
            } else if (name == u"name") {
                context = xml.readElementText();
            } else if (name == u"message") {
                message = TsMessage();
                message.context = context;
                message.numerus = xml.attributes().value(QStringLiteral("numerus")) == u"yes";
            } else if (name == u"source") {
                message.source = xml.readElementText();
            } else if (name == u"comment") {
                message.comment = xml.readElementText();
            } else if (name == u"translation") {
                message.type = xml.attributes().value(QStringLiteral("type")).toString();
                if (!message.numerus)
                    message.translations << xml.readElementText();
            } else if (name == u"numerusform") {
                message.translations << xml.readElementText();
            }
        } else if (xml.isEndElement() && xml.name() == u"message") {
            messages->append(message);
        }
    }
    if (xml.hasError()) {
        *error = QStringLiteral("%1 at line %2").arg(xml.errorString()).arg(xml.lineNumber());
        return false;
    }
    return true;
}

bool hasChinese(const QString& text)
{
    return std::any_of(text.cbegin(), text.cend(),
                       [](QChar c) { return c.unicode() >= 0x4E00 && c.unicode() <= 0x9FFF; });
}

} // namespace

class TestTranslations : public QObject
{
    Q_OBJECT

private slots:
    void initTestCase()
    {
        QString error, language;
        QVERIFY2(readTs(QStringLiteral(REDLOCK_TS_DIR "/redlock_zh_CN.ts"), &m_committed, &language, &error),
                 qPrintable(error));
        QCOMPARE(language, QStringLiteral("zh_CN"));
        QVERIFY(m_committed.size() > 100);
    }

    void everyMessageOfTheCodeIsTranslated()
    {
        QTemporaryDir dir;
        QVERIFY(dir.isValid());
        const QString ts = dir.filePath(QStringLiteral("redlock_zh_CN.ts"));
        QVERIFY(QFile::copy(QStringLiteral(REDLOCK_TS_DIR "/redlock_zh_CN.ts"), ts));
        QFile::setPermissions(ts, QFile::ReadOwner | QFile::WriteOwner);
        QProcess lupdate;
        lupdate.start(QStringLiteral(REDLOCK_LUPDATE),
                      {QStringLiteral("-locations"), QStringLiteral("none"),
                       QStringLiteral("@" REDLOCK_TR_SOURCES_LIST), QStringLiteral("-ts"), ts});
        QVERIFY2(lupdate.waitForFinished(120000), REDLOCK_LUPDATE);
        const QByteArray output = lupdate.readAllStandardOutput() + lupdate.readAllStandardError();
        QVERIFY2(lupdate.exitStatus() == QProcess::NormalExit && lupdate.exitCode() == 0, output.constData());
        QVERIFY2(output.contains("Found"), output.constData()); // it did read the sources

        QList<TsMessage> updated;
        QString error, language;
        QVERIFY2(readTs(ts, &updated, &language, &error), qPrintable(error));
        QStringList problems;
        for (const TsMessage& m : std::as_const(updated)) {
            if (m.type == u"unfinished")
                problems << QStringLiteral("not translated: ") + m.describe();
            else if (m.type == u"vanished" || m.type == u"obsolete")
                problems << QStringLiteral("no longer in the code: ") + m.describe();
            else if (m.translations.isEmpty() || std::any_of(m.translations.cbegin(), m.translations.cend(),
                                                             [](const QString& t) { return t.trimmed().isEmpty(); }))
                problems << QStringLiteral("empty translation: ") + m.describe();
        }
        QVERIFY2(problems.isEmpty(),
                 qPrintable(QStringLiteral("%1 problem(s) in translations/redlock_zh_CN.ts (run `cmake --build build "
                                           "--target update_translations`, then translate):\n")
                                .arg(problems.size()) +
                            problems.join(u'\n')));
        QCOMPARE(updated.size(), m_committed.size());
    }

    // The CLI's "redlock: " before its messages is added by printDiagnostic() and fail(), once: a message (or its
    // translation) that types it again prints it twice, or a translation drops or alters it.
    void noMessageTypesTheDiagnosticPrefix()
    {
        const auto prefixed = [](const QString& text) {
            return text.startsWith(QLatin1String("redlock: ")) || text.startsWith(QStringLiteral("redlock\uFF1A"));
        };
        QStringList wrong;
        for (const TsMessage& m : std::as_const(m_committed)) {
            if (prefixed(m.source) || std::any_of(m.translations.cbegin(), m.translations.cend(), prefixed))
                wrong << m.describe();
        }
        QVERIFY2(wrong.isEmpty(), qPrintable(wrong.join(u'\n')));
    }

    void theExecutablesLoadEveryTranslation()
    {
        QTranslator translator;
        QVERIFY(translator.load(QStringLiteral(":/i18n/redlock_zh_CN")));
        QCOMPARE(translator.language(), QStringLiteral("zh_CN"));
        QStringList wrong;
        for (const TsMessage& m : std::as_const(m_committed)) {
            if (!m.type.isEmpty())
                continue; // reported by everyMessageOfTheCodeIsTranslated
            const QByteArray context = m.context.toUtf8();
            const QByteArray source = m.source.toUtf8();
            const QByteArray comment = m.comment.toUtf8();
            const QString got =
                translator.translate(context.constData(), source.constData(),
                                     m.comment.isEmpty() ? nullptr : comment.constData(), m.numerus ? 1 : -1);
            if (got != m.translations.value(0))
                wrong << m.describe() + QStringLiteral(" gives \"%1\"").arg(got);
        }
        QVERIFY2(wrong.isEmpty(), qPrintable(wrong.join(u'\n')));
    }

    // The core's messages as the running code asks for them, with the plain QTranslator both executables install:
    // the contexts written in the code are the ones lupdate extracted (no run-time patching of contexts).
    void coreMessagesComeOutTranslated()
    {
        QTranslator translator;
        QVERIFY(translator.load(QStringLiteral(":/i18n/redlock_zh_CN")));
        QVERIFY(QCoreApplication::installTranslator(&translator));
        const auto cleanup = qScopeGuard([&] { QCoreApplication::removeTranslator(&translator); });

        QString endpointError;
        QVERIFY(!NodeEndpoint::parse(QStringLiteral("127.0.0.1:99999"), &endpointError));
        const QStringList duplicates =
            NodeEndpoint::duplicateErrors({*NodeEndpoint::parse(QStringLiteral("localhost:7001")),
                                           *NodeEndpoint::parse(QStringLiteral("127.0.0.1:7001"))});
        QCOMPARE(duplicates.size(), 1);
        const QList<AuditFinding> findings = SafetyAudit::run({{NodeFacts{}}, 10000});
        QVERIFY(!findings.isEmpty());
        const QStringList texts = {
            lockVerdictName(LockVerdict::MinorityLeftover),       // redlock::LockVerdict
            outcomeKindName(NodeOutcome::Kind::HeldByOther),      // redlock::NodeOutcome
            restartStateName(PendingRestart::State::Quarantined), // redlock::RestartState
            lockEventKindName(LockEvent::Kind::TokenChanged),     // redlock::LockEvent
            forceReleaseKindName(ForceReleaseNode::Kind::Gone),   // redlock::ForceReleaseNode
            nodeHealthName(NodeHealth::AuthFailed),               // redlock::NodeHealth
            errorKindName(RedisErrorKind::ConnectionRefused),     // redlock::RedisErrorKind
            endpointError,                                        // redlock::NodeEndpoint
            duplicates.value(0),                                  // redlock::NodeEndpoint
            findings.value(0).title,                              // redlock::SafetyAudit
            findings.value(0).explanation,                        // redlock::SafetyAudit (numerus)
        };
        for (const QString& text : texts)
            QVERIFY2(hasChinese(text), qPrintable(text));

        // One spelling, two meanings, two messages: a lock was acquired (an event of the log) and a node took the
        // lock in one attempt (a per-node outcome); the same for "released". "not attempted" of an acquire and of
        // a force release are two messages too.
        const QString event = lockEventKindName(LockEvent::Kind::Acquired);
        const QString outcome = outcomeKindName(NodeOutcome::Kind::Acquired);
        QVERIFY2(hasChinese(event) && hasChinese(outcome), qPrintable(event + u" / " + outcome));
        QVERIFY2(event != outcome, qPrintable(event));
        const QString released = lockEventKindName(LockEvent::Kind::Released);
        QVERIFY2(released != outcomeKindName(NodeOutcome::Kind::Released), qPrintable(released));
        QVERIFY(hasChinese(forceReleaseKindName(ForceReleaseNode::Kind::NotAttempted)));
        QVERIFY(hasChinese(outcomeKindName(NodeOutcome::Kind::NotAttempted)));

        // Without it, the same code speaks English.
        QCoreApplication::removeTranslator(&translator);
        QCOMPARE(lockVerdictName(LockVerdict::MinorityLeftover), QStringLiteral("minority leftover"));
        QCOMPARE(outcomeKindName(NodeOutcome::Kind::Acquired), QStringLiteral("acquired"));
    }

    // What the console (--lang or the locale) and the CLI (the locale) call at start-up.
    void installTranslationsByLanguage()
    {
        const auto removeInstalled = [] {
            qDeleteAll(QCoreApplication::instance()->findChildren<QTranslator*>(Qt::FindDirectChildrenOnly));
        };
        const auto cleanup = qScopeGuard(removeInstalled);
        QVERIFY(installTranslations(QStringLiteral("en_US"))); // English: the source texts, nothing to install
        QVERIFY(QCoreApplication::instance()->findChildren<QTranslator*>().isEmpty());
        QVERIFY(!installTranslations(QStringLiteral("xx_YY")));
        QCOMPARE(lockVerdictName(LockVerdict::Held), QStringLiteral("held"));
        QVERIFY(installTranslations(QStringLiteral("zh_CN")));
        QVERIFY2(hasChinese(lockVerdictName(LockVerdict::Held)), qPrintable(lockVerdictName(LockVerdict::Held)));
        removeInstalled();
        QCOMPARE(lockVerdictName(LockVerdict::Held), QStringLiteral("held"));
    }

private:
    QList<TsMessage> m_committed;
};

QTEST_GUILESS_MAIN(TestTranslations)
#include "TestTranslations.moc"
