#pragma once
// Label / value rows inside a card: "Memory   3.2 / 24.0 GiB" with an optional meter under
// the value. Rows can be hidden when a snapshot has nothing for them (no GPU, no coordinator).
#include <QGridLayout>
#include <QString>
#include <QWidget>

class QLabel;

namespace rookery::ui {

class MeterBar;

class MetricGrid : public QWidget {
  Q_OBJECT

 public:
  explicit MetricGrid(QWidget* parent = nullptr);

  struct Row {
    QLabel* label = nullptr;
    QLabel* value = nullptr;
    MeterBar* meter = nullptr;  // null unless asked for
  };
  // `key` names the value label (objectName), for tests and style.
  Row addRow(const QString& label, const QString& key, bool with_meter = false);
  void setRowVisible(const Row& row, bool visible);

 protected:
  void changeEvent(QEvent* event) override;

 private:
  void applyColours();

  QGridLayout* grid_;
  QList<QLabel*> labels_;
};

}  // namespace rookery::ui
