package io.kubesched.benchmark.e2e;

/**
 * The figures of one run. Resource figures are NaN for the bind ceiling (it runs inside the runner).
 *
 * @param ceilingThreads for the bind ceiling, its binding threads (one of the searched concurrencies); 0 for a
 *     scheduler
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
 * @param preemption the preemptors' figures, {@link Preemption#NONE} for a workload without
 * @param gangs the pod groups' figures, {@link Gangs#NONE} for a workload without
 * @param start how quick the placer was just after it started, beside the same at the end of the run
 * @param claims for a DRA workload, whether the placement kept its claims ({@link ClaimCheck}); {@link Claims#NONE}
 *     for the others
 * @param attempts for a workload with pods that fit no node ({@link PodShape#neverFits}), the scheduler's
 *     scheduling attempts over the stream and the backlog; {@link Attempts#NONE} for the others and the bind ceiling
 * @param neverFitting what became of those pods; {@link NeverFitting#NONE} for the other workloads
 * @param hostSteal the share of the machine's CPU time its hypervisor gave to other guests ({@link HostSteal}) from
 *     the placer's resumption to the backlog's last pod seen bound, the span of {@code podsPerSecond}; NaN where the
 *     kernel does not count it
 */
record RunResult(
    Workload workload,
    Contestant contestant,
    int repetition,
    int ceilingThreads,
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
    double memorySpread,
    Preemption preemption,
    Gangs gangs,
    Start start,
    Claims claims,
    Attempts attempts,
    NeverFitting neverFitting,
    double hostSteal) {

  /** The figures of a run of a workload without claims. */
  RunResult(
      Workload workload, Contestant contestant, int repetition, int ceilingThreads, int bound, int pending,
      double podsPerSecond, double streamPodsPerSecond, double createdPerSecond, double p50Millis, double p90Millis,
      double p99Millis, double cpuSeconds, double processCpuSeconds, double peakRssMiB, double cpuSpread,
      double memorySpread, Preemption preemption, Gangs gangs, Start start) {
    this(
        workload, contestant, repetition, ceilingThreads, bound, pending, podsPerSecond, streamPodsPerSecond,
        createdPerSecond, p50Millis, p90Millis, p99Millis, cpuSeconds, processCpuSeconds, peakRssMiB, cpuSpread,
        memorySpread, preemption, gangs, start, Claims.NONE);
  }

  /** The figures of a run of a workload without pods that fit no node. */
  RunResult(
      Workload workload, Contestant contestant, int repetition, int ceilingThreads, int bound, int pending,
      double podsPerSecond, double streamPodsPerSecond, double createdPerSecond, double p50Millis, double p90Millis,
      double p99Millis, double cpuSeconds, double processCpuSeconds, double peakRssMiB, double cpuSpread,
      double memorySpread, Preemption preemption, Gangs gangs, Start start, Claims claims) {
    this(
        workload, contestant, repetition, ceilingThreads, bound, pending, podsPerSecond, streamPodsPerSecond,
        createdPerSecond, p50Millis, p90Millis, p99Millis, cpuSeconds, processCpuSeconds, peakRssMiB, cpuSpread,
        memorySpread, preemption, gangs, start, claims, Attempts.NONE, NeverFitting.NONE, Double.NaN);
  }

  /**
   * A scheduler's scheduling attempts by result, as kube-scheduler's {@code scheduler_schedule_attempts_total}
   * counts them ({@link ScheduleAttempts}); NaN where not counted. In the workloads that count them the measured
   * pods always fit and the pods that fit no node never do, so the result tells whose attempt it was: {@code
   * scheduled} and {@code error} are the measured pods', {@code unschedulable} the others'.
   */
  record Attempts(double scheduled, double unschedulable, double error) {

    /** Not counted. */
    static final Attempts NONE = new Attempts(Double.NaN, Double.NaN, Double.NaN);

    /** The attempts made since {@code earlier}, a reading of the same counter. */
    Attempts since(Attempts earlier) {
      return new Attempts(scheduled - earlier.scheduled, unschedulable - earlier.unschedulable, error - earlier.error);
    }

    /** Every attempt, whatever its result. */
    double total() {
      return scheduled + unschedulable + error;
    }

    /** The measured pods' attempts: {@code scheduled} and {@code error}. */
    double measured() {
      return scheduled + error;
    }
  }

  /**
   * What became of the pods that fit no node of a {@link PodShape#neverFits} run, and for the label-patch flood,
   * what its patches cost.
   *
   * @param created pods that fit no node created (the churn's from the stream's start to the backlog's end, or the
   *     flood's)
   * @param bound of those, how many were seen bound: 0 for a scheduler (the bind ceiling places only the measured
   *     pods)
   * @param patches label-only patches of one node made while the flood's pods were pending; 0 for the others
   * @param patchAttempts the scheduler's attempts, of any pod, from the first patch to {@link
   *     BenchmarkRun#PATCH_SETTLE} after the last; NaN without patches or for the bind ceiling
   */
  record NeverFitting(int created, int bound, int patches, double patchAttempts) {

    /** For a workload without such pods. */
    static final NeverFitting NONE = new NeverFitting(0, 0, 0, Double.NaN);
  }

  /**
   * What became of the claims of a DRA run ({@link ClaimCheck}): every measured pod seen bound, the warm-up's and
   * those created one by one included, and deleted ones too.
   *
   * @param pods measured pods seen bound
   * @param claims their claims (as each pod named them when seen bound)
   * @param unallocated claims never seen allocated, and pods bound before any claim of theirs was made: a
   *     scheduler leaves none; the bind ceiling allocates nothing, so all of its claims are
   * @param elsewhere claims allocated devices of another node than their pod's
   * @param sharedDevices times a device was seen allocated to a claim while another claim held it
   */
  record Claims(int pods, int claims, int unallocated, int elsewhere, int sharedDevices) {

    /** For a workload without claims. */
    static final Claims NONE = new Claims(0, 0, 0, 0, 0);

    /** Whether the placement kept every claim: none unallocated, elsewhere, or shared. */
    boolean kept() {
      return unallocated == 0 && elsewhere == 0 && sharedDevices == 0;
    }
  }

  /**
   * A cold start beside a warm placer: pods created one at a time, each once the one before is seen bound,
   * first right after the placer's process started, then again at the end of the run ({@link
   * BenchmarkRun#ONE_BY_ONE} each time).
   *
   * @param firstBoundSeconds from the placer's start (its process launched) to the first of those pods seen
   *     bound: start-up, the initial lists and the first decision
   * @param coldP50Millis the other pods after the start: creation-to-bound latency, 50th percentile
   * @param warmP50Millis the pods at the end of the run but their first, the same
   * @param firstAnswerSeconds for this library's scheduler, from the launch of a JVM with its flags to the API
   *     server's first answer to it ({@link FirstAnswer}), measured before the scheduler starts; NaN for the others
   */
  record Start(double firstBoundSeconds, double coldP50Millis, double warmP50Millis, double firstAnswerSeconds) {

    /** Not measured. */
    static final Start NONE = new Start(Double.NaN, Double.NaN, Double.NaN);

    /** A start without a {@link FirstAnswer} measure. */
    Start(double firstBoundSeconds, double coldP50Millis, double warmP50Millis) {
      this(firstBoundSeconds, coldP50Millis, warmP50Millis, Double.NaN);
    }
  }

  /**
   * What became of the pod groups of a {@link PodShape#GANG} run (stream and backlog together, unless said).
   *
   * @param groups groups created
   * @param whole of those, groups with every member seen bound by the end of the run
   * @param partlyBound groups with some but not all members bound at the end: a gang scheduler leaves none
   * @param mostPartlyBound the most groups seen partly bound at one moment in a phase (while a group's members
   *     are being bound it is partly bound in any scheduler)
   * @param boundEarly members seen bound before every member of their group was seen created: a gang scheduler
   *     binds none
   * @param withoutGroup measured pods seen without {@code spec.schedulingGroup} (the API server dropped it)
   * @param groupsPerSecond the backlog's groups over the seconds from the placer's resumption to the last group
   *     seen bound whole
   * @param p50Millis a stream group's latency from its last member seen created to its last member seen bound,
   *     50th percentile
   * @param p99Millis the same, 99th percentile
   */
  record Gangs(
      int groups,
      int whole,
      int partlyBound,
      int mostPartlyBound,
      int boundEarly,
      int withoutGroup,
      double groupsPerSecond,
      double p50Millis,
      double p99Millis) {

    /** For a workload without groups. */
    static final Gangs NONE = new Gangs(0, 0, 0, 0, 0, 0, Double.NaN, Double.NaN, Double.NaN);
  }

  /**
   * What became of the preemptors of a {@link PodShape#PREEMPTION} run and of their victims.
   *
   * @param created preemptors created (from the stream's start to the backlog's end, one every 200 ms of the
   *     scheduler's running time)
   * @param bound of those, how many were seen bound by the end of the run (the run waits for them after the
   *     backlog, until none has been bound for the stall time)
   * @param p50Millis a bound preemptor's latency from seen created to seen bound, 50th percentile: preemption,
   *     the victims' deletion and the second attempt
   * @param p99Millis the same, 99th percentile
   * @param victimsDeleted low-priority and measured pods gone from the API server by the end of the run
   * @param victimsTerminating pods deleted with a grace period and still there (measured pods: no kubelet ends
   *     them)
   */
  record Preemption(
      int created, int bound, double p50Millis, double p99Millis, int victimsDeleted, int victimsTerminating) {

    /** For a workload without preemptors. */
    static final Preemption NONE = new Preemption(0, 0, Double.NaN, Double.NaN, 0, 0);
  }
}
