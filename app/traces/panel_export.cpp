#include "traces/panel_export.h"

#include "step_exporter.h"
#include "traces/analysis_panel.h"

#include <QDir>
#include <QFile>
#include <QPainter>

namespace wb {

QString writeBoundedPicture(const QString& path, QSize size, const QString& title,
                            const PictureDraw& draw) {
    const QRectF bounds(QPointF(0, 0), size);
    return writePicture(path, size, Qt::white, title, [&draw, bounds](QPainter& painter) {
        painter.setRenderHint(QPainter::Antialiasing);
        draw(painter, bounds);
    });
}

PanelExport exportPanel(const AnalysisPanel& panel, const QString& dir, unsigned formats,
                        QSize size) {
    PanelExport out;
    if (!QDir().mkpath(dir)) {
        out.error = QStringLiteral("cannot create the folder %1").arg(dir);
        return out;
    }
    const QDir folder(dir);
    if (formats & PanelCsv)
        for (const AnalysisTable& t : panel.tables()) {
            const QString path = folder.filePath(QString::fromStdString(t.id) + ".csv");
            QFile file(path);
            const std::string text = t.csv();
            if (!file.open(QIODevice::WriteOnly) ||
                file.write(text.data(), static_cast<qint64>(text.size())) !=
                    static_cast<qint64>(text.size())) {
                out.error = QStringLiteral("cannot write %1").arg(path);
                return out;
            }
            out.written << path;
        }
    for (const auto& [flag, suffix] : {std::pair{PanelPng, ".png"}, std::pair{PanelSvg, ".svg"}}) {
        if (!(formats & flag))
            continue;
        const QString path = folder.filePath(panel.panelId() + suffix);
        out.error =
            writeBoundedPicture(path, size, panel.title(),
                                [&panel](QPainter& p, const QRectF& b) { panel.render(p, b); });
        if (!out.error.isEmpty())
            return out;
        out.written << path;
    }
    return out;
}

} // namespace wb
