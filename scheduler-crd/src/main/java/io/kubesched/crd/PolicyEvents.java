package io.kubesched.crd;

import io.fabric8.kubernetes.api.model.MicroTime;
import io.fabric8.kubernetes.api.model.ObjectReference;
import io.fabric8.kubernetes.api.model.ObjectReferenceBuilder;
import io.fabric8.kubernetes.api.model.events.v1.EventBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientException;
import java.nio.charset.StandardCharsets;
import java.time.Clock;
import java.time.Instant;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.util.UUID;
import java.util.regex.Pattern;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Writes the {@code events.k8s.io/v1} events about SchedulingPolicies, as client-go's events recorder names and
 * shapes them: one event per verdict, in namespace {@code default} (where the API server keeps the events of a
 * cluster-scoped object). No series: a policy's verdict changes when a person edits it, not in bursts.
 *
 * <p>Thread-safe (stateless but for the name clock); a failed write is logged at WARN and not retried.
 */
final class PolicyEvents {

  /** The events' {@code reportingController}. */
  static final String CONTROLLER = "kubesched.io/schedulingpolicy-controller";

  /** {@code Accepted=True}. */
  static final String ACCEPTED = "PolicyAccepted";

  /** {@code Accepted=False}. */
  static final String REJECTED = "PolicyRejected";

  /** The API server refuses a note over 1 kB. */
  private static final int MAX_NOTE_BYTES = 1024;

  private static final Logger LOG = LoggerFactory.getLogger(PolicyEvents.class);
  private static final DateTimeFormatter MICRO_TIME =
      DateTimeFormatter.ofPattern("yyyy-MM-dd'T'HH:mm:ss.SSSSSSXXX").withZone(ZoneOffset.UTC);
  private static final Pattern DNS_SUBDOMAIN =
      Pattern.compile("[a-z0-9]([-a-z0-9]*[a-z0-9])?(\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*");

  private final KubernetesClient client;
  private final String instance;
  private final Clock clock;
  private long lastNameNanos = Long.MIN_VALUE;

  /**
   * @param hostname the host part of the events' {@code reportingInstance}
   */
  PolicyEvents(KubernetesClient client, String hostname, Clock clock) {
    this.client = client;
    var id = CONTROLLER.substring(CONTROLLER.indexOf('/') + 1) + "-" + hostname;
    this.instance = id.length() <= 128 ? id : id.substring(0, 128);
    this.clock = clock;
  }

  /** @return the events' {@code reportingInstance}: {@code schedulingpolicy-controller-<hostname>} */
  String reportingInstance() {
    return instance;
  }

  /**
   * Writes one event about {@code policy}.
   *
   * @param accepted whether the verdict is {@code Accepted=True}: a Normal {@value #ACCEPTED} event, else a
   *     Warning {@value #REJECTED} one
   * @param note the message, cut to what the API server takes
   * @return whether it was written
   */
  boolean record(SchedulingPolicy policy, boolean accepted, String note) {
    var now = clock.instant();
    var meta = policy.getMetadata();
    var event =
        new EventBuilder()
            .withNewMetadata()
            .withName(eventName(meta.getName(), uniqueNanos(now)))
            .withNamespace("default")
            .endMetadata()
            .withEventTime(new MicroTime(MICRO_TIME.format(now)))
            .withReportingController(CONTROLLER)
            .withReportingInstance(instance)
            .withAction("Apply")
            .withReason(accepted ? ACCEPTED : REJECTED)
            .withType(accepted ? "Normal" : "Warning")
            .withRegarding(regarding(policy))
            .withNote(cut(note))
            .build();
    try {
      client.events().v1().events().inNamespace("default").resource(event).create();
      return true;
    } catch (KubernetesClientException e) {
      LOG.warn("Writing event {} about SchedulingPolicy {} failed: {}", event.getReason(), meta.getName(),
          e.getMessage());
      return false;
    }
  }

  static ObjectReference regarding(SchedulingPolicy policy) {
    var meta = policy.getMetadata();
    return new ObjectReferenceBuilder()
        .withApiVersion(SchedulingPolicy.GROUP + "/" + SchedulingPolicy.VERSION)
        .withKind(SchedulingPolicy.KIND)
        .withName(meta.getName())
        .withUid(meta.getUid())
        .withResourceVersion(meta.getResourceVersion())
        .build();
  }

  /** @return {@code note} cut to at most 1024 UTF-8 bytes, with an ellipsis where it was cut */
  static String cut(String note) {
    if (note.getBytes(StandardCharsets.UTF_8).length <= MAX_NOTE_BYTES) {
      return note;
    }
    var end = note.length();
    while (end > 0 && (note.substring(0, end) + "…").getBytes(StandardCharsets.UTF_8).length > MAX_NOTE_BYTES) {
      end -= Math.max(1, end / 16);
    }
    if (end > 0 && Character.isHighSurrogate(note.charAt(end - 1))) {
      end--;
    }
    return note.substring(0, end) + "…";
  }

  /** client-go's event name: the object's name and the time in hex nanoseconds, or a UUID if that is no name. */
  static String eventName(String objectName, long unixNano) {
    var name = objectName + "." + Long.toHexString(unixNano);
    return name.length() <= 253 && DNS_SUBDOMAIN.matcher(name).matches() ? name : UUID.randomUUID().toString();
  }

  private synchronized long uniqueNanos(Instant now) {
    long nanos = now.getEpochSecond() * 1_000_000_000L + now.getNano();
    lastNameNanos = Math.max(nanos, lastNameNanos + 1);
    return lastNameNanos;
  }
}
