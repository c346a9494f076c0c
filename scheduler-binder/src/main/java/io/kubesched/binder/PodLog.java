package io.kubesched.binder;

import io.fabric8.kubernetes.api.model.Pod;
import org.slf4j.spi.LoggingEventBuilder;

/**
 * The key-value pairs of a log line about one pod, as the loop's lines carry them: {@code pod} ({@code
 * namespace/name}), {@code profile} (its {@code spec.schedulerName}) and {@code node} where one is known. Used as
 * {@code PodLog.of(LOG.atWarn(), pod).log(...)}: with the level off SLF4J's builder is a no-op. Internal.
 */
public final class PodLog {

  private PodLog() {}

  /** @return {@code line} with the pod ({@code namespace/name}) and its scheduler name, as far as it has them */
  public static LoggingEventBuilder of(LoggingEventBuilder line, Pod pod) {
    var meta = pod.getMetadata();
    var spec = pod.getSpec();
    return line
        .addKeyValue("pod", meta == null ? "" : meta.getNamespace() + "/" + meta.getName())
        .addKeyValue("profile", spec == null || spec.getSchedulerName() == null ? "" : spec.getSchedulerName());
  }

  /** @return {@code line} with the pod, its scheduler name and {@code node} */
  public static LoggingEventBuilder of(LoggingEventBuilder line, Pod pod, String node) {
    return of(line, pod).addKeyValue("node", node);
  }

  /**
   * @return {@code line} with preemption's {@code victim} ({@code namespace/name}) and the {@code node} it runs
   *     on, as far as it has one
   */
  static LoggingEventBuilder victim(LoggingEventBuilder line, Pod victim, String key) {
    var spec = victim.getSpec();
    var node = spec == null || spec.getNodeName() == null ? "" : spec.getNodeName();
    return line.addKeyValue("victim", key).addKeyValue("node", node);
  }
}
