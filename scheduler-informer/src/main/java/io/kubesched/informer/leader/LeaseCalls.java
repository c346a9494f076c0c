package io.kubesched.informer.leader;

import io.fabric8.kubernetes.client.KubernetesClientException;
import io.kubesched.binder.ApiRequests;
import java.time.Duration;
import org.jspecify.annotations.Nullable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * What the calls on one election's Lease last got, across its campaigns, so that a failing call is logged as
 * what it is (the API server's answer: a 403 names the identity, the verb and the resource) once per change, and
 * not once per retry period: fabric8's elector retries every retry period and logs each failure with its stack
 * trace. Thread-safe.
 */
final class LeaseCalls {

  private static final Logger LOG = LoggerFactory.getLogger(LeaderElection.class);

  private final String lease;
  private final Duration retryPeriod;
  private @Nullable String lastFailure;

  /**
   * @param lease the Lease's {@code namespace/name}
   * @param retryPeriod how often fabric8 tries again, for the message
   */
  LeaseCalls(String lease, Duration retryPeriod) {
    this.lease = lease;
    this.retryPeriod = retryPeriod;
  }

  /**
   * Records a failed call; logs it at WARN if it differs from the last failure (else at DEBUG).
   *
   * @param verb the API verb: {@code get}, {@code create} or {@code update}
   * @return the failure in one line, as logged
   */
  synchronized String failed(String verb, KubernetesClientException e) {
    var why = describe(e);
    var line = "Leader election cannot " + verb + " the lease " + lease + ": " + why;
    var changed = !line.equals(lastFailure);
    lastFailure = line;
    (changed ? LOG.atWarn() : LOG.atDebug())
        .addKeyValue("lease", lease)
        .addKeyValue("verb", verb)
        .addKeyValue("code", e.getCode())
        .log("{}; trying again every {}{}", line, retryPeriod, changed ? ", logged again when the answer changes" : "");
    return line;
  }

  /** Records a call that succeeded; logs once that the calls succeed again after a failure. */
  synchronized void succeeded() {
    if (lastFailure != null) {
      LOG.atInfo().addKeyValue("lease", lease).log("Leader election reaches the lease {} again", lease);
      lastFailure = null;
    }
  }

  /** @return the last failure, as logged, if the last call failed */
  synchronized @Nullable String lastFailure() {
    return lastFailure;
  }

  /**
   * @return the API server's answer ({@code 403: <its message>}, which names the identity and what it may not
   *     do), or, where none came, what stopped the request
   */
  static String describe(KubernetesClientException e) {
    if (e.getCode() > 0) {
      return ApiRequests.describe(e).replaceAll("\\s*\\R\\s*", " ");
    }
    Throwable root = e;
    while (root.getCause() != null && root.getCause() != root) {
      root = root.getCause();
    }
    return "no answer from the API server (" + (root == e ? String.valueOf(e.getMessage()) : root.toString()) + ")";
  }
}
