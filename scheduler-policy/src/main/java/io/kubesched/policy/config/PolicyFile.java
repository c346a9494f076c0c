package io.kubesched.policy.config;

import static org.apiguardian.api.API.Status.MAINTAINED;

import io.kubesched.api.ConfigurationException;
import io.kubesched.policy.Policy;
import io.kubesched.policy.framework.Filter;
import io.kubesched.policy.framework.PreFilter;
import io.kubesched.policy.framework.PreScorer;
import io.kubesched.policy.framework.ScoreNormalizer;
import io.kubesched.policy.framework.Scorer;
import io.kubesched.policy.plugins.interpodaffinity.InterPodAffinityScorer;
import java.nio.file.Path;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Set;
import org.apiguardian.api.API;
import tools.jackson.databind.JsonNode;

/**
 * Reads a {@link Policy} from a Policy file, JSON or YAML, in the shape of kube-scheduler's former Policy:
 *
 * <pre>{@code
 * kind: Policy
 * apiVersion: v1
 * predicates:
 *   - name: PodFitsResources
 *   - name: PodToleratesNodeTaints
 *   - name: ZoneRequired               # any name: the argument says what it is
 *     argument:
 *       labelsPresence: {labels: [topology.kubernetes.io/zone], presence: true}
 *   - name: SameZoneAsService
 *     argument:
 *       serviceAffinity: {labels: [topology.kubernetes.io/zone]}
 *   - name: GpuDriverReady             # registered by the caller: see Loader
 * priorities:
 *   - name: LeastRequestedPriority
 *     weight: 1
 *   - name: PreferSsd
 *     weight: 2
 *     argument:
 *       labelPreference: {label: disktype, presence: true}
 *   - name: RackSpread
 *     weight: 3
 *     argument:
 *       serviceAntiAffinity: {label: rack}
 * percentageOfNodesToScore: 50           # optional; kube-scheduler's KubeSchedulerConfiguration field
 * hardPodAffinitySymmetricWeight: 1      # optional, 0..100: the InterPodAffinity priority's weight of existing
 *                                        # pods' required affinity
 * preemption:                            # optional; kube-scheduler's DefaultPreemption and its arguments
 *   enabled: true                        # default true, as kube-scheduler's default profile
 *   minCandidateNodesPercentage: 10      # default 10, 0..100
 *   minCandidateNodesAbsolute: 100       # default 100, 0 or more; not both 0
 * }</pre>
 *
 * <p>Without {@code predicates} the default filters apply, without {@code priorities} the default scorers;
 * an empty list means none. Unknown names, missing arguments, non-positive weights and unknown fields are
 * errors whose message names the file, the field's path and the value, and lists what is valid. See {@link
 * Catalog} for the names.
 *
 * <p>{@link #read} and {@link #parse} know the built-in names only. To let a Policy file name filters and
 * scorers of one's own, as kube-scheduler's former {@code RegisterFitPredicate} and {@code
 * RegisterPriorityFunction} did, register them on a {@link Loader}:
 *
 * <pre>{@code
 * Policy policy = PolicyFile.loader()
 *     .filter("GpuDriverReady", new GpuDriverReadyFilter())
 *     .scorer("PreferIdleGpus", new IdleGpuScorer())
 *     .read(Path.of("/etc/scheduler/policy.yaml"));
 * }</pre>
 */
@API(status = MAINTAINED, since = "0.1.0")
public final class PolicyFile {

  private static final Set<String> TOP_LEVEL =
      Set.of(
          "kind",
          "apiVersion",
          "predicates",
          "priorities",
          "percentageOfNodesToScore",
          "hardPodAffinitySymmetricWeight",
          "preemption");

  private PolicyFile() {}

  /**
   * Reads the Policy file at {@code file}, JSON or YAML, knowing the built-in names only; the same as {@code loader().read(file)}.
   *
   * @throws ConfigurationException if the file cannot be read, is not JSON/YAML, or is not a valid Policy;
   *     the message names the file, the field and the value
   */
  public static Policy read(Path file) {
    return Loader.BUILT_IN.read(file);
  }

  /**
   * Reads a Policy from {@code text}, knowing the built-in names only; the same as {@code loader().parse(text,
   * source)}.
   *
   * @param text the Policy, JSON or YAML
   * @param source how error messages name it, for example the file's path
   * @throws ConfigurationException if {@code text} is not a valid Policy
   */
  public static Policy parse(String text, String source) {
    return Loader.BUILT_IN.parse(text, source);
  }

  /** @return a loader that knows the built-in names and nothing registered yet */
  public static Loader loader() {
    return Loader.BUILT_IN;
  }

  /**
   * Reads Policy files that may name, besides the built-in predicates and priorities, filters and scorers the
   * caller registered under a name of their own (kube-scheduler's former {@code RegisterFitPredicate} and
   * {@code RegisterPriorityFunction}). A Policy file names a registered filter as a predicate without an
   * argument ({@code - name: PredicateOne}) and a registered scorer as a priority with a weight and without an
   * argument ({@code - name: PriorityOne, weight: 2}); the file's weight applies.
   *
   * <p>Predicate and priority names are separate, as in the Policy file: one name may be registered as both a
   * filter and a scorer. A registered plugin whose {@code name()} differs from the registered name is used
   * under the registered name, keeping its capabilities ({@link PreFilter}, {@link PreScorer}, {@link
   * ScoreNormalizer}) and what it reads; every
   * Policy read by this loader shares the registered instances, so they must be pure, as all filters and
   * scorers are.
   *
   * <p>Immutable and thread-safe: each registration returns a new loader, the receiver is unchanged.
   */
  public static final class Loader {
    static final Loader BUILT_IN = new Loader(Map.of(), Map.of());

    private final Map<String, Filter> filters;
    private final Map<String, Scorer> scorers;

    private Loader(Map<String, Filter> filters, Map<String, Scorer> scorers) {
      this.filters = filters;
      this.scorers = scorers;
    }

    /**
     * @param name the predicate name a Policy file will use
     * @param filter the filter it stands for
     * @return a loader that knows this loader's names and {@code name}
     * @throws ConfigurationException if {@code name} is blank, a built-in predicate's name, or already
     *     registered as a filter
     */
    public Loader filter(String name, Filter filter) {
      check(name, "predicate", Catalog.isBuiltInPredicate(name), filters.keySet());
      var registered = new LinkedHashMap<>(filters);
      registered.put(name, Renamed.filter(name, filter));
      return new Loader(Collections.unmodifiableMap(registered), scorers);
    }

    /**
     * @param name the priority name a Policy file will use
     * @param scorer the scorer it stands for (its weight comes from the file)
     * @return a loader that knows this loader's names and {@code name}
     * @throws ConfigurationException if {@code name} is blank, a built-in priority's name, or already
     *     registered as a scorer
     */
    public Loader scorer(String name, Scorer scorer) {
      check(name, "priority", Catalog.isBuiltInPriority(name), scorers.keySet());
      var registered = new LinkedHashMap<>(scorers);
      registered.put(name, Renamed.scorer(name, scorer));
      return new Loader(filters, Collections.unmodifiableMap(registered));
    }

    /** @return the registered predicate names, in the order registered */
    public Set<String> filterNames() {
      return filters.keySet();
    }

    /** @return the registered priority names, in the order registered */
    public Set<String> scorerNames() {
      return scorers.keySet();
    }

    /**
     * Reads the Policy file at {@code file}, JSON or YAML.
     *
     * @throws ConfigurationException if the file cannot be read, is not JSON/YAML, or is not a valid Policy;
     *     the message names the file, the field and the value
     */
    public Policy read(Path file) {
      return parse(TreeReader.readFile(file, "policy file " + file), file.toString());
    }

    /**
     * Reads a Policy from {@code text}.
     *
     * @param text the Policy, JSON or YAML
     * @param source how error messages name it, for example the file's path
     * @throws ConfigurationException if {@code text} is not a valid Policy
     */
    public Policy parse(String text, String source) {
      return new Reader(source, filters, scorers)
          .policy(TreeReader.tree(text, "policy file " + source, false));
    }

    private static void check(String name, String what, boolean builtIn, Set<String> registered) {
      if (name.isBlank()) {
        throw new ConfigurationException("a registered " + what + " name must not be blank, was \"" + name + "\"");
      }
      if (builtIn) {
        throw new ConfigurationException(
            what + " " + name + " is built in and cannot be registered; choose another name");
      }
      if (registered.contains(name)) {
        throw new ConfigurationException(
            what + " " + name + " is already registered; registered: " + registered);
      }
    }

    @Override
    public String toString() {
      return "PolicyFile.Loader{filters=" + filters.keySet() + ", scorers=" + scorers.keySet() + "}";
    }
  }

  /** Walks the tree, with the file's name for messages and the registered plugins. */
  static final class Reader extends TreeReader {
    private final Map<String, Filter> registeredFilters;
    private final Map<String, Scorer> registeredScorers;
    private int hardPodAffinityWeight = InterPodAffinityScorer.DEFAULT_HARD_POD_AFFINITY_WEIGHT;

    Reader(String source, Map<String, Filter> registeredFilters, Map<String, Scorer> registeredScorers) {
      super("policy file " + source + ": ");
      this.registeredFilters = registeredFilters;
      this.registeredScorers = registeredScorers;
    }

    Map<String, Filter> registeredFilters() {
      return registeredFilters;
    }

    Map<String, Scorer> registeredScorers() {
      return registeredScorers;
    }

    /** @return the file's {@code hardPodAffinitySymmetricWeight}, or kube's default 1 */
    int hardPodAffinityWeight() {
      return hardPodAffinityWeight;
    }

    Policy policy(JsonNode root) {
      if (root == null || root.isMissingNode() || root.isNull()) {
        throw error("(document)", "is empty; expected kind: Policy with predicates and priorities");
      }
      if (!root.isObject()) {
        throw error("(document)", "must be an object with kind: Policy, was " + root.getNodeType());
      }
      for (var field : root.propertyNames()) {
        if (!TOP_LEVEL.contains(field)) {
          throw error(field, "is not a Policy field; valid: " + sorted(TOP_LEVEL));
        }
      }
      expectText(root, "kind", "Policy");
      expectText(root, "apiVersion", "v1");
      var builder = Policy.builder();
      var hardWeight = root.get("hardPodAffinitySymmetricWeight");
      if (hardWeight != null) {
        hardPodAffinityWeight = integer(hardWeight, "hardPodAffinitySymmetricWeight");
        if (hardPodAffinityWeight < 0 || hardPodAffinityWeight > InterPodAffinityScorer.MAX_HARD_POD_AFFINITY_WEIGHT) {
          throw error("hardPodAffinitySymmetricWeight", "must be 0 to 100, was " + hardPodAffinityWeight);
        }
      }
      var predicates = root.get("predicates");
      if (predicates == null || predicates.isNull()) {
        builder.filters(Catalog.defaultFilters());
      } else {
        for (var entry : list(predicates, "predicates")) {
          for (var filter : Catalog.predicate(this, entry.path(), entry.node())) {
            try {
              builder.filter(filter);
            } catch (IllegalArgumentException duplicate) {
              throw error(entry.path() + ".name", "repeats a predicate: " + duplicate.getMessage());
            }
          }
        }
      }
      var priorities = root.get("priorities");
      if (priorities == null || priorities.isNull()) {
        builder.scorers(Catalog.defaultScorers());
      } else {
        for (var entry : list(priorities, "priorities")) {
          var weighted = Catalog.priority(this, entry.path(), entry.node());
          try {
            builder.scorer(weighted.scorer(), weighted.weight());
          } catch (IllegalArgumentException duplicate) {
            throw error(entry.path() + ".name", "repeats a priority: " + duplicate.getMessage());
          }
        }
      }
      var percentage = root.get("percentageOfNodesToScore");
      if (percentage != null) {
        int value = integer(percentage, "percentageOfNodesToScore");
        if (value < 0 || value > 100) {
          throw error("percentageOfNodesToScore", "must be 0 (adaptive) to 100, was " + value);
        }
        builder.percentageOfNodesToScore(value);
      }
      Catalog.preemption(this, root.get("preemption"))
          .ifPresentOrElse(builder::preemption, builder::noPreemption);
      return builder.build();
    }

    private void expectText(JsonNode root, String field, String expected) {
      var value = root.get(field);
      if (value != null && !(value.isString() && value.stringValue().equals(expected))) {
        throw error(field, "must be " + expected + ", was " + describe(value));
      }
    }
  }
}
