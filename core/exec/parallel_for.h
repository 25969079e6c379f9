#pragma once
/// The one loop that runs independent, equal-sized jobs (study replicates, MCMC chains) on a
/// budget of threads: each index runs once, on whichever thread is free, with no nested pools.
#include <cstddef>
#include <functional>
#include <stop_token>

namespace dpsynth::core::exec {

/// Threads to use for `jobs` jobs when asked for `threads` (0 = all cores): at least 1 and never
/// more than the jobs.
int threadsFor(int threads, std::size_t jobs);

/// Runs job(i, stop) for every i in [0, count) on up to `threads` threads (0 = all cores; the
/// calling thread is one of them). job returns true when it finished and false when it gave up
/// on a stop request. After each finished job, finished(i) is called under a lock: one call at
/// a time, in order of completion. A stop request (from `stop`, or the first exception of a job
/// or of finished) lets no new job start and is passed to the running ones; the first exception
/// is rethrown once every thread has returned. Returns the number of finished jobs.
std::size_t parallelFor(std::size_t count, int threads,
                        const std::function<bool(std::size_t, std::stop_token)>& job,
                        const std::function<void(std::size_t)>& finished = {},
                        std::stop_token stop = {});

}  // namespace dpsynth::core::exec
