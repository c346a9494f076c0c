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
  requires org.slf4j;
  requires ch.qos.logback.classic;
  requires ch.qos.logback.core;

  // The logging set up in code before the flags are read: Logback finds it as a Configurator.
  provides ch.qos.logback.classic.spi.Configurator with
      io.kubesched.server.logging.DefaultLogging;
}
