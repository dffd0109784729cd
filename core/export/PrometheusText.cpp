#include "export/PrometheusText.h"

#include <charconv>
#include <cmath>
#include <utility>

namespace redlock {

namespace {

QByteArrayView typeName(PrometheusText::Type type)
{
    switch (type) {
    case PrometheusText::Type::Counter:
        return "counter";
    case PrometheusText::Type::Gauge:
        return "gauge";
    case PrometheusText::Type::Histogram:
        return "histogram";
    }
    return "untyped";
}

bool isNameStart(char c, bool colon)
{
    return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == '_' || (colon && c == ':');
}

bool isValidName(QByteArrayView name, bool colon)
{
    if (name.isEmpty() || !isNameStart(name[0], colon))
        return false;
    for (const char c : name) {
        if (!isNameStart(c, colon) && !(c >= '0' && c <= '9'))
            return false;
    }
    return true;
}

} // namespace

PrometheusText::Histogram PrometheusText::Histogram::withBounds(QList<double> upperBounds)
{
    Histogram h;
    h.counts = QList<quint64>(upperBounds.size(), 0);
    h.upperBounds = std::move(upperBounds);
    return h;
}

void PrometheusText::Histogram::observe(double value)
{
    for (qsizetype i = 0; i < upperBounds.size(); ++i) {
        if (value <= upperBounds[i])
            ++counts[i];
    }
    ++count;
    sum += value;
}

bool PrometheusText::isValidMetricName(QByteArrayView name)
{
    return isValidName(name, true);
}

bool PrometheusText::isValidLabelName(QByteArrayView name)
{
    return isValidName(name, false) && !name.startsWith("__");
}

QByteArray PrometheusText::escapeLabelValue(QStringView value)
{
    const QByteArray utf8 = value.toUtf8();
    QByteArray out;
    out.reserve(utf8.size());
    for (const char c : utf8) {
        if (c == '\\')
            out += "\\\\";
        else if (c == '"')
            out += "\\\"";
        else if (c == '\n')
            out += "\\n";
        else
            out += c;
    }
    return out;
}

QByteArray PrometheusText::escapeHelp(QStringView help)
{
    const QByteArray utf8 = help.toUtf8();
    QByteArray out;
    out.reserve(utf8.size());
    for (const char c : utf8) {
        if (c == '\\')
            out += "\\\\";
        else if (c == '\n')
            out += "\\n";
        else
            out += c;
    }
    return out;
}

QByteArray PrometheusText::formatValue(double value)
{
    if (std::isnan(value))
        return QByteArrayLiteral("NaN");
    if (std::isinf(value))
        return value > 0 ? QByteArrayLiteral("+Inf") : QByteArrayLiteral("-Inf");
    // Counts as integers ("100000", not the shortest form "1e+05"), as far as a double holds them exactly.
    if (value == std::trunc(value) && std::fabs(value) < 9007199254740992.0)
        return QByteArray::number(static_cast<qint64>(value));
    char buffer[32];
    const auto result = std::to_chars(buffer, buffer + sizeof buffer, value);
    return QByteArray(buffer, result.ptr - buffer);
}

void PrometheusText::family(QByteArrayView name, Type type, QStringView help)
{
    Q_ASSERT(isValidMetricName(name));
    Q_ASSERT(!m_families.contains(name));
    m_family = name.toByteArray();
    m_families.append(m_family);
    m_type = type;
    m_out += "# HELP ";
    m_out += m_family;
    m_out += ' ';
    m_out += escapeHelp(help);
    m_out += "\n# TYPE ";
    m_out += m_family;
    m_out += ' ';
    m_out += typeName(type);
    m_out += '\n';
}

void PrometheusText::writeSample(QByteArrayView suffix, const Labels& labels, const Label* extra, double value)
{
    m_out += m_family;
    m_out += suffix;
    if (!labels.isEmpty() || extra) {
        m_out += '{';
        bool first = true;
        auto write = [&](const Label& label) {
            Q_ASSERT(isValidLabelName(label.name));
            if (!first)
                m_out += ',';
            first = false;
            m_out += label.name;
            m_out += "=\"";
            m_out += escapeLabelValue(label.value);
            m_out += '"';
        };
        for (const Label& label : labels)
            write(label);
        if (extra)
            write(*extra);
        m_out += '}';
    }
    m_out += ' ';
    m_out += formatValue(value);
    m_out += '\n';
}

void PrometheusText::sample(const Labels& labels, double value)
{
    Q_ASSERT(!m_family.isEmpty() && m_type != Type::Histogram);
    writeSample({}, labels, nullptr, value);
}

void PrometheusText::histogram(const Labels& labels, const Histogram& h)
{
    Q_ASSERT(!m_family.isEmpty() && m_type == Type::Histogram);
    Q_ASSERT(h.counts.size() == h.upperBounds.size());
    for (qsizetype i = 0; i < h.upperBounds.size(); ++i) {
        const Label le{"le", QString::fromLatin1(formatValue(h.upperBounds[i]))};
        writeSample("_bucket", labels, &le, static_cast<double>(h.counts[i]));
    }
    const Label inf{"le", QStringLiteral("+Inf")};
    writeSample("_bucket", labels, &inf, static_cast<double>(h.count));
    writeSample("_sum", labels, nullptr, h.sum);
    writeSample("_count", labels, nullptr, static_cast<double>(h.count));
}

} // namespace redlock
