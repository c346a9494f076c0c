package io.kubesched.k8s;

import io.fabric8.kubernetes.api.model.KubernetesResource;
import io.fabric8.kubernetes.api.model.Namespace;
import io.fabric8.kubernetes.api.model.Node;
import io.fabric8.kubernetes.api.model.PersistentVolume;
import io.fabric8.kubernetes.api.model.PersistentVolumeClaim;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.ReplicationController;
import io.fabric8.kubernetes.api.model.Service;
import io.fabric8.kubernetes.api.model.Status;
import io.fabric8.kubernetes.api.model.apps.ReplicaSet;
import io.fabric8.kubernetes.api.model.apps.StatefulSet;
import io.fabric8.kubernetes.api.model.coordination.v1.Lease;
import io.fabric8.kubernetes.api.model.events.v1.Event;
import io.fabric8.kubernetes.api.model.policy.v1.PodDisruptionBudget;
import io.fabric8.kubernetes.api.model.resource.v1.DeviceClass;
import io.fabric8.kubernetes.api.model.resource.v1.ResourceClaim;
import io.fabric8.kubernetes.api.model.resource.v1.ResourceSlice;
import io.fabric8.kubernetes.api.model.storage.CSIDriver;
import io.fabric8.kubernetes.api.model.storage.CSINode;
import io.fabric8.kubernetes.api.model.storage.StorageClass;
import io.fabric8.kubernetes.api.model.storage.CSIStorageCapacity;
import io.fabric8.kubernetes.client.utils.KubernetesSerialization;
import io.kubesched.fabric8.Fabric8Compat;
import java.util.List;

/**
 * The client the scheduling loop talks through: a sibling of the user's client that shares its HTTP client
 * (connections, authentication, retries) but decodes with a leaner serialization.
 *
 * <p>Three things in fabric8's default serialization cost a scheduler for nothing, and none can be turned
 * off on the client the library hands its users ({@code Client#kubernetesClient()}), who may read or apply
 * them:
 *
 * <ul>
 *   <li><b>managedFields.</b> Every object the API server sends carries them, often a third of a pod's JSON,
 *       and fabric8 decodes them into nested maps (about a third of a pod watch event's decoding time on
 *       C1). The scheduler never reads them (its informer stores drop them),
 *       and an update that omits them leaves the server's as they were (kube's field manager keeps the live
 *       object's managedFields when a request has none), so this serialization ignores them both ways.
 *   <li><b>The resource registry.</b> fabric8 finds the class of a polymorphic object (a watch event's) by
 *       loading every {@code KubernetesResource} its model jars list as services: about 600 classes and 6
 *       MiB of metaspace, most of them kinds a scheduler never sees (gateway API, certificates, …). This
 *       serialization registers only the {@link #KINDS} the loop watches or writes; an object of another
 *       kind decodes as a {@code GenericKubernetesResource}, which fabric8's watch converts to the
 *       operation's type, so an unregistered kind is slower, never wrong.
 *   <li><b>Watch events in two passes.</b> fabric8 decodes a watch event's object into a tree of JSON nodes to
 *       find its kind, then the tree into the kind's class, after copying the event's string into bytes. This
 *       serialization decodes it in one pass from the string ({@code WatchEventDeserializer} of the fabric8
 *       line's module), with the same result and a third of the allocation (the memory notes, "Per pod in the
 *       running scheduler"; docs/performance.md#measurement-notes).
 * </ul>
 *
 * <p>The serialization is the fabric8 line's ({@code Fabric8Compat#leanSerialization}): its mapper is built as
 * fabric8's default one is, plus the mix-in. Instances are immutable and thread-safe, like fabric8's clients.
 */
final class SchedulingClients {

  /**
   * The kinds the scheduling loop decodes from watches and answers, registered by class; {@code Status}
   * first, because a watch tells a lost resource version (410 Gone, relist) only with a decoded Status.
   */
  static final List<Class<? extends KubernetesResource>> KINDS =
      List.of(
          Status.class,
          Pod.class,
          Node.class,
          Namespace.class,
          Service.class,
          ReplicationController.class,
          ReplicaSet.class,
          StatefulSet.class,
          PersistentVolume.class,
          PersistentVolumeClaim.class,
          PodDisruptionBudget.class,
          StorageClass.class,
          CSINode.class,
          CSIDriver.class,
          CSIStorageCapacity.class,
          ResourceClaim.class,
          ResourceSlice.class,
          DeviceClass.class,
          Event.class,
          Lease.class);

  private SchedulingClients() {}

  /** @return a new lean serialization: its own mapper, which builds each kind's deserializer when first met */
  static KubernetesSerialization serialization() {
    return Fabric8Compat.get().leanSerialization(KINDS);
  }
}
