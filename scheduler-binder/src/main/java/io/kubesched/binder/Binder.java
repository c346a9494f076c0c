package io.kubesched.binder;

import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.PodBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientException;
import java.util.Collections;
import java.util.Map;
import java.util.WeakHashMap;
import org.jspecify.annotations.Nullable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Binds one pod to one node and checks that it took.
 *
 * <p>With {@link BindMode#SUBRESOURCE} it POSTs a {@code Binding} (carrying the pod's uid as a
 * precondition) to {@code /api/v1/namespaces/{ns}/pods/{name}/binding}. A 200 or 201 is taken at its word,
 * with no read-back, as kube-scheduler's DefaultBinder does: the API server accepts a binding only for the pod
 * of that uid, only while it has no node, and sets exactly the target node (BindingREST in
 * pkg/registry/core/pod/storage). A 409 Conflict is not taken at its word: it may be the echo of an earlier
 * POST of ours that succeeded after we stopped waiting for it. The pod is read back and the outcome decided
 * from what it shows.
 *
 * <p>Thread-safe; it keeps nothing but each client's request settings. Blocks the calling thread for at most a few
 * request timeouts.
 */
public final class Binder {

  private static final Logger LOG = LoggerFactory.getLogger(Binder.class);

  /**
   * The one-shot requests of each client, built once per client and time-out: building them derives an HTTP
   * client (fabric8 copies its builder) and trims the API server's URL with a regular expression, which every
   * binding did before. Weak keys: a client its owner dropped is forgotten.
   */
  private static final Map<KubernetesClient, ApiRequests> ONE_SHOT =
      Collections.synchronizedMap(new WeakHashMap<>());

  /**
   * How many times {@link BindMode#SET_NODE_NAME} updates a pod that stays unbound but changed since it was
   * read (each update is locked to the version read, so a concurrent status write refuses it with 409).
   */
  private static final int SET_NODE_NAME_UPDATES = 3;

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
    var http = oneShot(options);
    var response =
        http.send(http.request(podPath(options) + "/binding").post("application/json", bindingJson(options)));
    if (response instanceof ApiRequests.Answer.NoAnswer none) {
      return new BindOutcome.Failed("binding request " + none.why());
    }
    var answer = (ApiRequests.Answer.Status) response;
    PodLog.of(LOG.atDebug(), options.pod(), options.nodeName())
        .log("POST binding {} -> {}: {}", options.podKey(), options.nodeName(), answer.code());
    return switch (answer.code()) {
      case 200, 201 -> new BindOutcome.Bound(options.nodeName(), false);
      case 409 -> verify(options, http);
      case 404 -> new BindOutcome.PodGone("pod " + options.podKey() + " not found (404)");
      default -> new BindOutcome.Failed(
          "binding refused with " + answer.code() + ": " + ApiRequests.abbreviate(answer.body()));
    };
  }

  /**
   * The {@code Binding} of the pod (its namespace, name and uid) to the node, as JSON: written as text rather
   * than built with fabric8's builders and encoded: with the one-shot requests kept per client, a quarter of the
   * time and a fifth of the allocation per binding (the end-to-end benchmark's notes, "The binding's own client";
   * docs/performance.md#measurement-notes). Each value is JSON-escaped here (no JSON library: the same jar serves
   * Jackson 2 and 3 applications); {@code BindingJsonProperties} reads the text back as fabric8's.
   */
  static String bindingJson(BindOptions options) {
    var meta = options.pod().getMetadata();
    return "{\"apiVersion\":\"v1\",\"kind\":\"Binding\",\"metadata\":{\"name\":" + quoted(meta.getName())
        + ",\"namespace\":" + quoted(meta.getNamespace()) + ",\"uid\":" + quoted(meta.getUid())
        + "},\"target\":{\"apiVersion\":\"v1\",\"kind\":\"Node\",\"name\":" + quoted(options.nodeName())
        + "}}";
  }

  /** {@code value} as a JSON string: quote, backslash and control characters escaped, everything else as is. */
  static String quoted(String value) {
    var quoted = new StringBuilder(value.length() + 2).append('"');
    for (int i = 0; i < value.length(); i++) {
      char c = value.charAt(i);
      switch (c) {
        case '"' -> quoted.append("\\\"");
        case '\\' -> quoted.append("\\\\");
        case '\n' -> quoted.append("\\n");
        case '\r' -> quoted.append("\\r");
        case '\t' -> quoted.append("\\t");
        default -> {
          if (c < 0x20) {
            quoted.append(String.format("\\u%04x", (int) c));
          } else {
            quoted.append(c);
          }
        }
      }
    }
    return quoted.append('"').toString();
  }

  private static ApiRequests oneShot(BindOptions options) {
    var known = ONE_SHOT.get(options.client());
    if (known != null && known.timeout().equals(options.timeout())) {
      return known;
    }
    var built = ApiRequests.oneShot(options.client(), options.timeout());
    ONE_SHOT.put(options.client(), built);
    return built;
  }

  /** After a 409: reads the pod back and decides the outcome from where it is bound. */
  private static BindOutcome verify(BindOptions options, ApiRequests http) throws InterruptedException {
    var response = http.send(http.request(podPath(options)));
    if (response instanceof ApiRequests.Answer.NoAnswer none) {
      return new BindOutcome.Failed("reading pod " + options.podKey() + " back " + none.why());
    }
    var answer = (ApiRequests.Answer.Status) response;
    if (answer.code() == 404) {
      return goneOrReplaced(options, null);
    }
    if (answer.code() != 200) {
      return new BindOutcome.Failed(
          "reading pod " + options.podKey() + " back answered " + answer.code() + ": "
              + ApiRequests.abbreviate(answer.body()));
    }
    var current = options.client().getKubernetesSerialization().unmarshal(answer.body(), Pod.class);
    return decide(options, current, true);
  }

  private static String podPath(BindOptions options) {
    var meta = options.pod().getMetadata();
    return "/api/v1/namespaces/" + meta.getNamespace() + "/pods/" + meta.getName();
  }

  private static BindOutcome setNodeName(BindOptions options) {
    var current = read(options);
    for (int update = 1; ; update++) {
      var gone = goneOrReplaced(options, current);
      if (gone != null) {
        return gone;
      }
      var assigned = nodeName(current);
      if (!assigned.isEmpty()) {
        return outcomeFor(options, assigned, true);
      }
      if (update > SET_NODE_NAME_UPDATES) {
        return new BindOutcome.Failed(
            "pod " + options.podKey() + " changed under each of " + SET_NODE_NAME_UPDATES
                + " updates (409 Conflict) and shows no node");
      }
      Pod updated =
          new PodBuilder(current).editOrNewSpec().withNodeName(options.nodeName()).endSpec().build();
      try {
        options.client().pods().resource(updated).update();
        return decide(options, read(options), false);
      } catch (KubernetesClientException e) {
        if (e.getCode() != 409 && e.getCode() != 404) {
          throw e;
        }
      }
      // Someone changed or removed the pod since it was read: bound elsewhere, gone, or (most often) a status
      // write such as the PodScheduled condition of an earlier attempt. Look again, and update again if unbound.
      current = read(options);
    }
  }

  /** The outcome, from the pod as read after the attempt. */
  private static BindOutcome decide(BindOptions options, @Nullable Pod current, boolean afterConflict) {
    var gone = goneOrReplaced(options, current);
    if (gone != null) {
      return gone;
    }
    var assigned = nodeName(current);
    if (assigned.isEmpty()) {
      return new BindOutcome.Failed(
          afterConflict
              ? "binding answered 409 Conflict but pod " + options.podKey() + " is not bound"
              : "pod " + options.podKey() + " shows no node after its update");
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
}
