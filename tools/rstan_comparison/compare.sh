#!/bin/bash
# compare.sh DPSYNTH DIR FAMILY PAIRS [FIRST_SEED]: dpsynth fit and rstan back to back, PAIRS
# times, pair p seeded FIRST_SEED + p - 1 on both sides.
set -eu
bin=$1; dir=$2; family=$3; pairs=${4:-1}; first=${5:-1}
here=$(cd "$(dirname "$0")" && pwd)
case $family in
  beta) file=$dir/beta.csv; outcome=share ;;
  *) file=$dir/$family.csv; outcome=visits ;;
esac
for pair in $(seq "$first" $((first + pairs - 1))); do
  echo "# pair $pair, $(uptime | sed 's/.*load/load/')"
  report=$(mktemp --suffix=.json)
  start=$(date +%s.%N)
  "$bin" fit --data "$file" --outcome $outcome --covariates region,sector,age,income \
    --family "$family" --mechanism unweighted --seed "$pair" --threads 1 --report "$report" >/dev/null
  end=$(date +%s.%N)
  python3 - "$report" "$start" "$end" <<'PY'
import json, math, sys
r = json.load(open(sys.argv[1]))
wall = float(sys.argv[3]) - float(sys.argv[2])
ess = min(p["ess_bulk"] for p in r["posterior"].values())
print(f"dpsynth seconds {wall:.2f} min_bulk_ess {ess:.0f} ess_per_s {ess / wall:.1f} "
      f"divergences {r['sampler']['divergences']} "
      f"gradients {r['sampler']['gradient_evaluations']} sampler_seconds {r['sampler']['seconds']:.3f}")
for name, p in r["posterior"].items():
    print(f"param {name} {p['mean']:.6g} {p['sd'] / math.sqrt(p['ess_bulk']):.3g}")
PY
  rm -f "$report"
  Rscript "$here/run_stan.R" "$family" "$file" $outcome "$pair" 2>/dev/null | grep -v '^columns'
done
