package io.kubesched.informer.leader;

import java.time.Duration;

/**
 * Where and how fast {@link LeaderElection} campaigns: the Lease it competes for and its three timings.
 * Validated where the user sets them, by the facade's {@code Options.LeaderElection} (kube-scheduler's and
 * client-go's rules, tightened where fabric8's elector would reject the settings later); this record takes
 * them as they are.
 *
 * @param lockNamespace the namespace of the Lease
 * @param lockName the name of the Lease
 * @param leaseDuration how long a rival waits after the leader's last renewal before it may take over
 * @param renewDeadline how long the leader keeps retrying a failed renewal before it stops leading
 * @param retryPeriod how long a candidate waits between attempts (jittered by fabric8 while acquiring)
 */
public record LeaderSettings(
    String lockNamespace,
    String lockName,
    Duration leaseDuration,
    Duration renewDeadline,
    Duration retryPeriod) {}
