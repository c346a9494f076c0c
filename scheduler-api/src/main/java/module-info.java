/**
 * The scheduler's domain model: what a placement policy sees ({@link io.kubesched.api.PodInfo},
 * {@link io.kubesched.api.NodeInfo}), what it answers ({@link io.kubesched.api.Decision}) and the
 * callback it implements ({@link io.kubesched.api.FinderFunc}). No Kubernetes client types appear here,
 * so policies are plain Java and can be tested without a cluster.
 */
module io.kubesched.api {
  requires static transitive org.jspecify; // @Nullable appears in exported signatures
  requires static transitive org.apiguardian.api; // @API statuses on exported types

  exports io.kubesched.api;
  exports io.kubesched.api.internal to
      io.kubesched.engine;
}
