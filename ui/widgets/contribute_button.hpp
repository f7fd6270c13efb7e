#pragma once
// The large Contribute / Pause button. It shows what clicking will do next, which its owner
// derives from the node's reported state, never from the click itself.
#include <QPushButton>

namespace rookery::ui {

class ContributeButton : public QPushButton {
  Q_OBJECT

 public:
  enum class Action { Contribute, Pause };

  explicit ContributeButton(QWidget* parent = nullptr);
  void setAction(Action action);
  Action action() const { return action_; }
  QSize sizeHint() const override;
  QSize minimumSizeHint() const override;

 protected:
  void paintEvent(QPaintEvent* event) override;

 private:
  Action action_ = Action::Contribute;
};

}  // namespace rookery::ui
