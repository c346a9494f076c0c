package io.kubesched.adapter;

import static io.kubesched.adapter.PodAdapter.orEmpty;

import java.lang.ref.WeakReference;
import java.util.HashMap;
import java.util.Map;
import java.util.WeakHashMap;
import org.jspecify.annotations.Nullable;

/**
 * The strings that pods and selectors repeat (namespaces, label keys and values) made one instance per value,
 * with {@link String#intern()}, and equal label maps and pod affinity terms made one instance each.
 *
 * <p>Why: the spread and pod affinity filters compare, for every pod placed, the namespace and labels of
 * every pod of the cluster with the incoming pod's and its selectors' (kube's PreFilter walks); a JFR profile
 * of the spreading benchmark put a third of all samples in {@code String.equals} over such strings, which
 * returns at once for the same instance. Equal strings read from separate JSON documents are separate
 * instances; interned, they compare by reference and are kept once. The JVM's string table is used rather
 * than a map of our own: it is concurrent, and its entries are collected once no pod holds them.
 *
 * <p>Label maps and pod affinity terms: the pods of one ReplicaSet or DaemonSet carry equal labels and terms,
 * and the walks ask a selector about every pod's labels (and every existing pod's term about the incoming
 * pod); with one instance per distinct value, a walk can remember an answer for an instance it has seen (by
 * reference, so never wrongly), and the cluster keeps each value once. The JDK has no weak interner for
 * objects other than strings (Guava's {@code Interners.newWeakInterner} is one, but not a dependency worth
 * adding for this), so a {@link WeakHashMap} under a lock is used: its entries go once nothing holds the value.
 */
final class SharedStrings {

  /** Each distinct label map and pod affinity term once, for as long as something holds it. Guarded by itself. */
  private static final Map<Object, WeakReference<Object>> VALUES = new WeakHashMap<>();

  private SharedStrings() {}

  /** @return the one instance of {@code value} */
  static String shared(String value) {
    return value.intern();
  }

  /**
   * @return an immutable copy of {@code labels} (or of any string map the API carries: a selector's {@code
   *     matchLabels}), with keys and values {@linkplain #shared shared}, unset ones read as empty as Go reads
   *     them; empty if {@code labels} is null. Equal maps come out as one instance.
   */
  static Map<String, String> labels(@Nullable Map<String, String> labels) {
    if (labels == null || labels.isEmpty()) {
      return Map.of();
    }
    var copy = new HashMap<String, String>(labels.size() * 2);
    labels.forEach((key, value) -> copy.put(shared(orEmpty(key)), shared(orEmpty(value))));
    return sharedValue(Map.copyOf(copy));
  }

  /**
   * @param value an immutable value (a label map, a pod affinity term) whose equals and hashCode are its content's
   * @return the one instance equal to {@code value}, for as long as something holds it
   */
  @SuppressWarnings("unchecked") // the instance found is equal to value, so of its class
  static <T> T sharedValue(T value) {
    synchronized (VALUES) {
      var held = VALUES.get(value);
      var existing = held == null ? null : held.get();
      if (existing != null) {
        return (T) existing;
      }
      VALUES.put(value, new WeakReference<>(value));
      return value;
    }
  }
}
