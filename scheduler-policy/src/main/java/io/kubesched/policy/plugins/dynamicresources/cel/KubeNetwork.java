package io.kubesched.policy.plugins.dynamicresources.cel;

import dev.cel.common.CelFunctionDecl;
import dev.cel.common.CelOptions;
import dev.cel.common.CelOverloadDecl;
import dev.cel.common.types.CelType;
import dev.cel.common.types.OpaqueType;
import dev.cel.common.types.SimpleType;
import dev.cel.common.values.NullValue;
import dev.cel.runtime.CelEvaluationException;
import dev.cel.runtime.CelFunctionBinding;
import dev.cel.runtime.RuntimeEquality;
import dev.cel.runtime.RuntimeHelpers;
import java.util.List;

/**
 * kube's IP and CIDR libraries ({@code k8s.io/apiserver/pkg/cel/library/ip.go} and {@code cidr.go}), declared for
 * the checker and bound for the runtime with kube's semantics and error messages: {@code ip}, {@code isIP}, {@code
 * ip.isCanonical}, {@code family}, {@code isUnspecified}, {@code isLoopback}, {@code isLinkLocalMulticast}, {@code
 * isLinkLocalUnicast}, {@code isGlobalUnicast}, {@code cidr}, {@code isCIDR}, {@code containsIP}, {@code
 * containsCIDR}, {@code ip()} of a network, {@code masked}, {@code prefixLength}, and {@code string} of both. Their
 * values are {@link IpAddress} and {@link IpPrefix}, which CEL's {@code ==} compares by value. Stateless.
 *
 * <p>As kube's, {@code ip} and {@code cidr} refuse IPv4-mapped IPv6 addresses ({@code ::ffff:10.0.0.1}), and
 * {@code ip} refuses zones ({@code fe80::1%eth0}), so that an address has one spelling per family.
 */
final class KubeNetwork {

  /** kube's {@code apiservercel.IPType}. */
  static final CelType IP = OpaqueType.create("net.IP");

  /** kube's {@code apiservercel.CIDRType}. */
  static final CelType CIDR = OpaqueType.create("net.CIDR");

  private static final CelType STRING = SimpleType.STRING;
  private static final CelType BOOL = SimpleType.BOOL;
  private static final CelType INT = SimpleType.INT;

  private KubeNetwork() {}

  static List<CelFunctionDecl> declarations() {
    return List.of(
        CelFunctionDecl.newFunctionDeclaration("ip",
            CelOverloadDecl.newGlobalOverload("string_to_ip", IP, STRING),
            CelOverloadDecl.newMemberOverload("cidr_ip", IP, CIDR)),
        KubeLibraries.global("isIP", "is_ip", BOOL, STRING),
        KubeLibraries.global("ip.isCanonical", "ip_is_canonical", BOOL, STRING),
        KubeLibraries.member("family", "ip_family", INT, IP),
        KubeLibraries.member("isUnspecified", "ip_is_unspecified", BOOL, IP),
        KubeLibraries.member("isLoopback", "ip_is_loopback", BOOL, IP),
        KubeLibraries.member("isLinkLocalMulticast", "ip_is_link_local_multicast", BOOL, IP),
        KubeLibraries.member("isLinkLocalUnicast", "ip_is_link_local_unicast", BOOL, IP),
        KubeLibraries.member("isGlobalUnicast", "ip_is_global_unicast", BOOL, IP),
        CelFunctionDecl.newFunctionDeclaration("string",
            CelOverloadDecl.newGlobalOverload("ip_to_string", STRING, IP),
            CelOverloadDecl.newGlobalOverload("cidr_to_string", STRING, CIDR)),
        KubeLibraries.global("cidr", "string_to_cidr", CIDR, STRING),
        KubeLibraries.global("isCIDR", "is_cidr", BOOL, STRING),
        CelFunctionDecl.newFunctionDeclaration("containsIP",
            CelOverloadDecl.newMemberOverload("cidr_contains_ip_string", BOOL, CIDR, STRING),
            CelOverloadDecl.newMemberOverload("cidr_contains_ip_ip", BOOL, CIDR, IP)),
        CelFunctionDecl.newFunctionDeclaration("containsCIDR",
            CelOverloadDecl.newMemberOverload("cidr_contains_cidr_string", BOOL, CIDR, STRING),
            CelOverloadDecl.newMemberOverload("cidr_contains_cidr", BOOL, CIDR, CIDR)),
        KubeLibraries.member("prefixLength", "cidr_prefix_length", INT, CIDR),
        KubeLibraries.member("masked", "cidr_masked", CIDR, CIDR));
  }

  /**
   * @param options the environment's options, for the equality of the values that are not addresses or networks
   * @return the bindings of the functions, and of CEL's {@code ==} ({@code equals}), which the environment must
   *     leave out of the standard functions
   */
  static List<CelFunctionBinding> bindings(CelOptions options) {
    var equality = RuntimeEquality.create(RuntimeHelpers.create(), options);
    return List.of(
        CelFunctionBinding.from("equals", Object.class, Object.class, (x, y) -> equal(equality, x, y)),
        CelFunctionBinding.from("string_to_ip", String.class, KubeNetwork::ip),
        CelFunctionBinding.from("is_ip", String.class, text -> parses(text, KubeNetwork::ip)),
        CelFunctionBinding.from("ip_is_canonical", String.class, text -> ip(text).toString().equals(text)),
        CelFunctionBinding.from("ip_family", IpAddress.class, ip -> ip.v4() ? 4L : 6L),
        CelFunctionBinding.from("ip_is_unspecified", IpAddress.class, IpAddress::isUnspecified),
        CelFunctionBinding.from("ip_is_loopback", IpAddress.class, IpAddress::isLoopback),
        CelFunctionBinding.from("ip_is_link_local_multicast", IpAddress.class, IpAddress::isLinkLocalMulticast),
        CelFunctionBinding.from("ip_is_link_local_unicast", IpAddress.class, IpAddress::isLinkLocalUnicast),
        CelFunctionBinding.from("ip_is_global_unicast", IpAddress.class, IpAddress::isGlobalUnicast),
        CelFunctionBinding.from("ip_to_string", IpAddress.class, IpAddress::toString),
        CelFunctionBinding.from("string_to_cidr", String.class, KubeNetwork::cidr),
        CelFunctionBinding.from("is_cidr", String.class, text -> parses(text, KubeNetwork::cidr)),
        CelFunctionBinding.from("cidr_contains_ip_string", IpPrefix.class, String.class,
            KubeNetwork::containsIpString),
        CelFunctionBinding.from("cidr_contains_ip_ip", IpPrefix.class, IpAddress.class, IpPrefix::contains),
        CelFunctionBinding.from("cidr_contains_cidr_string", IpPrefix.class, String.class,
            (network, text) -> network.containsPrefix(cidr(text))),
        CelFunctionBinding.from("cidr_contains_cidr", IpPrefix.class, IpPrefix.class, IpPrefix::containsPrefix),
        CelFunctionBinding.from("cidr_ip", IpPrefix.class, IpPrefix::address),
        CelFunctionBinding.from("cidr_prefix_length", IpPrefix.class, network -> (long) network.bits()),
        CelFunctionBinding.from("cidr_masked", IpPrefix.class, IpPrefix::masked),
        CelFunctionBinding.from("cidr_to_string", IpPrefix.class, IpPrefix::toString));
  }

  /**
   * CEL's {@code ==} as cel-go evaluates it with kube's values: an address or a network on the left of a value of
   * another type (through {@code dyn}) is an error, "no such overload", as kube's {@code Equal} answers; the
   * reverse, and {@code !=}, are false and true as for any two types.
   */
  private static boolean equal(RuntimeEquality equality, Object x, Object y) throws CelEvaluationException {
    if ((x instanceof IpAddress || x instanceof IpPrefix) && !(y instanceof NullValue)
        && x.getClass() != y.getClass()) {
      throw new CelEvaluationException("no such overload");
    }
    return equality.objectEquals(x, y);
  }

  /** kube's {@code parseIPAddr}, with its messages. */
  private static IpAddress ip(String text) throws CelEvaluationException {
    IpAddress.Zoned parsed;
    try {
      parsed = IpAddress.parse(text);
    } catch (IllegalArgumentException e) {
      throw new CelEvaluationException(
          "IP Address " + GoText.quote(text) + " parse error during conversion from string: " + e.getMessage(), e);
    }
    if (!parsed.zone().isEmpty()) {
      throw new CelEvaluationException("IP address " + GoText.quote(text) + " with zone value is not allowed");
    }
    if (parsed.address().is4In6()) {
      throw new CelEvaluationException("IPv4-mapped IPv6 address " + GoText.quote(text) + " is not allowed");
    }
    return parsed.address();
  }

  /** kube's {@code stringToCIDR} over its {@code parseCIDR}, with their messages (the prefix twice, as kube's). */
  private static IpPrefix cidr(String text) throws CelEvaluationException {
    String prefix = "network address parse error during conversion from string: ";
    IpPrefix network;
    try {
      network = IpPrefix.parse(text);
    } catch (IllegalArgumentException e) {
      throw new CelEvaluationException(prefix + prefix + e.getMessage(), e);
    }
    if (network.address().is4In6()) {
      throw new CelEvaluationException(prefix + "IPv4-mapped IPv6 address " + GoText.quote(text)
          + " is not allowed");
    }
    return network;
  }

  /**
   * kube's {@code cidr_contains_ip_string}: when the text is no IP address kube fails with "no such overload", not
   * the parse error (its binding reports the network operand, which is no error, instead of the failed address).
   */
  private static boolean containsIpString(IpPrefix network, String text) throws CelEvaluationException {
    IpAddress ip;
    try {
      ip = ip(text);
    } catch (CelEvaluationException e) {
      throw new CelEvaluationException("no such overload", e);
    }
    return network.contains(ip);
  }

  private interface Parser {
    Object parse(String text) throws CelEvaluationException;
  }

  private static boolean parses(String text, Parser parser) {
    try {
      parser.parse(text);
      return true;
    } catch (CelEvaluationException e) {
      return false;
    }
  }
}
