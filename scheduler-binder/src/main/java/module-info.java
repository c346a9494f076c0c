/**
 * Binds a pod to a node, and reports on scheduling (events, the PodScheduled condition) at a limited
 * request rate. It speaks fabric8's {@code Pod} and a node name only: it never sees the scheduler's domain
 * model, so it is tested on its own. Internal: exported only to the modules of the loop.
 */
module io.kubesched.binder {
  requires static org.jspecify;
  requires transitive kubernetes.client.api;
  requires transitive kubernetes.model.core;
  requires kubernetes.model.common;
  requires kubernetes.model.events;
  requires org.slf4j;
  requires tools.jackson.core;

  // Internal: the loop binds and reports with it, the facade picks the bind mode.
  exports io.kubesched.binder to
      io.kubesched.informer,
      io.kubesched.facade;
}
