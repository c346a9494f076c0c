package io.kubesched.binder.report;

import io.fabric8.kubernetes.api.model.MicroTime;
import io.fabric8.kubernetes.api.model.ObjectReference;
import io.fabric8.kubernetes.api.model.Status;
import io.fabric8.kubernetes.api.model.events.v1.Event;
import io.fabric8.kubernetes.api.model.events.v1.EventBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientException;
import io.fabric8.kubernetes.client.dsl.base.PatchContext;
import io.fabric8.kubernetes.client.dsl.base.PatchType;
import io.kubesched.binder.ApiRequests;
import io.kubesched.binder.TokenBucket;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.regex.Pattern;
import org.jspecify.annotations.Nullable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Writes {@code events.k8s.io/v1} events the way client-go's events recorder does, synchronously.
 *
 * <p>The first event of a kind (same {@link EventKey}) is created. Its first repeat turns it into a series:
 * the event is patched with {@code series.count = 2} and the time of the repeat. Later repeats are only
 * counted here; {@link #flushSeries} writes the count of a series that has been quiet for
 * {@link #FINISH_AFTER} (and then forgets it), refreshes a live series every {@link #REFRESH_EVERY}, and
 * forgets single events after {@link #FINISH_AFTER}. A repeat keeps the first event's note and name.
 *
 * <p>An event's namespace that is gone (the API server answers 404 naming it) means that the object the event
 * regards is gone with it: {@link ReportOutcome.PodGone}, logged at DEBUG, and the event is forgotten, so that no
 * later series write asks again. client-go's recorder logs every refused event as an error and drops it; we drop
 * it too, but a deleted namespace is churn, not a failure. Any other refusal is logged at WARN.
 *
 * <p>The series is written as a JSON merge patch, where client-go sends a strategic-merge patch: for an
 * object field the two are the same, and fabric8's mock server refuses strategic-merge patches (415).
 *
 * <p>Every request first takes a token from the {@link TokenBucket}. Thread-safe; the cache is guarded
 * by this object's monitor, which is never held during a request.
 */
final class EventRecorder {

  /** client-go's {@code finishTime}: a series this long without a repeat is finished. */
  static final Duration FINISH_AFTER = Duration.ofMinutes(6);

  /** How long an event's request may take where the client configures no request timeout. */
  static final Duration DEFAULT_TIMEOUT = Duration.ofSeconds(10);

  /** client-go's {@code refreshTime}: a live series is written again this often (events expire). */
  static final Duration REFRESH_EVERY = Duration.ofMinutes(30);

  private static final Logger LOG = LoggerFactory.getLogger(EventRecorder.class);
  private static final DateTimeFormatter MICRO_TIME =
      DateTimeFormatter.ofPattern("yyyy-MM-dd'T'HH:mm:ss.SSSSSSXXX").withZone(ZoneOffset.UTC);
  private static final Pattern DNS_SUBDOMAIN =
      Pattern.compile("[a-z0-9]([-a-z0-9]*[a-z0-9])?(\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*");

  private final KubernetesClient client;
  private final ApiRequests requests;
  private final TokenBucket limiter;
  private final String controller;
  private final String instance;
  private final Clock clock;

  // Guarded by this.
  private final Map<EventKey, Entry> cache = new HashMap<>();
  private long lastNameNanos = Long.MIN_VALUE;

  /** An event as first created, and how often it has been seen and written. */
  private static final class Entry {
    final Event event;
    final Instant eventTime;
    int count = 1;
    Instant lastObserved;
    int writtenCount;
    Instant lastWritten;

    Entry(Event event, Instant eventTime) {
      this.event = event;
      this.eventTime = eventTime;
      this.lastObserved = eventTime;
      this.lastWritten = eventTime;
    }
  }

  /** One request to make: the entry's event with {@code count} (1: no series) as of {@code observed}. */
  private record Write(EventKey key, Entry entry, int count, Instant observed, boolean finishing) {}

  /** How one request ended, and the status code it was refused with (0: written or no answer). */
  private record Outcome(ReportOutcome report, int code) {
    static final Outcome WRITTEN = new Outcome(ReportOutcome.WRITTEN, 0);

    boolean written() {
      return report == ReportOutcome.WRITTEN;
    }

    boolean gone() {
      return report instanceof ReportOutcome.PodGone;
    }
  }

  EventRecorder(
      KubernetesClient client, TokenBucket limiter, String controller, String instance, Clock clock) {
    this.client = client;
    // fabric8's request timeout (10 s unless configured); none configured (0) would mean no bound at all.
    int timeoutMillis = client.getConfiguration().getRequestTimeout();
    this.requests =
        ApiRequests.retrying(client, timeoutMillis > 0 ? Duration.ofMillis(timeoutMillis) : DEFAULT_TIMEOUT);
    this.limiter = limiter;
    this.controller = controller;
    this.instance = instance;
    this.clock = clock;
  }

  /**
   * Records one occurrence of an event about {@code regarding}, with no related object.
   *
   * @return as {@link #record(ObjectReference, ObjectReference, String, String, String, String)}
   * @throws InterruptedException if interrupted while waiting for a token or for the server
   */
  ReportOutcome record(ObjectReference regarding, String type, String reason, String action, String note)
      throws InterruptedException {
    return record(regarding, null, type, reason, action, note);
  }

  /**
   * Records one occurrence of an event about {@code regarding}, an object whose resourceVersion is not known:
   * the note is part of what makes two events the same ({@link EventKey#withNote}).
   *
   * @return as {@link #record(ObjectReference, ObjectReference, String, String, String, String)}
   * @throws InterruptedException if interrupted while waiting for a token or for the server
   */
  ReportOutcome recordByNote(ObjectReference regarding, String type, String reason, String action, String note)
      throws InterruptedException {
    return record(EventKey.of(type, action, reason, regarding, null).withNote(note), regarding, null, type, reason,
        action, note);
  }

  /**
   * Records one occurrence of an event about {@code regarding}.
   *
   * @param related a second object the event concerns (the event's {@code related}), or null for none; it is
   *     part of what makes two events the same
   * @return {@link ReportOutcome#WRITTEN} if it was written, or counted into a series that {@link #flushSeries}
   *     writes; {@link ReportOutcome.PodGone} if the event's namespace is gone (logged at DEBUG); {@link
   *     ReportOutcome.Failed} if a request failed otherwise (logged at WARN)
   * @throws InterruptedException if interrupted while waiting for a token or for the server
   */
  ReportOutcome record(
      ObjectReference regarding,
      @Nullable ObjectReference related,
      String type,
      String reason,
      String action,
      String note)
      throws InterruptedException {
    return record(EventKey.of(type, action, reason, regarding, related), regarding, related, type, reason, action, note);
  }

  private ReportOutcome record(
      EventKey key,
      ObjectReference regarding,
      @Nullable ObjectReference related,
      String type,
      String reason,
      String action,
      String note)
      throws InterruptedException {
    var now = clock.instant();
    Write write;
    synchronized (this) {
      var entry = cache.get(key);
      if (entry == null) {
        entry = new Entry(makeEvent(regarding, related, type, reason, action, note, now), now);
        cache.put(key, entry);
        write = new Write(key, entry, 1, now, false);
      } else {
        entry.count++;
        entry.lastObserved = now;
        if (entry.count > 2) {
          return ReportOutcome.WRITTEN;
        }
        write = new Write(key, entry, 2, now, false);
      }
    }
    return write(write).report();
  }

  /**
   * Writes what the series need, as client-go's recorder does on its timers: the final count of each series
   * quiet for {@link #FINISH_AFTER} (then forgotten), and the count of each live series not written for
   * {@link #REFRESH_EVERY}; single events older than {@link #FINISH_AFTER} are forgotten. Meant to be called
   * periodically (every minute or so) from the reporting thread.
   *
   * @return the number of series written
   * @throws InterruptedException if interrupted while waiting for a token or for the server
   */
  int flushSeries() throws InterruptedException {
    var now = clock.instant();
    var writes = new ArrayList<Write>();
    synchronized (this) {
      var it = cache.entrySet().iterator();
      while (it.hasNext()) {
        var e = it.next();
        var entry = e.getValue();
        boolean quiet = entry.lastObserved.isBefore(now.minus(FINISH_AFTER));
        if (entry.count < 2) {
          if (entry.eventTime.isBefore(now.minus(FINISH_AFTER))) {
            it.remove();
          }
        } else if (quiet && entry.count == entry.writtenCount) {
          // Unlike client-go, a final count the server already has is not written again.
          it.remove();
        } else if (quiet || !entry.lastWritten.isAfter(now.minus(REFRESH_EVERY))) {
          writes.add(new Write(e.getKey(), entry, entry.count, entry.lastObserved, quiet));
        }
      }
    }
    int written = 0;
    for (var write : writes) {
      var outcome = write(write);
      if (outcome.written()) {
        written++;
      }
      // A series whose final write got no answer is tried again next time, as client-go does.
      if (write.finishing() && (outcome.written() || outcome.code() > 0)) {
        synchronized (this) {
          // A repeat that came meanwhile keeps the series alive.
          if (write.entry().count == write.count()) {
            cache.remove(write.key(), write.entry());
          }
        }
      }
    }
    return written;
  }

  /** @return how many events (single or series) are remembered; for tests */
  synchronized int remembered() {
    return cache.size();
  }

  private Outcome write(Write write) throws InterruptedException {
    var entry = write.entry();
    var event = entry.event;
    Outcome outcome;
    if (write.count() < 2) {
      outcome = create(event, null);
    } else {
      var series = seriesJson(write.count(), write.observed());
      outcome = patchSeries(event, series);
      if (outcome.code() == 404) {
        // The event expired, or its creation failed: create it with its series, as client-go does.
        outcome = create(event, write);
        if (outcome.code() == 409) {
          // A concurrent first write created it meanwhile: now the patch can succeed.
          outcome = patchSeries(event, series);
        }
      }
    }
    if (outcome.written()) {
      synchronized (this) {
        entry.writtenCount = Math.max(entry.writtenCount, write.count());
        entry.lastWritten = clock.instant();
      }
    } else if (outcome.gone()) {
      synchronized (this) {
        cache.remove(write.key(), entry);
      }
    }
    return outcome;
  }

  private Outcome create(Event event, @Nullable Write series) throws InterruptedException {
    var toCreate = event;
    if (series != null) {
      toCreate =
          new EventBuilder(event)
              .withNewSeries()
              .withCount(series.count())
              .withLastObservedTime(new MicroTime(MICRO_TIME.format(series.observed())))
              .endSeries()
              .build();
    }
    limiter.acquire();
    // Posted as it is and its answer left undecoded: kube's event sink reads nothing back either, and
    // fabric8's create() would decode the whole event the server returns, once for every pod bound.
    var json = client.getKubernetesSerialization().asJson(toCreate);
    var path = "/apis/events.k8s.io/v1/namespaces/" + namespace(event) + "/events";
    var answer = requests.send(requests.request(path).post("application/json", json));
    if (answer instanceof ApiRequests.Answer.Status status && status.code() / 100 == 2) {
      return Outcome.WRITTEN;
    }
    return failed("creating", event, answer, series != null ? 409 : -1);
  }

  private Outcome patchSeries(Event event, String series) throws InterruptedException {
    limiter.acquire();
    try {
      client
          .events()
          .v1()
          .events()
          .inNamespace(namespace(event))
          .resource(event) // by name, fabric8 would GET the event before every patch
          .patch(PatchContext.of(PatchType.JSON_MERGE), series);
      return Outcome.WRITTEN;
    } catch (KubernetesClientException e) {
      return failed("patching the series of", event, e, 404);
    }
  }

  /**
   * @param handled a status code the caller handles itself: not logged
   * @throws InterruptedException if the client gave up because the thread was interrupted
   */
  private Outcome failed(String doing, Event event, KubernetesClientException e, int handled)
      throws InterruptedException {
    return failed(doing, event, e.getCode(), e.getStatus(), ApiRequests.describe(e), handled);
  }

  /** As {@link #failed(String, Event, KubernetesClientException, int)}, for a request sent as it is. */
  private Outcome failed(String doing, Event event, ApiRequests.Answer answer, int handled)
      throws InterruptedException {
    if (answer instanceof ApiRequests.Answer.Status status) {
      var refusal = status(status.body());
      var message = refusal != null && refusal.getMessage() != null
          ? refusal.getMessage()
          : ApiRequests.abbreviate(status.body());
      return failed(doing, event, status.code(), refusal, status.code() + ": " + message, handled);
    }
    return failed(doing, event, 0, null, ((ApiRequests.Answer.NoAnswer) answer).why(), handled);
  }

  /** @param refusal the Status the server answered with, if any */
  private Outcome failed(
      String doing, Event event, int code, @Nullable Status refusal, String description, int handled)
      throws InterruptedException {
    var which = namespace(event) + "/" + event.getMetadata().getName();
    if (Thread.interrupted()) {
      throw new InterruptedException("interrupted while " + doing + " event " + which);
    }
    if (code == 404 && code != handled && namespaceGone(refusal, namespace(event))) {
      var regarding = event.getRegarding().getKind() + " " + regardingName(event);
      LOG.debug("Not {} event {} ({} {}): its namespace is gone", doing, which, event.getReason(), regarding);
      return new Outcome(
          new ReportOutcome.PodGone(regarding + " is gone: namespace " + namespace(event) + " not found (404)"), code);
    }
    if (code != handled) {
      LOG.warn("{} event {} ({} {}) failed: {}", doing, which, event.getReason(), regardingName(event),
          description);
    }
    return new Outcome(
        new ReportOutcome.Failed(doing + " event " + which + " failed: " + description), Math.max(0, code));
  }

  /**
   * Whether a 404 is the namespace's: the API server's NamespaceLifecycle admission answers a write into a
   * namespace that does not exist with the namespace's NotFound, whose details name it. Any other 404 (the
   * events API not served, say) is not taken for a namespace gone.
   */
  private static boolean namespaceGone(@Nullable Status refusal, String namespace) {
    var details = refusal == null ? null : refusal.getDetails();
    return details != null && "namespaces".equals(details.getKind()) && namespace.equals(details.getName());
  }

  /** The Status an API server answers a refused request with, or null if the body is none. */
  private @Nullable Status status(String body) {
    try {
      return client.getKubernetesSerialization().unmarshal(body, Status.class);
    } catch (RuntimeException e) {
      return null; // not a Status: a proxy's page, an empty body
    }
  }

  private static String namespace(Event event) {
    return event.getMetadata().getNamespace();
  }

  private static String regardingName(Event event) {
    var r = event.getRegarding();
    return r.getNamespace() + "/" + r.getName();
  }

  private Event makeEvent(
      ObjectReference regarding,
      @Nullable ObjectReference related,
      String type,
      String reason,
      String action,
      String note,
      Instant now) {
    var ns = regarding.getNamespace() == null || regarding.getNamespace().isEmpty()
        ? "default"
        : regarding.getNamespace();
    return new EventBuilder()
        .withNewMetadata()
        .withName(eventName(regarding.getName(), uniqueNanos(now)))
        .withNamespace(ns)
        .endMetadata()
        .withEventTime(new MicroTime(MICRO_TIME.format(now)))
        .withReportingController(controller)
        .withReportingInstance(instance)
        .withAction(action)
        .withReason(reason)
        .withRegarding(regarding)
        .withRelated(related)
        .withNote(note)
        .withType(type)
        .build();
  }

  /**
   * The time for an event's name, in nanoseconds since the epoch, made later than the last one if need
   * be: client-go relies on the clock alone, but a clock that reads in microseconds (or a test's) could
   * give two events of one pod the same name.
   */
  private long uniqueNanos(Instant now) {
    long nanos = now.getEpochSecond() * 1_000_000_000L + now.getNano();
    lastNameNanos = Math.max(nanos, lastNameNanos + 1);
    return lastNameNanos;
  }

  /** client-go's name: the object's name and the time in hex nanoseconds, or a UUID if that is no valid name. */
  static String eventName(@Nullable String objectName, long unixNano) {
    var name = objectName + "." + Long.toHexString(unixNano);
    if (name.length() <= 253 && DNS_SUBDOMAIN.matcher(name).matches()) {
      return name;
    }
    return UUID.randomUUID().toString();
  }

  static String microTime(Instant instant) {
    return MICRO_TIME.format(instant);
  }

  private String seriesJson(int count, Instant observed) {
    return client
        .getKubernetesSerialization()
        .asJson(Map.of("series", Map.of("count", count, "lastObservedTime", MICRO_TIME.format(observed))));
  }
}
