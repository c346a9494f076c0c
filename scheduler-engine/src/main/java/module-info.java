/**
 * Internal: the queue and the cache the scheduling loop keeps, over the scheduler's domain model only. No
 * Kubernetes type may appear here (the build and an ArchUnit rule check it), so the engine is tested with
 * plain values and a fake clock.
 */
module io.kubesched.engine {
  requires static org.jspecify;
  requires transitive io.kubesched.api;

  exports io.kubesched.engine to
      io.kubesched.informer,
      io.kubesched.simulation;
}
