/**
 * Binds a pod to a node, writes volume bindings and preemption's deletions ({@code io.kubesched.binder}), and
 * reports on scheduling (events, the PodScheduled condition, pod group status: {@code
 * io.kubesched.binder.report}) at a limited request rate. It speaks fabric8's objects and node names only:
 * it never sees the scheduler's domain model, so it is tested on its own. Internal: exported only to the
 * modules of the loop.
 */
module io.kubesched.binder {
  requires static org.jspecify;
  requires transitive kubernetes.client.api;
  requires transitive kubernetes.model.core;
  requires kubernetes.model.common;
  requires kubernetes.model.events;
  requires kubernetes.model.resource;
  requires org.slf4j;

  // Internal: the loop binds and reports with it, the facade picks the bind mode.
  exports io.kubesched.binder to
      io.kubesched.informer,
      io.kubesched.facade;
  // Internal: the loop reports with it.
  exports io.kubesched.binder.report to
      io.kubesched.informer;
}
