#pragma once
// A small live history: one or more series of fractions in [0, 1] drawn as lines over a
// faint track, newest on the right, the first series with a soft fill under it. The device
// card shows the last few minutes of load with it. Paints from the palette (series without
// a colour take the accent); the owner keeps the accessible description in words.
#include <QColor>
#include <QList>
#include <QString>
#include <QWidget>
#include <deque>

namespace rookery::ui {

class Sparkline : public QWidget {
  Q_OBJECT

 public:
  explicit Sparkline(int capacity, QWidget* parent = nullptr);

  // Series are added once; push() then appends one sample to each, dropping the oldest when
  // `capacity` are kept. Values are clamped to [0, 1]; NaN is drawn as a gap.
  int addSeries(const QString& name, const QColor& colour = {});
  void push(const QList<double>& samples);
  void clear();
  void setSeriesName(int index, const QString& name) { series_[index].name = name; }

  int capacity() const { return capacity_; }
  int size() const;  // samples kept per series
  const std::deque<double>& series(int index) const { return series_.at(index).values; }
  QString seriesName(int index) const { return series_.at(index).name; }
  int seriesCount() const { return int(series_.size()); }
  double latest(int index) const;   // NaN when empty
  double highest(int index) const;  // NaN when empty

  QSize sizeHint() const override { return {240, 44}; }
  QSize minimumSizeHint() const override { return {80, 28}; }

 protected:
  void paintEvent(QPaintEvent* event) override;

 private:
  struct Series {
    QString name;
    QColor colour;
    std::deque<double> values;
  };
  int capacity_;
  QList<Series> series_;
};

}  // namespace rookery::ui
