#pragma once
/// The plots a reopened session can show without its records: each mechanism's Lipschitz violin
/// from the quantiles the session stored.
#include "core/session/session_results.h"

namespace dpsynth::ui {

class PlotsView;

/// Draws each mechanism's Lipschitz violin from its stored quantiles (equally spaced in
/// probability, so they stand for the records evenly; the per-record values are not kept).
/// strictBound: the strict mechanisms' clamp max(|L|, |U|) (0: ε/2).
void drawStoredLipschitz(const core::session::SessionResults& results, PlotsView* plots,
                         double strictBound = 0);

}  // namespace dpsynth::ui
