#include "ContextAliasTranslator.h"

namespace redlock {

ContextAliasTranslator::ContextAliasTranslator(std::unique_ptr<QTranslator> inner, QObject* parent)
    : QTranslator(parent), m_inner(std::move(inner)), m_aliases(coreAliases())
{}

ContextAliasTranslator::~ContextAliasTranslator() = default;

QHash<QByteArray, QList<QByteArray>> ContextAliasTranslator::coreAliases()
{
    return {
        {"NodeEndpoint", {"redlock::NodeEndpoint", "redlock"}},
        {"redlock::Observation", {"redlock"}},
        {"redlock::SafetyAudit", {"redlock"}},
        {"RedlockClient", {"redlock::RedlockClient", "redlock"}},
    };
}

QString ContextAliasTranslator::translate(const char* context, const char* sourceText, const char* disambiguation,
                                          int n) const
{
    QString out = m_inner->translate(context, sourceText, disambiguation, n);
    if (!out.isEmpty() || !context)
        return out;
    const auto it = m_aliases.constFind(QByteArray(context));
    if (it == m_aliases.cend())
        return out;
    for (const QByteArray& alias : *it) {
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
