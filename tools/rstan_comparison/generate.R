# Regression data for the dpsynth / rstan comparison (run by hand, not in CI):
#   Rscript generate.R OUTDIR N SEED
# writes OUTDIR/{poisson,negbin,beta}.csv with a categorical region (4 levels, one without an
# effect), a categorical sector (3 levels, one without an effect), age in 20-65 and income in
# 1e4-1e5: covariates on scales four orders of magnitude apart.
args <- commandArgs(trailingOnly = TRUE)
out <- args[1]; n <- as.integer(args[2]); seed <- as.integer(args[3])
set.seed(seed)
dir.create(out, showWarnings = FALSE, recursive = TRUE)
region <- sample(c("north", "south", "east", "west"), n, replace = TRUE)
sector <- sample(c("public", "private", "nonprofit"), n, replace = TRUE)
age <- round(runif(n, 20, 65), 1)
income <- round(runif(n, 1e4, 1e5))
effects <- function(r, s) {
  0.3 * (region == "south") - 0.2 * (region == "east") + 0.0 * (region == "west") +
    s * (sector == "private") + 0.0 * (sector == "nonprofit")
}
eta <- 0.2 + effects(0.3, 0.4) + 0.01 * age + 8e-6 * income
write.csv(data.frame(region, sector, age, income,
                     visits = rnbinom(n, mu = exp(eta), size = 2)),
          file.path(out, "negbin.csv"), row.names = FALSE, quote = FALSE)
write.csv(data.frame(region, sector, age, income, visits = rpois(n, exp(eta - 1))),
          file.path(out, "poisson.csv"), row.names = FALSE, quote = FALSE)
mu <- plogis(-1.2 + effects(0.3, 0.4) + 0.005 * age + 5e-6 * income)
share <- rbeta(n, mu * 20, (1 - mu) * 20)
share <- pmin(pmax(share, 1e-6), 1 - 1e-6)
write.csv(data.frame(region, sector, age, income, share = round(share, 6)),
          file.path(out, "beta.csv"), row.names = FALSE, quote = FALSE)
