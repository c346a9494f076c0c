package io.kubesched.api;

import static org.apiguardian.api.API.Status.EXPERIMENTAL;

import org.apiguardian.api.API;

/**
 * The selector of an object that groups pods: a Service, ReplicationController, ReplicaSet or StatefulSet.
 * Kube-scheduler's system default topology spreading and the former service affinity rules read these.
 *
 * @param kind what the object is
 * @param namespace its namespace
 * @param name its name
 * @param selector its pod selector (a Service's or ReplicationController's {@code spec.selector} as {@code
 *     matchLabels}); objects without a selector are not carried
 */
@API(status = EXPERIMENTAL, since = "0.1.0")
public record WorkloadSelector(Kind kind, String namespace, String name, LabelSelector selector) {

  /** The kinds of objects whose selectors the scheduler reads. */
  public enum Kind {
    /** A core/v1 Service. */
    SERVICE("Service", ClusterData.SERVICES),
    /** A core/v1 ReplicationController. */
    REPLICATION_CONTROLLER("ReplicationController", ClusterData.REPLICATION_CONTROLLERS),
    /** An apps/v1 ReplicaSet. */
    REPLICA_SET("ReplicaSet", ClusterData.REPLICA_SETS),
    /** An apps/v1 StatefulSet. */
    STATEFUL_SET("StatefulSet", ClusterData.STATEFUL_SETS);

    private final String apiKind;
    private final ClusterData data;

    Kind(String apiKind, ClusterData data) {
      this.apiKind = apiKind;
      this.data = data;
    }

    /** @return the kind as the API names it, as in an owner reference: {@code ReplicaSet} */
    public String apiKind() {
      return apiKind;
    }

    /** @return the part of the cluster snapshot that holds objects of this kind */
    public ClusterData data() {
      return data;
    }
  }
}
