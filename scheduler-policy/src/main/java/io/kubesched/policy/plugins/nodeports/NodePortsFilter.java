package io.kubesched.policy.plugins.nodeports;

import io.kubesched.api.ClusterChange;
import io.kubesched.api.ClusterUpdate;
import io.kubesched.api.HostPort;
import io.kubesched.api.NodeInfo;
import io.kubesched.api.PodInfo;
import io.kubesched.policy.framework.Filter;
import io.kubesched.policy.framework.FilterResult;
import io.kubesched.policy.framework.Reason;
import java.util.List;
import java.util.Set;

/**
 * kube-scheduler's {@code NodePorts} filter plugin (formerly the {@code PodFitsHostPorts} predicate): every
 * host port the pod wants must be free on the node.
 *
 * <p>A wanted port conflicts with a port the node's pods already bind ({@link NodeInfo#usedHostPorts()}) when
 * both have the same protocol and port number and their host addresses overlap: the same address, or either
 * of them {@value HostPort#ALL_ADDRESSES}, which stands for every address. Addresses are compared as text, as
 * kube-scheduler does, so {@code ::} is not a wildcard. Ports the pod repeats among its own containers are not
 * checked against each other (the API server's validation rejects such pods). A rejection names the first
 * conflict ({@link Reason.HostPortConflict}) with code {@link FilterResult.Code#UNSCHEDULABLE}: evicting the
 * pod that holds the port frees it. Stateless and thread-safe.
 */
public final class NodePortsFilter implements Filter {

  /** The kube-scheduler plugin name, {@value}. */
  public static final String NAME = "NodePorts";

  /** Creates the filter; it has no arguments. */
  public NodePortsFilter() {}

  @Override
  public String name() {
    return NAME;
  }

  /** {@inheritDoc} As kube-scheduler's: kube registers Node Add and AssignedPod Delete. */
  @Override
  public Set<ClusterChange> retriedOn() {
    return ClusterChange.of(ClusterChange.NODE_ADDED, ClusterChange.ASSIGNED_POD_DELETED);
  }

  /**
   * {@inheritDoc} As kube 1.37's hint: a pod deleted helps if it was bound or nominated and freed a host port that
   * conflicts with one the pod wants. Any node added may help (kube registers it without a hint).
   */
  @Override
  public boolean isSchedulableAfter(PodInfo pod, ClusterUpdate update) {
    if (!(update instanceof ClusterUpdate.AssignedPodDeleted deleted)) {
      return true;
    }
    if (!deleted.heldRoom()) {
      return false;
    }
    for (var wanted : pod.hostPorts()) {
      for (var freed : deleted.pod().hostPorts()) {
        if (conflict(wanted, freed)) {
          return true;
        }
      }
    }
    return false;
  }

  @Override
  public FilterResult filter(PodInfo pod, NodeInfo node) {
    if (pod.hostPorts().isEmpty()) {
      return FilterResult.fit();
    }
    List<HostPort> used = node.usedHostPorts();
    for (var wanted : pod.hostPorts()) {
      for (var taken : used) {
        if (conflict(wanted, taken)) {
          return FilterResult.unschedulable(new Reason.HostPortConflict(wanted, taken));
        }
      }
    }
    return FilterResult.fit();
  }

  /** @return whether two host ports cannot both be bound on one node */
  public static boolean conflict(HostPort a, HostPort b) {
    return a.port() == b.port()
        && a.protocol().equals(b.protocol())
        && (a.hostIp().equals(b.hostIp())
            || a.hostIp().equals(HostPort.ALL_ADDRESSES)
            || b.hostIp().equals(HostPort.ALL_ADDRESSES));
  }

  @Override
  public String toString() {
    return NAME;
  }
}
