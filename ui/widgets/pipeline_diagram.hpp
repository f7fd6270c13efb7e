#pragma once
// A pipeline drawn as a row of stage boxes, from the data to the loss, with this PC's stage
// filled in the accent colour; under it, the model's blocks with this stage's shard marked.
// Palette-aware; its accessible description says the same in words. Keyboard users reach
// it with Tab, so a screen reader reads it.
#include <QWidget>

namespace rookery::ui {

class PipelineDiagram : public QWidget {
  Q_OBJECT

 public:
  explicit PipelineDiagram(QWidget* parent = nullptr);

  struct Shape {
    int stage_count = 0;   // 0: no pipeline
    int stage = 0;         // 0-based, this PC's
    qint64 first_block = 0;
    qint64 last_block = 0;  // exclusive
    qint64 block_count = 0;
    bool active = false;    // the node contributes now: this PC's box is filled, not outlined
    bool operator==(const Shape&) const = default;
  };
  void setShape(const Shape& shape);
  const Shape& shape() const { return shape_; }

  QSize sizeHint() const override;
  QSize minimumSizeHint() const override;

 protected:
  void paintEvent(QPaintEvent* event) override;

 private:
  void describe();

  Shape shape_;
};

}  // namespace rookery::ui
