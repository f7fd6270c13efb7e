#pragma once
// A thin rounded bar for a fraction (GPU memory, utilisation, load). Paints from the
// palette; the fill colour is the accent unless set.
#include <QColor>
#include <QWidget>

namespace rookery::ui {

class MeterBar : public QWidget {
  Q_OBJECT

 public:
  explicit MeterBar(QWidget* parent = nullptr);
  void setFraction(double fraction);  // clamped to [0, 1]
  double fraction() const { return fraction_; }
  void setColour(const QColor& colour);  // invalid: the accent
  QSize sizeHint() const override { return {120, 6}; }
  QSize minimumSizeHint() const override { return {40, 6}; }

 protected:
  void paintEvent(QPaintEvent* event) override;

 private:
  double fraction_ = 0;
  QColor colour_;
};

}  // namespace rookery::ui
