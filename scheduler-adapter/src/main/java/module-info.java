/**
 * Pure conversion of fabric8 {@code Pod} and {@code Node} objects into the scheduler's domain model, with
 * Kubernetes' rules for quantities and effective requests; and of the other objects a cluster snapshot
 * carries (namespaces, Services, ReplicationControllers, ReplicaSets, StatefulSets, and the storage objects:
 * claims, volumes, storage classes, CSI nodes, drivers and capacities; PodDisruptionBudgets; the pod group
 * objects of the Workload API and of the coscheduling plugin; the dynamic resource allocation objects: slices,
 * classes, claims, taint rules). Internal.
 */
module io.kubesched.adapter {
  requires static org.jspecify;
  requires transitive io.kubesched.api;
  requires transitive kubernetes.model.core;
  requires transitive kubernetes.model.apps;
  requires transitive kubernetes.model.storageclass;
  requires transitive kubernetes.model.policy;
  requires transitive kubernetes.model.resource;
  requires kubernetes.model.common;
  requires io.kubesched.fabric8;

  // Internal: the loop converts with it, and the facade's PodInfos for what-if simulations; users never see
  // fabric8 types here.
  exports io.kubesched.adapter to
      io.kubesched.informer,
      io.kubesched.facade;
}
