#include "ui/workspaces/synthesis/stored_plots.h"

#include "ui/plots/plots_view.h"

namespace dpsynth::ui {

namespace session = core::session;

void drawStoredLipschitz(const session::SessionResults& results, PlotsView* plots,
                         double strictBound) {
  for (std::size_t i = 0; i < results.mechanisms.size(); ++i) {
    const session::StoredMechanism& m = results.mechanisms[i];
    if (m.lipschitz.quantiles.empty()) continue;  // ph: no fit
    // rows[0] is the "confidential" row; then one row per mechanism, in the same order.
    const session::StoredRow* row = i + 1 < results.rows.size() ? &results.rows[i + 1] : nullptr;
    const bool strict = row && row->guarantee == "DP";
    const double epsilon = row && row->epsilon ? *row->epsilon : 2.0 * m.lipschitzMax;
    // One value per 5% of the records: the middle of each pair of neighbouring quantiles
    // (the minimum and maximum alone would each get a twentieth of the violin's mass).
    const auto& q = m.lipschitz.quantiles;
    std::vector<double> values;
    for (std::size_t j = 0; j + 1 < q.size(); ++j) values.push_back(0.5 * (q[j] + q[j + 1]));
    if (values.empty()) values = q;
    // A stored run shows each mechanism's final fit: the stage is the mechanism itself.
    plots->updateLipschitz(QString::fromStdString(m.mechanism), QString::fromStdString(m.mechanism),
                           values, strict, epsilon, m.lipschitzMax, strictBound);
  }
}

}  // namespace dpsynth::ui
