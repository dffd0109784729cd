#include "support/ManualClock.h"
#include "support/UiTestSupport.h"
#include "theme/StatePalette.h"
#include "views/ValidityTimeline.h"

#include <QImage>
#include <QtTest>

using namespace redlock;

namespace {

// The x of a vertical line in this colour (the leftmost column with at least 20 such pixels), or -1.
int verticalLineX(const QImage& image, QRgb colour)
{
    for (int x = 0; x < image.width(); ++x) {
        int count = 0;
        for (int y = 0; y < image.height(); ++y)
            count += image.pixel(x, y) == colour;
        if (count >= 20)
            return x;
    }
    return -1;
}

QString toText(const QList<int>& values)
{
    QStringList out;
    for (int v : values)
        out << QString::number(v);
    return out.join(u' ');
}

} // namespace

class TestValidityTimeline : public QObject
{
    Q_OBJECT

private slots:
    void linesFollowTheClock()
    {
        auto clock = std::make_shared<ManualClock>();
        ValidityTimeline timeline;
        timeline.setClock(clock);
        // PTTLs 10 9 8 7 6 s on five nodes: the quorum (3) of holders lasts 8 s; validity = 8000 - 80 - 2.
        const LockView view =
            makeLockView("k", {"t", "t", "t", "t", "t"}, {10000, 9000, 8000, 7000, 6000}, clock->nowNs());
        timeline.setLock(view, 0.01);
        QCOMPARE(timeline.quorumEndsInMs(), 8000);
        QCOMPARE(timeline.validityEndsInMs(), 8000 - 82);
        QCOMPARE(timeline.nodeExpiresInMs(4), 6000);
        clock->advanceMs(7000);
        QCOMPARE(timeline.quorumEndsInMs(), 1000);
        QCOMPARE(timeline.validityEndsInMs(), 1000 - 82);
        QCOMPARE(timeline.nodeExpiresInMs(4), 0);
        timeline.resize(500, 220);
        const QImage image = timeline.grab().toImage().convertToFormat(QImage::Format_RGB32);
        QVERIFY(!image.isNull());

        // What is drawn, to scale: one bar per holding node as long as its remaining PTTL (3, 2 and 1 s; the
        // expired ones are stubs), outlined in the majority colour; the quorum line where the third bar (the
        // quorum-th holder) ends, and the validity line the drift margin before it.
        const StatePalette states = StatePalette::forPalette(timeline.palette());
        const QRgb outline = states.color(StatePalette::Role::Held).rgb();
        // Horizontal extents of the outline colour per scan line; extents within 10 px are one bar (the bars
        // differ by 130 px; the quorum line and the drift margin's hatching hide the third bar's end).
        QMap<int, int> rightByWidth;
        for (int y = 0; y < image.height(); ++y) {
            int left = -1, right = -1;
            for (int x = 0; x < image.width(); ++x) {
                if (image.pixel(x, y) == outline) {
                    left = left < 0 ? x : left;
                    right = x;
                }
            }
            if (left >= 0 && right - left + 1 > 4)
                rightByWidth.insert(right - left + 1, right);
        }
        QList<int> widths; // longest first
        QMap<int, int> barRight;
        QList<int> extents = rightByWidth.keys();
        std::reverse(extents.begin(), extents.end());
        for (int extent : std::as_const(extents)) {
            if (widths.isEmpty() || widths.last() - extent > 10) {
                widths.append(extent);
                barRight.insert(extent, rightByWidth.value(extent));
            }
        }
        QVERIFY2(widths.size() == 3, qPrintable(QStringLiteral("bar widths %1").arg(toText(widths))));
        // Within 5 px (about 1 %) of where the arithmetic puts it.
        const auto about = [](int measured, double expected) { return qAbs(measured - expected) <= 5; };
        const int full = widths[0]; // 3 s
        const int barLeft = barRight.value(full) - full + 1;
        QVERIFY2(about(widths[1], full * 2.0 / 3) && widths[2] > full / 3 - 10 && widths[2] <= full / 3 + 3,
                 qPrintable(QStringLiteral("bar widths %1").arg(toText(widths))));
        const int validityX = verticalLineX(image, states.color(StatePalette::Role::Accent).rgb());
        const int quorumX = verticalLineX(image, states.color(StatePalette::Role::Danger).rgb());
        const QString lines = QStringLiteral("bars from x=%1, %2 px for 3 s; validity line x=%3, quorum line x=%4")
                                  .arg(barLeft)
                                  .arg(full)
                                  .arg(validityX)
                                  .arg(quorumX);
        // The quorum ends when the third holder's key expires (in 1 s); validity 82 ms (the drift) earlier.
        QVERIFY2(about(quorumX - barLeft, full / 3.0), qPrintable(lines));
        QVERIFY2(validityX > 0 && about(quorumX - validityX, full * 82.0 / 3000), qPrintable(lines));
    }

    void noQuorumNoValidity()
    {
        ValidityTimeline timeline;
        timeline.setLock(makeLockView("k", {"a", "a", "b", "b", "!"}, {}), 0.01);
        QCOMPARE(timeline.quorumEndsInMs(), -1);
        QCOMPARE(timeline.validityEndsInMs(), -1);
        QVERIFY(timeline.nodeExpiresInMs(0) > 0);
        QCOMPARE(timeline.nodeExpiresInMs(4), -1);
    }
};

QTEST_MAIN(TestValidityTimeline)
#include "TestValidityTimeline.moc"
