package io.kubesched.server;

import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;

/**
 * One endpoint the server answers besides the probes and {@code /metrics} ({@code /configz}, {@code
 * /debug/explain}), independent of the HTTP server that serves it. Reached only by a request that passed
 * authentication and authorization. Called on the HTTP threads, possibly by several at once.
 */
@FunctionalInterface
interface Route {

  /**
   * @return the answer to a GET (or HEAD, whose body is dropped) of the route's path
   */
  Response get(Request request);

  /**
   * A GET of a route, as far as a route reads it. Immutable.
   *
   * @param path the path, decoded
   * @param query each query parameter's values, decoded, in order
   * @param accept the {@code Accept} header; empty when none was sent
   */
  record Request(String path, Map<String, List<String>> query, Optional<String> accept) {

    public Request {
      Objects.requireNonNull(path, "path");
      query = Map.copyOf(query);
      Objects.requireNonNull(accept, "accept");
    }

    /** @return the first value of query parameter {@code name}, if given */
    Optional<String> parameter(String name) {
      var values = query.get(name);
      return values == null || values.isEmpty() ? Optional.empty() : Optional.of(values.get(0));
    }
  }

  /**
   * An answer. Immutable.
   *
   * @param status the HTTP status
   * @param contentType the {@code Content-Type}
   * @param body the body, sent as UTF-8
   */
  record Response(int status, String contentType, String body) {

    public Response {
      Objects.requireNonNull(contentType, "contentType");
      Objects.requireNonNull(body, "body");
    }
  }
}
