/**
 * Code several built-in plugins share, as kube-scheduler's {@code plugins/helper}: label selector matching with a
 * small cache of recent answers, a pod's required node affinity, the default score normalization, a scoring
 * function of utilization, the claims a pod names, and the tracker of a filter that follows no pods. Internal: not
 * exported, no compatibility promise; it sees the framework and the plugins' arguments only, never a plugin.
 */
@NullMarked
package io.kubesched.policy.plugins.helper;

import org.jspecify.annotations.NullMarked;
