package io.kubesched.server;

import io.kubesched.api.ConfigurationException;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.LongSupplier;
import org.jspecify.annotations.Nullable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Who may read which path, decided as kube-scheduler's delegated authentication and authorization decide it:
 * a path of {@code --authorization-always-allow-paths} is served to anyone; any other needs {@code
 * Authorization: Bearer TOKEN}, which a TokenReview must authenticate, and then a SubjectAccessReview of the
 * user, the path and the verb (the HTTP method in lower case: {@code get} for GET) must allow, unless the user
 * is in {@code system:masters}. Answers are cached as kube caches them: an authenticated or rejected token for
 * {@link #TOKEN_TTL}, an allowed access for {@link #ALLOWED_TTL}, a denied one for {@link #DENIED_TTL}; a failed
 * review is not cached. Where the API server fails, the request fails (500) and one WARN says so, again only
 * when the failure changes.
 *
 * <p>Unlike kube-scheduler (whose anonymous authentication is always on), a request without a bearer token is
 * refused 401 without a review, as a token that the TokenReview rejects is; kube answers it with a
 * SubjectAccessReview of {@code system:anonymous}, which a default cluster refuses 403.
 *
 * <p>Thread-safe: called on the HTTP threads, several at once.
 */
final class DelegatedAuth {

  private static final Logger LOG = LoggerFactory.getLogger(DelegatedAuth.class);

  /** kube's {@code --authentication-token-webhook-cache-ttl} default. */
  static final Duration TOKEN_TTL = Duration.ofSeconds(10);

  /** kube's {@code --authorization-webhook-cache-authorized-ttl} default. */
  static final Duration ALLOWED_TTL = Duration.ofSeconds(10);

  /** kube's {@code --authorization-webhook-cache-unauthorized-ttl} default. */
  static final Duration DENIED_TTL = Duration.ofSeconds(10);

  /** kube's {@code --authorization-always-allow-groups} default: allowed everything without a review. */
  static final String PRIVILEGED_GROUP = "system:masters";

  /** The group kube adds to every authenticated user. */
  static final String AUTHENTICATED_GROUP = "system:authenticated";

  /** Entries each cache holds at most; when full it is emptied (a cache, not a record). */
  static final int CACHE_LIMIT = 4096;

  /**
   * A user as a TokenReview names it. Immutable.
   *
   * @param name the user name
   * @param uid the user's UID; empty when none
   * @param groups the user's groups
   * @param extra the user's extra attributes
   */
  record User(String name, String uid, List<String> groups, Map<String, List<String>> extra) {

    User {
      Objects.requireNonNull(name, "name");
      Objects.requireNonNull(uid, "uid");
      groups = List.copyOf(groups);
      extra = Map.copyOf(extra);
    }
  }

  /** Reviews tokens at the API server ({@code authentication.k8s.io/v1} TokenReview). */
  @FunctionalInterface
  interface TokenReviewer {

    /**
     * @return the user the token authenticates; empty if the API server does not authenticate it
     * @throws RuntimeException if the review cannot be had (the API server fails or cannot be reached)
     */
    Optional<User> review(String token);
  }

  /** Reviews access at the API server ({@code authorization.k8s.io/v1} SubjectAccessReview). */
  @FunctionalInterface
  interface AccessReviewer {

    /**
     * @return whether {@code user} may {@code verb} the non-resource {@code path}, and the API server's reason
     * @throws RuntimeException if the review cannot be had
     */
    Access review(User user, String verb, String path);
  }

  /**
   * A SubjectAccessReview's answer. Immutable.
   *
   * @param allowed whether the access is allowed
   * @param reason the API server's reason; empty when none
   */
  record Access(boolean allowed, String reason) {

    Access {
      Objects.requireNonNull(reason, "reason");
    }
  }

  /** What to do with a request. */
  sealed interface Outcome {

    /** Serve it. */
    record Allowed() implements Outcome {}

    /** 401: no bearer token, or one the API server does not authenticate (or cannot, no reviewer). */
    record Unauthorized() implements Outcome {}

    /** 403, with kube's message. */
    record Forbidden(String message) implements Outcome {}

    /** 500: a review failed; the message is short and names no secret. */
    record Failed(String message) implements Outcome {}
  }

  private record Cached<T>(T value, long expiresAt) {}

  private final Optional<TokenReviewer> tokens;
  private final Optional<AccessReviewer> access;
  private final AlwaysAllowPaths alwaysAllow;
  private final LongSupplier nanoTime;
  private final Map<String, Cached<Optional<User>>> tokenCache = new ConcurrentHashMap<>();
  private final Map<List<Object>, Cached<Access>> accessCache = new ConcurrentHashMap<>();
  private final AtomicReference<String> lastFailure = new AtomicReference<>("");

  /**
   * @param tokens the TokenReviews; empty: no token is authenticated
   * @param access the SubjectAccessReviews; empty: nothing but the always-allowed paths is allowed (but to
   *     {@code system:masters})
   * @param alwaysAllowPaths {@code --authorization-always-allow-paths}
   * @param nanoTime the clock of the caches ({@link System#nanoTime()} but in tests)
   * @throws ConfigurationException if an always-allow path has a {@code *} that is not its last character
   */
  DelegatedAuth(
      Optional<TokenReviewer> tokens,
      Optional<AccessReviewer> access,
      List<String> alwaysAllowPaths,
      LongSupplier nanoTime) {
    this.tokens = Objects.requireNonNull(tokens, "tokens");
    this.access = Objects.requireNonNull(access, "access");
    this.alwaysAllow = AlwaysAllowPaths.of(alwaysAllowPaths);
    this.nanoTime = nanoTime;
  }

  /** @return whether {@code path} is served without authentication or authorization */
  boolean alwaysAllowed(String path) {
    return alwaysAllow.matches(path);
  }

  /**
   * @param authorization the {@code Authorization} header, if sent
   * @param method the HTTP method
   * @param path the request's path
   * @return whether to serve the request, and if not, how to refuse it
   */
  Outcome check(@Nullable String authorization, String method, String path) {
    if (alwaysAllow.matches(path)) {
      return new Outcome.Allowed();
    }
    var token = bearerToken(authorization);
    if (token.isEmpty() || tokens.isEmpty()) {
      return new Outcome.Unauthorized();
    }
    Optional<User> user;
    try {
      user = authenticate(tokens.get(), token.get());
    } catch (RuntimeException e) {
      return failed("TokenReview", e);
    }
    if (user.isEmpty()) {
      return new Outcome.Unauthorized();
    }
    var verb = method.toLowerCase(Locale.ROOT);
    if (user.get().groups().contains(PRIVILEGED_GROUP)) {
      return new Outcome.Allowed();
    }
    Access decision;
    if (access.isEmpty()) {
      decision = new Access(false, "");
    } else {
      try {
        decision = authorize(access.get(), user.get(), verb, path);
      } catch (RuntimeException e) {
        return failed("SubjectAccessReview", e);
      }
    }
    recovered();
    return decision.allowed()
        ? new Outcome.Allowed()
        : new Outcome.Forbidden(forbiddenMessage(user.get().name(), verb, path, decision.reason()));
  }

  /**
   * @return kube's message of a refused non-resource request: {@code forbidden: User "NAME" cannot VERB path
   *     "PATH"}, then {@code : REASON} if the review gave one; {@code &}, {@code <} and {@code >} escaped as
   *     kube escapes them
   */
  static String forbiddenMessage(String user, String verb, String path, String reason) {
    var message = "User " + goQuote(user) + " cannot " + verb + " path " + goQuote(path);
    message = message.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;");
    return "forbidden: " + (reason.isEmpty() ? message : message + ": " + reason);
  }

  /**
   * @return the token of {@code Authorization: Bearer TOKEN} (the scheme in any case, as kube reads it); empty
   *     for no header, another scheme or an empty token
   */
  static Optional<String> bearerToken(@Nullable String authorization) {
    if (authorization == null) {
      return Optional.empty();
    }
    var parts = authorization.strip().split(" ", 3);
    if (parts.length < 2 || !parts[0].equalsIgnoreCase("bearer") || parts[1].isEmpty()) {
      return Optional.empty();
    }
    return Optional.of(parts[1]);
  }

  private Optional<User> authenticate(TokenReviewer reviewer, String token) {
    var key = sha256(token); // the cache holds no token
    var now = nanoTime.getAsLong();
    var cached = tokenCache.get(key);
    if (cached != null && now - cached.expiresAt() < 0) {
      return cached.value();
    }
    var user = reviewer.review(token).map(DelegatedAuth::withAuthenticatedGroup);
    put(tokenCache, key, new Cached<>(user, now + TOKEN_TTL.toNanos()));
    return user;
  }

  private Access authorize(AccessReviewer reviewer, User user, String verb, String path) {
    List<Object> key = List.of(user, verb, path);
    var now = nanoTime.getAsLong();
    var cached = accessCache.get(key);
    if (cached != null && now - cached.expiresAt() < 0) {
      return cached.value();
    }
    var decision = reviewer.review(user, verb, path);
    var ttl = decision.allowed() ? ALLOWED_TTL : DENIED_TTL;
    put(accessCache, key, new Cached<>(decision, now + ttl.toNanos()));
    return decision;
  }

  private static <K, V> void put(Map<K, V> cache, K key, V value) {
    if (cache.size() >= CACHE_LIMIT) {
      cache.clear();
    }
    cache.put(key, value);
  }

  private static User withAuthenticatedGroup(User user) {
    if (user.groups().contains(AUTHENTICATED_GROUP) || user.groups().contains("system:unauthenticated")) {
      return user;
    }
    var groups = new ArrayList<>(user.groups());
    groups.add(AUTHENTICATED_GROUP);
    return new User(user.name(), user.uid(), groups, user.extra());
  }

  private Outcome failed(String review, RuntimeException e) {
    var message = review + " failed: " + firstLine(String.valueOf(e.getMessage()));
    if (!lastFailure.getAndSet(message).equals(message)) {
      LOG.warn("{}; requests that need it are answered 500 until it works again", message);
    }
    return new Outcome.Failed(review + " failed");
  }

  private void recovered() {
    if (!lastFailure.get().isEmpty() && !lastFailure.getAndSet("").isEmpty()) {
      LOG.info("Token and access reviews work again");
    }
  }

  private static String firstLine(String message) {
    var line = message.lines().findFirst().orElse("").strip();
    return line.length() > 200 ? line.substring(0, 200) + "..." : line;
  }

  private static String sha256(String token) {
    try {
      return HexFormat.of()
          .formatHex(MessageDigest.getInstance("SHA-256").digest(token.getBytes(StandardCharsets.UTF_8)));
    } catch (NoSuchAlgorithmException e) {
      throw new AssertionError("every JDK has SHA-256", e);
    }
  }

  /** A string quoted as Go's {@code %q} quotes a printable one. */
  private static String goQuote(String s) {
    var quoted = new StringBuilder("\"");
    s.codePoints()
        .forEach(
            c -> {
              switch (c) {
                case '"' -> quoted.append("\\\"");
                case '\\' -> quoted.append("\\\\");
                case '\n' -> quoted.append("\\n");
                case '\t' -> quoted.append("\\t");
                case '\r' -> quoted.append("\\r");
                default -> {
                  if (c < 0x20 || c == 0x7f) {
                    quoted.append(String.format("\\x%02x", c));
                  } else {
                    quoted.appendCodePoint(c);
                  }
                }
              }
            });
    return quoted.append('"').toString();
  }

  /**
   * {@code --authorization-always-allow-paths} as kube's path authorizer reads it: each path without its
   * leading {@code /}; one ending in {@code *} matches every path that starts with what precedes the
   * {@code *}, any other only itself. Immutable.
   */
  record AlwaysAllowPaths(List<String> exact, List<String> prefixes) {

    AlwaysAllowPaths {
      exact = List.copyOf(exact);
      prefixes = List.copyOf(prefixes);
    }

    /**
     * @throws ConfigurationException naming the flag and the path, if a {@code *} is not a path's last
     *     character
     */
    static AlwaysAllowPaths of(List<String> paths) {
      var exact = new ArrayList<String>();
      var prefixes = new ArrayList<String>();
      for (var path : paths) {
        var trimmed = path.startsWith("/") ? path.substring(1) : path;
        if (trimmed.isEmpty()) {
          exact.add(trimmed);
          continue;
        }
        if (trimmed.substring(0, trimmed.length() - 1).contains("*")) {
          throw new ConfigurationException(
              "--authorization-always-allow-paths: only a trailing * is allowed, was '" + path + "'");
        }
        if (trimmed.endsWith("*")) {
          prefixes.add(trimmed.substring(0, trimmed.length() - 1));
        } else {
          exact.add(trimmed);
        }
      }
      return new AlwaysAllowPaths(exact, prefixes);
    }

    boolean matches(String path) {
      var trimmed = path.startsWith("/") ? path.substring(1) : path;
      return exact.contains(trimmed) || prefixes.stream().anyMatch(trimmed::startsWith);
    }
  }
}
