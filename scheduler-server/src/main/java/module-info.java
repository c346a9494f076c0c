/**
 * The runnable scheduler: {@code io.kubesched.server.Main} reads a KubeSchedulerConfiguration, schedules with
 * the facade, and serves health and metrics over HTTP. Also a library: {@link io.kubesched.server.KubeschedServer}
 * is the same program with filters and scorers of one's own registered by name.
 */
module io.kubesched.server {
  requires static org.jspecify;
  requires static org.apiguardian.api; // @API statuses on the exported types
  requires io.kubesched.crd;
  requires io.kubesched.facade;
  requires io.kubesched.micrometer;
  requires transitive io.kubesched.policy; // KubeschedServer's signatures: PluginRegistry, Filter, Scorer
  requires jdk.httpserver;
  requires micrometer.registry.prometheus;
  requires org.slf4j;

  // KubeschedServer, and Main, the default program; everything else in the package is package-private.
  exports io.kubesched.server;
}
