/// populatePages is only an optimisation: whatever the range (empty, small, unaligned, large),
/// it must leave the memory's contents as they were and never fail.
#include "core/data/populate_pages.h"

#include <QtTest>
#include <cstdint>
#include <numeric>
#include <vector>

using dpsynth::core::data::populatePages;

class PopulatePagesTest : public QObject {
  Q_OBJECT

 private slots:
  void leavesContentsAlone() {
    std::vector<std::uint32_t> values(3'000'000);  // 12 MB: large enough to be populated
    std::iota(values.begin(), values.end(), 7u);
    populatePages(values.data(), values.size() * sizeof(std::uint32_t));
    populatePages(reinterpret_cast<char*>(values.data()) + 1, 5'000'001);  // unaligned
    for (std::size_t i = 0; i < values.size(); ++i) {
      if (values[i] != i + 7) QFAIL("a value changed");
    }
  }

  void ignoresRangesItCannotOrNeedNotPopulate() {
    populatePages(nullptr, 0);
    populatePages(nullptr, std::size_t{1} << 30);
    char small[64] = {1, 2, 3};
    populatePages(small, sizeof small);
    QCOMPARE(int(small[2]), 3);
    std::vector<char> reserved;
    reserved.reserve(std::size_t{4} << 20);  // capacity only: the usual call
    populatePages(reserved.data(), reserved.capacity());
    reserved.assign(std::size_t{4} << 20, 'x');
    QCOMPARE(reserved.back(), 'x');
  }
};

QTEST_APPLESS_MAIN(PopulatePagesTest)
#include "populate_pages_test.moc"
