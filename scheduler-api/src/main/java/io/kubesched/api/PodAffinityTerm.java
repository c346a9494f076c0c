package io.kubesched.api;

import static org.apiguardian.api.API.Status.STABLE;

import java.util.List;
import java.util.Set;
import org.apiguardian.api.API;
import org.jspecify.annotations.Nullable;

/**
 * One term of a pod's pod affinity or anti-affinity ({@code PodAffinityTerm}): the pods it selects (by labels,
 * in some namespaces), and the node label whose value defines "the same place" ({@code topologyKey}).
 *
 * <p>The namespaces a term looks in are the union of {@code namespaces} and those {@code namespaceSelector}
 * matches; when both are unset ({@code namespaces} empty and {@code namespaceSelector} null), the pod's own
 * namespace. An empty, non-null {@code namespaceSelector} selects every namespace.
 *
 * @param labelSelector the pods the term selects; {@code null} when the term has none, which selects no pod
 * @param namespaces namespaces the term looks in, by name
 * @param namespaceSelector namespaces the term looks in, by their labels; {@code null} when unset
 * @param topologyKey the node label that groups nodes into one topology domain
 * @param matchLabelKeys label keys whose values, taken from the incoming pod, are added to the selector
 *     as {@code key In (value)}
 * @param mismatchLabelKeys label keys whose values, taken from the incoming pod, are added to the selector
 *     as {@code key NotIn (value)}
 */
@API(status = STABLE, since = "0.1.0")
public record PodAffinityTerm(
    @Nullable LabelSelector labelSelector,
    Set<String> namespaces,
    @Nullable LabelSelector namespaceSelector,
    String topologyKey,
    List<String> matchLabelKeys,
    List<String> mismatchLabelKeys) {

  public PodAffinityTerm {
    namespaces = Set.copyOf(namespaces);
    matchLabelKeys = List.copyOf(matchLabelKeys);
    mismatchLabelKeys = List.copyOf(mismatchLabelKeys);
  }

  /** @return a term of {@code labelSelector} over {@code topologyKey}, in the pod's own namespace */
  public static PodAffinityTerm of(LabelSelector labelSelector, String topologyKey) {
    return new PodAffinityTerm(labelSelector, Set.of(), null, topologyKey, List.of(), List.of());
  }
}
