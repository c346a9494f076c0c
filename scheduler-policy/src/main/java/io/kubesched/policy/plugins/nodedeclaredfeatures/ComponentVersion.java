package io.kubesched.policy.plugins.nodedeclaredfeatures;

import java.util.Comparator;

/**
 * A Kubernetes component version, {@code major.minor.patch}, compared part by part. What a declared feature's {@link
 * DeclaredFeature#maxVersion()} is compared with, and only ever asked whether it is greater than such a release
 * version: for that question a pre-release or build suffix changes nothing (under semantic versioning {@code
 * 1.30.0-alpha.1} is below {@code 1.30.0} and above {@code 1.29.x}), so {@link #parse} drops it.
 *
 * @param major the major version
 * @param minor the minor version
 * @param patch the patch version
 */
record ComponentVersion(int major, int minor, int patch) implements Comparable<ComponentVersion> {

  /** The Kubernetes version whose scheduler this library follows: kube-scheduler v1.37.2. */
  static final ComponentVersion KUBE_SCHEDULER = new ComponentVersion(1, 37, 2);

  private static final Comparator<ComponentVersion> ORDER =
      Comparator.comparingInt(ComponentVersion::major)
          .thenComparingInt(ComponentVersion::minor)
          .thenComparingInt(ComponentVersion::patch);

  ComponentVersion {
    if (major < 0 || minor < 0 || patch < 0) {
      throw new IllegalArgumentException("a version's parts must not be negative: " + major + "." + minor + "." + patch);
    }
  }

  /**
   * @param text {@code major.minor.patch}, optionally with a leading {@code v} and a pre-release ({@code -…}) or
   *     build ({@code +…}) suffix, which is dropped
   * @throws IllegalArgumentException if {@code text} is not such a version
   */
  static ComponentVersion parse(String text) {
    var core = text.startsWith("v") ? text.substring(1) : text;
    int suffix = indexOfSuffix(core);
    var parts = (suffix < 0 ? core : core.substring(0, suffix)).split("\\.", -1);
    if (parts.length != 3) {
      throw new IllegalArgumentException("not a version major.minor.patch: \"" + text + "\"");
    }
    try {
      return new ComponentVersion(
          Integer.parseInt(parts[0]), Integer.parseInt(parts[1]), Integer.parseInt(parts[2]));
    } catch (NumberFormatException e) {
      throw new IllegalArgumentException("not a version major.minor.patch: \"" + text + "\"", e);
    }
  }

  private static int indexOfSuffix(String core) {
    int dash = core.indexOf('-');
    int plus = core.indexOf('+');
    return dash < 0 ? plus : plus < 0 ? dash : Math.min(dash, plus);
  }

  @Override
  public int compareTo(ComponentVersion other) {
    return ORDER.compare(this, other);
  }

  @Override
  public String toString() {
    return major + "." + minor + "." + patch;
  }
}
