/**
 * Micrometer support: the scheduling loop's metrics in a Micrometer registry, under kube-scheduler's names.
 * Optional: a user who wants no Micrometer leaves this module out.
 */
module io.kubesched.micrometer {
  requires static org.jspecify;
  requires static transitive org.apiguardian.api; // @API statuses on exported types
  requires transitive io.kubesched.api;
  requires transitive micrometer.core;

  exports io.kubesched.micrometer;
}
