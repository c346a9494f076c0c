package io.kubesched.adapter;

import static io.kubesched.adapter.PodAdapter.orEmpty;

import io.fabric8.kubernetes.api.model.Affinity;
import io.kubesched.api.MalformedObjectException;
import io.kubesched.api.PodAffinity;
import io.kubesched.api.PodAffinityTerm;
import io.kubesched.api.WeightedPodAffinityTerm;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Objects;
import org.jspecify.annotations.Nullable;

/**
 * A pod's {@code spec.affinity.podAffinity} and {@code spec.affinity.podAntiAffinity} read into {@link
 * PodAffinity}. Topology keys, weights and label keys are kept as given; an unset weight reads as 0, an unset
 * string or list as empty, a {@code null} term as a term without selector (which selects no pod), as Go reads
 * them. Only a label selector Kubernetes cannot turn into a selector is an error, as it is for kube-scheduler.
 */
final class PodAffinities {

  private static final String AFFINITY = "spec.affinity.podAffinity";
  private static final String ANTI_AFFINITY = "spec.affinity.podAntiAffinity";
  private static final String REQUIRED = ".requiredDuringSchedulingIgnoredDuringExecution";
  private static final String PREFERRED = ".preferredDuringSchedulingIgnoredDuringExecution";

  private PodAffinities() {}

  /**
   * @param affinity the pod's affinity, {@code null} if unset
   * @param object the pod, for error messages
   * @return its pod affinity; {@link PodAffinity#NONE} if it has none
   * @throws MalformedObjectException naming {@code object}, the field and its value, if a term's {@code
   *     labelSelector} or {@code namespaceSelector} has an unknown operator or values that do not fit it
   */
  static PodAffinity affinity(@Nullable Affinity affinity, String object) {
    var podAffinity = affinity == null ? null : affinity.getPodAffinity();
    if (podAffinity == null) {
      return PodAffinity.NONE;
    }
    return read(
        podAffinity.getRequiredDuringSchedulingIgnoredDuringExecution(),
        podAffinity.getPreferredDuringSchedulingIgnoredDuringExecution(),
        object,
        AFFINITY);
  }

  /**
   * @param affinity the pod's affinity, {@code null} if unset
   * @param object the pod, for error messages
   * @return its pod anti-affinity; {@link PodAffinity#NONE} if it has none
   * @throws MalformedObjectException as {@link #affinity}
   */
  static PodAffinity antiAffinity(@Nullable Affinity affinity, String object) {
    var antiAffinity = affinity == null ? null : affinity.getPodAntiAffinity();
    if (antiAffinity == null) {
      return PodAffinity.NONE;
    }
    return read(
        antiAffinity.getRequiredDuringSchedulingIgnoredDuringExecution(),
        antiAffinity.getPreferredDuringSchedulingIgnoredDuringExecution(),
        object,
        ANTI_AFFINITY);
  }

  private static PodAffinity read(
      @Nullable List<io.fabric8.kubernetes.api.model.PodAffinityTerm> requiredTerms,
      @Nullable List<io.fabric8.kubernetes.api.model.WeightedPodAffinityTerm> preferredTerms,
      String object,
      String field) {
    var required = new ArrayList<PodAffinityTerm>();
    var terms = orEmpty(requiredTerms);
    for (int i = 0; i < terms.size(); i++) {
      required.add(term(terms.get(i), object, field + REQUIRED + "[" + i + "]"));
    }
    var preferred = new ArrayList<WeightedPodAffinityTerm>();
    var weighted = orEmpty(preferredTerms);
    for (int i = 0; i < weighted.size(); i++) {
      var w = weighted.get(i);
      var weight = w == null || w.getWeight() == null ? 0 : w.getWeight();
      var term = w == null ? null : w.getPodAffinityTerm();
      preferred.add(
          new WeightedPodAffinityTerm(
              weight, term(term, object, field + PREFERRED + "[" + i + "].podAffinityTerm")));
    }
    return new PodAffinity(required, preferred);
  }

  private static PodAffinityTerm term(
      io.fabric8.kubernetes.api.model.@Nullable PodAffinityTerm term, String object, String field) {
    if (term == null) {
      return new PodAffinityTerm(null, java.util.Set.of(), null, "", List.of(), List.of());
    }
    return SharedStrings.sharedValue(
        new PodAffinityTerm(
            LabelSelectors.read(term.getLabelSelector(), object, field + ".labelSelector"),
            new HashSet<>(strings(term.getNamespaces())),
            LabelSelectors.read(term.getNamespaceSelector(), object, field + ".namespaceSelector"),
            SharedStrings.shared(orEmpty(term.getTopologyKey())),
            strings(term.getMatchLabelKeys()),
            strings(term.getMismatchLabelKeys())));
  }

  /** A list of strings with {@code null} entries read as empty, as Go reads them. */
  static List<String> strings(@Nullable List<String> list) {
    return orEmpty(list).stream().map(s -> Objects.requireNonNullElse(s, "")).toList();
  }
}
