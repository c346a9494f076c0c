package io.kubesched.policy.plugins.dynamicresources.cel;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Objects;

/**
 * A semantic version as kube's CEL {@code semver} library holds it (blang/semver v4's {@code Version}): parsed
 * strictly as semver 2.0.0 by {@link #parse}, or leniently by {@link #parseNormalized} (a {@code v} prefix,
 * leading zeros and missing minor or patch numbers accepted). Ordered by precedence; equal when the precedence is
 * equal, whatever the build metadata. Immutable.
 */
final class Semver implements Comparable<Semver> {

  private static final String NUMBERS = "0123456789";
  private static final String ALPHANUM = "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ-" + NUMBERS;

  private final long major;
  private final long minor;
  private final long patch;
  private final List<Object> pre; // Long (unsigned) or String identifiers
  private final List<String> build;

  private Semver(long major, long minor, long patch, List<Object> pre, List<String> build) {
    this.major = major;
    this.minor = minor;
    this.patch = patch;
    this.pre = List.copyOf(pre);
    this.build = List.copyOf(build);
  }

  /** The major number as kube's {@code major()} returns it (an unsigned 64-bit number as CEL's int). */
  long major() {
    return major;
  }

  long minor() {
    return minor;
  }

  long patch() {
    return patch;
  }

  /**
   * Parses {@code text} strictly, as blang/semver's {@code Parse}.
   *
   * @throws IllegalArgumentException with blang/semver's message when it is not a semantic version
   */
  static Semver parse(String text) {
    if (text.isEmpty()) {
      throw new IllegalArgumentException("Version string empty");
    }
    String[] parts = text.split("\\.", 3);
    if (parts.length != 3) {
      throw new IllegalArgumentException("No Major.Minor.Patch elements found");
    }
    long major = number(parts[0], "major", "Major");
    long minor = number(parts[1], "minor", "Minor");
    String patchText = parts[2];
    var build = new ArrayList<String>();
    var pre = new ArrayList<Object>();
    int plus = patchText.indexOf('+');
    List<String> buildParts = List.of();
    if (plus != -1) {
      buildParts = Arrays.asList(patchText.substring(plus + 1).split("\\.", -1));
      patchText = patchText.substring(0, plus);
    }
    List<String> preParts = List.of();
    int dash = patchText.indexOf('-');
    if (dash != -1) {
      preParts = Arrays.asList(patchText.substring(dash + 1).split("\\.", -1));
      patchText = patchText.substring(0, dash);
    }
    long patch = number(patchText, "patch", "Patch");
    for (String identifier : preParts) {
      pre.add(prerelease(identifier));
    }
    for (String identifier : buildParts) {
      if (identifier.isEmpty()) {
        throw new IllegalArgumentException("Build meta data is empty");
      }
      if (!containsOnly(identifier, ALPHANUM)) {
        throw new IllegalArgumentException("Invalid character(s) found in build meta data " + quote(identifier));
      }
      build.add(identifier);
    }
    return new Semver(major, minor, patch, pre, build);
  }

  /**
   * Parses {@code text} as kube's {@code semver(text, true)}: drops one {@code v} prefix and leading zeros, fills
   * in a missing minor or patch number with 0, then parses strictly.
   *
   * @throws IllegalArgumentException with kube's message when it is not a semantic version
   */
  static Semver parseNormalized(String text) {
    String trimmed = text.startsWith("v") ? text.substring(1) : text;
    var parts = new ArrayList<>(Arrays.asList(trimmed.split("\\.", 3)));
    for (int i = 0; i < parts.size(); i++) {
      String part = parts.get(i);
      if (part.length() > 1) {
        int zeros = 0;
        while (zeros < part.length() && part.charAt(zeros) == '0') {
          zeros++;
        }
        part = part.substring(zeros);
        if (part.isEmpty() || NUMBERS.indexOf(part.charAt(0)) < 0) {
          part = "0" + part;
        }
        parts.set(i, part);
      }
    }
    if (parts.size() < 3) {
      String last = parts.get(parts.size() - 1);
      if (last.indexOf('+') >= 0 || last.indexOf('-') >= 0) {
        throw new IllegalArgumentException("short version cannot contain PreRelease/Build meta data");
      }
      while (parts.size() < 3) {
        parts.add("0");
      }
    }
    return parse(String.join(".", parts));
  }

  private static long number(String text, String name, String capitalized) {
    if (!containsOnly(text, NUMBERS)) {
      throw new IllegalArgumentException("Invalid character(s) found in " + name + " number " + quote(text));
    }
    if (text.length() > 1 && text.charAt(0) == '0') {
      throw new IllegalArgumentException(capitalized + " number must not contain leading zeroes " + quote(text));
    }
    return parseUnsigned(text);
  }

  private static Object prerelease(String identifier) {
    if (identifier.isEmpty()) {
      throw new IllegalArgumentException("Prerelease is empty");
    }
    if (containsOnly(identifier, NUMBERS)) {
      if (identifier.length() > 1 && identifier.charAt(0) == '0') {
        throw new IllegalArgumentException(
            "Numeric PreRelease version must not contain leading zeroes " + quote(identifier));
      }
      return parseUnsigned(identifier);
    }
    if (containsOnly(identifier, ALPHANUM)) {
      return identifier;
    }
    throw new IllegalArgumentException("Invalid character(s) found in prerelease " + quote(identifier));
  }

  private static long parseUnsigned(String digits) {
    try {
      return Long.parseUnsignedLong(digits);
    } catch (NumberFormatException e) {
      // Go's strconv.ParseUint error, as blang/semver passes it on.
      throw new IllegalArgumentException(
          "strconv.ParseUint: parsing " + quote(digits) + (digits.isEmpty() ? ": invalid syntax" : ": value out of range"),
          e);
    }
  }

  private static boolean containsOnly(String text, String allowed) {
    for (int i = 0; i < text.length(); i++) {
      if (allowed.indexOf(text.charAt(i)) < 0) {
        return false;
      }
    }
    return true;
  }

  private static String quote(String text) {
    return "\"" + text.replace("\\", "\\\\").replace("\"", "\\\"") + "\"";
  }

  @Override
  public int compareTo(Semver other) {
    int c = Long.compareUnsigned(major, other.major);
    if (c == 0) {
      c = Long.compareUnsigned(minor, other.minor);
    }
    if (c == 0) {
      c = Long.compareUnsigned(patch, other.patch);
    }
    if (c != 0) {
      return Integer.signum(c);
    }
    if (pre.isEmpty() || other.pre.isEmpty()) {
      return Boolean.compare(pre.isEmpty(), other.pre.isEmpty());
    }
    for (int i = 0; i < pre.size() && i < other.pre.size(); i++) {
      int identifier = comparePrerelease(pre.get(i), other.pre.get(i));
      if (identifier != 0) {
        return identifier;
      }
    }
    return Integer.signum(Integer.compare(pre.size(), other.pre.size()));
  }

  private static int comparePrerelease(Object a, Object b) {
    if (a instanceof Long x && b instanceof Long y) {
      return Integer.signum(Long.compareUnsigned(x, y));
    }
    if (a instanceof Long) {
      return -1;
    }
    if (b instanceof Long) {
      return 1;
    }
    // Go compares strings bytewise; the identifiers are ASCII, where that is Java's order.
    return Integer.signum(((String) a).compareTo((String) b));
  }

  /** Equal as kube's {@code Semver.Equal}: the same precedence, build metadata ignored. */
  @Override
  public boolean equals(Object other) {
    return other instanceof Semver semver && compareTo(semver) == 0;
  }

  @Override
  public int hashCode() {
    return Objects.hash(major, minor, patch, pre);
  }

  /** @return the version as blang/semver writes it */
  @Override
  public String toString() {
    var text = new StringBuilder()
        .append(Long.toUnsignedString(major)).append('.')
        .append(Long.toUnsignedString(minor)).append('.')
        .append(Long.toUnsignedString(patch));
    if (!pre.isEmpty()) {
      text.append('-');
      for (int i = 0; i < pre.size(); i++) {
        Object identifier = pre.get(i);
        text.append(i == 0 ? "" : ".")
            .append(identifier instanceof Long n ? Long.toUnsignedString(n) : identifier);
      }
    }
    if (!build.isEmpty()) {
      text.append('+').append(String.join(".", build));
    }
    return text.toString();
  }
}
