# The Stan programs of the comparison, with the priors of dpsynth's SPEC §2, written as a user
# would: vectorised statements and Stan's QR reparameterisation (User's Guide), the prior on
# beta = R*^-1 theta. Sourced by run_stan.R.
stan_code <- list(
poisson = "
data { int<lower=0> N; int<lower=1> K; matrix[N, K] Q; matrix[K, K] R_inv; int<lower=0> y[N]; }
parameters { vector[K] theta; }
transformed parameters { vector[K] beta = R_inv * theta; }
model {
  beta ~ normal(0, 10);
  y ~ poisson_log(Q * theta);
}",
negbin = "
data { int<lower=0> N; int<lower=1> K; matrix[N, K] Q; matrix[K, K] R_inv; int<lower=0> y[N]; }
parameters { vector[K] theta; vector<lower=0>[K] sigma; real<lower=0> inv_phi; }
transformed parameters { vector[K] beta = R_inv * theta; real phi = 1 / inv_phi; }
model {
  sigma ~ student_t(3, 0, 1);
  beta ~ normal(0, sigma);
  inv_phi ~ cauchy(0, 5);
  y ~ neg_binomial_2_log(Q * theta, phi);
}",
beta = "
data { int<lower=0> N; int<lower=1> K; matrix[N, K] Q; matrix[K, K] R_inv; vector<lower=0, upper=1>[N] y; }
parameters { vector[K] theta; real<lower=0.1> lambda; }
transformed parameters { vector[K] beta = R_inv * theta; }
model {
  beta ~ normal(0, 2.5);
  lambda ~ pareto(0.1, 1.5);
  y ~ beta_proportion(inv_logit(Q * theta), lambda);
}")
