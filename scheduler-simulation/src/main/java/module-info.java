/**
 * What-if simulation: places pods on a snapshot of the cluster as the live loop would, with its queue, cache and
 * decision step, and binds nothing. Pure Java over the api's records and the policies; no Kubernetes client.
 */
module io.kubesched.simulation {
  requires static org.jspecify;
  requires static transitive org.apiguardian.api; // @API statuses on exported types
  requires transitive io.kubesched.api;
  requires transitive io.kubesched.policy;
  requires io.kubesched.engine;

  exports io.kubesched.simulation;
}
