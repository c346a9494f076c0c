package io.kubesched.policy.plugins.dynamicresources.cel;

import dev.cel.common.CelFunctionDecl;
import dev.cel.common.CelOverloadDecl;
import dev.cel.common.types.CelType;
import dev.cel.common.types.ListType;
import dev.cel.common.types.OpaqueType;
import dev.cel.common.types.OptionalType;
import dev.cel.common.types.SimpleType;
import dev.cel.runtime.CelFunctionBinding;
import java.nio.charset.StandardCharsets;
import java.time.DateTimeException;
import java.time.LocalDate;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.function.Function;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * kube's format library ({@code k8s.io/apiserver/pkg/cel/library/format.go}): {@code format.dns1123Label()} and the
 * other named formats, {@code format.named(name)} (optional) and {@code <format>.validate(string)} (none, or the
 * list of what is wrong), with the messages of the apimachinery and kube-openapi validations kube calls. Stateless.
 */
final class KubeFormat {

  /** kube's {@code apiservercel.FormatType}. */
  static final CelType NAMED_FORMAT = OpaqueType.create("kubernetes.NamedFormat");

  private static final String LABEL = "[a-z0-9]([-a-z0-9]*[a-z0-9])?";
  private static final String SUBDOMAIN = LABEL + "(\\." + LABEL + ")*";
  private static final String DNS1035_LABEL = "[a-z]([-a-z0-9]*[a-z0-9])?";
  private static final String LABEL_KEY = "([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]";
  private static final String LABEL_VALUE = "(" + LABEL_KEY + ")?";

  private static final String LABEL_MESSAGE = "a lowercase RFC 1123 label must consist of lower case alphanumeric "
      + "characters or '-', and must start and end with an alphanumeric character";
  private static final String SUBDOMAIN_MESSAGE = "a lowercase RFC 1123 subdomain must consist of lower case "
      + "alphanumeric characters, '-' or '.', and must start and end with an alphanumeric character";
  private static final String DNS1035_MESSAGE = "a DNS-1035 label must consist of lower case alphanumeric "
      + "characters or '-', start with an alphabetic character, and end with an alphanumeric character";
  private static final String LABEL_KEY_MESSAGE = "must consist of alphanumeric characters, '-', '_' or '.', and "
      + "must start and end with an alphanumeric character";
  private static final String LABEL_VALUE_MESSAGE = "a valid label must be an empty string or consist of "
      + "alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character";

  private static final Pattern UUID = Pattern.compile(
      "[0-9a-fA-F]{8}-?[0-9a-fA-F]{4}-?[0-9a-fA-F]{4}-?[0-9a-fA-F]{4}-?[0-9a-fA-F]{12}");
  private static final Pattern BASE64 = Pattern.compile(
      "(?:[A-Za-z0-9+/]{4})*(?:[A-Za-z0-9+/]{2}==|[A-Za-z0-9+/]{3}=|[A-Za-z0-9+/]{4})");
  private static final Pattern DATE = Pattern.compile("([0-9]{4})-([0-9]{2})-([0-9]{2})");
  // Go's "." is any rune but "\n"; UNIX_LINES makes Java's the same.
  private static final Pattern TIME = Pattern.compile(
      "([0-9]{2}):([0-9]{2}):([0-9]{2})(.[0-9]+)?(z|([+-][0-9]{2}:[0-9]{2}))", Pattern.UNIX_LINES);

  /** kube's {@code ConstantFormats}, by the name CEL calls them. */
  static final Map<String, NamedFormat> FORMATS = Map.ofEntries(
      format("dns1123Label", "DNS1123Label", s -> dns1123Label(maskTrailingDash(s, false))),
      format("dns1123Subdomain", "DNS1123Subdomain",
          s -> dns1123Subdomain(maskTrailingDash(s, false), "characters")),
      format("dns1035Label", "DNS1035Label", s -> dns1035Label(maskTrailingDash(s, false))),
      format("qualifiedName", "QualifiedName", KubeFormat::qualifiedName),
      format("dns1123LabelPrefix", "DNS1123LabelPrefix", s -> dns1123Label(maskTrailingDash(s, true))),
      format("dns1123SubdomainPrefix", "DNS1123SubdomainPrefix",
          s -> dns1123Subdomain(maskTrailingDash(s, true), "characters")),
      format("dns1035LabelPrefix", "DNS1035LabelPrefix", s -> dns1035Label(maskTrailingDash(s, true))),
      format("labelValue", "LabelValue", KubeFormat::labelValue),
      format("uri", "URI", KubeFormat::uri),
      format("uuid", "uuid", s -> UUID.matcher(s).matches() ? List.of() : List.of("does not match the UUID format")),
      format("byte", "byte", s -> BASE64.matcher(s).matches() ? List.of() : List.of("invalid base64")),
      format("date", "date", s -> isDate(s) ? List.of() : List.of("invalid date")),
      format("datetime", "datetime", s -> isDateTime(s) ? List.of() : List.of("invalid datetime")));

  /**
   * A named format (kube's {@code apiservercel.Format}): equal to another of the same name, as kube compares them.
   *
   * @param name kube's {@code Name}
   * @param validation what is wrong with a string, nothing when it is valid
   */
  record NamedFormat(String name, Function<String, List<String>> validation) {
    @Override
    public boolean equals(Object other) {
      return other instanceof NamedFormat format && format.name.equals(name);
    }

    @Override
    public int hashCode() {
      return name.hashCode();
    }
  }

  private KubeFormat() {}

  private static Map.Entry<String, NamedFormat> format(
      String function, String name, Function<String, List<String>> validation) {
    return Map.entry(function, new NamedFormat(name, validation));
  }

  static List<CelFunctionDecl> declarations() {
    var declarations = new ArrayList<CelFunctionDecl>();
    declarations.add(CelFunctionDecl.newFunctionDeclaration("validate", CelOverloadDecl.newMemberOverload(
        "format-validate", OptionalType.create(ListType.create(SimpleType.STRING)), NAMED_FORMAT, SimpleType.STRING)));
    declarations.add(CelFunctionDecl.newFunctionDeclaration("format.named", CelOverloadDecl.newGlobalOverload(
        "format-named", OptionalType.create(NAMED_FORMAT), SimpleType.STRING)));
    for (String name : FORMATS.keySet()) {
      declarations.add(CelFunctionDecl.newFunctionDeclaration(
          "format." + name, CelOverloadDecl.newGlobalOverload("format." + name, NAMED_FORMAT, List.of())));
    }
    return List.copyOf(declarations);
  }

  static List<CelFunctionBinding> bindings() {
    var bindings = new ArrayList<CelFunctionBinding>();
    bindings.add(CelFunctionBinding.from("format-validate", NamedFormat.class, String.class, (format, text) -> {
      List<String> errors = format.validation().apply(text);
      return errors.isEmpty() ? Optional.empty() : Optional.of(errors);
    }));
    bindings.add(CelFunctionBinding.from("format-named", String.class,
        name -> Optional.ofNullable(FORMATS.get(name))));
    FORMATS.forEach((name, format) ->
        bindings.add(CelFunctionBinding.from("format." + name, List.of(), args -> format)));
    return List.copyOf(bindings);
  }

  /** apimachinery's {@code maskTrailingDash} for a prefix: "abc-" is checked as "aba", on bytes as Go slices. */
  private static byte[] maskTrailingDash(String name, boolean prefix) {
    byte[] bytes = name.getBytes(StandardCharsets.UTF_8);
    if (prefix && bytes.length > 1 && bytes[bytes.length - 1] == '-') {
      byte[] masked = Arrays.copyOf(bytes, bytes.length - 1);
      masked[masked.length - 1] = 'a';
      return masked;
    }
    return bytes;
  }

  /** Go's regexp reads a byte that is not UTF-8 as U+FFFD, which no pattern here matches; so does Java's decoder. */
  private static boolean matches(String regex, byte[] value) {
    return Pattern.compile(regex).matcher(new String(value, StandardCharsets.UTF_8)).matches();
  }

  private static String regexError(String message, String regex, String... examples) {
    var text = new StringBuilder(message).append(" (e.g. ");
    for (int i = 0; i < examples.length; i++) {
      text.append(i > 0 ? " or " : "").append('\'').append(examples[i]).append("', ");
    }
    return text.append("regex used for validation is '").append(regex).append("')").toString();
  }

  /** apimachinery's {@code IsDNS1123Label}. */
  private static List<String> dns1123Label(byte[] value) {
    var errors = new ArrayList<String>();
    if (value.length > 63) {
      errors.add("must be no more than 63 characters");
    }
    if (!matches(LABEL, value)) {
      errors.add(matches(SUBDOMAIN, value) ? "must not contain dots"
          : regexError(LABEL_MESSAGE, LABEL, "my-name", "123-abc"));
    }
    return errors;
  }

  /** apimachinery's {@code IsDNS1123Subdomain}; its two copies word the length limit in characters or bytes. */
  private static List<String> dns1123Subdomain(byte[] value, String unit) {
    var errors = new ArrayList<String>();
    if (value.length > 253) {
      errors.add("must be no more than 253 " + unit);
    }
    if (!matches(SUBDOMAIN, value)) {
      errors.add(regexError(SUBDOMAIN_MESSAGE, SUBDOMAIN, "example.com"));
    }
    return errors;
  }

  /** apimachinery's {@code IsDNS1035Label}. */
  private static List<String> dns1035Label(byte[] value) {
    var errors = new ArrayList<String>();
    if (value.length > 63) {
      errors.add("must be no more than 63 characters");
    }
    if (!matches(DNS1035_LABEL, value)) {
      errors.add(regexError(DNS1035_MESSAGE, DNS1035_LABEL, "my-name", "abc-123"));
    }
    return errors;
  }

  /** apimachinery's {@code IsQualifiedName} ({@code content.IsLabelKey}). */
  private static List<String> qualifiedName(String value) {
    var errors = new ArrayList<String>();
    String[] parts = value.split("/", -1);
    String name;
    if (parts.length == 1) {
      name = parts[0];
    } else if (parts.length == 2) {
      name = parts[1];
      if (parts[0].isEmpty()) {
        errors.add("prefix part must be non-empty");
      } else {
        dns1123Subdomain(parts[0].getBytes(StandardCharsets.UTF_8), "bytes")
            .forEach(error -> errors.add("prefix part " + error));
      }
    } else {
      errors.add("a valid label key " + regexError(LABEL_KEY_MESSAGE, LABEL_KEY, "MyName", "my.name", "123-abc")
          + " with an optional DNS subdomain prefix and '/' (e.g. 'example.com/MyName')");
      return errors;
    }
    byte[] bytes = name.getBytes(StandardCharsets.UTF_8);
    if (bytes.length == 0) {
      errors.add("name part must be non-empty");
    } else if (bytes.length > 63) {
      errors.add("name part must be no more than 63 bytes");
    }
    if (!matches(LABEL_KEY, bytes)) {
      errors.add("name part " + regexError(LABEL_KEY_MESSAGE, LABEL_KEY, "MyName", "my.name", "123-abc"));
    }
    return errors;
  }

  /** apimachinery's {@code IsValidLabelValue} ({@code content.IsLabelValue}). */
  private static List<String> labelValue(String value) {
    var errors = new ArrayList<String>();
    byte[] bytes = value.getBytes(StandardCharsets.UTF_8);
    if (bytes.length > 63) {
      errors.add("must be no more than 63 bytes");
    }
    if (!matches(LABEL_VALUE, bytes)) {
      errors.add(regexError(LABEL_VALUE_MESSAGE, LABEL_VALUE, "MyValue", "my_value", "12345"));
    }
    return errors;
  }

  private static List<String> uri(String value) {
    try {
      GoUrl.parseRequestUri(value);
      return List.of();
    } catch (GoUrl.UrlException e) {
      return List.of(e.getMessage());
    }
  }

  /** kube-openapi's {@code IsDate}: Go's {@code time.Parse("2006-01-02", s)}, a real day of the proleptic calendar. */
  private static boolean isDate(String value) {
    Matcher date = DATE.matcher(value);
    if (!date.matches()) {
      return false;
    }
    try {
      LocalDate.of(Integer.parseInt(date.group(1)), Integer.parseInt(date.group(2)), Integer.parseInt(date.group(3)));
      return true;
    } catch (DateTimeException e) {
      return false;
    }
  }

  /**
   * kube-openapi's {@code IsDateTime}: a date, "t" or "T", then a time of day with an offset; as kube-openapi splits
   * at every "t", anything after a second one is not looked at.
   */
  private static boolean isDateTime(String value) {
    if (value.getBytes(StandardCharsets.UTF_8).length < 4) {
      return false;
    }
    String[] parts = value.toLowerCase(Locale.ROOT).split("t", -1);
    if (parts.length < 2 || !isDate(parts[0])) {
      return false;
    }
    Matcher time = TIME.matcher(parts[1]);
    return time.matches() && time.group(1).compareTo("23") <= 0 && time.group(2).compareTo("59") <= 0
        && time.group(3).compareTo("59") <= 0;
  }
}
