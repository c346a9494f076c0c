/**
 * Binds a pod to a node, and reports on scheduling (events, the PodScheduled condition) at a limited
 * request rate. It speaks fabric8's {@code Pod} and a node name only: it never sees the scheduler's domain
 * model, so it can be used (and tested) on its own.
 */
module io.kubesched.binder {
  requires static org.jspecify;
  requires transitive kubernetes.client.api;
  requires transitive kubernetes.model.core;
  requires kubernetes.model.common;
  requires kubernetes.model.events;
  requires org.slf4j;

  exports io.kubesched.binder;
}
