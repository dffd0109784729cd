#pragma once

#include <QByteArray>
#include <QByteArrayView>
#include <QList>
#include <QString>

#include <initializer_list>

namespace redlock {

// The Prometheus text exposition format, version 0.0.4 (what `Content-Type: text/plain; version=0.0.4` promises,
// and what Prometheus and promtool parse): one family at a time, a "# HELP" and a "# TYPE" line, then its
// samples, `name{label="value",...} value`. Pure: no I/O, no clock, no Qt Network.
//
// Escaping, as the format defines it: in a label value a backslash, a double quote and a line feed become \\,
// \" and \n; in HELP text a backslash and a line feed become \\ and \n. Nothing else is escaped: any other byte
// of valid UTF-8 goes through as it is. Callers pass untrusted text (node names) through printableText first, so
// the exposition never carries a terminal control character either.
class PrometheusText
{
public:
    enum class Type { Counter, Gauge, Histogram };

    struct Label
    {
        QByteArrayView name; // [a-zA-Z_][a-zA-Z0-9_]*, not starting with "__" (asserted)
        QString value;
    };
    using Labels = QList<Label>;

    // Cumulative buckets: counts[i] = observations <= upperBounds[i]; the +Inf bucket is `count`.
    struct Histogram
    {
        QList<double> upperBounds; // strictly increasing, finite
        QList<quint64> counts;     // one per upper bound, cumulative
        double sum = 0;
        quint64 count = 0;

        static Histogram withBounds(QList<double> upperBounds);
        void observe(double value);
    };

    // Starts a family: every sample until the next family() must belong to it. `name` is a metric name
    // ([a-zA-Z_:][a-zA-Z0-9_:]*, asserted); a family name appears once per exposition (asserted).
    void family(QByteArrayView name, Type type, QStringView help);
    // One sample of the current family (counter and gauge families: `name` is the family's).
    void sample(const Labels& labels, double value);
    // The _bucket, _sum and _count samples of one histogram of the current (histogram) family.
    void histogram(const Labels& labels, const Histogram& histogram);

    const QByteArray& text() const { return m_out; }
    QByteArray take() { return std::exchange(m_out, {}); }

    static QByteArray escapeLabelValue(QStringView value);
    static QByteArray escapeHelp(QStringView help);
    // Go's strconv.ParseFloat reads it back exactly: the shortest round-trip form, +Inf, -Inf, NaN.
    static QByteArray formatValue(double value);
    static bool isValidMetricName(QByteArrayView name);
    static bool isValidLabelName(QByteArrayView name);

private:
    void writeSample(QByteArrayView suffix, const Labels& labels, const Label* extra, double value);

    QByteArray m_out;
    QByteArray m_family;
    Type m_type = Type::Gauge;
    QList<QByteArray> m_families; // names written so far: each at most once
};

} // namespace redlock
