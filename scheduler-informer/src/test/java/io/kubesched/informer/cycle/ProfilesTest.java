package io.kubesched.informer.cycle;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;

import io.kubesched.api.ClusterData;
import io.kubesched.api.ConfigurationException;
import io.kubesched.api.Decision;
import io.kubesched.api.FinderFunc;
import io.kubesched.api.NodeInfo;
import io.kubesched.api.PodInfo;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;

/** {@link Profiles}: what is watched, what an attempt reads, and which replacements are refused. */
class ProfilesTest {

  private static final FinderFunc NOWHERE = (pod, nodes) -> Decision.unschedulable(Map.of());

  /** A policy that reads {@code data}, counting how often it is asked what it reads. */
  private static FinderFunc reading(Set<ClusterData> data, AtomicInteger asked) {
    return new FinderFunc() {
      @Override
      public Decision find(PodInfo pod, List<NodeInfo> nodes) {
        return Decision.unschedulable(Map.of());
      }

      @Override
      public Set<ClusterData> reads() {
        asked.incrementAndGet();
        return data;
      }
    };
  }

  @Test
  void what_is_watched_is_what_the_first_policies_read_and_what_was_asked_for() {
    var profiles =
        new Profiles(
            Map.of(
                "a", reading(Set.of(ClusterData.SERVICES), new AtomicInteger()),
                "b", reading(Set.of(ClusterData.NAMESPACES), new AtomicInteger())),
            Set.of(ClusterData.PERSISTENT_VOLUME_CLAIMS));

    assertEquals(Set.of("a", "b"), profiles.names());
    assertEquals(
        Set.of(ClusterData.SERVICES, ClusterData.NAMESPACES, ClusterData.PERSISTENT_VOLUME_CLAIMS),
        profiles.watched());
    assertEquals(Set.of(ClusterData.SERVICES), profiles.get("a").reads());
    assertNull(profiles.get("c"));
  }

  @Test
  void an_attempt_keeps_the_profile_it_read_while_the_next_one_reads_the_replacement() {
    var profiles = new Profiles(Map.of("a", NOWHERE, "b", NOWHERE), Set.of());
    FinderFunc next = (pod, nodes) -> Decision.bind("n1");
    var read = profiles.get("a");

    var replaced = profiles.replace("a", next);

    assertSame(NOWHERE, read.finder(), "what an attempt read does not change under it");
    assertSame(next, profiles.get("a").finder());
    assertSame(replaced, profiles.get("a"));
    assertSame(NOWHERE, profiles.get("b").finder(), "the other profile keeps its policy");
    assertEquals(Set.of("a", "b"), profiles.names());
  }

  @Test
  void every_policy_first_or_replacing_is_prepared_as_the_loop_says_and_asked_what_it_reads_as_given() {
    FinderFunc prepared = (pod, nodes) -> Decision.bind("prepared");
    var preparedFrom = new java.util.ArrayList<FinderFunc>();
    var asked = new AtomicInteger();
    var reads = reading(Set.of(ClusterData.SERVICES), asked);
    var profiles =
        new Profiles(
            Map.of("a", reads),
            Set.of(),
            finder -> {
              preparedFrom.add(finder);
              return prepared;
            });

    assertSame(prepared, profiles.get("a").finder());
    assertEquals(Set.of(ClusterData.SERVICES), profiles.get("a").reads());
    profiles.replace("a", NOWHERE);
    assertSame(prepared, profiles.get("a").finder());
    assertEquals(List.of(reads, NOWHERE), preparedFrom);
  }

  @Test
  void a_policy_is_asked_what_it_reads_once_when_it_arrives() {
    var first = new AtomicInteger();
    var second = new AtomicInteger();
    var profiles = new Profiles(Map.of("a", reading(Set.of(ClusterData.SERVICES), first)), Set.of());

    profiles.replace("a", reading(Set.of(ClusterData.SERVICES), second));
    profiles.get("a");
    profiles.get("a");

    assertEquals(1, first.get());
    assertEquals(1, second.get());
  }

  @Test
  void a_replacement_may_read_what_was_asked_to_be_watched() {
    var profiles = new Profiles(Map.of("a", NOWHERE), Set.of(ClusterData.STORAGE_CLASSES));

    profiles.replace("a", reading(Set.of(ClusterData.STORAGE_CLASSES), new AtomicInteger()));

    assertEquals(Set.of(ClusterData.STORAGE_CLASSES), profiles.get("a").reads());
  }

  @Test
  void a_replacement_reading_what_is_not_watched_is_refused_and_the_old_policy_stays() {
    var profiles = new Profiles(Map.of("a", NOWHERE), Set.of(ClusterData.SERVICES));

    var error =
        assertThrows(
            ConfigurationException.class,
            () -> profiles.replace(
                "a", reading(Set.of(ClusterData.SERVICES, ClusterData.CSI_NODES), new AtomicInteger())));

    assertEquals(
        "the new policy of 'a' reads [CSI_NODES], which this controller does not watch (it watches nodes, pods"
            + " and [SERVICES]); watch them from the start with Options.Builder#watch(Set<ClusterData>)",
        error.getMessage());
    assertSame(NOWHERE, profiles.get("a").finder());
  }

  @Test
  void a_controller_that_watches_nothing_more_says_so() {
    var profiles = new Profiles(Map.of("a", NOWHERE), Set.of());

    var error =
        assertThrows(
            ConfigurationException.class,
            () -> profiles.replace("a", reading(Set.of(ClusterData.NAMESPACES), new AtomicInteger())));

    assertEquals(
        "the new policy of 'a' reads [NAMESPACES], which this controller does not watch (it watches nodes and"
            + " pods only); watch them from the start with Options.Builder#watch(Set<ClusterData>)",
        error.getMessage());
  }

  @Test
  void an_unknown_profile_is_refused_listing_the_profiles_in_order() {
    var profiles = new Profiles(Map.of("b", NOWHERE, "a", NOWHERE), Set.of());

    var error = assertThrows(ConfigurationException.class, () -> profiles.replace("c", NOWHERE));

    assertEquals("schedulerName 'c' is not a profile of this controller; its profiles are [a, b]", error.getMessage());
    assertEquals(Set.of("a", "b"), profiles.names(), "no profile is added");
  }

  @Test
  void profiles_need_a_name_each_and_at_least_one() {
    assertThrows(IllegalArgumentException.class, () -> new Profiles(Map.of(), Set.of()));
    assertThrows(IllegalArgumentException.class, () -> new Profiles(Map.of(" ", NOWHERE), Set.of()));
  }
}
