package io.kubesched.policy.plugins.dynamicresources.cel;

import com.google.common.primitives.UnsignedLong;
import dev.cel.common.CelFunctionDecl;
import dev.cel.common.CelOptions;
import dev.cel.common.CelOverloadDecl;
import dev.cel.common.types.CelType;
import dev.cel.common.types.ListType;
import dev.cel.common.types.SimpleType;
import dev.cel.common.types.TypeParamType;
import dev.cel.common.values.CelByteString;
import dev.cel.runtime.CelEvaluationException;
import dev.cel.runtime.CelFunctionBinding;
import dev.cel.runtime.RuntimeEquality;
import dev.cel.runtime.RuntimeHelpers;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * kube's lists library ({@code k8s.io/apiserver/pkg/cel/library/lists.go}, version 1): {@code isSorted}, {@code
 * min}, {@code max} over lists of int, uint, double, bool, string, duration, timestamp and bytes, {@code sum} over
 * int, uint, double and duration, and {@code indexOf} and {@code lastIndexOf} over any list, with kube's semantics
 * and messages. Stateless.
 */
final class KubeLists {

  private static final Map<String, CelType> COMPARABLE = Map.of(
      "int", SimpleType.INT, "uint", SimpleType.UINT, "double", SimpleType.DOUBLE, "bool", SimpleType.BOOL,
      "string", SimpleType.STRING, "duration", SimpleType.DURATION, "timestamp", SimpleType.TIMESTAMP,
      "bytes", SimpleType.BYTES);
  private static final Map<String, CelType> SUMMABLE = Map.of(
      "int", SimpleType.INT, "uint", SimpleType.UINT, "double", SimpleType.DOUBLE, "duration", SimpleType.DURATION);

  private KubeLists() {}

  static List<CelFunctionDecl> declarations() {
    var isSorted = new ArrayList<CelOverloadDecl>();
    var min = new ArrayList<CelOverloadDecl>();
    var max = new ArrayList<CelOverloadDecl>();
    var sum = new ArrayList<CelOverloadDecl>();
    COMPARABLE.forEach((name, type) -> {
      isSorted.add(CelOverloadDecl.newMemberOverload(
          "list_" + name + "_is_sorted_bool", SimpleType.BOOL, ListType.create(type)));
      min.add(CelOverloadDecl.newMemberOverload("list_" + name + "_min_" + name, type, ListType.create(type)));
      max.add(CelOverloadDecl.newMemberOverload("list_" + name + "_max_" + name, type, ListType.create(type)));
    });
    SUMMABLE.forEach((name, type) ->
        sum.add(CelOverloadDecl.newMemberOverload("list_" + name + "_sum_" + name, type, ListType.create(type))));
    CelType a = TypeParamType.create("A");
    return List.of(
        CelFunctionDecl.newFunctionDeclaration("isSorted", isSorted),
        CelFunctionDecl.newFunctionDeclaration("min", min),
        CelFunctionDecl.newFunctionDeclaration("max", max),
        CelFunctionDecl.newFunctionDeclaration("sum", sum),
        CelFunctionDecl.newFunctionDeclaration("indexOf",
            CelOverloadDecl.newMemberOverload("list_a_index_of_int", SimpleType.INT, ListType.create(a), a)),
        CelFunctionDecl.newFunctionDeclaration("lastIndexOf",
            CelOverloadDecl.newMemberOverload("list_a_last_index_of_int", SimpleType.INT, ListType.create(a), a)));
  }

  static List<CelFunctionBinding> bindings(CelOptions options) {
    var equality = RuntimeEquality.create(RuntimeHelpers.create(), options);
    var bindings = new ArrayList<CelFunctionBinding>();
    for (String name : COMPARABLE.keySet()) {
      bindings.add(CelFunctionBinding.from("list_" + name + "_is_sorted_bool", List.class, KubeLists::isSorted));
      bindings.add(CelFunctionBinding.from("list_" + name + "_min_" + name, List.class, list -> pick(list, "min")));
      bindings.add(CelFunctionBinding.from("list_" + name + "_max_" + name, List.class, list -> pick(list, "max")));
    }
    bindings.add(CelFunctionBinding.from("list_int_sum_int", List.class, KubeLists::sumInt));
    bindings.add(CelFunctionBinding.from("list_uint_sum_uint", List.class, KubeLists::sumUint));
    bindings.add(CelFunctionBinding.from("list_double_sum_double", List.class, KubeLists::sumDouble));
    bindings.add(CelFunctionBinding.from("list_duration_sum_duration", List.class, KubeLists::sumDuration));
    bindings.add(CelFunctionBinding.from("list_a_index_of_int", List.class, Object.class, (list, item) -> {
      for (int i = 0; i < list.size(); i++) {
        if (equality.objectEquals(list.get(i), item)) {
          return (long) i;
        }
      }
      return -1L;
    }));
    bindings.add(CelFunctionBinding.from("list_a_last_index_of_int", List.class, Object.class, (list, item) -> {
      for (int i = list.size() - 1; i >= 0; i--) {
        if (equality.objectEquals(list.get(i), item)) {
          return (long) i;
        }
      }
      return -1L;
    }));
    return List.copyOf(bindings);
  }

  @SuppressWarnings({"unchecked", "rawtypes"})
  private static int compare(Object a, Object b) {
    if (a instanceof CelByteString x) {
      // cel-go compares bytes as Go's bytes.Compare: unsigned, byte by byte.
      return Integer.signum(CelByteString.unsignedLexicographicalComparator().compare(x, (CelByteString) b));
    }
    return Integer.signum(((Comparable) a).compareTo(b));
  }

  private static boolean isSorted(List<?> list) {
    for (int i = 1; i < list.size(); i++) {
      if (compare(list.get(i - 1), list.get(i)) > 0) {
        return false;
      }
    }
    return true;
  }

  private static Object pick(List<?> list, String name) throws CelEvaluationException {
    if (list.isEmpty()) {
      throw new CelEvaluationException(name + " called on empty list");
    }
    Object result = list.get(0);
    int replaceWhen = name.equals("min") ? 1 : -1;
    for (Object next : list.subList(1, list.size())) {
      if (compare(result, next) == replaceWhen) {
        result = next;
      }
    }
    return result;
  }

  private static long sumInt(List<?> list) throws CelEvaluationException {
    long sum = 0;
    for (Object value : list) {
      try {
        sum = Math.addExact(sum, (Long) value);
      } catch (ArithmeticException e) {
        throw new CelEvaluationException("integer overflow", e);
      }
    }
    return sum;
  }

  private static UnsignedLong sumUint(List<?> list) throws CelEvaluationException {
    long sum = 0;
    for (Object value : list) {
      long next = ((UnsignedLong) value).longValue();
      long total = sum + next;
      if (Long.compareUnsigned(total, sum) < 0) {
        throw new CelEvaluationException("unsigned integer overflow");
      }
      sum = total;
    }
    return UnsignedLong.fromLongBits(sum);
  }

  /** cel-go's durations are int64 nanoseconds: a sum beyond them overflows. */
  private static Duration sumDuration(List<?> list) throws CelEvaluationException {
    long nanos = 0;
    for (Object value : list) {
      try {
        nanos = Math.addExact(nanos, ((Duration) value).toNanos());
      } catch (ArithmeticException e) {
        throw new CelEvaluationException("integer overflow", e);
      }
    }
    return Duration.ofNanos(nanos);
  }

  private static double sumDouble(List<?> list) {
    double sum = 0;
    for (Object value : list) {
      sum += (Double) value;
    }
    return sum;
  }
}
