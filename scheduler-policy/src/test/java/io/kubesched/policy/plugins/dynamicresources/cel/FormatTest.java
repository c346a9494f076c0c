package io.kubesched.policy.plugins.dynamicresources.cel;

import static io.kubesched.policy.plugins.dynamicresources.cel.SelectorAssertions.assertEvaluatesTo;
import static io.kubesched.policy.plugins.dynamicresources.cel.SelectorAssertions.assertFailsToCompile;
import static io.kubesched.policy.plugins.dynamicresources.cel.SelectorAssertions.assertHolds;
import static io.kubesched.policy.plugins.dynamicresources.cel.SelectorAssertions.literal;

import java.util.ArrayList;
import java.util.List;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * kube's format library: kube's TestFormat table ({@code k8s.io/apiserver/pkg/cel/library/format_test.go}) under its
 * case names, its lookups and comparisons over every named format, and further cases of the apimachinery and
 * kube-openapi validations behind the formats, whose expected answers are what kube's environment gives for them.
 */
class FormatTest {

  @ParameterizedTest(name = "{0}")
  @MethodSource("kubeCases")
  void holds_as_in_kube(String name, String expression) throws SelectorException {
    assertHolds(expression);
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("kubeMessages")
  void validates_with_kube_messages(String name, String expression, List<String> errors) throws SelectorException {
    assertHolds(expression + " == optional.of([" + errors.stream().map(SelectorAssertions::literal)
        .collect(Collectors.joining(", ")) + "])");
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("lookupsAndComparisons")
  void looks_up_and_compares_as_kube(String name, String expression) throws SelectorException {
    assertHolds(expression);
  }

  @ParameterizedTest(name = "{0}")
  @ValueSource(strings = {
        "format.dns1123Label().validate(\"my-label-name\") == optional.none()",
        "format.dns1123Subdomain().validate(\"apiextensions.k8s.io\") == optional.none()",
        "format.qualifiedName().validate(\"apiextensions.k8s.io/v1beta1\") == optional.none()",
        "format.dns1123LabelPrefix().validate(\"my-label-prefix-\") == optional.none()",
        "format.dns1123SubdomainPrefix().validate(\"mysubdomain.prefix.-\") == optional.none()",
        "format.dns1035LabelPrefix().validate(\"my-label-prefix-\") == optional.none()",
        "format.uri().validate(\"http://example.com\") == optional.none()",
        "format.uuid().validate(\"123e4567-e89b-12d3-a456-426614174000\") == optional.none()",
        "format.byte().validate(\"aGVsbG8=\") == optional.none()",
        "format.date().validate(\"2021-01-01\") == optional.none()",
        "format.datetime().validate(\"2021-01-01T00:00:00Z\") == optional.none()",
        "format.named(\"dns1123Label\").value().validate(\"my-name\") == optional.none()",
        "!(format.named(\"unknown\").hasValue())",
        "format.labelValue().validate(\"my-cool-label-Value\") == optional.none()",
        "!(format.dns1123LabelPrefix().validate(\"a-\").hasValue())",
        "format.dns1123LabelPrefix().validate(\"-\").hasValue()",
        "format.dns1123LabelPrefix().validate(\"é-\").hasValue()",
        "format.dns1123LabelPrefix().validate(\"aé-\").hasValue()",
        "!(format.labelValue().validate(\"\").hasValue())",
        "!(format.uuid().validate(\"123e4567e89b12d3a456426614174000\").hasValue())",
        "!(format.uuid().validate(\"123E4567-E89B-12D3-A456-426614174000\").hasValue())",
        "!(format.byte().validate(\"aGVs\").hasValue())",
        "format.byte().validate(\"a-_b\").hasValue()",
        "!(format.date().validate(\"2020-02-29\").hasValue())",
        "format.date().validate(\"2021-02-29\").hasValue()",
        "!(format.date().validate(\"0000-02-29\").hasValue())",
        "format.date().validate(\"2020-1-01\").hasValue()",
        "format.date().validate(\"2020-00-01\").hasValue()",
        "format.date().validate(\"2020-13-01\").hasValue()",
        "format.date().validate(\"20200-01-01\").hasValue()",
        "format.date().validate(\"2020-01-01 \").hasValue()",
        "!(format.datetime().validate(\"2020-01-01t23:59:59.123+05:30\").hasValue())",
        "format.datetime().validate(\"2020-01-01T24:00:00Z\").hasValue()",
        "format.datetime().validate(\"2020-01-01T00:00:60Z\").hasValue()",
        "format.datetime().validate(\"2020-01-01T00:00:00\").hasValue()",
        "!(format.datetime().validate(\"2020-01-01T00:00:00ZTgarbage\").hasValue())",
        "format.datetime().validate(\"2020-01-01T00:00:00xZ\").hasValue()",
        "format.datetime().validate(\"2020-01-01T00:00:00\\nZ\").hasValue()",
        "format.datetime().validate(\"2020-01-01T00:00:00\\u2028Z\").hasValue()",
        "format.datetime().validate(\"2020-01-01T00:00:00Z\\n\").hasValue()",
        "format.datetime().validate(\"2020-01-01T99:99:99+99:99\").hasValue()",
        "format.datetime().validate(\"2020-01-01\").hasValue()",
        "format.named(\"uri\") == optional.of(format.uri())",
        "format.dns1123Label() == format.dns1123Label()",
        "!(format.dns1123Label() == format.dns1035Label())",
        "format.named(\"dns1035Label\").value() == format.dns1035Label()"
  })
  void validates_as_kube_environment(String expression) throws SelectorException {
    assertHolds(expression);
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("kubeEnvironmentMessages")
  void first_message_as_kube_environment(String expression, String expected) throws SelectorException {
    assertEvaluatesTo(expression, expected);
  }

  @ParameterizedTest(name = "{0}")
  @ValueSource(strings = {"format.dns1123Label().validate(1)"})
  void validate_takes_a_string(String expression) {
    assertFailsToCompile(expression, "ERROR: <input>:1:31: found no matching overload for 'validate' applied to "
        + "'kubernetes.NamedFormat.(int)' (candidates: kubernetes.NamedFormat.(string))");
  }

  static Stream<Arguments> kubeCases() {
    return Stream.of(
        Arguments.of("example_usage_dns1123Label", "format.dns1123Label().validate(\"my-label-name\") == optional.none()"),
        Arguments.of("example_usage_dns1123Subdomain", "format.dns1123Subdomain().validate(\"apiextensions.k8s.io\") == optional.none()"),
        Arguments.of("example_usage_qualifiedName", "format.qualifiedName().validate(\"apiextensions.k8s.io/v1beta1\") == optional.none()"),
        Arguments.of("example_usage_dns1123LabelPrefix", "format.dns1123LabelPrefix().validate(\"my-label-prefix-\") == optional.none()"),
        Arguments.of("example_usage_dns1123SubdomainPrefix", "format.dns1123SubdomainPrefix().validate(\"mysubdomain.prefix.-\") == optional.none()"),
        Arguments.of("example_usage_dns1035LabelPrefix", "format.dns1035LabelPrefix().validate(\"my-label-prefix-\") == optional.none()"),
        Arguments.of("example_usage_uri", "format.uri().validate(\"http://example.com\") == optional.none()"),
        Arguments.of("example_usage_uuid", "format.uuid().validate(\"123e4567-e89b-12d3-a456-426614174000\") == optional.none()"),
        Arguments.of("example_usage_byte", "format.byte().validate(\"aGVsbG8=\") == optional.none()"),
        Arguments.of("example_usage_date", "format.date().validate(\"2021-01-01\") == optional.none()"),
        Arguments.of("example_usage_datetime", "format.datetime().validate(\"2021-01-01T00:00:00Z\") == optional.none()"),
        Arguments.of("dns1123Label_Success", "format.dns1123Label().validate(\"my-label-name\") == optional.none()"),
        Arguments.of("dns1123Subdomain_Success", "format.dns1123Subdomain().validate(\"example.com\") == optional.none()"),
        Arguments.of("dns1035Label_Success", "format.dns1035Label().validate(\"my-label-name\") == optional.none()"),
        Arguments.of("qualifiedName_Success", "format.qualifiedName().validate(\"my.name\") == optional.none()"),
        Arguments.of("byte_success", "format.byte().validate(\"aGVsbG8=\") == optional.none()"),
        Arguments.of("byte_failure", "format.byte().validate(\"aGVsbG8\") == optional.of([\"invalid base64\"])"),
        Arguments.of("date_success", "format.date().validate(\"2020-01-01\") == optional.none()"),
        Arguments.of("date_failure", "format.date().validate(\"2020-01-32\") == optional.of([\"invalid date\"])"),
        Arguments.of("datetime_success", "format.datetime().validate(\"2020-01-01T00:00:00Z\") == optional.none()"),
        Arguments.of("datetime_failure", "format.datetime().validate(\"2020-01-32T00:00:00Z\") == optional.of([\"invalid datetime\"])"),
        Arguments.of("unknown_format", "!format.named(\"unknown\").hasValue()"),
        Arguments.of("labelValue_success", "format.labelValue().validate(\"my-cool-label-Value\") == optional.none()"));
  }

  static Stream<Arguments> kubeMessages() {
    return Stream.of(
        Arguments.of("dns1123Label",
            "format.dns1123Label().validate(\"contains a space\")",
            List.of("a lowercase RFC 1123 label must consist of lower case alphanumeric characters or '-', and must start"
                + " and end with an alphanumeric character (e.g. 'my-name',  or '123-abc', regex used for validation is"
                + " '[a-z0-9]([-a-z0-9]*[a-z0-9])?')")),
        Arguments.of("dns1123Subdomain",
            "format.dns1123Subdomain().validate(\"contains a space\")",
            List.of("a lowercase RFC 1123 subdomain must consist of lower case alphanumeric characters, '-' or '.', and m"
                + "ust start and end with an alphanumeric character (e.g. 'example.com', regex used for validation is '"
                + "[a-z0-9]([-a-z0-9]*[a-z0-9])?(\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*')")),
        Arguments.of("dns1035Label",
            "format.dns1035Label().validate(\"contains a space\")",
            List.of("a DNS-1035 label must consist of lower case alphanumeric characters or '-', start with an alphabetic"
                + " character, and end with an alphanumeric character (e.g. 'my-name',  or 'abc-123', regex used for va"
                + "lidation is '[a-z]([-a-z0-9]*[a-z0-9])?')")),
        Arguments.of("qualifiedName",
            "format.qualifiedName().validate(\"contains a space\")",
            List.of("name part must consist of alphanumeric characters, '-', '_' or '.', and must start and end with an a"
                + "lphanumeric character (e.g. 'MyName',  or 'my.name',  or '123-abc', regex used for validation is '(["
                + "A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]')")),
        Arguments.of("dns1123LabelPrefix",
            "format.dns1123LabelPrefix().validate(\"contains a space-\")",
            List.of("a lowercase RFC 1123 label must consist of lower case alphanumeric characters or '-', and must start"
                + " and end with an alphanumeric character (e.g. 'my-name',  or '123-abc', regex used for validation is"
                + " '[a-z0-9]([-a-z0-9]*[a-z0-9])?')")),
        Arguments.of("dns1123SubdomainPrefix",
            "format.dns1123SubdomainPrefix().validate(\"contains a space-\")",
            List.of("a lowercase RFC 1123 subdomain must consist of lower case alphanumeric characters, '-' or '.', and m"
                + "ust start and end with an alphanumeric character (e.g. 'example.com', regex used for validation is '"
                + "[a-z0-9]([-a-z0-9]*[a-z0-9])?(\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*')")),
        Arguments.of("dns1035LabelPrefix",
            "format.dns1035LabelPrefix().validate(\"contains a space-\")",
            List.of("a DNS-1035 label must consist of lower case alphanumeric characters or '-', start with an alphabetic"
                + " character, and end with an alphanumeric character (e.g. 'my-name',  or 'abc-123', regex used for va"
                + "lidation is '[a-z]([-a-z0-9]*[a-z0-9])?')")),
        Arguments.of("labelValue_failure",
            "format.labelValue().validate(\"my-cool-label-Value!!\\n\\n!!!\")",
            List.of("a valid label must be an empty string or consist of alphanumeric characters, '-', '_' or '.', and mu"
                + "st start and end with an alphanumeric character (e.g. 'MyValue',  or 'my_value',  or '12345', regex "
                + "used for validation is '(([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9])?')")),
        Arguments.of("qualifiedName empty prefix",
            "format.qualifiedName().validate(\"/b\")",
            List.of("prefix part must be non-empty")),
        Arguments.of("qualifiedName empty name",
            "format.qualifiedName().validate(\"a/\")",
            List.of("name part must be non-empty", "name part must consist of alphanumeric characters, '-', '_' or '.', and must start and end with an a"
                + "lphanumeric character (e.g. 'MyName',  or 'my.name',  or '123-abc', regex used for validation is '(["
                + "A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]')")),
        Arguments.of("qualifiedName invalid prefix",
            "format.qualifiedName().validate(\"A_B/c\")",
            List.of("prefix part a lowercase RFC 1123 subdomain must consist of lower case alphanumeric characters, '-' o"
                + "r '.', and must start and end with an alphanumeric character (e.g. 'example.com', regex used for val"
                + "idation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?(\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*')")),
        Arguments.of("qualifiedName long name",
            "format.qualifiedName().validate(\"abcdefghijabcdefghijabcdefghijabcdefghijabcdefghijabcdefghijabcd\""
            + ")",
            List.of("name part must be no more than 63 bytes")),
        Arguments.of("labelValue long",
            "format.labelValue().validate(\"abcdefghijabcdefghijabcdefghijabcdefghijabcdefghijabcdefghij-bcd\")",
            List.of("must be no more than 63 bytes")),
        Arguments.of("uri relative",
            "format.uri().validate(\"foo\")",
            List.of("parse \"foo\": invalid URI for request")),
        Arguments.of("uri bad port",
            "format.uri().validate(\"https://a:b:c/\")",
            List.of("parse \"https://a:b:c/\": invalid port \":b:c\" after host")),
        Arguments.of("uuid short",
            "format.uuid().validate(\"123e4567-e89b-12d3-a456-42661417400\")",
            List.of("does not match the UUID format")),
        Arguments.of("byte empty",
            "format.byte().validate(\"\")",
            List.of("invalid base64")),
        Arguments.of("byte trailing newline",
            "format.byte().validate(\"aGVsbG8=\\n\")",
            List.of("invalid base64")));
  }

  /** TestFormat's loops: every format found by name and equal to itself, and unequal to every other. */
  static Stream<Arguments> lookupsAndComparisons() {
    var cases = new ArrayList<Arguments>();
    for (String left : KubeFormat.FORMATS.keySet()) {
      cases.add(Arguments.of("lookup and comparison " + left, "format.named(" + literal(left) + ").hasValue()"));
      cases.add(Arguments.of("comparison with lookup succeeds " + left,
          "format.named(" + literal(left) + ").value() == format." + left + "()"));
      for (String right : KubeFormat.FORMATS.keySet()) {
        if (!left.equals(right)) {
          cases.add(Arguments.of("compare_" + left + "_" + right,
              "(format." + left + "() == format." + right + "()) == false"));
        }
      }
    }
    return cases.stream();
  }

  static Stream<Arguments> kubeEnvironmentMessages() {
    return Stream.of(
        Arguments.of("format.dns1123Label().validate(\"contains a space\").value()[0]",
            "a lowercase RFC 1123 label must consist of lower case alphanumeric characters or '-', and must start"
            + " and end with an alphanumeric character (e.g. 'my-name',  or '123-abc', regex used for validation is"
            + " '[a-z0-9]([-a-z0-9]*[a-z0-9])?')"),
        Arguments.of("format.dns1123Subdomain().validate(\"contains a space\").value()[0]",
            "a lowercase RFC 1123 subdomain must consist of lower case alphanumeric characters, '-' or '.', and m"
            + "ust start and end with an alphanumeric character (e.g. 'example.com', regex used for validation is '"
            + "[a-z0-9]([-a-z0-9]*[a-z0-9])?(\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*')"),
        Arguments.of("format.dns1035Label().validate(\"contains a space\").value()[0]",
            "a DNS-1035 label must consist of lower case alphanumeric characters or '-', start with an alphabetic"
            + " character, and end with an alphanumeric character (e.g. 'my-name',  or 'abc-123', regex used for va"
            + "lidation is '[a-z]([-a-z0-9]*[a-z0-9])?')"),
        Arguments.of("format.qualifiedName().validate(\"contains a space\").value()[0]",
            "name part must consist of alphanumeric characters, '-', '_' or '.', and must start and end with an a"
            + "lphanumeric character (e.g. 'MyName',  or 'my.name',  or '123-abc', regex used for validation is '(["
            + "A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]')"),
        Arguments.of("format.dns1123LabelPrefix().validate(\"contains a space-\").value()[0]",
            "a lowercase RFC 1123 label must consist of lower case alphanumeric characters or '-', and must start"
            + " and end with an alphanumeric character (e.g. 'my-name',  or '123-abc', regex used for validation is"
            + " '[a-z0-9]([-a-z0-9]*[a-z0-9])?')"),
        Arguments.of("format.dns1123SubdomainPrefix().validate(\"contains a space-\").value()[0]",
            "a lowercase RFC 1123 subdomain must consist of lower case alphanumeric characters, '-' or '.', and m"
            + "ust start and end with an alphanumeric character (e.g. 'example.com', regex used for validation is '"
            + "[a-z0-9]([-a-z0-9]*[a-z0-9])?(\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*')"),
        Arguments.of("format.dns1035LabelPrefix().validate(\"contains a space-\").value()[0]",
            "a DNS-1035 label must consist of lower case alphanumeric characters or '-', start with an alphabetic"
            + " character, and end with an alphanumeric character (e.g. 'my-name',  or 'abc-123', regex used for va"
            + "lidation is '[a-z]([-a-z0-9]*[a-z0-9])?')"),
        Arguments.of("format.byte().validate(\"aGVsbG8\").value()[0]",
            "invalid base64"),
        Arguments.of("format.date().validate(\"2020-01-32\").value()[0]",
            "invalid date"),
        Arguments.of("format.datetime().validate(\"2020-01-32T00:00:00Z\").value()[0]",
            "invalid datetime"),
        Arguments.of("format.labelValue().validate(\"my-cool-label-Value!!\\n\\n!!!\").value()[0]",
            "a valid label must be an empty string or consist of alphanumeric characters, '-', '_' or '.', and mu"
            + "st start and end with an alphanumeric character (e.g. 'MyValue',  or 'my_value',  or '12345', regex "
            + "used for validation is '(([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9])?')"),
        Arguments.of("format.dns1123Label().validate(\"a.b\").value()[0]",
            "must not contain dots"),
        Arguments.of("format.dns1123Label().validate(\"abcdefghijabcdefghijabcdefghijabcdefghijabcdefghijabcdefghijabcd\")"
            + ".value()[0]",
            "must be no more than 63 characters"),
        Arguments.of("format.dns1123Label().validate(\"-\").value()[0]",
            "a lowercase RFC 1123 label must consist of lower case alphanumeric characters or '-', and must start"
            + " and end with an alphanumeric character (e.g. 'my-name',  or '123-abc', regex used for validation is"
            + " '[a-z0-9]([-a-z0-9]*[a-z0-9])?')"),
        Arguments.of("format.dns1123Label().validate(\"\").value()[0]",
            "a lowercase RFC 1123 label must consist of lower case alphanumeric characters or '-', and must start"
            + " and end with an alphanumeric character (e.g. 'my-name',  or '123-abc', regex used for validation is"
            + " '[a-z0-9]([-a-z0-9]*[a-z0-9])?')"),
        Arguments.of("format.dns1035Label().validate(\"1abc\").value()[0]",
            "a DNS-1035 label must consist of lower case alphanumeric characters or '-', start with an alphabetic"
            + " character, and end with an alphanumeric character (e.g. 'my-name',  or 'abc-123', regex used for va"
            + "lidation is '[a-z]([-a-z0-9]*[a-z0-9])?')"),
        Arguments.of("format.qualifiedName().validate(\"a/b/c\").value()[0]",
            "a valid label key must consist of alphanumeric characters, '-', '_' or '.', and must start and end w"
            + "ith an alphanumeric character (e.g. 'MyName',  or 'my.name',  or '123-abc', regex used for validatio"
            + "n is '([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]') with an optional DNS subdomain prefix and '/' (e.g."
            + " 'example.com/MyName')"));
  }
}
