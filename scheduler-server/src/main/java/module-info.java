/**
 * The runnable scheduler: {@code io.kubesched.server.Main} reads a KubeSchedulerConfiguration, schedules with
 * the facade, and serves health and metrics over HTTP. An application: it exports nothing.
 */
module io.kubesched.server {
  requires static org.jspecify;
  requires io.kubesched.crd;
  requires io.kubesched.facade;
  requires io.kubesched.micrometer;
  requires io.kubesched.policy;
  requires jdk.httpserver;
  requires micrometer.registry.prometheus;
  requires io.prometheus.metrics.instrumentation.jvm;
  requires io.prometheus.metrics.model;
  requires org.slf4j;
}
