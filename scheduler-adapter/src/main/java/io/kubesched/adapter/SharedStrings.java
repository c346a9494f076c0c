package io.kubesched.adapter;

import java.util.HashMap;
import java.util.Map;

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

  /** @return a copy of {@code labels} with keys and values {@linkplain #shared shared} */
  static Map<String, String> shared(Map<String, String> labels) {
    if (labels.isEmpty()) {
      return Map.of();
    }
    var copy = new HashMap<String, String>(labels.size() * 2);
    labels.forEach((key, value) -> copy.put(shared(PodAdapter.orEmpty(key)), shared(PodAdapter.orEmpty(value))));
    return copy;
  }
}
