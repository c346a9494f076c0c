/**
 * The runnable scheduler: {@code io.kubesched.server.Main} reads a KubeSchedulerConfiguration, schedules with
 * the facade, and serves health and metrics over HTTPS. An application: it exports nothing.
 */
module io.kubesched.server {
  requires static org.jspecify;
  requires io.kubesched.crd;
  requires io.kubesched.facade;
  requires io.kubesched.micrometer;
  requires io.kubesched.policy;
  requires info.picocli;
  requires kubernetes.model.admissionregistration; // TokenReview, SubjectAccessReview
  requires micrometer.registry.prometheus;
  requires org.bouncycastle.pkix;
  requires org.bouncycastle.provider;
  requires org.bouncycastle.util;
  requires org.eclipse.jetty.http;
  requires org.eclipse.jetty.io;
  requires org.eclipse.jetty.server;
  requires org.eclipse.jetty.util;
  requires io.prometheus.metrics.instrumentation.jvm;
  requires io.prometheus.metrics.model;
  requires org.slf4j;
}
