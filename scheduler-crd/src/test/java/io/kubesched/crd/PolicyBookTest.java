package io.kubesched.crd;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.kubesched.api.ConfigurationException;
import io.kubesched.api.Decision;
import io.kubesched.api.FinderFunc;
import io.kubesched.crd.PolicyBook.Parsed;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.Test;

/**
 * Which policy each profile schedules with, and the verdict on each SchedulingPolicy, through sequences of
 * creations, edits and deletions. The parser is a table (spec's scheduler name to a policy, or a marker for an
 * invalid spec), the controller a recorder.
 */
class PolicyBookTest {

  private static final FinderFunc FILE_ALPHA = (pod, nodes) -> Decision.unschedulable(Map.of());
  private static final FinderFunc FILE_BETA = (pod, nodes) -> Decision.unschedulable(Map.of());

  /** One replacePolicy call. */
  private record Replaced(String schedulerName, FinderFunc policy) {}

  private final List<Replaced> replaced = new ArrayList<>();
  private final Set<FinderFunc> refused = new HashSet<>();
  private final Map<String, FinderFunc> policies = new HashMap<>(); // by "name@generation"
  private final PolicyBook book =
      new PolicyBook(
          Map.of("alpha", FILE_ALPHA, "beta", FILE_BETA),
          this::parse,
          (schedulerName, policy) -> {
            if (refused.contains(policy)) {
              throw new ConfigurationException("the controller does not watch what " + schedulerName + " reads");
            }
            replaced.add(new Replaced(schedulerName, policy));
          });

  /** A spec whose schedulerName starts with "invalid:" does not parse; plugins "refused" are refused later. */
  private Parsed parse(SchedulingPolicy policy) {
    var name = policy.getSpec().schedulerName();
    var key = policy.getMetadata().getName() + "@" + policy.getMetadata().getGeneration();
    if (name.startsWith("invalid-")) {
      return new Parsed.Invalid(name.substring("invalid-".length()),
          "SchedulingPolicy " + policy.getMetadata().getName() + ": spec.plugins.score.enabled[0].name: unknown");
    }
    return new Parsed.Valid(name, policies.computeIfAbsent(key, k -> (pod, nodes) -> Decision.bind(k)));
  }

  private static SchedulingPolicy policy(String name, String schedulerName, long generation, String created) {
    var policy = SchedulingPolicy.of(name, SchedulingPolicySpec.of(schedulerName));
    policy.getMetadata().setUid("uid-" + name);
    policy.getMetadata().setGeneration(generation);
    policy.getMetadata().setCreationTimestamp(created);
    return policy;
  }

  private FinderFunc of(String name, long generation) {
    return policies.get(name + "@" + generation);
  }

  @Test
  void a_valid_policy_replaces_its_profile_once_and_is_accepted() {
    var pack = policy("pack", "alpha", 1, "2026-01-01T00:00:00Z");

    var verdicts = book.reconcile(List.of(pack));
    book.reconcile(List.of(pack)); // a resync: nothing new

    assertEquals(List.of(new Replaced("alpha", of("pack", 1))), replaced);
    assertTrue(verdicts.get("pack").accepted());
    assertEquals("Accepted", verdicts.get("pack").reason());
    assertSame(FILE_BETA, book.applied("beta"));
  }

  @Test
  void an_invalid_policy_is_rejected_and_the_profile_keeps_its_configured_policy() {
    var verdicts = book.reconcile(List.of(policy("typo", "invalid-alpha", 1, "2026-01-01T00:00:00Z")));

    assertTrue(replaced.isEmpty());
    var verdict = verdicts.get("typo");
    assertFalse(verdict.accepted());
    assertEquals("Invalid", verdict.reason());
    assertTrue(verdict.message().contains("spec.plugins.score.enabled[0].name"), verdict.message());
    assertEquals("scheduler alpha keeps its configured profile", verdict.inForce());
  }

  @Test
  void an_invalid_edit_keeps_the_last_good_policy() {
    book.reconcile(List.of(policy("pack", "alpha", 1, "2026-01-01T00:00:00Z")));

    var verdicts = book.reconcile(List.of(policy("pack", "invalid-alpha", 2, "2026-01-01T00:00:00Z")));

    assertEquals(1, replaced.size());
    assertSame(of("pack", 1), book.applied("alpha"));
    assertEquals("Invalid", verdicts.get("pack").reason());
    assertEquals(
        "scheduler alpha keeps the policy of SchedulingPolicy pack generation 1", verdicts.get("pack").inForce());

    var fixed = book.reconcile(List.of(policy("pack", "alpha", 3, "2026-01-01T00:00:00Z")));
    assertSame(of("pack", 3), book.applied("alpha"));
    assertTrue(fixed.get("pack").accepted());
  }

  @Test
  void of_two_policies_for_one_profile_the_older_wins_whichever_comes_first() {
    var older = policy("zz-older", "alpha", 1, "2026-01-01T00:00:00Z");
    var younger = policy("aa-younger", "alpha", 1, "2026-01-01T00:00:05Z");

    var verdicts = book.reconcile(List.of(younger, older));

    assertEquals(List.of(new Replaced("alpha", of("zz-older", 1))), replaced);
    assertTrue(verdicts.get("zz-older").accepted());
    assertEquals("Conflict", verdicts.get("aa-younger").reason());
    assertTrue(verdicts.get("aa-younger").message().contains("SchedulingPolicy zz-older"),
        verdicts.get("aa-younger").message());
  }

  @Test
  void created_in_the_same_second_the_first_by_name_wins() {
    var verdicts = book.reconcile(List.of(
        policy("b", "alpha", 1, "2026-01-01T00:00:00Z"), policy("a", "alpha", 1, "2026-01-01T00:00:00Z")));

    assertTrue(verdicts.get("a").accepted());
    assertEquals("Conflict", verdicts.get("b").reason());
  }

  @Test
  void deleting_the_owner_hands_the_profile_to_the_next_oldest_then_back_to_the_file() {
    var older = policy("older", "alpha", 1, "2026-01-01T00:00:00Z");
    var younger = policy("younger", "alpha", 1, "2026-01-01T00:00:05Z");
    book.reconcile(List.of(older, younger));

    var verdicts = book.reconcile(List.of(younger));
    assertSame(of("younger", 1), book.applied("alpha"));
    assertTrue(verdicts.get("younger").accepted());

    assertTrue(book.reconcile(List.of()).isEmpty());
    assertSame(FILE_ALPHA, book.applied("alpha"));
    assertEquals(
        List.of(new Replaced("alpha", of("older", 1)), new Replaced("alpha", of("younger", 1)),
            new Replaced("alpha", FILE_ALPHA)),
        replaced);
  }

  @Test
  void deleting_an_invalid_owner_after_it_was_valid_goes_back_to_the_file() {
    book.reconcile(List.of(policy("pack", "alpha", 1, "2026-01-01T00:00:00Z")));
    book.reconcile(List.of(policy("pack", "invalid-alpha", 2, "2026-01-01T00:00:00Z")));

    book.reconcile(List.of());

    assertSame(FILE_ALPHA, book.applied("alpha"));
  }

  @Test
  void a_policy_for_a_name_that_is_no_profile_is_unknown_and_changes_nothing() {
    var verdicts = book.reconcile(List.of(policy("elsewhere", "gamma", 1, "2026-01-01T00:00:00Z")));

    assertTrue(replaced.isEmpty());
    assertEquals("UnknownScheduler", verdicts.get("elsewhere").reason());
    assertTrue(verdicts.get("elsewhere").message().contains("alpha, beta"), verdicts.get("elsewhere").message());
  }

  @Test
  void moving_a_policy_to_another_profile_gives_the_first_back_its_configured_policy() {
    book.reconcile(List.of(policy("pack", "alpha", 1, "2026-01-01T00:00:00Z")));

    book.reconcile(List.of(policy("pack", "beta", 2, "2026-01-01T00:00:00Z")));

    assertSame(FILE_ALPHA, book.applied("alpha"));
    assertSame(of("pack", 2), book.applied("beta"));
  }

  @Test
  void a_policy_the_controller_refuses_is_invalid_with_its_message_and_changes_nothing() {
    book.reconcile(List.of(policy("pack", "alpha", 1, "2026-01-01T00:00:00Z")));
    var edited = policy("pack", "alpha", 2, "2026-01-01T00:00:00Z");
    parse(edited); // creates its policy, so that it can be refused
    refused.add(of("pack", 2));

    var verdicts = book.reconcile(List.of(edited));
    book.reconcile(List.of(edited)); // not tried again for the same generation

    assertSame(of("pack", 1), book.applied("alpha"));
    assertEquals(1, replaced.size());
    assertEquals("Invalid", verdicts.get("pack").reason());
    assertTrue(verdicts.get("pack").message().contains("does not watch"), verdicts.get("pack").message());
  }

  @Test
  void a_younger_valid_policy_waits_behind_an_invalid_owner() {
    var verdicts = book.reconcile(List.of(
        policy("owner", "invalid-alpha", 1, "2026-01-01T00:00:00Z"),
        policy("waiting", "alpha", 1, "2026-01-01T00:00:05Z")));

    assertTrue(replaced.isEmpty());
    assertEquals("Invalid", verdicts.get("owner").reason());
    assertEquals("Conflict", verdicts.get("waiting").reason());
  }
}
