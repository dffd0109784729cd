#include "controller/ContextAliasTranslator.h"

namespace redlock {

ContextAliasTranslator::ContextAliasTranslator(std::unique_ptr<QTranslator> inner, QObject* parent)
    : QTranslator(parent), m_inner(std::move(inner)), m_aliases(coreAliases())
{}

ContextAliasTranslator::~ContextAliasTranslator() = default;

QHash<QByteArray, QList<QByteArray>> ContextAliasTranslator::coreAliases()
{
    return {};
}

QString ContextAliasTranslator::translate(const char* context, const char* sourceText, const char* disambiguation,
                                          int n) const
{
    QString out = m_inner->translate(context, sourceText, disambiguation, n);
    if (!out.isEmpty() || !context)
        return out;
    const QByteArray own(context);
    QList<QByteArray> aliases = m_aliases.value(own);
    // A helper in core/Foo.cpp that says translate("Foo", ...) inside namespace redlock: lupdate files its
    // messages under "redlock::Foo" (inside a member of Foo) or "redlock" (in a free function).
    if (!own.startsWith("redlock::"))
        aliases << "redlock::" + own;
    aliases << QByteArrayLiteral("redlock");
    for (const QByteArray& alias : std::as_const(aliases)) {
        out = m_inner->translate(alias.constData(), sourceText, disambiguation, n);
        if (!out.isEmpty())
            return out;
    }
    return out;
}

bool ContextAliasTranslator::isEmpty() const
{
    return m_inner->isEmpty();
}

} // namespace redlock
