package io.kubesched.binder;

import io.fabric8.kubernetes.api.model.Binding;
import io.fabric8.kubernetes.api.model.BindingBuilder;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.PodBuilder;
import io.fabric8.kubernetes.client.KubernetesClientException;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import org.jspecify.annotations.Nullable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Binds one pod to one node and checks that it took.
 *
 * <p>With {@link BindMode#SUBRESOURCE} it POSTs a {@code Binding} (carrying the pod's uid as a
 * precondition) to {@code /api/v1/namespaces/{ns}/pods/{name}/binding}, then reads the pod back. A 409
 * Conflict is not taken at its word: fabric8 retries a POST after an I/O error or a 5xx, so a 409 may be the
 * echo of our own earlier success. The pod is read again and the outcome decided from what it shows.
 *
 * <p>Thread-safe and stateless; blocks the calling thread for at most a few request timeouts.
 */
public final class Binder {

  private static final Logger LOG = LoggerFactory.getLogger(Binder.class);

  private Binder() {}

  /**
   * @return how the binding ended; never throws for an API error, a time-out or a missing pod
   * @throws InterruptedException if the calling thread is interrupted while waiting for the server
   */
  public static BindOutcome bind(BindOptions options) throws InterruptedException {
    try {
      return switch (options.mode()) {
        case SUBRESOURCE -> bindThroughSubresource(options);
        case SET_NODE_NAME -> setNodeName(options);
      };
    } catch (KubernetesClientException e) {
      return new BindOutcome.Failed(describe(e));
    }
  }

  private static BindOutcome bindThroughSubresource(BindOptions options) throws InterruptedException {
    var meta = options.pod().getMetadata();
    Binding binding =
        new BindingBuilder()
            .withNewMetadata()
            .withNamespace(meta.getNamespace())
            .withName(meta.getName())
            .withUid(meta.getUid())
            .endMetadata()
            .withNewTarget()
            .withApiVersion("v1")
            .withKind("Node")
            .withName(options.nodeName())
            .endTarget()
            .build();
    var client = options.client();
    var http = client.getHttpClient();
    var base = client.getMasterUrl().toString().replaceAll("/+$", "");
    var request =
        http.newHttpRequestBuilder()
            .uri(base + "/api/v1/namespaces/" + meta.getNamespace() + "/pods/" + meta.getName() + "/binding")
            .timeout(options.timeout().toMillis(), TimeUnit.MILLISECONDS)
            .post("application/json", client.getKubernetesSerialization().asJson(binding))
            .build();
    int code;
    String body;
    var pending = http.sendAsync(request, String.class);
    try {
      // The request has its own timeout; this one also covers fabric8's retries of a failed POST.
      var response = pending.get(options.timeout().toMillis() * 2, TimeUnit.MILLISECONDS);
      code = response.code();
      body = response.body() == null ? "" : response.body();
    } catch (ExecutionException e) {
      return new BindOutcome.Failed("binding request failed: " + e.getCause());
    } catch (TimeoutException e) {
      pending.cancel(true);
      return new BindOutcome.Failed("binding request timed out after " + options.timeout());
    } catch (InterruptedException e) {
      pending.cancel(true);
      throw e;
    }
    LOG.debug("POST binding {} -> {}: {}", options.podKey(), options.nodeName(), code);
    if (code == 200 || code == 201) {
      return verify(options, false);
    }
    if (code == 409) {
      return verify(options, true);
    }
    if (code == 404) {
      return new BindOutcome.PodGone("pod " + options.podKey() + " not found (404)");
    }
    return new BindOutcome.Failed("binding refused with " + code + ": " + abbreviate(body));
  }

  private static BindOutcome setNodeName(BindOptions options) {
    var current = read(options);
    var gone = goneOrReplaced(options, current);
    if (gone != null) {
      return gone;
    }
    var assigned = nodeName(current);
    if (!assigned.isEmpty()) {
      return outcomeFor(options, assigned, true);
    }
    Pod updated =
        new PodBuilder(current).editOrNewSpec().withNodeName(options.nodeName()).endSpec().build();
    try {
      options.client().pods().resource(updated).update();
    } catch (KubernetesClientException e) {
      if (e.getCode() != 409 && e.getCode() != 404) {
        throw e;
      }
      // Someone changed or removed the pod meanwhile: decide from what it shows now.
    }
    return verify(options, false);
  }

  /** Reads the pod back and decides the outcome from where it is bound. */
  private static BindOutcome verify(BindOptions options, boolean afterConflict) {
    var current = read(options);
    var gone = goneOrReplaced(options, current);
    if (gone != null) {
      return gone;
    }
    var assigned = nodeName(current);
    if (assigned.isEmpty()) {
      return new BindOutcome.Failed(
          afterConflict
              ? "binding answered 409 Conflict but pod " + options.podKey() + " is not bound"
              : "binding accepted but pod " + options.podKey() + " shows no node");
    }
    return outcomeFor(options, assigned, afterConflict);
  }

  private static BindOutcome outcomeFor(BindOptions options, String assigned, boolean alreadyBound) {
    if (assigned.equals(options.nodeName())) {
      return new BindOutcome.Bound(assigned, alreadyBound);
    }
    return new BindOutcome.Conflict(assigned);
  }

  private static String nodeName(Pod pod) {
    var node = pod.getSpec() == null ? null : pod.getSpec().getNodeName();
    return node == null ? "" : node;
  }

  private static @Nullable Pod read(BindOptions options) {
    var meta = options.pod().getMetadata();
    return options.client().pods().inNamespace(meta.getNamespace()).withName(meta.getName()).get();
  }

  private static BindOutcome.@Nullable PodGone goneOrReplaced(BindOptions options, @Nullable Pod current) {
    if (current == null) {
      return new BindOutcome.PodGone("pod " + options.podKey() + " no longer exists");
    }
    var uid = options.pod().getMetadata().getUid();
    if (!uid.equals(current.getMetadata().getUid())) {
      return new BindOutcome.PodGone(
          "pod " + options.podKey() + " was deleted and created again (uid " + uid + " is gone)");
    }
    return null;
  }

  private static String describe(KubernetesClientException e) {
    var status = e.getStatus();
    var message = status != null && status.getMessage() != null ? status.getMessage() : e.getMessage();
    return (e.getCode() > 0 ? e.getCode() + ": " : "") + message;
  }

  private static String abbreviate(String body) {
    return body.length() <= 300 ? body : body.substring(0, 300) + "…";
  }
}
