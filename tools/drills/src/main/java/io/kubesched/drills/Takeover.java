package io.kubesched.drills;

import java.time.Duration;
import java.util.List;
import java.util.Optional;
import java.util.stream.Collectors;

/**
 * What one leader-kill trial measured of the takeover, beside its {@link TrialResult}.
 *
 * @param lease from the leader's SIGKILL to the Lease held by the other replica (its {@code acquireTime}, written
 *     by the new holder); empty if that never happened within the settle timeout
 * @param firstBinding from the SIGKILL to the first pod the API server bound after the leader was gone; empty if
 *     none was
 * @param sinceRenewal from the leader's last renewal of the Lease (its {@code renewTime}) to the SIGKILL: the
 *     takeover waits out the rest of the lease duration
 * @param exitStatus the killed process's exit status (137 for SIGKILL)
 * @param bindingsBeforeKill the binding POSTs the API server received in the second before the kill: the leader
 *     was killed mid-burst if there are some
 * @param listsAtTakeover the scheduler identity's LISTs from the kill to the invariants' check: the new leader's
 *     (no other replica runs then)
 * @param listsAtStart the LISTs of the fresh replica started after the check, until it was ready
 */
record Takeover(
    Optional<Duration> lease,
    Optional<Duration> firstBinding,
    Duration sinceRenewal,
    int exitStatus,
    int bindingsBeforeKill,
    int listsAtTakeover,
    int listsAtStart) {

  /**
   * @param takeovers every leader-kill trial's, in the order run
   * @return a paragraph for under the report's table: the takeover's p50 and p99 (nearest rank) by both
   *     measures, the exit statuses and the LIST counts; empty for no trials
   */
  static String markdown(List<Takeover> takeovers) {
    if (takeovers.isEmpty()) {
      return "";
    }
    var leases = takeovers.stream().map(Takeover::lease).flatMap(Optional::stream).sorted().toList();
    var bindings = takeovers.stream().map(Takeover::firstBinding).flatMap(Optional::stream).sorted().toList();
    var renewals = takeovers.stream().map(Takeover::sinceRenewal).sorted().toList();
    return String.format(
        "%nTakeover (leader-kill, %d trials), from the leader's SIGKILL: to the Lease held by the other replica "
            + "p50 %s, p99 %s (%d/%d taken over); to the first pod bound after it p50 %s, p99 %s (%d/%d). "
            + "The leader had last renewed the Lease %s to %s before the kill, and the API server had received %s "
            + "binding POSTs in the second before it. Exit status of the killed "
            + "replicas: %s. The scheduler's LISTs from the kill to the check: %d in all (the new leader's); "
            + "a fresh replica's LISTs at its start: %s. Threads and heap are not sampled for leader-kill: its "
            + "scheduler processes are replaced every trial.%n",
        takeovers.size(),
        seconds(Report.percentile(leases, 50)), seconds(Report.percentile(leases, 99)), leases.size(), takeovers.size(),
        seconds(Report.percentile(bindings, 50)), seconds(Report.percentile(bindings, 99)), bindings.size(),
        takeovers.size(),
        seconds(Optional.of(renewals.get(0))), seconds(Optional.of(renewals.get(renewals.size() - 1))),
        range(takeovers.stream().map(Takeover::bindingsBeforeKill).toList()),
        takeovers.stream().map(t -> String.valueOf(t.exitStatus())).distinct().collect(Collectors.joining(", ")),
        takeovers.stream().mapToInt(Takeover::listsAtTakeover).sum(),
        range(takeovers.stream().map(Takeover::listsAtStart).toList()));
  }

  private static String range(List<Integer> counts) {
    int min = counts.stream().mapToInt(Integer::intValue).min().orElse(0);
    int max = counts.stream().mapToInt(Integer::intValue).max().orElse(0);
    return min == max ? String.valueOf(min) : min + " to " + max;
  }

  private static String seconds(Optional<Duration> duration) {
    return duration.map(d -> String.format("%.1f s", d.toMillis() / 1000.0)).orElse("–");
  }
}
