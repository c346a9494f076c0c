package io.kubesched.api;

import static org.apiguardian.api.API.Status.EXPERIMENTAL;

import org.apiguardian.api.API;

/** Names the Kubernetes API and kube-scheduler use, shared by every module. */
@API(status = EXPERIMENTAL, since = "0.1.0")
public final class SchedulingConstants {

  /**
   * kube-scheduler's name, which Kubernetes sets on a pod that names no scheduler: such pods are
   * kube-scheduler's, never ours (a scheduler of this library may not take this name). Our own default is
   * {@code io.kubesched.facade.Options.DEFAULT_SCHEDULER_NAME}.
   */
  public static final String KUBE_SCHEDULER_NAME = "default-scheduler";

  /** Field selector key of the node a pod is bound to (empty while unscheduled). */
  public static final String FIELD_NODE_NAME = "spec.nodeName";

  /** Field selector key of the scheduler a pod asks for. */
  public static final String FIELD_SCHEDULER_NAME = "spec.schedulerName";

  /** Field selector key of a pod's phase. */
  public static final String FIELD_PHASE = "status.phase";

  /**
   * The field selector kube-scheduler watches pods with: every pod that can still hold resources. A server
   * may ignore it, so code filtering on it must check again.
   */
  public static final String NON_TERMINAL_PODS = FIELD_PHASE + "!=Succeeded," + FIELD_PHASE + "!=Failed";

  /**
   * The pod label by which a pod joins a scheduler-plugins coscheduling {@code PodGroup} of its namespace
   * ({@link PodGroupRef.Source#COSCHEDULING}).
   */
  public static final String POD_GROUP_LABEL = "scheduling.x-k8s.io/pod-group";

  private SchedulingConstants() {}
}
