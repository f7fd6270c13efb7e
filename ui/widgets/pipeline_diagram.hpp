#pragma once
// A pipeline drawn as a row of stage boxes, from the data to the loss, with this PC's stage
// filled in the accent colour; under it, the model's blocks with this stage's shard marked.
// With the run from the coordinator, the whole swarm instead: one row per pipeline, each
// stage's box spanning its blocks on an axis common to all rows (so where pipelines cut
// differently, and who shares which blocks with whom, can be seen) and labelled with that
// volunteer's throughput; this PC's box filled. Palette-aware; its accessible description
// says the same in words. Keyboard users reach it with Tab, so a screen reader reads it.
#include <QWidget>

#include <vector>

class QPainter;

namespace rookery::ui {

class PipelineDiagram : public QWidget {
  Q_OBJECT

 public:
  explicit PipelineDiagram(QWidget* parent = nullptr);

  struct Shape {
    int stage_count = 0;  // 0: no pipeline
    int stage = 0;        // 0-based, this PC's
    qint64 first_block = 0;
    qint64 last_block = 0;  // exclusive
    qint64 block_count = 0;
    bool active = false;  // the node contributes now: this PC's box is filled, not outlined
    // The swarm, from the coordinator's run status: each pipeline's stages in order. Empty:
    // only this PC's pipeline is drawn.
    struct Seat {
      qint64 first_block = 0, last_block = 0;
      double samples_per_s = 0;
      bool mine = false;
      bool operator==(const Seat&) const = default;
    };
    std::vector<std::vector<Seat>> swarm;
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
  void paintSwarm(QPainter& p, QRectF area);
  int rows() const;

  Shape shape_;
};

}  // namespace rookery::ui
