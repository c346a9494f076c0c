package io.kubesched.policy.framework;

import static org.apiguardian.api.API.Status.EXPERIMENTAL;

import java.util.Set;
import org.apiguardian.api.API;

/**
 * An optional capability of the filter a {@link PreFilter} prepares for one pod: the pod can fit no node but
 * those named here, which is known before any node is looked at (kube-scheduler's {@code PreFilterResult} with
 * node names; its NodeAffinity plugin returns one for a pod whose every required term names nodes by {@code
 * metadata.name}, as each pod of a DaemonSet does).
 *
 * <p>The {@link io.kubesched.policy.Policy} then filters only the named nodes that exist, in the snapshot's order, and
 * gives every other node the status kube-scheduler gives it, unschedulable and unresolvable with the message {@code
 * node(s) didn't satisfy plugin(s) [NAME]} (the names of the filters that named nodes, sorted). Where several
 * prepared filters name nodes, only the nodes all of them name are filtered; if none is left, the pod is turned
 * away before any node is looked at ({@code node(s) didn't satisfy plugin NAME}, or {@code node(s) didn't
 * satisfy plugin(s) [A B] simultaneously}). The prepared filter still filters the nodes it named, as kube's
 * does. A pod nominated to a node is tried there first, as without this capability.
 */
@API(status = EXPERIMENTAL, since = "0.1.0")
public interface OnlyNodes {

  /** @return the names of the only nodes the pod can fit; empty when it can fit none */
  Set<String> nodeNames();
}
