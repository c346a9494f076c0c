package io.kubesched.policy.plugins.dynamicresources.cel;

import java.util.LinkedHashSet;
import java.util.Map;
import java.util.regex.Pattern;

/**
 * The functions of kube's device selector environment that this package does not provide. They are not declared,
 * so an expression calling one fails to compile (it never evaluates differently from kube); this names the
 * Kubernetes library the function belongs to, so that the message says why.
 */
final class Unsupported {

  /** Each missing function by name, with the library kube has it from. */
  static final Map<String, String> FUNCTIONS = Map.ofEntries(
      Map.entry("ip", "IP"), Map.entry("isIP", "IP"), Map.entry("isCanonical", "IP"), Map.entry("family", "IP"),
      Map.entry("isUnspecified", "IP"), Map.entry("isLoopback", "IP"), Map.entry("isLinkLocalMulticast", "IP"),
      Map.entry("isLinkLocalUnicast", "IP"), Map.entry("isGlobalUnicast", "IP"),
      Map.entry("cidr", "CIDR"), Map.entry("isCIDR", "CIDR"), Map.entry("containsIP", "CIDR"),
      Map.entry("containsCIDR", "CIDR"), Map.entry("masked", "CIDR"), Map.entry("prefixLength", "CIDR"));

  private static final Pattern NAMED =
      Pattern.compile("(?:undeclared reference to|found no matching overload for) '([A-Za-z_][A-Za-z0-9_]*)'");

  private Unsupported() {}

  /**
   * @param issues the checker's issues for an expression
   * @return an explanation to append when they name a function kube has and this package lacks, else ""
   */
  static String explain(String issues) {
    var named = new LinkedHashSet<String>();
    var matcher = NAMED.matcher(issues);
    while (matcher.find()) {
      if (FUNCTIONS.containsKey(matcher.group(1))) {
        named.add(matcher.group(1));
      }
    }
    var explanation = new StringBuilder();
    for (String function : named) {
      explanation.append("\n").append(function).append("() is in Kubernetes' CEL ").append(FUNCTIONS.get(function))
          .append(" library, which kubesched's device selectors do not provide");
    }
    return explanation.toString();
  }
}
