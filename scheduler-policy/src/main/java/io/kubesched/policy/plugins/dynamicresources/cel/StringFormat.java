package io.kubesched.policy.plugins.dynamicresources.cel;

import com.google.common.primitives.UnsignedLong;
import dev.cel.bundle.Cel;
import dev.cel.common.CelAbstractSyntaxTree;
import dev.cel.common.CelFunctionDecl;
import dev.cel.common.CelOverloadDecl;
import dev.cel.common.ast.CelConstant;
import dev.cel.common.ast.CelExpr;
import dev.cel.common.navigation.CelNavigableAst;
import dev.cel.common.types.CelKind;
import dev.cel.common.types.CelType;
import dev.cel.common.types.ListType;
import dev.cel.common.types.SimpleType;
import dev.cel.common.types.TypeType;
import dev.cel.common.values.CelByteString;
import dev.cel.common.values.NullValue;
import dev.cel.runtime.CelEvaluationException;
import dev.cel.runtime.CelFunctionBinding;
import dev.cel.validator.CelAstValidator;
import java.math.BigDecimal;
import java.math.MathContext;
import java.math.RoundingMode;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.EnumSet;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

/**
 * cel-go's {@code <string>.format(<list>)} from its strings extension at version 2, the version kube enables
 * ({@code ext/formatting.go} at the cel-go kube 1.37 pins): the clauses {@code %s %d %f %e %b %o %x %X} and
 * {@code %%}, an optional precision ({@code %.3f}), cel-go's output and messages, and its compile-time check of a
 * literal format string over a literal list ({@link #VALIDATOR}). Stateless.
 *
 * <p>cel-go prints {@code %f} and {@code %e} through golang.org/x/text for the en_US locale: {@code %f} groups the
 * integer digits ({@code 1,234.500000}), writes infinities as {@code ∞} and no sign on -0; {@code %e} always has six
 * decimals and a superscript exponent ({@code 3.140000×10⁰⁰}), its "precision" being a width. Both are reproduced.
 * Where kubesched cannot print what kube prints, the call fails with a message naming the clause instead: a
 * timestamp (cel-java keeps an instant, not the offset cel-go prints it with) and a {@code %f} or {@code %e}
 * precision above 255 (x/text keeps precision in eight bits).
 */
final class StringFormat {

  static final String OVERLOAD = "string_format";

  /** cel-go's {@code stringFormatValidator}: a literal format over a literal list is checked when compiled. */
  static final CelAstValidator VALIDATOR = StringFormat::validate;

  private static final int DEFAULT_PRECISION = 6;
  private static final int MAX_PRECISION = 255;
  private static final String SUPERSCRIPTS = "⁰¹²³⁴⁵⁶⁷⁸⁹";
  private static final String STRING_KINDS = "strings, bools, bytes, ints, doubles, maps, lists, types, durations, "
      + "and timestamps";

  private StringFormat() {}

  static CelFunctionDecl declaration() {
    return CelFunctionDecl.newFunctionDeclaration("format", CelOverloadDecl.newMemberOverload(
        OVERLOAD, SimpleType.STRING, SimpleType.STRING, ListType.create(SimpleType.DYN)));
  }

  static CelFunctionBinding binding() {
    return CelFunctionBinding.from(OVERLOAD, String.class, List.class, StringFormat::evaluate);
  }

  private static String evaluate(String format, List<?> args) throws CelEvaluationException {
    try {
      return format(format, new RuntimeArgs(args));
    } catch (FormatException e) {
      throw new CelEvaluationException(e.getMessage(), e);
    }
  }

  /** A failed format, with cel-go's message and the expression it is about ({@code -1}: the call). */
  static final class FormatException extends Exception {
    private static final long serialVersionUID = 1L;
    private final transient long exprId;

    FormatException(String message) {
      this(message, -1);
    }

    FormatException(String message, long exprId) {
      super(message, null, false, false);
      this.exprId = exprId;
    }

    FormatException wrap(String prefix) {
      return new FormatException(prefix + ": " + getMessage(), exprId);
    }
  }

  /** What the clauses apply to: the values at run time, their types when compiled. */
  private interface Args {
    /** Called as cel-go calls {@code Arg} on meeting a clause, before it reads the clause. */
    void request(int index) throws FormatException;

    int size();

    String apply(char verb, int precision, int index) throws FormatException;
  }

  private static String format(String format, Args args) throws FormatException {
    var built = new StringBuilder();
    int argIndex = 0;
    int i = 0;
    while (i < format.length()) {
      char c = format.charAt(i);
      if (c != '%') {
        built.append(c);
        i++;
        continue;
      }
      if (i + 1 < format.length() && format.charAt(i + 1) == '%') {
        built.append('%');
        i += 2;
        continue;
      }
      args.request(argIndex);
      if (i + 1 >= format.length()) {
        throw new FormatException("unexpected end of string");
      }
      if (argIndex >= args.size()) {
        throw new FormatException("index " + argIndex + " out of range");
      }
      int j = i + 1;
      int precision = -1;
      try {
        if (format.charAt(j) == '.') {
          int start = ++j;
          while (true) {
            if (j >= format.length()) {
              throw new FormatException("error while parsing precision: could not find end of precision specifier");
            }
            if (format.charAt(j) < '0' || format.charAt(j) > '9') {
              break;
            }
            j++;
          }
          precision = precision(format.substring(start, j));
        }
        char verb = format.charAt(j);
        if ("sdfebxXo".indexOf(verb) < 0) {
          // Go reads the clause's first byte as a rune: U+00C3 for the first byte of "é".
          char firstByte = (char) (String.valueOf(verb).getBytes(StandardCharsets.UTF_8)[0] & 0xff);
          throw new FormatException("unrecognized formatting clause \"" + firstByte + "\"");
        }
      } catch (FormatException e) {
        throw e.wrap("could not parse formatting clause");
      }
      try {
        built.append(args.apply(format.charAt(j), precision, argIndex));
      } catch (FormatException e) {
        throw e.wrap("error during formatting");
      }
      i = j + 1;
      argIndex++;
    }
    return built.toString();
  }

  private static int precision(String digits) throws FormatException {
    String prefix = "error while parsing precision: error while converting precision to integer: strconv.Atoi: "
        + "parsing " + GoText.quote(digits);
    if (digits.isEmpty()) {
      throw new FormatException(prefix + ": invalid syntax");
    }
    BigDecimal value = new BigDecimal(digits);
    if (value.compareTo(BigDecimal.valueOf(Long.MAX_VALUE)) > 0) {
      throw new FormatException(prefix + ": value out of range");
    }
    return value.compareTo(BigDecimal.valueOf(Integer.MAX_VALUE)) > 0 ? Integer.MAX_VALUE : value.intValue();
  }

  private record RuntimeArgs(List<?> values) implements Args {
    @Override
    public void request(int index) throws FormatException {
      if (index >= values.size()) {
        throw new FormatException("index " + index + " out of range");
      }
    }

    @Override
    public int size() {
      return values.size();
    }

    @Override
    public String apply(char verb, int precision, int index) throws FormatException {
      Object arg = values.get(index);
      return switch (verb) {
        case 's' -> string(arg);
        case 'd' -> decimal(arg);
        case 'f' -> fixed(arg, precision < 0 ? DEFAULT_PRECISION : precision);
        case 'e' -> scientific(arg, precision < 0 ? DEFAULT_PRECISION : precision);
        case 'b' -> binary(arg);
        case 'o' -> octal(arg);
        default -> hex(arg, verb == 'X');
      };
    }
  }

  private static String string(Object arg) throws FormatException {
    if (arg instanceof List<?> list) {
      return list(list);
    }
    if (arg instanceof Map<?, ?> map) {
      return map(map);
    }
    if (arg instanceof Long || arg instanceof UnsignedLong || arg instanceof Boolean || arg instanceof String) {
      return arg.toString();
    }
    if (arg instanceof Double d) {
      return GoText.formatG(d);
    }
    if (arg instanceof CelByteString bytes) {
      if (!bytes.isValidUtf8()) {
        throw new FormatException("could not convert argument "
            + GoText.quote("invalid UTF-8 in bytes, cannot convert to string") + " to string");
      }
      return bytes.toStringUtf8();
    }
    if (arg instanceof Duration duration) {
      return durationString(duration);
    }
    if (arg instanceof Instant) {
      throw timestamp();
    }
    if (arg instanceof TypeType type) {
      return typeValueName(type);
    }
    if (arg instanceof NullValue) {
      return "null";
    }
    throw new FormatException("string clause can only be used on " + STRING_KINDS + ", was given " + typeName(arg));
  }

  private static FormatException timestamp() {
    return new FormatException("kubesched cannot format a timestamp (%s): cel-java keeps no time zone offset, "
        + "which kube prints");
  }

  /** cel-go's duration to string: the seconds as the shortest float64 ({@code 3601.5s}, {@code 0.000000001s}). */
  private static String durationString(Duration duration) {
    long seconds = duration.getSeconds();
    long nanos = duration.getNano();
    if (seconds < 0 && nanos > 0) {
      seconds++;
      nanos -= 1_000_000_000L;
    }
    return GoText.formatShortestFixed((double) seconds + (double) nanos / 1e9) + "s";
  }

  private static String typeValueName(TypeType type) {
    CelType of = type.type();
    // cel-java types the type of a type as type(dyn); cel-go names it "type".
    return of.kind() == CelKind.DYN ? "type" : of.name();
  }

  /** A list member or map value as cel-go's {@code clauseForType} and {@code quoteForCEL} print it. */
  private static String member(Object value) throws FormatException {
    if (value instanceof Long || value instanceof UnsignedLong) {
      return value.toString();
    }
    if (value instanceof String s) {
      return GoText.quote(s);
    }
    if (value instanceof CelByteString) {
      return "b" + GoText.quote(string(value));
    }
    if (value instanceof Boolean || value instanceof NullValue || value instanceof TypeType) {
      return string(value);
    }
    if (value instanceof Duration duration) {
      return "duration(" + GoText.quote(durationString(duration)) + ")";
    }
    if (value instanceof Instant) {
      throw timestamp();
    }
    if (value instanceof List<?> list) {
      return list(list);
    }
    if (value instanceof Map<?, ?> map) {
      return map(map);
    }
    if (value instanceof Double d) {
      if (d.isNaN()) {
        return GoText.quote("NaN");
      }
      if (d.isInfinite()) {
        return GoText.quote(d > 0 ? "+Inf" : "-Inf");
      }
      String fixed = new BigDecimal(Math.abs(d)).setScale(DEFAULT_PRECISION, RoundingMode.HALF_EVEN).toPlainString();
      return (Double.doubleToRawLongBits(d) < 0 ? "-" : "") + fixed;
    }
    throw new FormatException("no formatting function for " + typeName(value));
  }

  private static String list(List<?> list) throws FormatException {
    var members = new ArrayList<String>();
    for (Object value : list) {
      members.add(member(value));
    }
    return "[" + String.join(", ", members) + "]";
  }

  private static String map(Map<?, ?> map) throws FormatException {
    var entries = new ArrayList<String[]>();
    for (var entry : map.entrySet()) {
      Object key = entry.getKey();
      String keyText;
      if (key instanceof String s) {
        keyText = GoText.quote(s);
      } else if (key instanceof Boolean || key instanceof Long || key instanceof UnsignedLong) {
        keyText = key.toString();
      } else {
        throw new FormatException("no formatting function for map key of type " + typeName(key));
      }
      entries.add(new String[] {keyText, member(entry.getValue())});
    }
    // Go compares strings byte by byte: UTF-8 order, which UTF-16's differs from past U+FFFF.
    entries.sort((a, b) -> Arrays.compareUnsigned(
        a[0].getBytes(StandardCharsets.UTF_8), b[0].getBytes(StandardCharsets.UTF_8)));
    var pairs = new ArrayList<String>();
    for (String[] entry : entries) {
      pairs.add(entry[0] + ":" + entry[1]);
    }
    return "{" + String.join(", ", pairs) + "}";
  }

  private static String decimal(Object arg) throws FormatException {
    if (arg instanceof Long || arg instanceof UnsignedLong) {
      return arg.toString();
    }
    throw new FormatException("decimal clause can only be used on integers, was given " + typeName(arg));
  }

  /** The double a {@code %f} or {@code %e} clause prints: a double, or the strings cel-go converts to one. */
  private static Optional<Double> floating(Object arg) {
    if (arg instanceof Double d) {
      return Optional.of(d);
    }
    if (arg instanceof String s) {
      return switch (s) {
        case "NaN" -> Optional.of(Double.NaN);
        case "Infinity" -> Optional.of(Double.POSITIVE_INFINITY);
        case "-Infinity" -> Optional.of(Double.NEGATIVE_INFINITY);
        default -> Optional.empty();
      };
    }
    return Optional.empty();
  }

  private static String fixed(Object arg, int precision) throws FormatException {
    double value = floating(arg).orElseThrow(() -> new FormatException(
        "fixed-point clause can only be used on doubles, was given " + typeName(arg)));
    if (precision > MAX_PRECISION) {
      throw new FormatException("kubesched cannot format with a precision above " + MAX_PRECISION + " (%."
          + precision + "f): x/text, which kube prints through, keeps eight bits of it");
    }
    if (Double.isNaN(value)) {
      return "NaN";
    }
    if (Double.isInfinite(value)) {
      return value > 0 ? "∞" : "-∞";
    }
    String plain = new BigDecimal(Math.abs(value)).setScale(precision, RoundingMode.HALF_EVEN).toPlainString();
    int point = plain.indexOf('.');
    String integer = point < 0 ? plain : plain.substring(0, point);
    var grouped = new StringBuilder();
    for (int k = 0; k < integer.length(); k++) {
      if (k > 0 && (integer.length() - k) % 3 == 0) {
        grouped.append(',');
      }
      grouped.append(integer.charAt(k));
    }
    return (value < 0 ? "-" : "") + grouped + (point < 0 ? "" : plain.substring(point));
  }

  private static String scientific(Object arg, int width) throws FormatException {
    double value = floating(arg).orElseThrow(() -> new FormatException(
        "scientific clause can only be used on doubles, was given " + typeName(arg)));
    if (width > MAX_PRECISION) {
      throw new FormatException("kubesched cannot format with a precision above " + MAX_PRECISION + " (%."
          + width + "e): x/text, which kube prints through, keeps eight bits of it");
    }
    String text;
    if (Double.isNaN(value)) {
      text = "NaN";
    } else if (Double.isInfinite(value)) {
      text = value > 0 ? "∞" : "-∞";
    } else {
      int exponent = 0;
      String digits = "0000000";
      if (value != 0) {
        BigDecimal rounded = new BigDecimal(Math.abs(value)).round(new MathContext(7, RoundingMode.HALF_EVEN));
        digits = rounded.unscaledValue().toString();
        digits = (digits + "000000").substring(0, 7);
        exponent = rounded.precision() - rounded.scale() - 1;
      }
      var superscript = new StringBuilder(exponent < 0 ? "⁻" : "");
      String magnitude = String.valueOf(Math.abs(exponent));
      for (char digit : (magnitude.length() < 2 ? "0" + magnitude : magnitude).toCharArray()) {
        superscript.append(SUPERSCRIPTS.charAt(digit - '0'));
      }
      text = (value < 0 ? "-" : "") + digits.charAt(0) + "." + digits.substring(1) + "×10" + superscript;
    }
    int runes = text.codePointCount(0, text.length());
    return runes < width ? " ".repeat(width - runes) + text : text;
  }

  private static String binary(Object arg) throws FormatException {
    if (arg instanceof Long n) {
      return Long.toString(n, 2);
    }
    if (arg instanceof UnsignedLong n) {
      return n.toString(2);
    }
    if (arg instanceof Boolean b) {
      return b ? "1" : "0";
    }
    throw new FormatException("only integers and bools can be formatted as binary, was given " + typeName(arg));
  }

  private static String octal(Object arg) throws FormatException {
    if (arg instanceof Long n) {
      return Long.toString(n, 8);
    }
    if (arg instanceof UnsignedLong n) {
      return n.toString(8);
    }
    throw new FormatException("octal clause can only be used on integers, was given " + typeName(arg));
  }

  private static String hex(Object arg, boolean upper) throws FormatException {
    String hex;
    if (arg instanceof String s) {
      hex = HexFormat.of().formatHex(s.getBytes(StandardCharsets.UTF_8));
    } else if (arg instanceof CelByteString bytes) {
      hex = HexFormat.of().formatHex(bytes.toByteArray());
    } else if (arg instanceof Long n) {
      hex = Long.toString(n, 16);
    } else if (arg instanceof UnsignedLong n) {
      hex = n.toString(16);
    } else {
      throw new FormatException(
          "only integers, byte buffers, and strings can be formatted as hex, was given " + typeName(arg));
    }
    return upper ? hex.toUpperCase(java.util.Locale.ROOT) : hex;
  }

  /** cel-go's name for the type of a value, as its format messages give it. */
  static String typeName(Object value) {
    if (value instanceof Long) {
      return "int";
    }
    if (value instanceof UnsignedLong) {
      return "uint";
    }
    if (value instanceof Double) {
      return "double";
    }
    if (value instanceof Boolean) {
      return "bool";
    }
    if (value instanceof String) {
      return "string";
    }
    if (value instanceof CelByteString) {
      return "bytes";
    }
    if (value instanceof NullValue) {
      return "null_type";
    }
    if (value instanceof Duration) {
      return "google.protobuf.Duration";
    }
    if (value instanceof Instant) {
      return "google.protobuf.Timestamp";
    }
    if (value instanceof List) {
      return "list";
    }
    if (value instanceof Map) {
      return "map";
    }
    if (value instanceof Optional) {
      return "optional_type";
    }
    if (value instanceof TypeType) {
      return "type";
    }
    if (value instanceof GoUrl) {
      return KubeUrls.URL.name();
    }
    if (value instanceof KubeFormat.NamedFormat) {
      return KubeFormat.NAMED_FORMAT.name();
    }
    return KubeMessages.typeName(value);
  }

  private static void validate(CelNavigableAst navigable, Cel cel, CelAstValidator.IssuesFactory issues) {
    CelAbstractSyntaxTree ast = navigable.getAst();
    navigable.getRoot().allNodes()
        .filter(node -> isLiteralFormatCall(ast, node.expr()))
        .forEach(node -> {
          CelExpr.CelCall call = node.expr().call();
          String format = call.target().orElseThrow().constant().stringValue();
          var checked = new CheckedArgs(ast, call.args().get(0).list().elements());
          try {
            format(format, checked);
            if (checked.elements.size() > checked.requested) {
              issues.addError(node.id(), "too many arguments supplied to string.format (expected "
                  + checked.requested + ", got " + checked.elements.size() + ")");
            }
          } catch (FormatException e) {
            issues.addError(e.exprId < 0 ? node.id() : e.exprId, e.getMessage());
          }
        });
  }

  private static boolean isLiteralFormatCall(CelAbstractSyntaxTree ast, CelExpr expr) {
    if (expr.getKind() != CelExpr.ExprKind.Kind.CALL || !expr.call().function().equals("format")) {
      return false;
    }
    CelExpr.CelCall call = expr.call();
    boolean overload = ast.getReference(expr.id())
        .map(reference -> reference.overloadIds().contains(OVERLOAD)).orElse(false);
    return overload
        && call.target().isPresent()
        && call.target().get().getKind() == CelExpr.ExprKind.Kind.CONSTANT
        && call.target().get().constant().getKind() == CelConstant.Kind.STRING_VALUE
        && call.args().size() == 1
        && call.args().get(0).getKind() == CelExpr.ExprKind.Kind.LIST;
  }

  /** cel-go's {@code stringFormatChecker}: each clause's argument checked by its type, dyn passing. */
  private static final class CheckedArgs implements Args {
    private static final Set<CelKind> STRING_KIND_SET = EnumSet.of(CelKind.LIST, CelKind.MAP, CelKind.INT,
        CelKind.UINT, CelKind.DOUBLE, CelKind.BOOL, CelKind.STRING, CelKind.TIMESTAMP, CelKind.BYTES,
        CelKind.DURATION, CelKind.TYPE, CelKind.NULL_TYPE);

    private final CelAbstractSyntaxTree ast;
    private final List<CelExpr> elements;
    private int requested;

    CheckedArgs(CelAbstractSyntaxTree ast, List<CelExpr> elements) {
      this.ast = ast;
      this.elements = elements;
    }

    @Override
    public void request(int index) {
      requested++;
    }

    @Override
    public int size() {
      return elements.size();
    }

    @Override
    public String apply(char verb, int precision, int index) throws FormatException {
      CelExpr arg = elements.get(index);
      switch (verb) {
        case 's' -> verifyString(arg);
        case 'd' -> verify(arg, "decimal clause can only be used on integers", CelKind.INT, CelKind.UINT);
        case 'f' -> verify(arg, "fixed-point clause can only be used on doubles", CelKind.DOUBLE, CelKind.STRING);
        case 'e' -> verify(arg, "scientific clause can only be used on doubles", CelKind.DOUBLE, CelKind.STRING);
        case 'b' -> verify(arg, "only integers and bools can be formatted as binary", CelKind.INT, CelKind.UINT,
            CelKind.BOOL);
        case 'o' -> verify(arg, "octal clause can only be used on integers", CelKind.INT, CelKind.UINT);
        default -> verify(arg, "only integers, byte buffers, and strings can be formatted as hex", CelKind.INT,
            CelKind.UINT, CelKind.STRING, CelKind.BYTES);
      }
      return "";
    }

    private CelType type(CelExpr expr) {
      return ast.getType(expr.id()).orElse(SimpleType.DYN);
    }

    private boolean accepts(CelExpr expr, Set<CelKind> kinds) {
      CelKind kind = type(expr).kind();
      return kind == CelKind.DYN || kinds.contains(kind);
    }

    private void verify(CelExpr arg, String message, CelKind first, CelKind... rest) throws FormatException {
      if (!accepts(arg, EnumSet.of(first, rest))) {
        throw new FormatException(message + ", was given " + type(arg).name(), arg.id());
      }
    }

    private void verifyString(CelExpr arg) throws FormatException {
      if (!accepts(arg, STRING_KIND_SET)) {
        throw new FormatException("string clause can only be used on " + STRING_KINDS + ", was given "
            + type(arg).name(), arg.id());
      }
      if (arg.getKind() == CelExpr.ExprKind.Kind.LIST) {
        for (CelExpr element : arg.list().elements()) {
          verifyString(element);
        }
      } else if (arg.getKind() == CelExpr.ExprKind.Kind.MAP) {
        for (var entry : arg.map().entries()) {
          verifyString(entry.key());
          verifyString(entry.value());
        }
      }
    }
  }
}
