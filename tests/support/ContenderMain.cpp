// redlock-contender: one contending client as a separate process, for the mutual-exclusion checker.
// Usage: redlock-contender NAME NODES RESOURCE RESOURCE_PORT TTL_MS DURATION_MS; prints one JSON line per
// section.

#include "support/Contender.h"

#include <QCoreApplication>
#include <QJsonDocument>

#include <cstdio>

int main(int argc, char** argv)
{
    QCoreApplication app(argc, argv);
    const QStringList args = app.arguments();
    if (args.size() != 7) {
        std::fprintf(stderr, "usage: redlock-contender NAME NODES RESOURCE RESOURCE_PORT TTL_MS DURATION_MS\n");
        return 2;
    }
    ContenderConfig config;
    config.name = args[1];
    QString error;
    const auto nodes = redlock::NodeEndpoint::parseList(args[2], &error);
    if (!nodes) {
        std::fprintf(stderr, "%s\n", qPrintable(error));
        return 2;
    }
    config.nodes = *nodes;
    config.resource = args[3].toUtf8();
    config.resourcePort = static_cast<quint16>(args[4].toUInt());
    config.ttlMs = args[5].toLongLong();
    config.durationMs = args[6].toInt();
    int failures = 0;
    const QList<Section> sections = runContender(config, &failures);
    for (const Section& s : sections)
        std::printf("%s\n", QJsonDocument(s.toJson()).toJson(QJsonDocument::Compact).constData());
    std::fprintf(stderr, "%lld sections, %d failed acquisitions\n", static_cast<long long>(sections.size()), failures);
    return 0;
}
