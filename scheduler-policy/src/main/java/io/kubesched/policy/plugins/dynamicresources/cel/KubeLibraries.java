package io.kubesched.policy.plugins.dynamicresources.cel;

import dev.cel.common.CelFunctionDecl;
import dev.cel.common.CelOverloadDecl;
import com.google.re2j.Matcher;
import com.google.re2j.Pattern;
import com.google.re2j.PatternSyntaxException;
import dev.cel.common.types.CelType;
import dev.cel.common.types.ListType;
import dev.cel.common.types.OpaqueType;
import dev.cel.common.types.SimpleType;
import dev.cel.runtime.CelEvaluationException;
import dev.cel.runtime.CelFunctionBinding;
import io.kubesched.api.Quantity;
import java.math.BigDecimal;
import java.util.ArrayList;
import java.util.List;

/**
 * Kubernetes' own CEL functions that a device selector may call, declared for the checker and bound for the
 * runtime with kube's semantics and error messages: the quantity library ({@code k8s.io/apiserver/pkg/cel/library/
 * quantity.go}), the semver library at version 1 ({@code semverlib.go}), the regex library ({@code find},
 * {@code findAll}, with RE2 as Go's regexp) and {@code includes}. Stateless.
 */
final class KubeLibraries {

  /** kube's {@code apiservercel.QuantityType}. */
  static final CelType QUANTITY = OpaqueType.create("kubernetes.Quantity");

  /** kube's {@code apiservercel.SemverType}. */
  static final CelType SEMVER = OpaqueType.create("kubernetes.Semver");

  private static final CelType STRING = SimpleType.STRING;
  private static final CelType BOOL = SimpleType.BOOL;
  private static final CelType INT = SimpleType.INT;
  private static final CelType DOUBLE = SimpleType.DOUBLE;

  private static final BigDecimal LONG_MIN = BigDecimal.valueOf(Long.MIN_VALUE);
  private static final BigDecimal LONG_MAX = BigDecimal.valueOf(Long.MAX_VALUE);

  private KubeLibraries() {}

  static List<CelFunctionDecl> declarations() {
    return List.of(
        global("quantity", "string_to_quantity", QUANTITY, STRING),
        global("isQuantity", "is_quantity_string", BOOL, STRING),
        // kube declares sign as a global function, not a member.
        global("sign", "quantity_sign", INT, QUANTITY),
        CelFunctionDecl.newFunctionDeclaration("isGreaterThan",
            CelOverloadDecl.newMemberOverload("quantity_is_greater_than", BOOL, QUANTITY, QUANTITY),
            CelOverloadDecl.newMemberOverload("semver_is_greater_than", BOOL, SEMVER, SEMVER)),
        CelFunctionDecl.newFunctionDeclaration("isLessThan",
            CelOverloadDecl.newMemberOverload("quantity_is_less_than", BOOL, QUANTITY, QUANTITY),
            CelOverloadDecl.newMemberOverload("semver_is_less_than", BOOL, SEMVER, SEMVER)),
        CelFunctionDecl.newFunctionDeclaration("compareTo",
            CelOverloadDecl.newMemberOverload("quantity_compare_to", INT, QUANTITY, QUANTITY),
            CelOverloadDecl.newMemberOverload("semver_compare_to", INT, SEMVER, SEMVER)),
        member("asApproximateFloat", "quantity_get_float", DOUBLE, QUANTITY),
        member("asInteger", "quantity_get_int", INT, QUANTITY),
        member("isInteger", "quantity_is_integer", BOOL, QUANTITY),
        CelFunctionDecl.newFunctionDeclaration("add",
            CelOverloadDecl.newMemberOverload("quantity_add", QUANTITY, QUANTITY, QUANTITY),
            CelOverloadDecl.newMemberOverload("quantity_add_int", QUANTITY, QUANTITY, INT)),
        CelFunctionDecl.newFunctionDeclaration("sub",
            CelOverloadDecl.newMemberOverload("quantity_sub", QUANTITY, QUANTITY, QUANTITY),
            CelOverloadDecl.newMemberOverload("quantity_sub_int", QUANTITY, QUANTITY, INT)),
        CelFunctionDecl.newFunctionDeclaration("semver",
            CelOverloadDecl.newGlobalOverload("string_to_semver", SEMVER, STRING),
            CelOverloadDecl.newGlobalOverload("string_bool_to_semver", SEMVER, STRING, BOOL)),
        CelFunctionDecl.newFunctionDeclaration("isSemver",
            CelOverloadDecl.newGlobalOverload("is_semver_string", BOOL, STRING),
            CelOverloadDecl.newGlobalOverload("is_semver_string_bool", BOOL, STRING, BOOL)),
        member("major", "semver_major", INT, SEMVER),
        member("minor", "semver_minor", INT, SEMVER),
        member("patch", "semver_patch", INT, SEMVER),
        member("find", "string_find_string", STRING, STRING, STRING),
        CelFunctionDecl.newFunctionDeclaration("findAll",
            CelOverloadDecl.newMemberOverload("string_find_all_string", ListType.create(STRING), STRING, STRING),
            CelOverloadDecl.newMemberOverload("string_find_all_string_int", ListType.create(STRING), STRING, STRING,
                INT)),
        // kube declares includes for stored expressions (IncludesOption): a list holds the value, or a scalar is it.
        member("includes", "list_includes_dyn_dyn", BOOL, SimpleType.DYN, SimpleType.DYN));
  }

  static List<CelFunctionBinding> bindings() {
    return List.of(
        CelFunctionBinding.from("string_to_quantity", String.class, KubeLibraries::quantity),
        CelFunctionBinding.from("is_quantity_string", String.class, KubeLibraries::isQuantity),
        CelFunctionBinding.from("quantity_sign", Quantity.class, q -> (long) q.value().signum()),
        CelFunctionBinding.from("quantity_is_greater_than", Quantity.class, Quantity.class,
            (a, b) -> a.compareTo(b) > 0),
        CelFunctionBinding.from("quantity_is_less_than", Quantity.class, Quantity.class,
            (a, b) -> a.compareTo(b) < 0),
        CelFunctionBinding.from("quantity_compare_to", Quantity.class, Quantity.class,
            (a, b) -> (long) Integer.signum(a.compareTo(b))),
        CelFunctionBinding.from("quantity_get_float", Quantity.class, q -> q.value().doubleValue()),
        CelFunctionBinding.from("quantity_is_integer", Quantity.class, KubeLibraries::isInt64),
        CelFunctionBinding.from("quantity_get_int", Quantity.class, KubeLibraries::asInteger),
        CelFunctionBinding.from("quantity_add", Quantity.class, Quantity.class, Quantity::plus),
        CelFunctionBinding.from("quantity_add_int", Quantity.class, Long.class, (q, n) -> q.plus(Quantity.of(n))),
        CelFunctionBinding.from("quantity_sub", Quantity.class, Quantity.class, Quantity::minus),
        CelFunctionBinding.from("quantity_sub_int", Quantity.class, Long.class, (q, n) -> q.minus(Quantity.of(n))),
        CelFunctionBinding.from("string_to_semver", String.class, text -> semver(text, false)),
        CelFunctionBinding.from("string_bool_to_semver", String.class, Boolean.class, KubeLibraries::semver),
        CelFunctionBinding.from("is_semver_string", String.class, text -> isSemver(text, false)),
        CelFunctionBinding.from("is_semver_string_bool", String.class, Boolean.class, KubeLibraries::isSemver),
        CelFunctionBinding.from("semver_major", Semver.class, Semver::major),
        CelFunctionBinding.from("semver_minor", Semver.class, Semver::minor),
        CelFunctionBinding.from("semver_patch", Semver.class, Semver::patch),
        CelFunctionBinding.from("semver_is_greater_than", Semver.class, Semver.class, (a, b) -> a.compareTo(b) > 0),
        CelFunctionBinding.from("semver_is_less_than", Semver.class, Semver.class, (a, b) -> a.compareTo(b) < 0),
        CelFunctionBinding.from("semver_compare_to", Semver.class, Semver.class, (a, b) -> (long) a.compareTo(b)),
        CelFunctionBinding.from("string_find_string", String.class, String.class, KubeLibraries::find),
        CelFunctionBinding.from("string_find_all_string", String.class, String.class,
            (text, regex) -> findAll(text, regex, -1)),
        CelFunctionBinding.from("string_find_all_string_int", List.of(String.class, String.class, Long.class),
            args -> findAll((String) args[0], (String) args[1], (Long) args[2])),
        CelFunctionBinding.from("list_includes_dyn_dyn", Object.class, Object.class, KubeLibraries::includes));
  }

  private static Pattern regex(String regex) throws CelEvaluationException {
    try {
      return Pattern.compile(regex);
    } catch (PatternSyntaxException e) {
      throw new CelEvaluationException("Illegal regex: " + e.getMessage(), e);
    }
  }

  private static String find(String text, String regex) throws CelEvaluationException {
    Matcher matcher = regex(regex).matcher(text);
    return matcher.find() ? matcher.group() : "";
  }

  private static List<String> findAll(String text, String regex, long limit) throws CelEvaluationException {
    // Go's FindAllString: a negative limit means all; no empty match right after a previous match.
    Matcher matcher = regex(regex).matcher(text);
    var found = new ArrayList<String>();
    int previousEnd = -1;
    while ((limit < 0 || found.size() < limit) && matcher.find()) {
      if (matcher.group().isEmpty() && matcher.start() == previousEnd) {
        continue;
      }
      found.add(matcher.group());
      previousEnd = matcher.end();
    }
    return found;
  }

  private static boolean includes(Object target, Object value) {
    if (target instanceof List<?> list) {
      return list.stream().anyMatch(item -> equal(item, value));
    }
    return equal(target, value);
  }

  private static boolean equal(Object a, Object b) {
    if (a instanceof Number x && b instanceof Number y) {
      return new BigDecimal(x.toString()).compareTo(new BigDecimal(y.toString())) == 0;
    }
    return a.equals(b);
  }

  /**
   * Reads a quantity as kube's {@code resource.ParseQuantity} does.
   *
   * @throws IllegalArgumentException with {@code ParseQuantity}'s message
   */
  static Quantity parseQuantity(String text) {
    if (text.isEmpty()) {
      throw new IllegalArgumentException("quantities must match the regular expression '"
          + "^([+-]?[0-9.]+)([eEinumkKMGTP]*[-+]?[0-9]*)$'");
    }
    try {
      return Quantity.parse(text);
    } catch (IllegalArgumentException e) {
      if (e.getMessage() != null && e.getMessage().contains("unknown suffix")) {
        throw new IllegalArgumentException("unable to parse quantity's suffix", e);
      }
      throw new IllegalArgumentException("quantities must match the regular expression '"
          + "^([+-]?[0-9.]+)([eEinumkKMGTP]*[-+]?[0-9]*)$'", e);
    }
  }

  private static Quantity quantity(String text) throws CelEvaluationException {
    try {
      return parseQuantity(text);
    } catch (IllegalArgumentException e) {
      throw new CelEvaluationException(e.getMessage(), e);
    }
  }

  private static boolean isQuantity(String text) {
    try {
      parseQuantity(text);
      return true;
    } catch (IllegalArgumentException e) {
      return false;
    }
  }

  private static boolean isInt64(Quantity q) {
    BigDecimal value = q.value();
    return value.stripTrailingZeros().scale() <= 0 && value.compareTo(LONG_MIN) >= 0
        && value.compareTo(LONG_MAX) <= 0;
  }

  private static long asInteger(Quantity q) throws CelEvaluationException {
    if (!isInt64(q)) {
      throw new CelEvaluationException("cannot convert value to integer");
    }
    return q.value().longValueExact();
  }

  private static Semver semver(String text, boolean normalize) throws CelEvaluationException {
    try {
      return normalize ? Semver.parseNormalized(text) : Semver.parse(text);
    } catch (IllegalArgumentException e) {
      throw new CelEvaluationException(e.getMessage(), e);
    }
  }

  private static boolean isSemver(String text, boolean normalize) {
    try {
      semver(text, normalize);
      return true;
    } catch (CelEvaluationException e) {
      return false;
    }
  }

  /** A function with one global overload. */
  static CelFunctionDecl global(String name, String overload, CelType result, CelType... parameters) {
    return CelFunctionDecl.newFunctionDeclaration(
        name, CelOverloadDecl.newGlobalOverload(overload, result, parameters));
  }

  /** A function with one member overload: the receiver is the first parameter. */
  static CelFunctionDecl member(String name, String overload, CelType result, CelType... parameters) {
    return CelFunctionDecl.newFunctionDeclaration(
        name, CelOverloadDecl.newMemberOverload(overload, result, parameters));
  }
}
