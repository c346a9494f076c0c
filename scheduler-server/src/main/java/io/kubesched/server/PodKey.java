package io.kubesched.server;

import java.util.regex.Pattern;

/**
 * A pod named as {@code NAMESPACE/NAME}, as {@code /debug/explain?pod=} takes it: the namespace a DNS-1123 label,
 * the name a DNS-1123 subdomain, as the API server validates them. Immutable.
 *
 * @param namespace the namespace
 * @param name the pod's name
 */
record PodKey(String namespace, String name) {

  private static final String LABEL = "[a-z0-9]([-a-z0-9]*[a-z0-9])?";
  private static final Pattern NAMESPACE = Pattern.compile(LABEL);
  private static final Pattern NAME = Pattern.compile(LABEL + "(\\." + LABEL + ")*");
  /** How much of a refused value a message repeats. */
  private static final int ECHOED = 80;

  /**
   * @param value the parameter's value, decoded
   * @return the pod it names
   * @throws IllegalArgumentException if {@code value} is not {@code NAMESPACE/NAME} with a valid namespace (at
   *     most 63 characters) and name (at most 253); the message says what is expected, for the client
   */
  static PodKey parse(String value) {
    int slash = value.indexOf('/');
    if (slash < 0 || slash != value.lastIndexOf('/')) {
      throw refused(value, "it must be NAMESPACE/NAME");
    }
    var namespace = value.substring(0, slash);
    var name = value.substring(slash + 1);
    if (namespace.length() > 63 || !NAMESPACE.matcher(namespace).matches()) {
      throw refused(value, "the namespace must be a DNS-1123 label (at most 63 of a-z, 0-9 and '-')");
    }
    if (name.length() > 253 || !NAME.matcher(name).matches()) {
      throw refused(value, "the name must be a DNS-1123 subdomain (at most 253 of a-z, 0-9, '-' and '.')");
    }
    return new PodKey(namespace, name);
  }

  @Override
  public String toString() {
    return namespace + "/" + name;
  }

  private static IllegalArgumentException refused(String value, String why) {
    return new IllegalArgumentException("pod=" + echo(value) + " is refused: " + why + ", e.g. pod=default/web-1");
  }

  /** The value as a message may repeat it: printable ASCII only, shortened. */
  private static String echo(String value) {
    var shown = new StringBuilder("'");
    for (int i = 0; i < value.length() && i < ECHOED; i++) {
      char c = value.charAt(i);
      shown.append(c >= 0x20 && c < 0x7f ? c : '?');
    }
    return shown.append(value.length() > ECHOED ? "...'" : "'").toString();
  }
}
