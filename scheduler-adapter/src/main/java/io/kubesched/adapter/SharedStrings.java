package io.kubesched.adapter;

import static io.kubesched.adapter.PodAdapter.orEmpty;

import java.util.HashMap;
import java.util.Map;
import org.jspecify.annotations.Nullable;

/**
 * The strings that pods and selectors repeat (namespaces, label keys and values) made one instance per value,
 * with {@link String#intern()}.
 *
 * <p>Why: the spread and pod affinity filters compare, for every pod placed, the namespace and labels of
 * every pod of the cluster with the incoming pod's and its selectors' (kube's PreFilter walks); a JFR profile
 * of the spreading benchmark put a third of all samples in {@code String.equals} over such strings, which
 * returns at once for the same instance. Equal strings read from separate JSON documents are separate
 * instances; interned, they compare by reference and are kept once. The JVM's string table is used rather
 * than a map of our own: it is concurrent, and its entries are collected once no pod holds them.
 */
final class SharedStrings {

  private SharedStrings() {}

  /** @return the one instance of {@code value} */
  static String shared(String value) {
    return value.intern();
  }

  /**
   * @return an immutable copy of {@code labels} (or of any string map the API carries: a selector's {@code
   *     matchLabels}), with keys and values {@linkplain #shared shared}, unset ones read as empty as Go reads
   *     them; empty if {@code labels} is null
   */
  static Map<String, String> labels(@Nullable Map<String, String> labels) {
    if (labels == null || labels.isEmpty()) {
      return Map.of();
    }
    var copy = new HashMap<String, String>(labels.size() * 2);
    labels.forEach((key, value) -> copy.put(shared(orEmpty(key)), shared(orEmpty(value))));
    return Map.copyOf(copy);
  }
}
