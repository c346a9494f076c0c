package io.kubesched.crd;

import io.kubesched.api.ConfigurationException;
import io.kubesched.api.FinderFunc;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collection;
import java.util.Comparator;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.TreeMap;
import org.jspecify.annotations.Nullable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Decides which policy each profile schedules with, given every SchedulingPolicy there is, and applies the
 * changes: the pure part of {@link SchedulingPolicyController}, with the parser and the controller behind two
 * small ports.
 *
 * <p>The rules:
 * <ul>
 *   <li>A policy whose spec does not parse is {@code Invalid}; one naming no configured profile is {@code
 *       UnknownScheduler}.
 *   <li>Of the policies naming one profile, the oldest (creation time, then name) owns it, valid or not; the
 *       others are {@code Conflict}.
 *   <li>The profile schedules with its owner's policy if that is valid and the controller takes it; else with the
 *       owner's last policy the controller took for that profile (an invalid edit keeps the last good one); else,
 *       and when no policy names it, with the configured (file's) profile.
 *   <li>A policy the controller refuses ({@link Replacer#replace} throws) is {@code Invalid} with the controller's
 *       message, until its next generation.
 * </ul>
 *
 * <p>Not thread-safe: the controller calls it from its one worker thread. A spec is parsed once per generation
 * (and again if it changed without a new generation).
 */
final class PolicyBook {

  private static final Logger LOG = LoggerFactory.getLogger(PolicyBook.class);

  /** One SchedulingPolicy as the book needs it. */
  record Entry(String name, String uid, long generation, Instant created, Parsed parsed) {}

  /** A spec, parsed. */
  sealed interface Parsed {
    /** @return the profile it names, if it names one */
    @Nullable String schedulerName();

    /** A spec that parses: the profile it names and its policy. */
    record Valid(String schedulerName, FinderFunc policy) implements Parsed {}

    /** A spec that does not parse: why (the field, the value, what is valid). */
    record Invalid(@Nullable String schedulerName, String message) implements Parsed {}
  }

  /** Parses a spec; called once per object generation. */
  @FunctionalInterface
  interface Parser {
    Parsed parse(SchedulingPolicy policy);
  }

  /** Sets the policy a profile schedules with ({@code Controller.replacePolicy}). */
  @FunctionalInterface
  interface Replacer {
    /** @throws ConfigurationException if the controller cannot schedule with {@code policy} */
    void replace(String schedulerName, FinderFunc policy);
  }

  /**
   * What a policy's {@code Accepted} condition should say.
   *
   * @param accepted the condition's status
   * @param reason {@code Accepted}, {@code Invalid}, {@code Conflict} or {@code UnknownScheduler}
   * @param message for a person: what is in force, or what is wrong
   * @param schedulerName the profile it names, if any
   * @param inForce for a policy not accepted: what its profile schedules with instead (for the event), else empty
   */
  record Verdict(boolean accepted, String reason, String message, @Nullable String schedulerName, String inForce) {}

  /** What one profile schedules with now. */
  private record Applied(FinderFunc policy, @Nullable String by, long generation) {
    String describe(String schedulerName) {
      return by == null
          ? "scheduler " + schedulerName + " keeps its configured profile"
          : "scheduler " + schedulerName + " keeps the policy of SchedulingPolicy " + by + " generation " + generation;
    }
  }

  /** What is remembered of one object (by uid): its parsed spec, and what the controller took of it. */
  private static final class Known {
    long generation;
    @Nullable SchedulingPolicySpec spec;
    Parsed parsed;
    @Nullable String refused; // the controller's message, for this generation
    @Nullable Applied lastGood; // the last of its policies the controller took
    @Nullable String lastGoodFor;

    Known(long generation, @Nullable SchedulingPolicySpec spec, Parsed parsed) {
      this.generation = generation;
      this.spec = spec;
      this.parsed = parsed;
    }
  }

  private final Map<String, FinderFunc> configured;
  private final Parser parser;
  private final Replacer replacer;
  private final Map<String, Known> known = new HashMap<>();
  private final Map<String, Applied> applied = new HashMap<>();

  /**
   * @param configured the configured profiles: scheduler name to the policy to fall back to; the controller
   *     starts with these
   */
  PolicyBook(Map<String, FinderFunc> configured, Parser parser, Replacer replacer) {
    this.configured = Map.copyOf(configured);
    this.parser = parser;
    this.replacer = replacer;
    this.configured.forEach((name, policy) -> applied.put(name, new Applied(policy, null, 0)));
  }

  /**
   * Brings every profile in line with {@code policies}, calling the {@link Replacer} for each profile whose
   * policy changes.
   *
   * @param policies every SchedulingPolicy that exists now (what is not among them was deleted)
   * @return the verdict on each of them, by name
   */
  Map<String, Verdict> reconcile(Collection<SchedulingPolicy> policies) {
    var entries = new ArrayList<Entry>();
    var seen = new HashSet<String>();
    for (var policy : policies) {
      var meta = policy.getMetadata();
      var uid = Objects.requireNonNullElse(meta.getUid(), meta.getName());
      long generation = meta.getGeneration() == null ? 0 : meta.getGeneration();
      var k = known.get(uid);
      // The API server bumps the generation with every spec change; the spec is compared too, for a server
      // that does not (fabric8's mock server).
      if (k == null || k.generation != generation || !Objects.equals(k.spec, policy.getSpec())) {
        var parsed = parser.parse(policy);
        if (k == null) {
          k = new Known(generation, policy.getSpec(), parsed);
          known.put(uid, k);
        } else {
          k.generation = generation;
          k.spec = policy.getSpec();
          k.parsed = parsed;
          k.refused = null;
        }
      }
      seen.add(uid);
      entries.add(new Entry(meta.getName(), uid, generation, created(policy), k.parsed));
    }
    known.keySet().retainAll(seen);

    var verdicts = new TreeMap<String, Verdict>();
    var byProfile = new LinkedHashMap<String, List<Entry>>();
    for (var entry : entries) {
      var profile = entry.parsed().schedulerName();
      if (entry.parsed() instanceof Parsed.Invalid invalid) {
        verdicts.put(entry.name(), new Verdict(false, SchedulingPolicyStatus.REASON_INVALID, invalid.message(),
            profile, ""));
      } else if (profile != null && !configured.containsKey(profile)) {
        verdicts.put(entry.name(), new Verdict(false, SchedulingPolicyStatus.REASON_UNKNOWN_SCHEDULER,
            "schedulerName " + profile + " is not a profile of this scheduler; its profiles: "
                + String.join(", ", new TreeMap<>(configured).keySet()),
            profile, ""));
      }
      if (profile != null && configured.containsKey(profile)) {
        byProfile.computeIfAbsent(profile, p -> new ArrayList<>()).add(entry);
      }
    }
    for (var profile : new TreeMap<>(configured).keySet()) {
      var naming = new ArrayList<>(byProfile.getOrDefault(profile, List.of()));
      naming.sort(Comparator.comparing(Entry::created).thenComparing(Entry::name));
      var owner = naming.isEmpty() ? null : naming.get(0);
      settle(profile, owner);
      var inForce = applied.get(profile).describe(profile);
      for (var entry : naming) {
        if (entry != owner) {
          verdicts.putIfAbsent(entry.name(), new Verdict(false, SchedulingPolicyStatus.REASON_CONFLICT,
              "SchedulingPolicy " + owner.name() + " (created earlier) sets the policy of scheduler " + profile
                  + "; delete one of the two",
              profile, inForce));
        } else {
          var k = known.get(entry.uid());
          if (k.refused != null) {
            verdicts.putIfAbsent(entry.name(), new Verdict(false, SchedulingPolicyStatus.REASON_INVALID, k.refused,
                profile, inForce));
          } else if (entry.parsed() instanceof Parsed.Valid) {
            verdicts.put(entry.name(), new Verdict(true, SchedulingPolicyStatus.REASON_ACCEPTED,
                "scheduler " + profile + " schedules with this policy (generation " + entry.generation() + ")",
                profile, ""));
          }
        }
      }
    }
    // An invalid policy's message says what stays in force, where it names a profile.
    verdicts.replaceAll((name, v) -> !v.accepted() && v.inForce().isEmpty() && v.schedulerName() != null
            && applied.containsKey(v.schedulerName())
        ? new Verdict(false, v.reason(), v.message(), v.schedulerName(),
            applied.get(v.schedulerName()).describe(v.schedulerName()))
        : v);
    return verdicts;
  }

  /** @return what {@code schedulerName} schedules with now, as the book has set it; for tests */
  @Nullable FinderFunc applied(String schedulerName) {
    var a = applied.get(schedulerName);
    return a == null ? null : a.policy();
  }

  /** Sets the profile's policy from its owner: its current policy, else its last good one, else the file's. */
  private void settle(String profile, @Nullable Entry owner) {
    var fallback = new Applied(configured.get(profile), null, 0);
    if (owner == null) {
      apply(profile, fallback);
      return;
    }
    var k = known.get(owner.uid());
    if (owner.parsed() instanceof Parsed.Valid valid && k.refused == null) {
      var current = new Applied(valid.policy(), owner.name(), owner.generation());
      var refusal = apply(profile, current);
      if (refusal == null) {
        k.lastGood = current;
        k.lastGoodFor = profile;
        return;
      }
      k.refused = refusal;
    }
    var lastGood = profile.equals(k.lastGoodFor) ? k.lastGood : null;
    apply(profile, lastGood != null ? lastGood : fallback);
  }

  /** @return null if {@code next} is in force now, else the controller's message */
  private @Nullable String apply(String profile, Applied next) {
    var now = applied.get(profile);
    if (now.policy() == next.policy()) {
      return null;
    }
    try {
      replacer.replace(profile, next.policy());
    } catch (ConfigurationException e) {
      LOG.warn("Scheduler {} cannot take {}: {}", profile,
          next.by() == null ? "its configured profile" : "the policy of SchedulingPolicy " + next.by(), e.getMessage());
      return e.getMessage();
    }
    applied.put(profile, next);
    if (next.by() == null) {
      LOG.info("Scheduler {} schedules with its configured profile again", profile);
    } else {
      LOG.info("Scheduler {} schedules with SchedulingPolicy {} generation {}", profile, next.by(), next.generation());
    }
    return null;
  }

  private static Instant created(SchedulingPolicy policy) {
    var stamp = policy.getMetadata().getCreationTimestamp();
    try {
      return stamp == null ? Instant.MAX : Instant.parse(stamp);
    } catch (RuntimeException e) {
      return Instant.MAX;
    }
  }

  /** @return the names of the profiles this book was given */
  Set<String> profiles() {
    return configured.keySet();
  }
}
