#pragma once
// Rookery's few colours and type sizes, derived from the platform palette so every widget
// looks right in light and dark themes. Widgets ask here at paint time, never cache.
#include <QColor>
#include <QFont>
#include <QPalette>

#include "rookery/control.pb.h"

namespace rookery::ui::theme {

bool isDark(const QPalette& palette);

// A dark palette for the Fusion style, for desktops whose dark scheme Qt cannot see (or a
// user who prefers Rookery dark): neutral greys with the accent as highlight.
QPalette darkPalette();

// The accent: a rook-feather teal, lifted a little on dark backgrounds.
QColor accent(const QPalette& palette);
QColor onAccent();  // text and glyphs drawn on the accent

QColor cardBackground(const QPalette& palette);
QColor cardBorder(const QPalette& palette);
QColor secondaryText(const QPalette& palette);
QColor meterTrack(const QPalette& palette);

// What a node state looks like: green-ish accent when contributing, amber when paused, red
// when failed, grey when starting, stopping or not running.
QColor stateColour(const QPalette& palette, wire::pb::NodeState state, bool connected);
QColor warning(const QPalette& palette);
QColor danger(const QPalette& palette);

// `base` scaled by `factor` (point size), optionally bold.
QFont scaled(const QFont& base, double factor, int weight = QFont::Normal);

}  // namespace rookery::ui::theme
