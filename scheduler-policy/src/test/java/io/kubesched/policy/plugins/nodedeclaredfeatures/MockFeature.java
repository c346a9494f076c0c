package io.kubesched.policy.plugins.nodedeclaredfeatures;

import io.kubesched.api.PodInfo;
import java.util.Optional;
import java.util.function.Predicate;

/**
 * A feature of a test's own registry, as kube's tests mock one ({@code ndftesting.MockFeature}): a name, a rule and
 * an optional maximum version.
 */
record MockFeature(String name, Predicate<PodInfo> rule, Optional<ComponentVersion> maxVersion)
    implements DeclaredFeature {

  /** kube's {@code createMockFeature(t, name, infer, maxVersion)}: a rule that always answers {@code infer}. */
  static MockFeature of(String name, boolean infer, String maxVersion) {
    return new MockFeature(
        name, pod -> infer, maxVersion.isEmpty() ? Optional.empty() : Optional.of(ComponentVersion.parse(maxVersion)));
  }

  @Override
  public boolean inferForScheduling(PodInfo pod) {
    return rule.test(pod);
  }
}
