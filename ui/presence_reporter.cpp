#include "ui/presence_reporter.hpp"

#include <QCoreApplication>
#include <QEvent>
#include <QGuiApplication>
#include <QTimer>

#include "control/control_client.hpp"

#if defined(ROOKERY_HAVE_XSS)
#include <X11/Xatom.h>
#include <X11/Xlib.h>
#include <X11/extensions/scrnsaver.h>
#endif

namespace rookery::ui {

namespace pb = wire::pb;

namespace {
constexpr int kReportIntervalMs = 2000;
constexpr double kIdleAfterSeconds =
    60;  // "came back": report at once after this long without input

#if defined(ROOKERY_HAVE_XSS)
Display* x11_display() {
  if (auto* x11 =
          qGuiApp ? qGuiApp->nativeInterface<QNativeInterface::QX11Application>() : nullptr) {
    return x11->display();
  }
  return nullptr;
}

std::optional<double> x11_idle_seconds(Display* d) {
  int event_base = 0, error_base = 0;
  if (!XScreenSaverQueryExtension(d, &event_base, &error_base)) return std::nullopt;
  XScreenSaverInfo* info = XScreenSaverAllocInfo();
  if (!info) return std::nullopt;
  std::optional<double> out;
  if (XScreenSaverQueryInfo(d, DefaultRootWindow(d), info)) out = info->idle / 1000.0;
  XFree(info);
  return out;
}

// Whether the active window (as the window manager names it) is full-screen.
std::optional<bool> x11_active_fullscreen(Display* d) {
  const Atom active = XInternAtom(d, "_NET_ACTIVE_WINDOW", True);
  const Atom state = XInternAtom(d, "_NET_WM_STATE", True);
  const Atom fullscreen = XInternAtom(d, "_NET_WM_STATE_FULLSCREEN", True);
  if (active == None || state == None || fullscreen == None) return std::nullopt;
  auto read_atoms = [&](Window w, Atom property, Atom type, unsigned char** data,
                        unsigned long* count) {
    Atom actual = None;
    int format = 0;
    unsigned long after = 0;
    return XGetWindowProperty(d, w, property, 0, 64, False, type, &actual, &format, count, &after,
                              data) == Success &&
           *data != nullptr;
  };
  unsigned char* data = nullptr;
  unsigned long count = 0;
  if (!read_atoms(DefaultRootWindow(d), active, XA_WINDOW, &data, &count) || count == 0) {
    if (data) XFree(data);
    return std::nullopt;
  }
  const Window w = *reinterpret_cast<Window*>(data);
  XFree(data);
  if (w == None) return false;
  data = nullptr;
  if (!read_atoms(w, state, XA_ATOM, &data, &count)) return false;
  bool full = false;
  const auto* atoms = reinterpret_cast<Atom*>(data);
  for (unsigned long i = 0; i < count; ++i) full = full || atoms[i] == fullscreen;
  XFree(data);
  return full;
}
#endif
}  // namespace

#if defined(ROOKERY_HAVE_XSS)
// Xlib's macros that collide with Qt's names below.
#undef KeyPress
#undef KeyRelease
#undef FocusIn
#undef FocusOut
#undef None
#undef Bool
#undef Status
#endif

PresenceReporter::PresenceReporter(std::filesystem::path runtime_dir, QObject* parent)
    : QObject(parent), runtime_dir_(std::move(runtime_dir)), timer_(new QTimer(this)) {
  last_input_.start();
  if (QCoreApplication::instance()) QCoreApplication::instance()->installEventFilter(this);
  timer_->setInterval(kReportIntervalMs);
  connect(timer_, &QTimer::timeout, this, &PresenceReporter::report);
  timer_->start();
}

bool PresenceReporter::eventFilter(QObject* watched, QEvent* event) {
  switch (event->type()) {
    case QEvent::KeyPress:
    case QEvent::MouseButtonPress:
    case QEvent::MouseMove:
    case QEvent::Wheel:
    case QEvent::TouchBegin: {
      const bool came_back = last_input_.elapsed() / 1000.0 >= kIdleAfterSeconds;
      last_input_.restart();
      // The owner is back: tell the node now, not at the next tick, so compute yields at once.
      if (came_back) QTimer::singleShot(0, this, &PresenceReporter::report);
      break;
    }
    default:
      break;
  }
  return QObject::eventFilter(watched, event);
}

PresenceReporter::Presence PresenceReporter::read() const {
  Presence p;
  p.idle_seconds = last_input_.elapsed() / 1000.0;
  p.idle_source = tr("this window's input only");
  p.fullscreen_source = tr("needs the X11 screensaver extension (libXss)");
#if defined(ROOKERY_HAVE_XSS)
  if (Display* d = x11_display()) {
    if (const auto idle = x11_idle_seconds(d)) {
      p.idle_seconds = *idle;
      p.idle_source = tr("X11 screensaver extension");
      p.idle_covers_session = true;
    }
    p.fullscreen = x11_active_fullscreen(d);
    p.fullscreen_source = p.fullscreen ? tr("the active window's _NET_WM_STATE")
                                       : tr("the window manager does not report the active window");
  } else {
    p.fullscreen_source = tr("not an X11 session");
  }
#endif
  return p;
}

bool PresenceReporter::report() {
  const auto p = read();
  const bool idle = p.idle_seconds >= kIdleAfterSeconds;
  if (!idle && was_idle_) timer_->start();  // restart the period from this report
  was_idle_ = idle;
  pb::ControlRequest r;
  r.set_kind(pb::ControlRequest::REPORT_PRESENCE);
  auto* out = r.mutable_presence();
  out->set_input_idle_seconds(p.idle_seconds);
  out->set_idle_source(p.idle_source.toStdString());
  out->set_idle_covers_session(p.idle_covers_session);
  out->set_fullscreen_known(p.fullscreen.has_value());
  out->set_fullscreen_app(p.fullscreen.value_or(false));
  out->set_fullscreen_source(p.fullscreen_source.toStdString());
  out->set_valid_for_ms(kReportIntervalMs * 5);
  control::ControlClient client(control::ControlEndpoints::in(runtime_dir_));
  return client.request(r, std::chrono::milliseconds(300)).ok;
}

}  // namespace rookery::ui
