package io.kubesched.benchmark.e2e;

/**
 * The figures of one run. Resource figures are NaN for the bind ceiling (it runs inside the runner).
 *
 * @param bound measured pods bound
 * @param pending measured pods still without a node when the run ended
 * @param podsPerSecond bound pods over the seconds from the first measured pod seen to the last seen bound
 * @param createdPerSecond the rate at which the runner created the measured pods
 * @param p50Millis creation-to-bound latency, 50th percentile (90th, 99th below), as observed by watch
 * @param cpuSeconds the scheduler's CPU time from the probe pod bound to the end of the run
 * @param processCpuSeconds its CPU time from its start (initial lists, start-up, JIT) to the end of the run
 * @param peakRssMiB its peak resident set over the whole run
 * @param cpuSpread the standard deviation over nodes of requested CPU / allocatable CPU, in percentage points
 * @param memorySpread the same for memory
 */
record RunResult(
    Workload workload,
    Contestant contestant,
    int repetition,
    int bound,
    int pending,
    double podsPerSecond,
    double createdPerSecond,
    double p50Millis,
    double p90Millis,
    double p99Millis,
    double cpuSeconds,
    double processCpuSeconds,
    double peakRssMiB,
    double cpuSpread,
    double memorySpread) {}
