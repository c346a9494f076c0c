/**
 * The runnable scheduler: {@code io.kubesched.server.Main} reads a KubeSchedulerConfiguration, schedules with
 * the facade, and serves health and metrics over HTTPS. Also a library: {@link io.kubesched.server.KubeschedServer}
 * is the same program with filters and scorers of one's own registered by name.
 */
module io.kubesched.server {
  requires static org.jspecify;
  requires static org.apiguardian.api; // @API statuses on the exported types
  requires io.kubesched.crd;
  requires io.kubesched.facade;
  requires io.kubesched.fabric8; // Kubeconfigs: the review clients' kubeconfigs, read as the scheduler's is
  requires io.kubesched.micrometer;
  requires io.kubesched.simulation; // simulate and /debug/whatif
  requires transitive io.kubesched.policy; // KubeschedServer's signatures: PluginRegistry, Filter, Scorer
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
  requires ch.qos.logback.classic;
  requires ch.qos.logback.core;

  // The logging set up in code before the flags are read: Logback finds it as a Configurator.
  provides ch.qos.logback.classic.spi.Configurator with
      io.kubesched.server.logging.DefaultLogging;

  // KubeschedServer, and Main, the default program; everything else in the package is package-private.
  exports io.kubesched.server;
}
