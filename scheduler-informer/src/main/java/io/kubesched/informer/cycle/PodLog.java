package io.kubesched.informer.cycle;

import io.kubesched.engine.QueuedPod;
import org.slf4j.spi.LoggingEventBuilder;

/**
 * The key-value pairs of a log line about one pod, so that a platform can find a pod's lines by field: {@code
 * pod} ({@code namespace/name}), {@code profile} (the scheduler name), and {@code node} where one is known. The
 * message keeps naming the pod too, for the text log. Used as {@code PodLog.of(LOG.atInfo(), item).log(...)}:
 * with the level off, SLF4J's builder is a no-op one and the pairs cost a call each, nothing is formatted.
 */
final class PodLog {

  private PodLog() {}

  /** @return {@code line} with the pod and its profile */
  static LoggingEventBuilder of(LoggingEventBuilder line, QueuedPod item) {
    return line.addKeyValue("pod", item.key()).addKeyValue("profile", item.profile());
  }

  /** @return {@code line} with the pod, its profile and {@code node} */
  static LoggingEventBuilder of(LoggingEventBuilder line, QueuedPod item, String node) {
    return of(line, item).addKeyValue("node", node);
  }

  /** @return {@code line} with the pod, its profile and the node it is assumed on */
  static LoggingEventBuilder of(LoggingEventBuilder line, Assumed assumed) {
    return of(line, assumed.attempt().item(), assumed.nodeName());
  }
}
