#pragma once
// A dashboard card: a rounded panel with a small uppercase title and a body. Every card on
// the main window (device, node state, and later charts and contribution) derives from it.
#include <QFrame>

class QLabel;
class QVBoxLayout;

namespace rookery::ui {

class Card : public QFrame {
  Q_OBJECT

 public:
  explicit Card(const QString& title, QWidget* parent = nullptr);
  void setTitle(const QString& title);
  QString title() const;

 protected:
  QVBoxLayout* body() const { return body_; }
  void paintEvent(QPaintEvent* event) override;
  void changeEvent(QEvent* event) override;

 private:
  void applyColours();

  QLabel* title_;
  QVBoxLayout* body_;
};

}  // namespace rookery::ui
