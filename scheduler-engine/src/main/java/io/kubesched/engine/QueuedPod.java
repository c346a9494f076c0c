package io.kubesched.engine;


/**
 * A pod waiting in the {@link SchedulingQueue}: what the queue needs to order it and the worker needs to
 * find it again in the informer's store.
 *
 * <p>The queue knows a pod by its {@code uid} alone: two values with the same uid are two versions of the
 * same pod, and the queue keeps the latest one it was given.
 *
 * @param uid the pod's {@code metadata.uid}; not blank
 * @param namespace the pod's namespace; not null
 * @param name the pod's name; not blank
 * @param priority the pod's {@code spec.priority} (0 when it has none); higher is taken first
 * @param profile the scheduler profile the pod asks for ({@code spec.schedulerName}); opaque to the
 *     queue, carried for the worker and for metrics; not null
 * @param gated whether the pod has {@code spec.schedulingGates}: kube-scheduler's {@code SchedulingGates}
 *     PreEnqueue plugin keeps such a pod out of the queues it is taken from until its last gate is removed
 */
public record QueuedPod(String uid, String namespace, String name, int priority, String profile, boolean gated) {

  /** @throws IllegalArgumentException if uid or name is blank, or namespace or profile is null */
  public QueuedPod {
    if (uid == null || uid.isBlank()) {
      throw new IllegalArgumentException("uid must not be blank: '" + uid + "'");
    }
    if (namespace == null) {
      throw new IllegalArgumentException("namespace must not be null (pod " + name + ")");
    }
    if (name == null || name.isBlank()) {
      throw new IllegalArgumentException("name must not be blank: '" + name + "'");
    }
    if (profile == null) {
      throw new IllegalArgumentException("profile must not be null (pod " + namespace + "/" + name + ")");
    }
  }

  /** A pod without scheduling gates; validated as the canonical constructor. */
  public QueuedPod(String uid, String namespace, String name, int priority, String profile) {
    this(uid, namespace, name, priority, profile, false);
  }

  /** @return {@code namespace/name}, the informer store's key for the pod */
  public String key() {
    return namespace + "/" + name;
  }
}
