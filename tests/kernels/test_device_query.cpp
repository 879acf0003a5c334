// Device discovery must answer on any machine: with a GPU it describes it, without one
// (no driver, or a build without CUDA) it says why, and it never crashes or exits.
#include "device/device_query.h"

#include <QTest>

class TestDeviceQuery : public QObject {
    Q_OBJECT

private slots:
    void formatsCudaVersions() {
        QCOMPARE(wb::formatCudaVersion(12040), std::string("12.4"));
        QCOMPARE(wb::formatCudaVersion(13000), std::string("13.0"));
        QCOMPARE(wb::formatCudaVersion(11080), std::string("11.8"));
        QCOMPARE(wb::formatCudaVersion(12090), std::string("12.9"));
        QCOMPARE(wb::formatCudaVersion(0), std::string("none"));
    }

    void parsesTheDriverRelease() {
        // Both module flavours' first lines, as /proc/driver/nvidia/version writes them.
        QCOMPARE(wb::parseNvidiaDriverRelease(
                     "NVRM version: NVIDIA UNIX x86_64 Kernel Module  580.159.04  Thu Nov 13 "
                     "2025\nGCC version:  gcc version 12.2.0 (Debian 12.2.0-14)\n"),
                 std::string("580.159.04"));
        QCOMPARE(wb::parseNvidiaDriverRelease("NVRM version: NVIDIA UNIX Open Kernel Module for "
                                              "x86_64  550.54.15  Release Build  (dvs-builder)"),
                 std::string("550.54.15"));
        // The GCC line's version is not the driver's; no module line, no release.
        QCOMPARE(wb::parseNvidiaDriverRelease("GCC version:  gcc version 12.2.0\n"), std::string());
        QCOMPARE(wb::parseNvidiaDriverRelease("NVRM version: NVIDIA Kernel Module\n12.2.0"),
                 std::string());
        QCOMPARE(wb::parseNvidiaDriverRelease(""), std::string());
    }

    void summarizesADevice() {
        wb::DeviceInfo d;
        d.name = "NVIDIA H100 80GB HBM3";
        d.smCount = 132;
        d.memoryGB = 85.52;
        d.ccMajor = 9;
        d.ccMinor = 0;
        QCOMPARE(d.computeCapability(), std::string("9.0"));
        QCOMPARE(d.summary(), std::string("NVIDIA H100 80GB HBM3 · 132 SMs · 85.5 GB · CC 9.0"));

        wb::DeviceQuery q;
        q.devices.push_back(d);
        QVERIFY(q.hasGpu());
        QCOMPARE(q.summary(), d.summary());
    }

    void summaryWithoutGpuIsTheReason() {
        wb::DeviceQuery q;
        q.noGpuReason = "no GPU: CUDA driver version is insufficient for CUDA runtime version";
        QVERIFY(!q.hasGpu());
        QCOMPARE(q.summary(), q.noGpuReason);
    }

    void classifiesCudaErrors() {
        // Synthetic codes, so this runs on any machine: CUDA's "no device" and the driver
        // family (insufficient, stub, needs a newer driver, module/library mismatch).
        using wb::NoGpuCause;
        QVERIFY(wb::classifyCudaError(100) == NoGpuCause::NoDevice);
        for (int driver : {34, 35, 36, 803, 804})
            QVERIFY2(wb::classifyCudaError(driver) == NoGpuCause::DriverMissingOrOld,
                     qPrintable(QString::number(driver)));
        for (int other : {0, 2, 46, 999})
            QVERIFY2(wb::classifyCudaError(other) == NoGpuCause::Unusable,
                     qPrintable(QString::number(other)));
    }

    void noGpuSentencesAreForPeople() {
        using wb::NoGpuCause;
        QCOMPARE(wb::noGpuSentence(NoGpuCause::NoDevice, 13000),
                 std::string("No NVIDIA GPU found — showing recorded or modeled data"));
        QCOMPARE(wb::noGpuSentence(NoGpuCause::DriverMissingOrOld, 12040),
                 std::string("NVIDIA driver missing or too old for CUDA 12.4 — showing recorded "
                             "or modeled data"));
        QCOMPARE(wb::noGpuSentence(NoGpuCause::BuiltWithoutCuda, 0),
                 std::string("This build has no CUDA support — showing recorded or modeled data"));
        QCOMPARE(wb::noGpuSentence(NoGpuCause::Unusable, 13000),
                 std::string("No usable NVIDIA GPU — showing recorded or modeled data"));
        // The CUDA runtime's complaint with code 35 becomes the driver sentence for the
        // CUDA this binary was built against; the raw text stays in noGpuReason.
        wb::DeviceQuery q;
        q.noGpuReason = "no GPU: CUDA driver version is insufficient for CUDA runtime version (35)";
        q.cause = wb::classifyCudaError(35);
        QCOMPARE(q.statusLine(),
                 wb::noGpuSentence(NoGpuCause::DriverMissingOrOld, wb::cudaBuiltVersion()));
        QVERIFY(q.statusLine().find("(35)") == std::string::npos);
        QCOMPARE(q.summary(), q.noGpuReason);
    }

    void queryAnswersWithoutCrashing() {
        // Called twice: the second call must also cope with whatever state the first left.
        const wb::DeviceQuery first = wb::queryDevices();
        const wb::DeviceQuery q = wb::queryDevices();
        QCOMPARE(q.hasGpu(), first.hasGpu());
        QVERIFY(!q.summary().empty());
        if (q.hasGpu()) {
            QVERIFY(q.noGpuReason.empty());
            return;
        }
        QVERIFY2(q.noGpuReason.rfind("no GPU: ", 0) == 0, q.noGpuReason.c_str());
        QVERIFY2(q.noGpuReason.size() > std::string("no GPU: ").size(), q.noGpuReason.c_str());
        QCOMPARE(q.summary(), q.noGpuReason);
        // The status line is a sentence, never the raw reason.
        QCOMPARE(q.statusLine(), wb::noGpuSentence(q.cause, wb::cudaBuiltVersion()));
        QVERIFY2(q.statusLine().find("no GPU:") == std::string::npos, q.statusLine().c_str());
    }

    void reportsHowItWasBuilt() {
        QCOMPARE(wb::cudaCompiledIn(), WARPBOARD_CUDA != 0);
        QCOMPARE(wb::cudaBuiltVersion() > 0, wb::cudaCompiledIn());
        if (!wb::cudaCompiledIn()) {
            QVERIFY(wb::queryDevices().cause == wb::NoGpuCause::BuiltWithoutCuda);
            QCOMPARE(wb::queryDevices().noGpuReason,
                     std::string("no GPU: Warpboard was built without CUDA"));
        }
    }

    void describesRealDevices() {
        const wb::DeviceQuery q = wb::queryDevices();
        if (!q.hasGpu())
            QSKIP(q.noGpuReason.c_str());
        for (std::size_t i = 0; i < q.devices.size(); ++i) {
            const wb::DeviceInfo& d = q.devices[i];
            QCOMPARE(d.index, static_cast<int>(i));
            QVERIFY(!d.name.empty());
            QVERIFY(d.smCount > 0);
            QVERIFY(d.memoryGB > 0.5);
            QVERIFY(d.ccMajor >= 5);
            QVERIFY(d.smClockGHz > 0.1 && d.smClockGHz < 5.0);
            QVERIFY(d.memoryClockGHz > 0.1);
            QVERIFY(d.memoryBusWidthBits >= 64);
            QVERIFY(d.l2CacheMB > 0.1);
            QVERIFY(d.maxThreadsPerSm >= 1024);
            QVERIFY(d.maxSharedPerBlockKB >= 48);
            QVERIFY(d.driverVersion >= 11000);
            QVERIFY(d.runtimeVersion >= 11000);
            qInfo("%s", d.summary().c_str());
        }
    }
};

QTEST_APPLESS_MAIN(TestDeviceQuery)
#include "test_device_query.moc"
