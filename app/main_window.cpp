#include "main_window.h"

#include "answer_card.h"
#include "device/device_query.h"
#include "engine/imported_set.h"
#include "engine/number_format.h"
#include "engine/recording_set.h"
#include "engine/registry.h"
#include "engine/scenario_inputs.h"
#include "import/input_files.h"
#include "import_job.h"
#include "live/live_recorder.h"
#include "param_panel.h"
#include "playback_controller.h"
#include "scenario_browser.h"
#include "slide_widget.h"
#include "stage/frame_stage.h"
#include "stage/pen_overlay.h"
#include "stage/playback_bar.h"
#include "step_exporter.h"
#include "summary/job_summary.h"
#include "summary/summary_analysis.h"
#include "traces/trace_set.h"
#include "traces/traces_workspace.h"

#include <QAction>
#include <QActionGroup>
#include <QApplication>
#include <QCloseEvent>
#include <QDockWidget>
#include <QDragEnterEvent>
#include <QDropEvent>
#include <QFileDialog>
#include <QFileInfo>
#include <QFutureWatcher>
#include <QHBoxLayout>
#include <QKeySequence>
#include <QLabel>
#include <QListWidget>
#include <QMenuBar>
#include <QMessageBox>
#include <QMimeData>
#include <QProgressBar>
#include <QScreen>
#include <QScrollArea>
#include <QSettings>
#include <QShortcut>
#include <QStackedWidget>
#include <QStatusBar>
#include <QStyleFactory>
#include <QTimer>
#include <QToolBar>
#include <QToolButton>
#include <QVBoxLayout>
#include <QtConcurrent/QtConcurrentRun>
#include <algorithm>
#include <utility>

namespace wb {

MainWindow::MainWindow(QWidget* parent)
    : QMainWindow(parent)
    , m_playback(new PlaybackController(this))
    , m_slide(new SlideWidget)
    , m_pen(nullptr)
    , m_blank(nullptr)
    , m_bar(new PlaybackBar)
    , m_browser(new ScenarioBrowser)
    , m_steps(new QListWidget)
    , m_params(new ParamPanel)
    , m_answer(new AnswerCard)
    , m_provenance(new QLabel)
    , m_device(new QLabel)
    , m_import(new ImportJob(this))
    , m_importBox(new QWidget)
    , m_importProgress(new QProgressBar)
    , m_importTick(new QTimer(this))
    , m_stack(new QStackedWidget)
    , m_lessonsPage(nullptr)
    , m_traces(new TracesWorkspace) {
    setWindowTitle("Warpboard");
    QApplication::setStyle(QStyleFactory::create("Fusion"));

    auto* central = new QWidget;
    auto* layout = new QVBoxLayout(central);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->setSpacing(0);
    layout->addWidget(m_slide, 1);
    layout->addWidget(m_bar);
    // The lessons and the Traces workspace share the centre; one shows at a time.
    m_lessonsPage = central;
    m_stack->addWidget(central);
    m_stack->addWidget(m_traces);
    setCentralWidget(m_stack);
    m_pen = new PenOverlay(m_slide);
    m_blank = new QWidget(central);
    m_blank->setAutoFillBackground(true);
    QPalette black;
    black.setColor(QPalette::Window, Qt::black);
    m_blank->setPalette(black);
    m_blank->hide();
    m_slide->installEventFilter(this);
    central->installEventFilter(this);

    auto dock = [this](const QString& title, QWidget* w, Qt::DockWidgetArea area,
                       const char* name) {
        auto* d = new QDockWidget(title, this);
        d->setObjectName(name);
        d->setWidget(w);
        d->setFeatures(QDockWidget::DockWidgetMovable | QDockWidget::DockWidgetFloatable);
        addDockWidget(area, d);
        m_docks << d;
        return d;
    };
    dock(tr("Scenarios"), m_browser, Qt::LeftDockWidgetArea, "scenarios");
    dock(tr("Steps"), m_steps, Qt::RightDockWidgetArea, "steps");
    auto* scroll = new QScrollArea;
    scroll->setWidget(m_params);
    scroll->setWidgetResizable(true);
    scroll->setHorizontalScrollBarPolicy(Qt::ScrollBarAlwaysOff);
    dock(tr("Parameters"), scroll, Qt::RightDockWidgetArea, "parameters");
    dock(tr("Answer card"), m_answer, Qt::RightDockWidgetArea, "answer");

    statusBar()->addWidget(m_provenance, 1);
    statusBar()->addPermanentWidget(m_device);
    m_device->setObjectName("deviceStatus");
    m_device->setText(tr("Looking for a GPU…"));

    // Import progress: appears only when an import outlasts a blink (250 ms).
    auto* importLayout = new QHBoxLayout(m_importBox);
    importLayout->setContentsMargins(0, 0, 0, 0);
    m_importProgress->setRange(0, 1000);
    m_importProgress->setMaximumWidth(220);
    m_importProgress->setFormat(tr("Importing… %p%"));
    auto* cancel = new QToolButton;
    cancel->setText(tr("Cancel"));
    cancel->setObjectName("cancelImport");
    connect(cancel, &QToolButton::clicked, this, &MainWindow::cancelImport);
    importLayout->addWidget(m_importProgress);
    importLayout->addWidget(cancel);
    statusBar()->addPermanentWidget(m_importBox);
    m_importBox->hide();
    m_importTick->setInterval(50);
    connect(m_importTick, &QTimer::timeout, this, [this] {
        m_importBox->setVisible(true);
        m_importProgress->setValue(static_cast<int>(m_import->progress() * 1000.0));
    });
    connect(m_import, &ImportJob::finished, this, &MainWindow::importDone);
    setAcceptDrops(true);

    connect(m_traces, &TracesWorkspace::explainRequested, this, &MainWindow::explainInLesson);
    connect(m_traces, &TracesWorkspace::openTracesRequested, this, &MainWindow::importFiles);
    connect(m_traces, &TracesWorkspace::message, this,
            [this](const QString& text) { statusBar()->showMessage(text, 8000); });
    connect(m_traces, &TracesWorkspace::compareFinished, this,
            [this](bool ok, const QString& text) {
                statusBar()->showMessage(text, 15000);
                if (ok)
                    QSettings().setValue("traces/after", m_traces->afterSet().paths);
            });
    connect(m_traces->closeComparisonAction(), &QAction::triggered, this,
            [] { QSettings().remove("traces/after"); });

    connect(m_browser, &ScenarioBrowser::scenarioChosen, this,
            [this](const QString& id) { openScenario(id); });
    connect(m_steps, &QListWidget::currentRowChanged, this, [this](int row) {
        if (row >= 0 && row != m_playback->step())
            m_playback->goToStep(row, true);
    });
    connect(m_params, &ParamPanel::paramChanged, this,
            [this](const QString& name, const QString& value) {
                if (!m_session)
                    return;
                // A text only one choice reads (a custom condition) selects that choice too,
                // in the same rebuild: typing it always does something.
                std::vector<std::pair<std::string, std::string>> values;
                const ParamSpec* spec = m_session->params().spec(name.toStdString());
                const bool selects = spec && !spec->selectsParam.empty();
                if (selects)
                    values.emplace_back(spec->selectsParam, spec->selectsChoice);
                values.emplace_back(name.toStdString(), value.toStdString());
                const QString err = m_session->setParams(values);
                if (!err.isEmpty()) {
                    // Beside the field that was edited, and in the status bar.
                    m_params->showError(name, err);
                    statusBar()->showMessage(err, 5000);
                    return;
                }
                m_params->clearErrors();
                if (selects)
                    m_params->showValue(QString::fromStdString(spec->selectsParam),
                                        QString::fromStdString(spec->selectsChoice));
                rebuildStory(m_playback->step());
            });
    // A click on a cluster map: the scenario says which parameter values it stands for
    // (blast-radius fails that component), and the panel shows them.
    connect(m_slide, &SlideWidget::typeScaleChanged, m_answer, &AnswerCard::setTypeScale);
    connect(m_slide->stage(), &FrameStage::componentClicked, this, [this](int kind, int index) {
        if (!m_session)
            return;
        const auto next =
            m_session->scenario().paramsForClick(m_session->params(), ClickTarget{kind, index});
        if (!next)
            return;
        if (const QString err = m_session->replaceParams(*next); !err.isEmpty()) {
            statusBar()->showMessage(err, 5000);
            return;
        }
        m_params->setParams(m_session->params());
        rebuildStory(m_playback->step());
    });
    connect(m_playback, &PlaybackController::positionChanged, this, &MainWindow::showPosition);
    connect(m_playback, &PlaybackController::playingChanged, m_bar, &PlaybackBar::setPlaying);
    connect(m_bar, &PlaybackBar::playToggled, m_playback,
            [this](bool) { m_playback->togglePlay(); });
    connect(m_bar, &PlaybackBar::previousRequested, m_playback, &PlaybackController::previous);
    connect(m_bar, &PlaybackBar::nextRequested, m_playback, &PlaybackController::next);
    connect(m_bar, &PlaybackBar::scrubbed, m_playback, &PlaybackController::seek);
    connect(m_bar, &PlaybackBar::speedChanged, m_playback, &PlaybackController::setSpeed);

    buildMenus();
    buildShortcuts();

    // The device query may take a moment (driver load); never delay the first frame for it.
    // The line is a sentence for people; CUDA's own words and code go in its tooltip.
    auto* watcher = new QFutureWatcher<DeviceQuery>(this);
    connect(watcher, &QFutureWatcher<DeviceQuery>::finished, this, [this, watcher] {
        const DeviceQuery q = watcher->result();
        m_device->setText(QString::fromStdString(q.statusLine()));
        m_device->setToolTip(QString::fromStdString(q.diagnostics()));
        watcher->deleteLater();
    });
    watcher->setFuture(QtConcurrent::run([] { return queryDevices(); }));

    QSettings settings;
    settings.remove("answers"); // earlier versions saved revealed answers; they start hidden now
    m_dark = settings.value("theme").toString() == "dark";
    restoreGeometry(settings.value("geometry").toByteArray());
    restoreState(settings.value("windowState").toByteArray());
    m_traces->restoreState(settings.value("traces/layout").toByteArray());
    if (settings.value("geometry").isNull()) {
        resize(1440, 900);
        resizeDocks({m_docks[0], m_docks[1]}, {250, 400}, Qt::Horizontal);
        resizeDocks({m_docks[1], m_docks[2], m_docks[3]}, {180, 220, 360}, Qt::Vertical);
    }
}

MainWindow::~MainWindow() {
    // ~QWidget hides the window after our members are gone, and a parameter field that still
    // has focus and an edit then emits editingFinished: it must not reach the dead session.
    disconnect(m_params, nullptr, this, nullptr);
}

void MainWindow::buildMenus() {
    QMenu* file = menuBar()->addMenu(tr("&File"));
    QAction* open = file->addAction(tr("&Open…"), this, &MainWindow::openDialog);
    open->setShortcut(QKeySequence::Open);
    open->setToolTip(tr("Open profiler files: PyTorch/Chrome traces (one per rank), Nsight "
                        "Compute CSV, NCCL logs, nccl-tests output"));
    QAction* openFolder = file->addAction(tr("Open &folder…"), this, &MainWindow::openFolderDialog);
    openFolder->setObjectName("openFolder");
    openFolder->setToolTip(tr("Open the profiler files in a folder (not its subfolders), "
                              "sorted by name"));
    m_recentMenu = file->addMenu(tr("Open &recent"));
    connect(m_recentMenu, &QMenu::aboutToShow, this, &MainWindow::fillRecentMenu);
    m_closeImported =
        file->addAction(tr("&Close imported files"), this, &MainWindow::closeImportedFiles);
    m_closeImported->setEnabled(false);
    file->addSeparator();
    // Compare the open traces with a second set ("after"), in the Traces workspace.
    file->addAction(m_traces->compareFilesAction());
    file->addAction(m_traces->compareFolderAction());
    file->addAction(m_traces->closeComparisonAction());
    file->addAction(m_traces->exportAction());
    file->addSeparator();
    QAction* exportAction = file->addAction(tr("&Export step…"), this, &MainWindow::exportDialog);
    exportAction->setShortcut(QKeySequence(Qt::CTRL | Qt::Key_E));
    exportAction->setShortcutContext(Qt::ApplicationShortcut);
    addAction(exportAction); // stays active while the menu bar is hidden
    file->addSeparator();
    m_runAction = file->addAction(tr("&Run on this GPU"), this, &MainWindow::runOnThisGpu);
    m_runAction->setShortcut(QKeySequence(Qt::CTRL | Qt::Key_R));
    m_runAction->setToolTip(tr("Measure this scenario's kernels on the GPU and replay them"));
    file->addSeparator();
    file->addAction(tr("&Quit"), QKeySequence::Quit, this, &QWidget::close);

    QMenu* view = menuBar()->addMenu(tr("&View"));
    // Lessons or the user's traces: the two places of the window.
    auto* modes = new QActionGroup(this);
    m_showLessons = view->addAction(tr("&Lessons"), this, &MainWindow::showLessons);
    m_showLessons->setObjectName("showLessons");
    m_showLessons->setShortcut(QKeySequence(Qt::CTRL | Qt::Key_1));
    m_showTraces = view->addAction(tr("&Traces"), this, &MainWindow::showTraces);
    m_showTraces->setObjectName("showTraces");
    m_showTraces->setShortcut(QKeySequence(Qt::CTRL | Qt::Key_2));
    m_showTraces->setToolTip(tr("Your profiler traces: every rank's timeline and the analyses"));
    for (QAction* a : {m_showLessons, m_showTraces}) {
        a->setCheckable(true);
        modes->addAction(a);
    }
    m_showLessons->setChecked(true);
    m_showTraces->setEnabled(false); // until traces are open
    m_modeBar = addToolBar(tr("Lessons or traces"));
    m_modeBar->setObjectName("modeBar");
    m_modeBar->setMovable(false);
    m_modeBar->addAction(m_showLessons);
    m_modeBar->addAction(m_showTraces);
    view->addSeparator();
    QAction* present = view->addAction(tr("&Presentation mode"));
    present->setShortcut(Qt::Key_F5);
    present->setShortcutContext(Qt::ApplicationShortcut);
    addAction(present);
    connect(present, &QAction::triggered, this, [this] { setPresentation(!m_presenting); });
    // Also the card's own button. A plain key, like the step keys: a text field or the
    // timeline that wants the letter takes it first (ShortcutOverride).
    QAction* reveal = view->addAction(tr("&Reveal answer"));
    reveal->setObjectName("revealAnswer");
    reveal->setCheckable(true);
    reveal->setShortcut(Qt::Key_A);
    connect(reveal, &QAction::triggered, m_answer, &AnswerCard::setRevealed);
    connect(m_answer, &AnswerCard::revealedChanged, reveal, &QAction::setChecked);
    view->addSeparator();
    auto* themes = new QActionGroup(this);
    QAction* light = view->addAction(tr("&Light theme"));
    QAction* dark = view->addAction(tr("&Dark theme"));
    for (QAction* a : {light, dark}) {
        a->setCheckable(true);
        themes->addAction(a);
    }
    connect(light, &QAction::triggered, this, [this] { setDarkTheme(false); });
    connect(dark, &QAction::triggered, this, [this] { setDarkTheme(true); });
    connect(view, &QMenu::aboutToShow, this, [this, light, dark] {
        light->setChecked(!m_dark);
        dark->setChecked(m_dark);
    });

    QMenu* help = menuBar()->addMenu(tr("&Help"));
    help->addAction(tr("&Keyboard shortcuts"), QKeySequence::HelpContents, this,
                    &MainWindow::showShortcutHelp);
    help->addAction(tr("&About Warpboard"), this, [this] {
        QMessageBox::about(this, tr("About Warpboard"),
                           tr("Warpboard %1\nGPU and ML-infrastructure mechanics, step by step.")
                               .arg(QApplication::applicationVersion()));
    });
}

void MainWindow::buildShortcuts() {
    auto key = [this](QKeySequence seq, auto fn, bool presentingOnly = false) {
        auto* a = new QAction(this);
        a->setShortcut(seq);
        a->setShortcutContext(Qt::WindowShortcut);
        connect(a, &QAction::triggered, this, fn);
        addAction(a);
        if (presentingOnly) {
            a->setEnabled(false);
            m_presentingOnly << a;
        }
        return a;
    };
    // The step keys move the lesson; while the Traces workspace shows they are off, so they
    // neither step a hidden lesson nor take the keys from the workspace's views.
    m_stepKeys << key(Qt::Key_Right, [this] { m_playback->next(); })
               << key(Qt::Key_Space, [this] { m_playback->next(); })
               << key(Qt::Key_Left, [this] { m_playback->previous(); })
               << key(Qt::Key_Home, [this] { m_playback->first(); })
               << key(Qt::Key_End, [this] { m_playback->last(); });
    for (int i = 1; i <= 9; ++i)
        m_stepKeys << key(QKeySequence(Qt::Key_0 + i),
                          [this, i] { m_playback->goToStep(i - 1, true); });
    key(
        Qt::Key_P,
        [this] {
            m_pen->setMode(m_pen->mode() == PenOverlay::Mode::Pen ? PenOverlay::Mode::Off
                                                                  : PenOverlay::Mode::Pen);
        },
        true);
    key(
        Qt::Key_L,
        [this] {
            m_pen->setMode(m_pen->mode() == PenOverlay::Mode::Laser ? PenOverlay::Mode::Off
                                                                    : PenOverlay::Mode::Laser);
        },
        true);
    key(
        Qt::Key_Z, [this] { m_pen->undo(); }, true);
    key(
        Qt::Key_C, [this] { m_pen->clear(); }, true);
    key(
        Qt::Key_B,
        [this] {
            m_blank->setVisible(!m_blank->isVisible());
            m_blank->raise();
        },
        true);
    key(
        Qt::Key_Escape, [this] { setPresentation(false); }, true);
}

void MainWindow::openInitial(const Scenario* scenario, int step, std::optional<bool> dark) {
    if (dark)
        m_dark = *dark;
    applyTheme();
    QString id = scenario ? QString::fromStdString(scenario->id())
                          : QSettings().value("lastScenario").toString();
    if (!findScenario(id.toStdString()))
        id = QString::fromStdString(defaultScenario().id());
    openScenario(id, step);
}

void MainWindow::openScenario(const QString& id, int step) {
    const Scenario* scenario = findScenario(id.toStdString());
    if (!scenario)
        return;
    m_session = std::make_unique<ScenarioSession>(*scenario, scenario->defaultParams(), m_inputs);
    m_browser->select(id);
    m_params->setParams(m_session->params());
    m_answer->setScenario(*scenario);
    m_pen->clearAllPages();
    QSettings().setValue("lastScenario", id);
    setWindowTitle("Warpboard — " + QString::fromStdString(scenario->title()));
    rebuildStory(step);
    m_playback->goToStep(step, false);
}

void MainWindow::rebuildStory(int keepStep) {
    const Story& story = m_session->story();
    m_answer->setWhiteboard(story.whiteboard);
    m_answer->setChecks(story.checks); // new numbers: old answers no longer apply
    {
        const QSignalBlocker block(m_steps);
        m_steps->clear();
        int i = 1;
        for (const auto& s : story.steps)
            m_steps->addItem(QString("%1. %2").arg(i++).arg(QString::fromStdString(s.title)));
    }
    std::vector<double> durations;
    for (const auto& s : story.steps)
        durations.push_back(s.durationS);
    const double t = m_playback->t();
    m_playback->setSteps(durations, keepStep);
    // A parameter change keeps the moment, so the view updates in place.
    if (t > 0.0)
        m_playback->seek(t);
    updateStatus();
}

void MainWindow::showPosition(int step, double t) {
    if (!m_session)
        return;
    m_slide->setText(m_session->slideText(step));
    m_slide->setFrames(m_session->frames(step, t));
    m_pen->setPage(step);
    {
        const QSignalBlocker block(m_steps);
        m_steps->setCurrentRow(step);
    }
    m_bar->setStep(step, m_session->stepCount());
    m_bar->setPosition(t);
}

void MainWindow::updateStatus() {
    if (m_session)
        m_provenance->setText(
            tr("Data: %1").arg(QString::fromStdString(m_session->story().provenance)));
}

void MainWindow::setDarkTheme(bool dark) {
    m_dark = dark;
    QSettings().setValue("theme", dark ? "dark" : "light");
    applyTheme();
}

void MainWindow::applyTheme() {
    const Theme theme =
        m_presenting ? Theme::presentation(m_dark) : (m_dark ? Theme::dark() : Theme::light());
    QApplication::setPalette(theme.palette());
    m_slide->setTheme(theme);
    m_pen->setTheme(theme);
    m_traces->setTheme(theme);
}

bool MainWindow::isBlanked() const {
    return m_blank->isVisible();
}

void MainWindow::setPresentation(bool on) {
    if (on == m_presenting) {
        if (on && !isVisible())
            enterFullScreen();
        return;
    }
    if (on)
        showLessons(); // presentation mode shows a lesson's slides
    m_presenting = on;
    if (on)
        m_stateBeforePresenting = saveState();
    m_modeBar->setVisible(!on);
    for (QDockWidget* d : m_docks)
        d->setVisible(!on);
    menuBar()->setVisible(!on);
    statusBar()->setVisible(!on);
    m_bar->setVisible(!on);
    m_slide->setPresentation(on);
    for (QAction* a : m_presentingOnly)
        a->setEnabled(on);
    if (!on) {
        m_pen->setMode(PenOverlay::Mode::Off);
        m_blank->hide();
        restoreState(m_stateBeforePresenting);
        showNormal();
    } else {
        enterFullScreen();
    }
    applyTheme();
    m_slide->setFocus();
}

void MainWindow::enterFullScreen() {
    showFullScreen();
    // Without a window manager (a bare X server) full screen is not applied for us.
    if (QScreen* sc = screen())
        setGeometry(sc->geometry());
}

QString MainWindow::exportCurrentStep(const QString& path, QSize size) {
    if (!m_session)
        return tr("nothing to export");
    ExportRequest req;
    req.text = m_session->slideText(m_playback->step());
    req.frames = m_session->frames(m_playback->step(), m_playback->t());
    req.theme =
        m_presenting ? Theme::presentation(m_dark) : (m_dark ? Theme::dark() : Theme::light());
    req.size = size;
    req.path = path;
    req.pen = m_pen;
    return exportStep(req);
}

void MainWindow::runOnThisGpu() {
    if (!m_session || m_recording)
        return;
    const std::string id = m_session->scenario().id();
    const auto ids = recordableScenarios();
    if (std::find(ids.begin(), ids.end(), id) == ids.end()) {
        const QString msg = tr("%1 has no GPU kernels to run: it is computed from its model")
                                .arg(QString::fromStdString(m_session->scenario().title()));
        statusBar()->showMessage(msg, 6000);
        emit liveRunFinished(false, msg);
        return;
    }
    m_recording = true;
    m_runAction->setEnabled(false);
    statusBar()->showMessage(tr("Running %1 on the GPU…").arg(QString::fromStdString(id)));
    RecordOptions options;
    options.command = "warpboard (Run on this GPU)";
    using Result = std::variant<Trace, RunError>;
    auto* watcher = new QFutureWatcher<Result>(this);
    connect(watcher, &QFutureWatcher<Result>::finished, this, [this, watcher, id] {
        const Result result = watcher->result();
        watcher->deleteLater();
        m_recording = false;
        m_runAction->setEnabled(true);
        if (const auto* err = std::get_if<RunError>(&result)) {
            // The scenario keeps drawing its recording (or model); say why in one line. No
            // GPU is said as the device status says it (CUDA's words are in its tooltip); the
            // worker has just asked the driver, so asking again here is instant.
            const QString msg =
                isNoGpuMessage(err->message)
                    ? QString::fromStdString(queryDevices().statusLine())
                    : QString::fromStdString(err->message) + tr(" — showing the recording instead");
            statusBar()->showMessage(msg, 10000);
            emit liveRunFinished(false, msg);
            return;
        }
        const Trace& measured = std::get<Trace>(result);
        ScenarioInputs inputs = *m_inputs;
        inputs.recordings.setLiveRecording(id, measured);
        setInputs(std::move(inputs));
        QString msg = tr("Measured %1 on this GPU").arg(QString::fromStdString(id));
        if (m_session && m_session->scenario().id() == id) {
            // A measurement replays under the parameters it ran at (this GPU, its grid): set
            // them, so that what was just measured is what the slide shows.
            const Scenario& scenario = m_session->scenario();
            const auto params = paramsReplaying(scenario, measured, m_session->params());
            if (!params)
                msg += tr(" — this GPU is not in the catalogue, so the model is still shown");
            const int step = m_playback->step();
            m_session = std::make_unique<ScenarioSession>(
                scenario, params.value_or(m_session->params()), m_inputs);
            m_params->setParams(m_session->params());
            rebuildStory(step);
        }
        statusBar()->showMessage(msg, 6000);
        emit liveRunFinished(true, msg);
    });
    watcher->setFuture(
        QtConcurrent::run([id, options]() -> Result { return recordScenario(id, options); }));
}

bool MainWindow::importFiles(const QStringList& paths) {
    if (paths.isEmpty() || m_import->isRunning() || m_readingSummary)
        return false;
    if (paths.size() == 1 && isJobSummaryPath(paths.front().toStdString()))
        return openSummary(paths.front());
    if (!m_import->start(paths))
        return false;
    m_importProgress->setValue(0);
    statusBar()->showMessage(tr("Importing %1…")
                                 .arg(paths.size() == 1 ? QFileInfo(paths.front()).fileName()
                                                        : tr("%1 files").arg(paths.size())));
    // The bar shows up only if the import is still running after a blink.
    QTimer::singleShot(250, this, [this] {
        if (m_import->isRunning())
            m_importTick->start();
    });
    return true;
}

namespace {

// What the worker thread hands back: the summary and what the panels draw, or why not.
struct LoadedSummary {
    std::shared_ptr<const JobSummary> summary;
    std::shared_ptr<const TraceAnalysis> analysis;
    QString error;
};

} // namespace

bool MainWindow::openSummary(const QString& path) {
    if (m_import->isRunning() || m_readingSummary)
        return false;
    m_readingSummary = true;
    statusBar()->showMessage(tr("Opening the job summary %1…").arg(QFileInfo(path).fileName()));
    auto* watcher = new QFutureWatcher<LoadedSummary>(this);
    connect(watcher, &QFutureWatcherBase::finished, this, [this, watcher, path] {
        watcher->deleteLater();
        const LoadedSummary loaded = watcher->result();
        if (loaded.error.isEmpty())
            m_traces->openSummary(path, loaded.summary, loaded.analysis);
        summaryRead(path, loaded.error);
    });
    watcher->setFuture(QtConcurrent::run([path]() -> LoadedSummary {
        try {
            auto summary = std::make_shared<const JobSummary>(readJobSummary(path.toStdString()));
            auto analysis = std::make_shared<const TraceAnalysis>(analysisFromSummary(*summary));
            return {.summary = std::move(summary), .analysis = std::move(analysis), .error = {}};
        } catch (const std::exception& e) {
            return {.summary = nullptr, .analysis = nullptr, .error = QString::fromUtf8(e.what())};
        }
    }));
    return true;
}

void MainWindow::summaryRead(const QString& path, const QString& error) {
    m_readingSummary = false;
    if (!error.isEmpty()) {
        m_restoreAfter.clear();
        statusBar()->showMessage(tr("Open failed: %1").arg(error), 15000);
        showImportFailures(tr("The job summary could not be opened; what was open stays open."),
                           {error});
        Q_EMIT importFinished(false, error);
        return;
    }
    const QString absolute = QFileInfo(path).absoluteFilePath();
    QSettings settings;
    settings.setValue("traces/before", QStringList{absolute});
    settings.remove("traces/after");
    m_restoreAfter.clear(); // a summary is not compared
    rememberRecent({absolute});
    m_showTraces->setEnabled(true);
    showTraces();
    // Short, so the status bar's permanent notes never cover it; the header has the rest.
    const auto shown = m_traces->analysis();
    QString msg = tr("Opened the job summary %1: %2, %3")
                      .arg(QFileInfo(path).fileName(),
                           QString::fromStdString(formatCount(
                               static_cast<long long>(shown->ranks.size()), "rank", "ranks")),
                           QString::fromStdString(shown->triage.verdict));
    if (shown->triage.stragglerRank)
        msg += tr(" (rank %1)").arg(*shown->triage.stragglerRank);
    statusBar()->showMessage(msg, 15000);
    Q_EMIT importFinished(true, msg);
}

void MainWindow::cancelImport() {
    if (m_import->isRunning())
        m_import->cancel();
}

void MainWindow::importDone(const ImportBatch& batch) {
    m_importTick->stop();
    m_importBox->hide();
    if (batch.cancelled) {
        const QString msg = tr("Import cancelled; nothing changed");
        statusBar()->showMessage(msg, 6000);
        Q_EMIT importFinished(false, msg);
        return;
    }
    if (batch.results.empty()) {
        m_restoreAfter.clear();
        // What the user had open stays as it was; the dialog says which files, where, why.
        const QString failures = batch.failures.join("\n");
        statusBar()->showMessage(tr("Import failed: %1").arg(batch.failures.join("; ")), 15000);
        showImportFailures(tr("Nothing was imported; what was open stays open."), batch.failures);
        Q_EMIT importFinished(false, failures);
        return;
    }
    // Check that the lessons accept the data before anything is replaced.
    const std::shared_ptr<const ScenarioInputs> before = m_inputs;
    ScenarioInputs inputs = *m_inputs;
    inputs.imported.addBatch(batch.results);
    setInputs(std::move(inputs));
    const bool traces = std::any_of(batch.results.begin(), batch.results.end(), [](const auto& r) {
        return dynamic_cast<const ChromeTraceResult*>(r.get()) != nullptr;
    });
    try {
        // Profiler traces open the Traces workspace; the other formats their lessons.
        if (traces) {
            openTraces();
        } else {
            showLessons(); // the traces stay open in their workspace
            showImportedData(batch);
        }
    } catch (const std::exception& e) {
        // A story that rejects the data throws while it is built, before the open session
        // is replaced: putting the earlier inputs back is all it takes.
        m_inputs = before;
        const QString msg = tr("Import failed: %1").arg(QString::fromUtf8(e.what()));
        statusBar()->showMessage(msg, 15000);
        Q_EMIT importFinished(false, msg);
        return;
    }
    QStringList opened;
    for (const auto& r : batch.results)
        opened << QString::fromStdString(r->path);
    rememberRecent(opened);
    m_closeImported->setEnabled(!m_inputs->imported.empty());
    QString msg = describeBatch(batch);
    if (!batch.warnings.isEmpty())
        msg += " — " + batch.warnings.join("; ");
    if (!batch.failures.isEmpty()) {
        // The files that read are open; the others are named, with why, in one dialog.
        msg += " — " + tr("not opened: %1").arg(batch.failures.join("; "));
        const auto n = batch.failures.size();
        showImportFailures(n == 1 ? tr("1 file could not be opened; the others are open.")
                                  : tr("%1 files could not be opened; the others are open.").arg(n),
                           batch.failures);
    }
    statusBar()->showMessage(msg, 15000);
    Q_EMIT importFinished(true, msg);
}

void MainWindow::openTraces() {
    m_traces->openSet(TraceSet::fromImported(m_inputs->imported));
    QStringList paths;
    for (const QString& p : m_traces->set().paths)
        paths << QFileInfo(p).absoluteFilePath();
    QSettings settings;
    settings.setValue("traces/before", paths);
    settings.remove("traces/after");
    m_showTraces->setEnabled(true);
    showTraces();
    if (!m_restoreAfter.isEmpty())
        m_traces->compareWith(std::exchange(m_restoreAfter, {}));
}

void MainWindow::showTraces() {
    if (!m_traces->hasSet()) {
        m_showLessons->setChecked(true);
        return;
    }
    m_showTraces->setChecked(true);
    if (m_showingTraces)
        return;
    // The lesson docks make no sense beside traces: hidden, and back as they were.
    m_lessonDocks = saveState();
    for (QDockWidget* d : m_docks)
        d->hide();
    m_stack->setCurrentWidget(m_traces);
    m_showingTraces = true;
    for (QAction* a : m_stepKeys)
        a->setEnabled(false);
    setWindowTitle(tr("Warpboard — Traces"));
}

void MainWindow::showLessons() {
    m_showLessons->setChecked(true);
    if (!m_showingTraces)
        return;
    m_stack->setCurrentWidget(m_lessonsPage);
    m_showingTraces = false;
    for (QAction* a : m_stepKeys)
        a->setEnabled(true);
    restoreState(m_lessonDocks);
    if (m_session)
        setWindowTitle("Warpboard — " + QString::fromStdString(m_session->scenario().title()));
}

// "Why this verdict?": the lesson on these very files, at its step about them; the View menu
// (or Ctrl+2) goes back to the workspace.
void MainWindow::explainInLesson(const QString& scenarioId) {
    if (!findScenario(scenarioId.toStdString()))
        return;
    showLessons();
    openScenario(scenarioId, 0);
    if (const int step = firstImportedStep(m_session->story()); step >= 0)
        m_playback->goToStep(step, false);
    statusBar()->showMessage(tr("The lesson on your traces; View → Traces (Ctrl+2) goes back"),
                             8000);
}

bool MainWindow::restoreTraces() {
    QSettings settings;
    const QStringList before = settings.value("traces/before").toStringList();
    if (before.isEmpty())
        return false;
    m_restoreAfter = settings.value("traces/after").toStringList();
    return importFiles(before);
}

void MainWindow::showImportFailures(const QString& summary, const QStringList& failures) {
    auto* box =
        new QMessageBox(QMessageBox::Warning, tr("Import failed"), summary, QMessageBox::Ok, this);
    box->setInformativeText(failures.join("\n"));
    box->setAttribute(Qt::WA_DeleteOnClose);
    box->setObjectName("importError");
    box->open(); // window-modal, does not block the event loop
}

void MainWindow::showImportedData(const ImportBatch& batch) {
    // Where each kind of file is drawn; the open lesson stays if it can draw the batch.
    QStringList targets;
    for (const auto& r : batch.results)
        for (const auto& id : lessonsForFormat(r->format))
            targets << QString::fromStdString(id);
    QString id = m_session ? QString::fromStdString(m_session->scenario().id()) : QString();
    if (!targets.contains(id)) {
        id = targets.isEmpty() ? id : targets.front();
        if (!findScenario(id.toStdString()))
            id = QString::fromStdString(defaultScenario().id());
        openScenario(id, 0);
    } else {
        reopenSession();
    }
    if (const int step = firstImportedStep(m_session->story()); step >= 0)
        m_playback->goToStep(step, false);
}

void MainWindow::reopenSession() {
    if (!m_session)
        return;
    const int step = m_playback->step();
    // The story reads the window's inputs (imported files, live recordings) when it is built.
    m_session =
        std::make_unique<ScenarioSession>(m_session->scenario(), m_session->params(), m_inputs);
    rebuildStory(std::min(step, std::max(0, m_session->stepCount() - 1)));
}

void MainWindow::setInputs(ScenarioInputs inputs) {
    m_inputs = std::make_shared<const ScenarioInputs>(std::move(inputs));
}

void MainWindow::closeImportedFiles() {
    if (m_inputs->imported.empty())
        return;
    ScenarioInputs inputs = *m_inputs;
    inputs.imported = ImportedSet();
    setInputs(std::move(inputs));
    m_closeImported->setEnabled(false);
    m_traces->closeSet();
    showLessons();
    m_showTraces->setEnabled(false);
    QSettings settings;
    settings.remove("traces/before");
    settings.remove("traces/after");
    reopenSession();
    statusBar()->showMessage(tr("Closed the imported files"), 5000);
}

void MainWindow::openDialog() {
    const QString dir = QSettings().value("lastImportDir").toString();
    QStringList patterns;
    for (const auto& p : profilerFilePatterns())
        patterns << QString::fromStdString(p);
    const QStringList paths = QFileDialog::getOpenFileNames(
        this, tr("Open profiler files"), dir,
        tr("Profiler files (%1);;Job summaries (*.wbsum.json);;All files (*)")
            .arg(patterns.join(' ')));
    if (paths.isEmpty())
        return;
    QSettings().setValue("lastImportDir", QFileInfo(paths.front()).absolutePath());
    importFiles(paths);
}

void MainWindow::openFolderDialog() {
    const QString folder = QFileDialog::getExistingDirectory(
        this, tr("Open a folder of profiler files"), QSettings().value("lastImportDir").toString());
    if (folder.isEmpty())
        return;
    QSettings().setValue("lastImportDir", folder);
    importFiles({folder}); // its profiler files, as `warpboard FOLDER` opens them
}

QList<QStringList> MainWindow::recentSets() const {
    QSettings settings;
    QList<QStringList> sets;
    for (const QVariant& v : settings.value("recentSets").toList())
        if (const QStringList set = v.toStringList(); !set.isEmpty())
            sets << set;
    if (sets.isEmpty()) // earlier versions kept one entry per file
        for (const QString& file : settings.value("recentFiles").toStringList())
            sets << QStringList{file};
    return sets;
}

QStringList MainWindow::recentFiles() const {
    QStringList files;
    for (const QStringList& set : recentSets())
        files << set;
    return files;
}

// One entry per set opened together (the ranks of a job), newest first, ten at most.
void MainWindow::rememberRecent(const QStringList& paths) {
    QStringList set;
    for (const QString& p : paths)
        set << QFileInfo(p).absoluteFilePath();
    QList<QStringList> sets = recentSets();
    sets.removeAll(set);
    sets.prepend(set);
    while (sets.size() > 10)
        sets.removeLast();
    QVariantList stored;
    for (const QStringList& s : sets)
        stored << s;
    QSettings settings;
    settings.setValue("recentSets", stored);
    settings.remove("recentFiles");
}

void MainWindow::fillRecentMenu() {
    m_recentMenu->clear();
    const QList<QStringList> sets = recentSets();
    for (const QStringList& set : sets) {
        const QString first = QFileInfo(set.front()).fileName();
        const QString label =
            set.size() == 1
                ? first
                : tr("%1 and %n more", nullptr, static_cast<int>(set.size() - 1)).arg(first);
        QAction* a = m_recentMenu->addAction(label, this, [this, set] { importFiles(set); });
        a->setToolTip(set.join('\n'));
        a->setStatusTip(QFileInfo(set.front()).absolutePath());
        a->setEnabled(std::any_of(set.begin(), set.end(),
                                  [](const QString& p) { return QFileInfo::exists(p); }));
    }
    if (sets.isEmpty())
        m_recentMenu->addAction(tr("(none yet)"))->setEnabled(false);
    else {
        m_recentMenu->addSeparator();
        m_recentMenu->addAction(tr("Clear the list"), this, [] {
            QSettings settings;
            settings.remove("recentSets");
            settings.remove("recentFiles");
        });
    }
}

void MainWindow::dragEnterEvent(QDragEnterEvent* event) {
    const auto urls = event->mimeData()->urls();
    if (std::any_of(urls.begin(), urls.end(), [](const QUrl& u) { return u.isLocalFile(); }))
        event->acceptProposedAction();
}

void MainWindow::dropEvent(QDropEvent* event) {
    QStringList paths;
    for (const QUrl& u : event->mimeData()->urls())
        if (u.isLocalFile())
            paths << u.toLocalFile();
    if (!paths.isEmpty() && importFiles(paths))
        event->acceptProposedAction();
}

void MainWindow::exportDialog() {
    if (!m_session)
        return;
    const bool wasPlaying = m_playback->isPlaying();
    m_playback->pause();
    const QString suggested = QString::fromStdString(m_session->scenario().id()) +
                              QString("-step%1.png").arg(m_playback->step() + 1);
    const QString path = QFileDialog::getSaveFileName(this, tr("Export step"), suggested,
                                                      tr("PNG image (*.png);;SVG vector (*.svg)"));
    if (!path.isEmpty()) {
        const QString err = exportCurrentStep(path);
        if (err.isEmpty())
            statusBar()->showMessage(tr("Exported %1").arg(path), 5000);
        else
            QMessageBox::warning(this, tr("Export failed"), err);
    }
    if (wasPlaying)
        m_playback->play();
}

void MainWindow::showShortcutHelp() {
    QMessageBox::information(
        this, tr("Keyboard shortcuts"),
        tr("→ / Space  next step (plays it)\n← previous step\nHome / End  first / last step\n"
           "1–9  jump to step\nCtrl+O  open profiler files (or drop files or folders on the "
           "window)\n"
           "A  reveal / hide the answer\nCtrl+E  export the step as PNG or SVG\n"
           "Ctrl+R  run the scenario's kernels on this GPU\nF5  presentation mode\n\n"
           "While presenting:\nP  pen (draw with the mouse)   Z  undo   C  clear\n"
           "L  laser pointer   B  blank screen   Esc  leave"));
}

bool MainWindow::eventFilter(QObject* watched, QEvent* event) {
    if (watched == m_slide && event->type() == QEvent::Resize)
        m_pen->setGeometry(m_slide->rect());
    if (watched == m_lessonsPage && event->type() == QEvent::Resize)
        m_blank->setGeometry(m_lessonsPage->rect());
    if (watched == m_slide && event->type() == QEvent::Paint && !m_firstFrameSeen) {
        m_firstFrameSeen = true;
        QTimer::singleShot(0, this, &MainWindow::firstFramePainted); // after this paint ends
    }
    return QMainWindow::eventFilter(watched, event);
}

void MainWindow::closeEvent(QCloseEvent* event) {
    QSettings settings;
    if (m_presenting)
        setPresentation(false);
    settings.setValue("geometry", saveGeometry());
    // The lesson docks as the lessons show them, whichever place is showing.
    settings.setValue("windowState", m_showingTraces ? m_lessonDocks : saveState());
    settings.setValue("traces/layout", m_traces->saveState());
    QMainWindow::closeEvent(event);
}

} // namespace wb
