#pragma once

#include <QHash>
#include <QList>
#include <QTranslator>

#include <memory>

namespace redlock {

// Looks a message up under other contexts when its own has no translation.
//
// Some core files translate through a file-local helper, tr(text) -> QCoreApplication::translate("Context",
// text), outside any class. lupdate cannot see the helper's context and files those messages under the
// enclosing namespace or class instead ("redlock", "redlock::NodeEndpoint"), so at run time the lookup under
// the helper's context misses. This translator maps each helper context to where lupdate put its messages.
class ContextAliasTranslator final : public QTranslator
{
    Q_OBJECT
    Q_DISABLE_COPY_MOVE(ContextAliasTranslator)

public:
    explicit ContextAliasTranslator(std::unique_ptr<QTranslator> inner, QObject* parent = nullptr);
    ~ContextAliasTranslator() override;

    // Helper contexts of core/ whose messages lupdate files elsewhere than the generic rule in translate()
    // ("Ctx" -> "redlock::Ctx", then "redlock") expects.
    static QHash<QByteArray, QList<QByteArray>> coreAliases();

    QString translate(const char* context, const char* sourceText, const char* disambiguation = nullptr,
                      int n = -1) const override;
    bool isEmpty() const override;

private:
    std::unique_ptr<QTranslator> m_inner;
    QHash<QByteArray, QList<QByteArray>> m_aliases;
};

} // namespace redlock
