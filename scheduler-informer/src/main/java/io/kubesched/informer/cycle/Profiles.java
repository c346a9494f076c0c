package io.kubesched.informer.cycle;

import io.kubesched.api.ClusterData;
import io.kubesched.api.ConfigurationException;
import io.kubesched.api.FinderFunc;
import java.util.Collections;
import java.util.EnumSet;
import java.util.HashMap;
import java.util.Map;
import java.util.Set;
import java.util.SortedSet;
import java.util.TreeSet;
import java.util.function.UnaryOperator;
import org.jspecify.annotations.Nullable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The profiles of one loop: a fixed set of scheduler names, each with its current policy, which {@link
 * #replace} swaps while the loop runs. All of them are held in one immutable map, replaced whole; an attempt
 * reads its profile once ({@link #get}) and uses what it read from start to end, so that it never mixes two
 * policies, whatever is replaced meanwhile.
 *
 * <p>Also what the loop watches beyond nodes and pods ({@link #watched()}): fixed at construction, so a
 * replacing policy may read only what is watched already.
 *
 * <p>Thread-safe: any thread may {@link #replace} (one at a time); the scheduling thread {@link #get}s without
 * waiting.
 */
public final class Profiles {

  private static final Logger LOG = LoggerFactory.getLogger(Profiles.class);

  /**
   * One profile's policy as an attempt uses it.
   *
   * @param name the scheduler name
   * @param finder the policy
   * @param reads what {@code finder} {@linkplain FinderFunc#reads() reads}, asked once, when the policy arrives
   */
  public record Profile(String name, FinderFunc finder, Set<ClusterData> reads) {

    public Profile {
      reads = Set.copyOf(reads);
    }

    static Profile of(String name, FinderFunc finder, UnaryOperator<FinderFunc> prepare) {
      return new Profile(name, prepare.apply(finder), finder.reads());
    }
  }

  /** Replaced whole, never changed: a reader gets one consistent map without a lock. */
  private volatile Map<String, Profile> current;
  private final Set<ClusterData> watched;
  /** The names, sorted, so that every log line lists them in one order. */
  private final SortedSet<String> names;
  /** Applied to every policy as it arrives: the loop's node workers ({@link FinderFunc#withParallelism}). */
  private final UnaryOperator<FinderFunc> prepare;

  /**
   * Profiles whose policies are used as they are given.
   *
   * @param finders the first policy of each scheduler name, at least one
   * @param alsoWatched what to watch beyond what these policies read, so that a later policy may read it
   * @throws IllegalArgumentException if {@code finders} is empty or a name is blank
   */
  public Profiles(Map<String, FinderFunc> finders, Set<ClusterData> alsoWatched) {
    this(finders, alsoWatched, UnaryOperator.identity());
  }

  /**
   * @param finders the first policy of each scheduler name, at least one
   * @param alsoWatched what to watch beyond what these policies read, so that a later policy may read it
   * @param prepare what every policy, first or replacing, is turned into before attempts use it (given the
   *     loop's node workers); what it reads is asked of the policy as given
   * @throws IllegalArgumentException if {@code finders} is empty or a name is blank
   */
  public Profiles(Map<String, FinderFunc> finders, Set<ClusterData> alsoWatched, UnaryOperator<FinderFunc> prepare) {
    this.prepare = prepare;
    if (finders.isEmpty()) {
      throw new IllegalArgumentException("a controller needs at least one profile (scheduler name)");
    }
    var profiles = new HashMap<String, Profile>();
    var watching = EnumSet.noneOf(ClusterData.class);
    watching.addAll(alsoWatched);
    finders.forEach((name, finder) -> {
      if (name.isBlank()) {
        throw new IllegalArgumentException("a profile's scheduler name must not be blank");
      }
      var profile = Profile.of(name, finder, prepare);
      profiles.put(name, profile);
      watching.addAll(profile.reads());
    });
    this.current = Map.copyOf(profiles);
    this.watched = Set.copyOf(watching);
    this.names = Collections.unmodifiableSortedSet(new TreeSet<>(profiles.keySet()));
  }

  /** @return the scheduler names, sorted; the same set for the life of these profiles */
  public SortedSet<String> names() {
    return names;
  }

  /** @return what the loop watches beyond nodes and pods: what the first policies read, and what was asked for */
  public Set<ClusterData> watched() {
    return watched;
  }

  /** @return the current policy of the profile {@code name}, or null if there is no such profile */
  public @Nullable Profile get(String name) {
    return current.get(name);
  }

  /**
   * Makes {@code finder} the policy of the profile {@code name} for every attempt that reads it from now on,
   * and logs it at INFO.
   *
   * @return the profile as it is now
   * @throws ConfigurationException listing the profiles, if {@code name} is none of them; or naming what
   *     {@code finder} reads that is not watched, and how to watch it
   */
  public synchronized Profile replace(String name, FinderFunc finder) {
    if (!names().contains(name)) {
      throw new ConfigurationException(
          "schedulerName '" + name + "' is not a profile of this controller; its profiles are "
              + names);
    }
    var profile = Profile.of(name, finder, prepare);
    var missing = EnumSet.noneOf(ClusterData.class);
    missing.addAll(profile.reads());
    missing.removeAll(watched);
    if (!missing.isEmpty()) {
      throw new ConfigurationException(
          "the new policy of '" + name + "' reads " + missing + ", which this controller does not watch (it watches "
              + (watched.isEmpty() ? "nodes and pods only" : "nodes, pods and " + EnumSet.copyOf(watched))
              + "); watch them from the start with Options.Builder#watch(Set<ClusterData>)");
    }
    var next = new HashMap<>(current);
    next.put(name, profile);
    current = Map.copyOf(next);
    LOG.info(
        "Profile '{}' schedules with a new policy from now on: {}{}", name, finder,
        profile.reads().isEmpty() ? "" : " (reads " + new TreeSet<>(profile.reads()) + ")");
    return profile;
  }
}
