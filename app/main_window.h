#pragma once
// The study window: scenario browser, the slide (frames with captions), steps, parameters,
// the answer card, the playback bar and a status line with the data's provenance.
// Presentation mode (F5) hides all but the frames and one narration line.
#include "drawing/theme.h"
#include "scenario_session.h"

#include <QMainWindow>
#include <memory>
#include <optional>

class QLabel;
class QListWidget;
class QDockWidget;
class QMenu;
class QProgressBar;
class QStackedWidget;
class QToolBar;
class QToolButton;
class QTimer;

namespace wb {

struct ImportBatch;
class ImportJob;
class AnswerCard;
class ParamPanel;
class PenOverlay;
class PlaybackBar;
class PlaybackController;
class ScenarioBrowser;
class SlideWidget;
class TracesWorkspace;

class MainWindow : public QMainWindow {
    Q_OBJECT
public:
    explicit MainWindow(QWidget* parent = nullptr);
    ~MainWindow() override;

    // Opens `scenario` (or the last one used, or the default) at `step`.
    void openInitial(const Scenario* scenario, int step, std::optional<bool> dark);
    void openScenario(const QString& id, int step = 0);

    bool isPresenting() const { return m_presenting; }
    void setPresentation(bool on);
    void setDarkTheme(bool dark);
    bool isDarkTheme() const { return m_dark; }

    // For tests and the exporter.
    const ScenarioSession* session() const { return m_session.get(); }
    // What every story is built from besides its parameters: the files imported and the
    // recordings measured in this window (and those shipped).
    const ScenarioInputs& inputs() const { return *m_inputs; }
    PlaybackController* playback() const { return m_playback; }
    SlideWidget* slide() const { return m_slide; }
    PenOverlay* pen() const { return m_pen; }
    AnswerCard* answerCard() const { return m_answer; }
    ParamPanel* paramPanel() const { return m_params; }
    bool isBlanked() const;
    // Writes the current step as PNG/SVG (1920×1080 by default); returns an error or "".
    QString exportCurrentStep(const QString& path, QSize size = {1920, 1080});
    // Measures the open scenario on this machine's GPU off the UI thread, then replays it.
    // Without a GPU it says why in the status line and keeps the recording in use.
    void runOnThisGpu();
    bool isRecording() const { return m_recording; }

    // Imports the user's files and folders on a worker thread (progress and cancel in the
    // status bar), then shows the files that read in the lessons that can draw them and lists
    // the others, with why, in one dialog. A batch where nothing reads changes nothing.
    // False when an import is already running. One `*.wbsum.json` opens as a job summary
    // (openSummary).
    bool importFiles(const QStringList& paths);
    // Reads a job summary on a worker thread and shows it in the Traces workspace (summary
    // mode); a file that does not read is named in a dialog with where it is wrong, and what
    // was open stays open. importFinished says how it went. False while one is being read.
    bool openSummary(const QString& path);
    void cancelImport();
    ImportJob* importJob() const { return m_import; }
    // Forgets every imported file; the lessons go back to their own data.
    void closeImportedFiles();
    // Every file in Open recent, newest set first.
    QStringList recentFiles() const;
    // Open recent's entries: the files of each set opened together, newest first.
    QList<QStringList> recentSets() const;

    // Profiler traces open in the Traces workspace, beside the lessons; the View menu and
    // the mode bar switch between the two.
    TracesWorkspace* traces() const { return m_traces; }
    bool isShowingTraces() const { return m_showingTraces; }
    void showTraces();
    void showLessons();
    // Reopens the trace set (and the "after" set) open when the window last closed; false
    // when there was none. A file that has gone is named in the import dialog, the rest open.
    bool restoreTraces();

signals:
    void liveRunFinished(bool ok, const QString& message);

    void firstFramePainted();
    // After every import: ok, and the one-line summary or the error.
    void importFinished(bool ok, const QString& message);

protected:
    bool eventFilter(QObject* watched, QEvent* event) override;
    void closeEvent(QCloseEvent* event) override;
    void dragEnterEvent(QDragEnterEvent* event) override;
    void dropEvent(QDropEvent* event) override;

private:
    void buildMenus();
    void buildShortcuts();
    void showPosition(int step, double t);
    void rebuildStory(int keepStep);
    void applyTheme();
    void enterFullScreen();
    void exportDialog();
    void showShortcutHelp();
    void updateStatus();
    void openDialog();
    void openFolderDialog();
    void importDone(const ImportBatch& batch);
    void summaryRead(const QString& path, const QString& error);
    // One dialog naming every file that did not import and why.
    void showImportFailures(const QString& summary, const QStringList& failures);
    void showImportedData(const ImportBatch& batch);
    void rememberRecent(const QStringList& paths);
    // The batch's traces (now in the inputs) go to the Traces workspace.
    void openTraces();
    void explainInLesson(const QString& scenarioId);
    void fillRecentMenu();
    void reopenSession();
    // Replaces the window's inputs; the open session keeps its own until reopened.
    void setInputs(ScenarioInputs inputs);

    // Immutable once made: a change makes a new one, so a session built from the old inputs
    // keeps drawing exactly what it was built from.
    std::shared_ptr<const ScenarioInputs> m_inputs = std::make_shared<const ScenarioInputs>();
    std::unique_ptr<ScenarioSession> m_session;
    PlaybackController* m_playback;
    SlideWidget* m_slide;
    PenOverlay* m_pen;
    QWidget* m_blank;
    PlaybackBar* m_bar;
    ScenarioBrowser* m_browser;
    QListWidget* m_steps;
    ParamPanel* m_params;
    AnswerCard* m_answer;
    QLabel* m_provenance;
    QLabel* m_device;
    QList<QDockWidget*> m_docks;
    QList<QAction*> m_presentingOnly;
    QList<QAction*> m_stepKeys; // the lesson's step keys, off while the Traces workspace shows
    bool m_presenting = false;
    bool m_dark = false;
    bool m_firstFrameSeen = false;
    bool m_recording = false;
    QAction* m_runAction = nullptr;
    QByteArray m_stateBeforePresenting;
    ImportJob* m_import;
    QWidget* m_importBox;
    QProgressBar* m_importProgress;
    QTimer* m_importTick;
    QMenu* m_recentMenu = nullptr;
    QAction* m_closeImported = nullptr;
    QStackedWidget* m_stack;
    QWidget* m_lessonsPage;
    TracesWorkspace* m_traces;
    QToolBar* m_modeBar = nullptr;
    QAction* m_showLessons = nullptr;
    QAction* m_showTraces = nullptr;
    bool m_showingTraces = false;
    QByteArray m_lessonDocks;   // the lesson docks' layout while the workspace hides them
    QStringList m_restoreAfter; // the "after" set to reopen once the restored set is open
    bool m_readingSummary = false;
};

} // namespace wb
