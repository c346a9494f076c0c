package io.kubesched.policy.framework;

import static org.apiguardian.api.API.Status.STABLE;

import io.kubesched.api.HostPort;
import io.kubesched.api.Taint;
import org.apiguardian.api.API;

/**
 * Why a filter rejected a node, as data. Its {@link #message()} is the text kube-scheduler shows for the
 * same reason, counted per node in the unschedulable message ("3 Insufficient cpu").
 *
 * <p>The built-in reasons are the records nested here; a user's filter may give {@link #of(String) its own}.
 */
@API(status = STABLE, since = "0.1.0")
public interface Reason {

  /** @return the reason as kube-scheduler words it, without a node count */
  String message();

  /** @return a reason with the given message */
  static Reason of(String message) {
    return new Other(message);
  }

  /** A reason given as text. @param message the text */
  record Other(String message) implements Reason {}

  /**
   * The node lacks room for a resource the pod requests.
   *
   * @param resource the resource's Kubernetes name: {@code cpu}, {@code memory}, {@code ephemeral-storage},
   *     {@code pods} or an extended resource
   * @param requested what the pod requests, in the resource's unit (millicores for CPU, bytes, pods)
   * @param used what the node's pods already request
   * @param capacity what the node has allocatable
   */
  record InsufficientResource(String resource, long requested, long used, long capacity)
      implements Reason {
    @Override
    public String message() {
      return resource.equals("pods") ? "Too many pods" : "Insufficient " + resource;
    }
  }

  /** The node is cordoned and the pod does not tolerate it. */
  record NodeUnschedulable() implements Reason {
    @Override
    public String message() {
      return "node(s) were unschedulable";
    }
  }

  /**
   * The pod names another node.
   *
   * @param requested the node the pod names
   */
  record NodeNameMismatch(String requested) implements Reason {
    @Override
    public String message() {
      return "node(s) didn't match the requested node name";
    }
  }

  /**
   * A host port the pod wants is taken on the node.
   *
   * @param wanted the pod's port
   * @param taken the port on the node it conflicts with
   */
  record HostPortConflict(HostPort wanted, HostPort taken) implements Reason {
    @Override
    public String message() {
      return "node(s) didn't have free ports for the requested pod ports";
    }
  }

  /** The node does not match the pod's node selector or required node affinity. */
  record NodeAffinityMismatch() implements Reason {
    @Override
    public String message() {
      return "node(s) didn't match Pod's node affinity/selector";
    }
  }

  /** The node does not match the node affinity the scheduler adds to every pod (its {@code addedAffinity}). */
  record EnforcedNodeAffinityMismatch() implements Reason {
    @Override
    public String message() {
      return "node(s) didn't match scheduler-enforced node affinity";
    }
  }

  /**
   * The node has a taint the pod does not tolerate. kube-scheduler 1.37 no longer names the taint in its
   * message; it is kept here as data, for explanations and logs.
   *
   * @param taint the first such taint, in the node's order
   */
  record UntoleratedTaint(Taint taint) implements Reason {
    @Override
    public String message() {
      return "node(s) had untolerated taint(s)";
    }
  }

  /** The node's labels are not present (or absent) as the policy demands. */
  record LabelPresenceViolated() implements Reason {
    @Override
    public String message() {
      return "node(s) didn't have the requested labels";
    }
  }

  /**
   * A volume of the pod conflicts with a volume of a pod already on the node.
   *
   * @param volume a description of the conflicting volume
   */
  record DiskConflict(String volume) implements Reason {
    @Override
    public String message() {
      return "node(s) had no available disk";
    }
  }
}
