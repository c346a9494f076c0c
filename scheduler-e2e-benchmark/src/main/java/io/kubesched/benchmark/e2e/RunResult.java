package io.kubesched.benchmark.e2e;

/**
 * The figures of one run. Resource figures are NaN for the bind ceiling (it runs inside the runner).
 *
 * @param bound stream and backlog pods bound
 * @param pending stream and backlog pods still without a node when the run ended
 * @param podsPerSecond the backlog's pods over the seconds from the placer's resumption to the last seen bound
 * @param streamPodsPerSecond the stream's pods over the seconds from the first seen created to the last seen
 *     bound
 * @param createdPerSecond the rate at which the runner created the stream's pods
 * @param p50Millis the stream's creation-to-bound latency, 50th percentile (90th, 99th below), by watch
 * @param cpuSeconds the scheduler's CPU time over the stream and the backlog
 * @param processCpuSeconds its CPU time from its start (initial lists, start-up, warm-up, JIT) to the end
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
    double streamPodsPerSecond,
    double createdPerSecond,
    double p50Millis,
    double p90Millis,
    double p99Millis,
    double cpuSeconds,
    double processCpuSeconds,
    double peakRssMiB,
    double cpuSpread,
    double memorySpread) {}
