#pragma once
/// A QSignalSpy for signals emitted from worker threads. QSignalSpy appends in the thread that
/// emits: two sampler threads emitting progress at once append to one list concurrently, a heap
/// corruption that the studio never sees (its connections are queued) but that made a worker
/// test abort now and then. The recorder receives through a queued connection instead, so every
/// value is stored in the test's thread, in the order the worker emitted.
#include <QObject>
#include <QtTest>
#include <cstddef>
#include <memory>
#include <tuple>
#include <type_traits>
#include <vector>

namespace dpsynth::ui::test {

template <class... Args>
class QueuedRecorder {
 public:
  using Values = std::tuple<std::decay_t<Args>...>;

  template <class Sender>
  QueuedRecorder(Sender* sender, void (Sender::*signal)(Args...)) {
    QObject::connect(
        sender, signal, &context_,
        [this](const std::decay_t<Args>&... values) { received_.emplace_back(values...); },
        Qt::QueuedConnection);
  }

  /// Processes events until one more value than now has arrived, or timeoutMs passed.
  bool wait(int timeoutMs) {
    const std::size_t before = received_.size();
    return QTest::qWaitFor([&] { return received_.size() > before; }, timeoutMs);
  }
  int count() const { return static_cast<int>(received_.size()); }
  const std::vector<Values>& all() const { return received_; }
  /// Argument I of value k.
  template <std::size_t I = 0>
  const auto& at(std::size_t k) const {
    return std::get<I>(received_.at(k));
  }

 private:
  QObject context_;  // lives in the test's thread: the queued calls run there
  std::vector<Values> received_;
};

/// record(worker, &Worker::signal): deduces the signal's argument types.
template <class Sender, class... Args>
std::unique_ptr<QueuedRecorder<Args...>> record(Sender* sender, void (Sender::*signal)(Args...)) {
  return std::make_unique<QueuedRecorder<Args...>>(sender, signal);
}

}  // namespace dpsynth::ui::test
