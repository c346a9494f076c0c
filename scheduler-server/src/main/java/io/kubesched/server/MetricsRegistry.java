package io.kubesched.server;

import io.micrometer.prometheusmetrics.PrometheusConfig;
import io.micrometer.prometheusmetrics.PrometheusMeterRegistry;
import io.prometheus.metrics.instrumentation.jvm.JvmMetrics;

/**
 * The registry behind the server's {@code /metrics}: Micrometer's Prometheus registry, which the scheduler's
 * {@code MicrometerMetrics} records into under kube-scheduler's and client-go's names, with the Prometheus
 * client's own JVM and process collectors on its underlying {@code PrometheusRegistry}, so that {@code
 * process_cpu_seconds_total}, {@code process_resident_memory_bytes}, {@code process_open_fds}, {@code
 * process_start_time_seconds} and the {@code jvm_*} families have the names every Prometheus dashboard
 * expects (Micrometer's own JVM binders name them differently).
 */
final class MetricsRegistry {

  private MetricsRegistry() {}

  /** @return a new registry with the JVM and process collectors registered */
  static PrometheusMeterRegistry create() {
    var registry = new PrometheusMeterRegistry(PrometheusConfig.DEFAULT);
    JvmMetrics.builder().register(registry.getPrometheusRegistry());
    return registry;
  }
}
