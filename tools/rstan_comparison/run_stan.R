# One rstan fit of a comparison file (run by hand, not in CI):
#   Rscript run_stan.R FAMILY FILE.csv OUTCOME SEED
# 4 chains x (1000 warm-up + 1000 draws), cores = 1. Prints the sampling wall time (compilation
# excluded), min bulk-ESS, min bulk-ESS per second, divergences and each parameter's posterior
# mean with its Monte Carlo standard error, as "param name mean mcse".
suppressMessages(library(rstan))
rstan_options(auto_write = TRUE)
args <- commandArgs(trailingOnly = TRUE)
family <- args[1]; file <- args[2]; outcome <- args[3]; seed <- as.integer(args[4])
here <- dirname(sub("--file=", "", grep("--file=", commandArgs(FALSE), value = TRUE)))
source(file.path(here, "models.stan.R"))
d <- read.csv(file, stringsAsFactors = FALSE)
# dpsynth's reference levels for a text column: the first in sorted (byte) order, the others
# as dummies in that order (the specification's design rules since text levels are sorted)
for (col in c("region", "sector")) if (col %in% names(d)) d[[col]] <- factor(d[[col]], levels = sort(unique(d[[col]]), method = "radix"))
X <- model.matrix(as.formula(paste("~", paste(setdiff(names(d), outcome), collapse = " + "))), d)
N <- nrow(X); K <- ncol(X)
qrX <- qr(X); Q <- qr.Q(qrX) * sqrt(N - 1); R <- qr.R(qrX) / sqrt(N - 1)
y <- d[[outcome]]
# Compiled once per family and kept (STAN_CACHE, default /tmp/dpsynth-stan-models).
cache_dir <- Sys.getenv("STAN_CACHE", "/tmp/dpsynth-stan-models")
dir.create(cache_dir, showWarnings = FALSE)
cache <- file.path(cache_dir, paste0(family, ".rds"))
if (file.exists(cache)) model <- readRDS(cache) else {
  model <- stan_model(model_code = stan_code[[family]], model_name = family)
  saveRDS(model, cache)
}
data <- list(N = N, K = K, Q = Q, R_inv = solve(R), y = y)
t <- system.time(fit <- sampling(model, data = data, chains = 4, iter = 2000, warmup = 1000,
                                 cores = 1, seed = seed, refresh = 0))["elapsed"]
pars <- switch(family, poisson = "beta", negbin = c("beta", "sigma", "phi"), beta = c("beta", "lambda"))
m <- monitor(extract(fit, pars = pars, permuted = FALSE), warmup = 0, print = FALSE)
# Gradients: every leapfrog step of warm-up and sampling (one gradient each), as dpsynth's
# gradient_evaluations counts them.
params <- get_sampler_params(fit, inc_warmup = TRUE)
leapfrogs <- sum(sapply(params, function(p) sum(p[, "n_leapfrog__"])))
divergent <- sum(sapply(get_sampler_params(fit, inc_warmup = FALSE), function(p) sum(p[, "divergent__"])))
cat(sprintf("stan seconds %.2f min_bulk_ess %.0f ess_per_s %.1f divergences %d gradients %d\n",
            t, min(m[, "Bulk_ESS"]), min(m[, "Bulk_ESS"]) / t, divergent, leapfrogs))
names <- rownames(m)
for (i in seq_along(names)) cat(sprintf("param %s %.6g %.3g\n", names[i], m[i, "mean"], m[i, "se_mean"]))
cat("columns", colnames(X), "\n")
