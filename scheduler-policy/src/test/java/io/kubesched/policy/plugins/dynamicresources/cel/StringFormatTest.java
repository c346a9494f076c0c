package io.kubesched.policy.plugins.dynamicresources.cel;

import static io.kubesched.policy.plugins.dynamicresources.cel.SelectorAssertions.assertEvaluatesTo;
import static io.kubesched.policy.plugins.dynamicresources.cel.SelectorAssertions.assertFailsToCompile;
import static io.kubesched.policy.plugins.dynamicresources.cel.SelectorAssertions.assertFailsToEvaluate;

import java.util.stream.Stream;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * cel-go's {@code string.format} at strings version 2, as kube enables it: cel-go's own table ({@code
 * ext/formatting_test.go} TestStringFormat, its cases under their names, leaving out those in other locales, on
 * variables or on protobuf messages), kube's cases ({@code apiextensions-apiserver} validation_test.go), and
 * further cases whose expected values are what kube's environment (cel-go v0.29.2, Go 1.26) gives for them.
 */
class StringFormatTest {

  @ParameterizedTest(name = "{0}")
  @MethodSource("celGoFormats")
  void formats_as_cel_go(String name, String expression, String expected) throws SelectorException {
    assertEvaluatesTo(expression, expected);
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("celGoCompileErrors")
  void fails_to_compile_as_cel_go(String name, String expression, String issue) {
    assertFailsToCompile(expression, issue);
  }

  @ParameterizedTest(name = "{0}")
  @CsvSource(delimiter = '|', value = {
      "'%d %s %f %s'.format([1, 'abc', 1.0, duration('1m')])|1 abc 1.000000 60s",
      "'%e'.format([3.14])|3.140000×10⁰⁰",
      "'%o %o %o'.format([7, 8, 9])|7 10 11",
      "'%b %b %b'.format([7, 8, 9])|111 1000 1001",
  })
  void formats_as_kube(String expression, String expected) throws SelectorException {
    assertEvaluatesTo(expression, expected);
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("kubeFormats")
  void formats_as_kube_environment(String expression, String expected) throws SelectorException {
    assertEvaluatesTo(expression, expected);
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("kubeEvaluationErrors")
  void fails_to_evaluate_as_kube_environment(String expression, String message) throws SelectorException {
    assertFailsToEvaluate(expression, message);
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("kubeCompileErrors")
  void fails_to_compile_as_kube_environment(String expression, String issue) {
    assertFailsToCompile(expression, issue);
  }

  /** Where kubesched cannot print what kube prints, it fails naming the clause rather than print otherwise. */
  @ParameterizedTest(name = "{0}")
  @CsvSource(delimiter = '|', value = {
      "'%s'.format([timestamp('2023-02-03T23:31:20+01:00')])|error during formatting: kubesched cannot format a "
          + "timestamp (%s): cel-java keeps no time zone offset, which kube prints",
      "'%s'.format([[timestamp('2023-02-03T23:31:20Z')]])|error during formatting: kubesched cannot format a "
          + "timestamp (%s): cel-java keeps no time zone offset, which kube prints",
      "'%.256f'.format([1.0])|error during formatting: kubesched cannot format with a precision above 255 (%.256f): "
          + "x/text, which kube prints through, keeps eight bits of it",
      "'%.300e'.format([1.0])|error during formatting: kubesched cannot format with a precision above 255 (%.300e): "
          + "x/text, which kube prints through, keeps eight bits of it",
  })
  void fails_where_kubesched_would_print_otherwise(String expression, String message) throws SelectorException {
    assertFailsToEvaluate(expression, message);
  }

  static Stream<Arguments> celGoFormats() {
    return Stream.of(
        Arguments.of("no-op",
            "\"no substitution\".format([])",
            "no substitution"),
        Arguments.of("mid-string substitution",
            "\"str is %s and some more\".format([\"filler\"])",
            "str is filler and some more"),
        Arguments.of("percent escaping",
            "\"%% and also %%\".format([])",
            "% and also %"),
        Arguments.of("substution inside escaped percent signs",
            "\"%%%s%%\".format([\"text\"])",
            "%text%"),
        Arguments.of("substitution with one escaped percent sign on the right",
            "\"%s%%\".format([\"percent on the right\"])",
            "percent on the right%"),
        Arguments.of("substitution with one escaped percent sign on the left",
            "\"%%%s\".format([\"percent on the left\"])",
            "%percent on the left"),
        Arguments.of("multiple substitutions",
            "\"%d %d %d, %s %s %s, %d %d %d, %s %s %s\".format([1, 2, 3, \"A\", \"B\", \"C\", 4, 5, 6, \"D\", \"E"
            + "\", \"F\"])",
            "1 2 3, A B C, 4 5 6, D E F"),
        Arguments.of("percent sign escape sequence support",
            "\"%%escaped %s%%\".format([\"percent\"])",
            "%escaped percent%"),
        Arguments.of("fixed point formatting clause",
            "\"%.3f\".format([1.2345])",
            "1.234"),
        Arguments.of("binary formatting clause",
            "\"this is 5 in binary: %b\".format([5])",
            "this is 5 in binary: 101"),
        Arguments.of("negative binary formatting clause",
            "\"this is -5 in binary: %b\".format([-5])",
            "this is -5 in binary: -101"),
        Arguments.of("uint support for binary formatting",
            "\"unsigned 64 in binary: %b\".format([uint(64)])",
            "unsigned 64 in binary: 1000000"),
        Arguments.of("bool support for binary formatting",
            "\"bit set from bool: %b\".format([true])",
            "bit set from bool: 1"),
        Arguments.of("octal formatting clause",
            "\"%o\".format([11])",
            "13"),
        Arguments.of("negative octal formatting clause",
            "\"%o\".format([-11])",
            "-13"),
        Arguments.of("uint support for octal formatting clause",
            "\"this is an unsigned octal: %o\".format([uint(65535)])",
            "this is an unsigned octal: 177777"),
        Arguments.of("lowercase hexadecimal formatting clause",
            "\"%x is 30 in hexadecimal\".format([30])",
            "1e is 30 in hexadecimal"),
        Arguments.of("uppercase hexadecimal formatting clause",
            "\"%X is 20 in hexadecimal\".format([30])",
            "1E is 20 in hexadecimal"),
        Arguments.of("negative hexadecimal formatting clause",
            "\"%x is -30 in hexadecimal\".format([-30])",
            "-1e is -30 in hexadecimal"),
        Arguments.of("unsigned support for hexadecimal formatting clause",
            "\"%X is 6000 in hexadecimal\".format([uint(6000)])",
            "1770 is 6000 in hexadecimal"),
        Arguments.of("string support with hexadecimal formatting clause",
            "\"%x\".format([\"Hello world!\"])",
            "48656c6c6f20776f726c6421"),
        Arguments.of("string support with uppercase hexadecimal formatting clause",
            "\"%X\".format([\"Hello world!\"])",
            "48656C6C6F20776F726C6421"),
        Arguments.of("byte support with hexadecimal formatting clause",
            "\"%x\".format([b\"byte string\"])",
            "6279746520737472696e67"),
        Arguments.of("byte support with hexadecimal formatting clause leading zero",
            "\"%x\".format([b\"\\x00\\x00byte string\\x00\"])",
            "00006279746520737472696e6700"),
        Arguments.of("byte support with uppercase hexadecimal formatting clause",
            "\"%X\".format([b\"byte string\"])",
            "6279746520737472696E67"),
        Arguments.of("scientific notation formatting clause",
            "\"%.6e\".format([1052.032911275])",
            "1.052033×10⁰³"),
        Arguments.of("default precision for fixed-point clause",
            "\"%f\".format([2.71828])",
            "2.718280"),
        Arguments.of("default precision for scientific notation",
            "\"%e\".format([2.71828])",
            "2.718280×10⁰⁰"),
        Arguments.of("default precision for string",
            "\"%s\".format([2.71])",
            "2.71"),
        Arguments.of("default list precision for string",
            "\"%s\".format([[2.71]])",
            "[2.710000]"),
        Arguments.of("default scientific notation for string",
            "\"%s\".format([0.000000002])",
            "2e-09"),
        Arguments.of("default list scientific notation for string",
            "\"%s\".format([[0.000000002]])",
            "[0.000000]"),
        Arguments.of("unicode output for scientific notation",
            "\"unescaped unicode: %e, escaped unicode: %e\".format([2.71828, 2.71828])",
            "unescaped unicode: 2.718280×10⁰⁰, escaped unicode: 2.718280×10⁰⁰"),
        Arguments.of("NaN support for fixed-point",
            "\"%f\".format([\"NaN\"])",
            "NaN"),
        Arguments.of("positive infinity support for fixed-point",
            "\"%f\".format([\"Infinity\"])",
            "∞"),
        Arguments.of("negative infinity support for fixed-point",
            "\"%f\".format([\"-Infinity\"])",
            "-∞"),
        Arguments.of("NaN support for string",
            "\"%s\".format([double(\"NaN\")])",
            "NaN"),
        Arguments.of("positive infinity support for string",
            "\"%s\".format([1.0/0.0])",
            "+Inf"),
        Arguments.of("negative infinity support for string",
            "\"%s\".format([-1.0/0.0])",
            "-Inf"),
        Arguments.of("infinity list support for string",
            "\"%s\".format([[double(\"NaN\"),1.0/0.0, -1.0/0.0]])",
            "[\"NaN\", \"+Inf\", \"-Inf\"]"),
        Arguments.of("uint support for decimal clause",
            "\"%d\".format([uint(64)])",
            "64"),
        Arguments.of("null support for string",
            "\"null: %s\".format([null])",
            "null: null"),
        Arguments.of("int support for string",
            "\"%s\".format([999999999999])",
            "999999999999"),
        Arguments.of("bytes support for string",
            "\"some bytes: %s\".format([b\"xyz\"])",
            "some bytes: xyz"),
        Arguments.of("type() support for string",
            "\"type is %s\".format([type(\"test string\")])",
            "type is string"),
        Arguments.of("duration support for string",
            "\"%s\".format([duration(\"1h45m47s\")])",
            "6347s"),
        Arguments.of("small duration support for string",
            "\"%s\".format([duration(\"2ns\")])",
            "0.000000002s"),
        Arguments.of("map support (all key types)",
            "\"map with multiple key types: %s\".format([{1: \"value1\", uint(2): \"value2\", true: double(\"NaN"
            + "\")}])",
            "map with multiple key types: {1:\"value1\", 2:\"value2\", true:\"NaN\"}"),
        Arguments.of("boolean support for %s",
            "\"true bool: %s, false bool: %s\".format([true, false])",
            "true bool: true, false bool: false"),
        Arguments.of("high precision allowed on older version",
            "\"%.200f\".format([1.0])",
            "1.00000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000"
            + "0000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000"
            + "00"));
  }


  static Stream<Arguments> celGoCompileErrors() {
    return Stream.of(
        Arguments.of("unrecognized formatting clause",
            "\"%a\".format([1])",
            "ERROR: <input>:1:12: could not parse formatting clause: unrecognized formatting clause \"a\""),
        Arguments.of("out of bounds arg index",
            "\"%d %d %d\".format([0, 1])",
            "ERROR: <input>:1:18: index 2 out of range"),
        Arguments.of("string substitution is not allowed with binary clause",
            "\"string is %b\".format([\"abc\"])",
            "ERROR: <input>:1:24: error during formatting: only integers and bools can be formatted as binary, wa"
            + "s given string"),
        Arguments.of("duration substitution not allowed with decimal clause",
            "\"%d\".format([duration(\"30m2s\")])",
            "ERROR: <input>:1:22: error during formatting: decimal clause can only be used on integers, was given"
            + " google.protobuf.Duration"),
        Arguments.of("string substitution not allowed with octal clause",
            "\"octal: %o\".format([\"a string\"])",
            "ERROR: <input>:1:21: error during formatting: octal clause can only be used on integers, was given s"
            + "tring"),
        Arguments.of("double substitution not allowed with hex clause",
            "\"double is %x\".format([0.5])",
            "ERROR: <input>:1:24: error during formatting: only integers, byte buffers, and strings can be format"
            + "ted as hex, was given double"),
        Arguments.of("uppercase not allowed for scientific clause",
            "\"double is %E\".format([0.5])",
            "ERROR: <input>:1:22: could not parse formatting clause: unrecognized formatting clause \"E\""),
        Arguments.of("null not allowed for %d",
            "\"null: %d\".format([null])",
            "ERROR: <input>:1:20: error during formatting: decimal clause can only be used on integers, was given"
            + " null_type"),
        Arguments.of("null not allowed for %e",
            "\"null: %e\".format([null])",
            "ERROR: <input>:1:20: error during formatting: scientific clause can only be used on doubles, was giv"
            + "en null_type"),
        Arguments.of("null not allowed for %f",
            "\"null: %f\".format([null])",
            "ERROR: <input>:1:20: error during formatting: fixed-point clause can only be used on doubles, was gi"
            + "ven null_type"),
        Arguments.of("null not allowed for %x",
            "\"null: %x\".format([null])",
            "ERROR: <input>:1:20: error during formatting: only integers, byte buffers, and strings can be format"
            + "ted as hex, was given null_type"),
        Arguments.of("null not allowed for %X",
            "\"null: %X\".format([null])",
            "ERROR: <input>:1:20: error during formatting: only integers, byte buffers, and strings can be format"
            + "ted as hex, was given null_type"),
        Arguments.of("null not allowed for %b",
            "\"null: %b\".format([null])",
            "ERROR: <input>:1:20: error during formatting: only integers and bools can be formatted as binary, wa"
            + "s given null_type"),
        Arguments.of("null not allowed for %o",
            "\"null: %o\".format([null])",
            "ERROR: <input>:1:20: error during formatting: octal clause can only be used on integers, was given n"
            + "ull_type"),
        Arguments.of("compile-time cardinality check (too few for string)",
            "\"%s %s\".format([\"abc\"])",
            "ERROR: <input>:1:15: index 1 out of range"),
        Arguments.of("compile-time cardinality check (too many for string)",
            "\"%s %s\".format([\"abc\", \"def\", \"ghi\"])",
            "ERROR: <input>:1:15: too many arguments supplied to string.format (expected 2, got 3)"),
        Arguments.of("compile-time syntax check (unexpected end of string)",
            "\"filler %\".format([])",
            "ERROR: <input>:1:18: unexpected end of string"),
        Arguments.of("compile-time syntax check (unrecognized formatting clause)",
            "\"%j\".format([123])",
            "ERROR: <input>:1:12: could not parse formatting clause: unrecognized formatting clause \"j\""),
        Arguments.of("compile-time %d check",
            "\"int is %d\".format([5.2])",
            "ERROR: <input>:1:21: error during formatting: decimal clause can only be used on integers, was given"
            + " double"),
        Arguments.of("compile-time %f check",
            "\"double is %f\".format([true])",
            "ERROR: <input>:1:24: error during formatting: fixed-point clause can only be used on doubles, was gi"
            + "ven bool"),
        Arguments.of("compile-time precision syntax check",
            "\"double is %.34\".format([5.0])",
            "ERROR: <input>:1:24: could not parse formatting clause: error while parsing precision: could not fin"
            + "d end of precision specifier"),
        Arguments.of("compile-time %e check",
            "\"double is %e\".format([true])",
            "ERROR: <input>:1:24: error during formatting: scientific clause can only be used on doubles, was giv"
            + "en bool"),
        Arguments.of("compile-time %b check",
            "\"string is %b\".format([\"a string\"])",
            "ERROR: <input>:1:24: error during formatting: only integers and bools can be formatted as binary, wa"
            + "s given string"),
        Arguments.of("compile-time %x check",
            "\"%x is a double\".format([2.5])",
            "ERROR: <input>:1:26: error during formatting: only integers, byte buffers, and strings can be format"
            + "ted as hex, was given double"),
        Arguments.of("compile-time %X check",
            "\"%X is a double\".format([2.5])",
            "ERROR: <input>:1:26: error during formatting: only integers, byte buffers, and strings can be format"
            + "ted as hex, was given double"),
        Arguments.of("compile-time %o check",
            "\"an octal: %o\".format([3.14])",
            "ERROR: <input>:1:24: error during formatting: octal clause can only be used on integers, was given d"
            + "ouble"));
  }

  static Stream<Arguments> kubeFormats() {
    return Stream.of(
        Arguments.of("'%d %s %f %s'.format([1, 'abc', 1.0, duration('1m')])",
            "1 abc 1.000000 60s"),
        Arguments.of("'%e'.format([3.14])",
            "3.140000×10⁰⁰"),
        Arguments.of("'%o %o %o'.format([7, 8, 9])",
            "7 10 11"),
        Arguments.of("'%b %b %b'.format([7, 8, 9])",
            "111 1000 1001"),
        Arguments.of("'%f'.format([-1234567.891])",
            "-1,234,567.891000"),
        Arguments.of("'%f'.format([0.0])",
            "0.000000"),
        Arguments.of("'%f'.format([-0.0])",
            "0.000000"),
        Arguments.of("'%f'.format([double('NaN')])",
            "NaN"),
        Arguments.of("'%f'.format(['NaN'])",
            "NaN"),
        Arguments.of("'%f'.format(['Infinity'])",
            "∞"),
        Arguments.of("'%.0f'.format([2.5])",
            "2"),
        Arguments.of("'%.0f'.format([3.5])",
            "4"),
        Arguments.of("'%.2f'.format([1.005])",
            "1.00"),
        Arguments.of("'%.20f'.format([0.1])",
            "0.10000000000000000555"),
        Arguments.of("'%.0f'.format([1e20])",
            "100,000,000,000,000,000,000"),
        Arguments.of("'%f'.format([1e300])",
            "1,000,000,000,000,000,052,504,760,255,204,420,248,704,468,581,108,159,154,915,854,115,511,802,457,98"
            + "8,908,195,786,371,375,080,447,864,043,704,443,832,883,878,176,942,523,235,360,430,575,644,792,184,78"
            + "6,706,982,848,387,200,926,575,803,737,830,233,794,788,090,059,368,953,234,970,799,945,081,119,038,96"
            + "7,640,880,074,652,742,780,142,494,579,258,788,820,056,842,838,115,669,472,196,386,865,459,400,540,16"
            + "0.000000"),
        Arguments.of("'%.3f'.format([999.9999])",
            "1,000.000"),
        Arguments.of("'%e'.format([0.0])",
            "0.000000×10⁰⁰"),
        Arguments.of("'%e'.format([-0.000123])",
            "-1.230000×10⁻⁰⁴"),
        Arguments.of("'%.2e'.format([1234.5678])",
            "1.234568×10⁰³"),
        Arguments.of("'%e'.format([1e300])",
            "1.000000×10³⁰⁰"),
        Arguments.of("'%e'.format([1e-300])",
            "1.000000×10⁻³⁰⁰"),
        Arguments.of("'%e'.format([double('NaN')])",
            "   NaN"),
        Arguments.of("'%e'.format([9.9999999])",
            "1.000000×10⁰¹"),
        Arguments.of("'%e'.format([5e-324])",
            "4.940656×10⁻³²⁴"),
        Arguments.of("'%e'.format([12345665.0])",
            "1.234566×10⁰⁷"),
        Arguments.of("'%f'.format([-0.0000001])",
            "-0.000000"),
        Arguments.of("'%.0f'.format([-0.4])",
            "-0"),
        Arguments.of("'%.20e'.format([1.0])",
            "       1.000000×10⁰⁰"),
        Arguments.of("'%.15e'.format([-1.0])",
            " -1.000000×10⁰⁰"),
        Arguments.of("'%s'.format([1.0])",
            "1"),
        Arguments.of("'%s'.format([1e100])",
            "1e+100"),
        Arguments.of("'%s'.format([0.1])",
            "0.1"),
        Arguments.of("'%s'.format([-0.0])",
            "-0"),
        Arguments.of("'%s'.format([1.5e-7])",
            "1.5e-07"),
        Arguments.of("'%s'.format([123456789012345678901.0])",
            "1.2345678901234568e+20"),
        Arguments.of("'%s'.format([double('NaN')])",
            "NaN"),
        Arguments.of("'%s'.format([b'abc'])",
            "abc"),
        Arguments.of("'%s'.format([duration('1h1.5s')])",
            "3601.5s"),
        Arguments.of("'%s'.format([duration('-1ms')])",
            "-0.001s"),
        Arguments.of("'%s'.format([duration('-1.5s')])",
            "-1.5s"),
        Arguments.of("'%s'.format([[1, 'a', 2.5, b'x', null, true, duration('1s'), double('NaN'), 3u, int]])",
            "[1, \"a\", 2.500000, b\"x\", null, true, duration(\"1s\"), \"NaN\", 3, int]"),
        Arguments.of("'%s'.format([{'b': 1, 'a': [2.0], 'c': {1: 'x'}}])",
            "{\"a\":[2.000000], \"b\":1, \"c\":{1:\"x\"}}"),
        Arguments.of("'%s'.format([{true: 1, false: 2}])",
            "{false:2, true:1}"),
        Arguments.of("'%s'.format([{2: 1, 10: 2}])",
            "{10:2, 2:1}"),
        Arguments.of("'%s'.format([null])",
            "null"),
        Arguments.of("'%s'.format([int])",
            "int"),
        Arguments.of("'%s'.format([type(1)])",
            "int"),
        Arguments.of("'%s'.format([type(type)])",
            "type"),
        Arguments.of("'%s'.format([type([1])])",
            "list"),
        Arguments.of("'%x %X'.format(['hello', b'\\xffa'])",
            "68656c6c6f FF61"),
        Arguments.of("'%x %b %o'.format([-26, -5, -8])",
            "-1a -101 -10"),
        Arguments.of("'%x'.format([18446744073709551615u])",
            "ffffffffffffffff"),
        Arguments.of("'%b'.format([true])",
            "1"),
        Arguments.of("'%d'.format([-9223372036854775808])",
            "-9223372036854775808"),
        Arguments.of("'%s'.format(['a\"b\\n'])",
            "a\"b\n"),
        Arguments.of("'%s'.format([['a\"b\\n\\u00a0é']])",
            "[\"a\\\"b\\n\\u00a0é\"]"),
        Arguments.of("'%s'.format([['\\U0001F600', '\\x7f', '\\u0085', '\\u200b', '\\ufeff']])",
            "[\"😀\", \"\\x7f\", \"\\u0085\", \"\\u200b\", \"\\ufeff\"]"),
        Arguments.of("'%s'.format([{'\\U0001F600': 1, '\\uffff': 2}])",
            "{\"\\uffff\":2, \"😀\":1}"),
        Arguments.of("'%.3x'.format([1])",
            "1"),
        Arguments.of("'ab'.format(dyn([1]))",
            "ab"),
        Arguments.of("'%e'.format(['-Infinity'])",
            "    -∞"),
        Arguments.of("'é%dé'.format([1])",
            "é1é"),
        Arguments.of("'%s'.format([{'a': {'b': b'c'}}])",
            "{\"a\":{\"b\":b\"c\"}}"),
        Arguments.of("'%%%d%%'.format([5])",
            "%5%"),
        Arguments.of("'%s'.format([[1, 'a']])",
            "[1, \"a\"]"),
        Arguments.of("'%s'.format([1, 'a'].map(x, [x, 1]))",
            "[1, 1]"),
        Arguments.of("'%.17f'.format([1.0/3.0])",
            "0.33333333333333331"),
        Arguments.of("'%.255f'.format([2.0/3.0])",
            "0.66666666666666662965923251249478198587894439697265625000000000000000000000000000000000000000000000"
            + "0000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000"
            + "000000000000000000000000000000000000000000000000000000000"),
        Arguments.of("'%.100f'.format([1.0/3.0])",
            "0.33333333333333331482961625624739099293947219848632812500000000000000000000000000000000000000000000"
            + "00"),
        Arguments.of("'%f'.format([123456.0]) + '%f'.format([12345.0]) + '%f'.format([1234.0])",
            "123,456.00000012,345.0000001,234.000000"),
        Arguments.of("'%s'.format([duration('0s')])",
            "0s"),
        Arguments.of("'%s'.format([duration('1ns')])",
            "0.000000001s"),
        Arguments.of("'%s'.format([1000000.0])",
            "1e+06"),
        Arguments.of("'%s'.format([100000.0])",
            "100000"),
        Arguments.of("'%s'.format([0.0001])",
            "0.0001"),
        Arguments.of("'%s'.format([0.00001])",
            "1e-05"),
        Arguments.of("'%s'.format([[1e21, 100000.0, -0.0]])",
            "[1000000000000000000000.000000, 100000.000000, -0.000000]"),
        Arguments.of("'%s'.format([5e-324])",
            "5e-324"),
        Arguments.of("'%s'.format([1.7976931348623157e308])",
            "1.7976931348623157e+308"),
        Arguments.of("'%s'.format([0.3])",
            "0.3"),
        Arguments.of("'%s'.format([2.0/3.0])",
            "0.6666666666666666"),
        Arguments.of("'%f'.format([1.0/0.0])",
            "∞"),
        Arguments.of("'%f'.format([-1.0/0.0])",
            "-∞"),
        Arguments.of("'%e'.format([-1.0/0.0])",
            "    -∞"),
        Arguments.of("'%s'.format([[1.0/0.0, -1.0/0.0, 0.0/0.0]])",
            "[\"+Inf\", \"-Inf\", \"NaN\"]"),
        Arguments.of("'%s'.format([-1.0/0.0])",
            "-Inf"));
  }

  static Stream<Arguments> kubeEvaluationErrors() {
    return Stream.of(
        Arguments.of("'%s'.format([b'\\xff'])",
            "error during formatting: could not convert argument \"invalid UTF-8 in bytes, cannot convert to stri"
            + "ng\" to string"),
        Arguments.of("'%d'.format(dyn([\"a\"]))",
            "error during formatting: decimal clause can only be used on integers, was given string"),
        Arguments.of("'%d'.format([dyn(duration('1s'))])",
            "error during formatting: decimal clause can only be used on integers, was given google.protobuf.Dura"
            + "tion"),
        Arguments.of("'%x'.format([dyn(null)])",
            "error during formatting: only integers, byte buffers, and strings can be formatted as hex, was given"
            + " null_type"),
        Arguments.of("'%s'.format([dyn(optional.none())])",
            "error during formatting: string clause can only be used on strings, bools, bytes, ints, doubles, map"
            + "s, lists, types, durations, and timestamps, was given optional_type"),
        Arguments.of("'%d'.format([dyn([1])])",
            "error during formatting: decimal clause can only be used on integers, was given list"),
        Arguments.of("'%f'.format([dyn(1)])",
            "error during formatting: fixed-point clause can only be used on doubles, was given int"),
        Arguments.of("'%b'.format([dyn(1.0)])",
            "error during formatting: only integers and bools can be formatted as binary, was given double"),
        Arguments.of("'%o'.format([dyn('a')])",
            "error during formatting: octal clause can only be used on integers, was given string"),
        Arguments.of("'%e'.format([dyn(b'a')])",
            "error during formatting: scientific clause can only be used on doubles, was given bytes"),
        Arguments.of("'%s'.format([dyn([optional.none()])])",
            "error during formatting: no formatting function for optional_type"),
        Arguments.of("'%s'.format([{1.0: 2}])",
            "error during formatting: no formatting function for map key of type double"),
        Arguments.of("'%s %s'.format(dyn([1]))",
            "index 1 out of range"),
        Arguments.of("'%.3'.format(dyn([1.0]))",
            "could not parse formatting clause: error while parsing precision: could not find end of precision sp"
            + "ecifier"),
        Arguments.of("'%f'.format(['abc'])",
            "error during formatting: fixed-point clause can only be used on doubles, was given string"),
        Arguments.of("'%é'.format(dyn([1]))",
            "could not parse formatting clause: unrecognized formatting clause \"Ã\""),
        Arguments.of("'%'.format(dyn([]))",
            "index 0 out of range"));
  }

  static Stream<Arguments> kubeCompileErrors() {
    return Stream.of(
        Arguments.of("'%s'.format([optional.of(1)])",
            "ERROR: <input>:1:25: error during formatting: string clause can only be used on strings, bools, byte"
            + "s, ints, doubles, maps, lists, types, durations, and timestamps, was given optional_type"),
        Arguments.of("'%d'.format([\"a\"])",
            "ERROR: <input>:1:14: error during formatting: decimal clause can only be used on integers, was given"
            + " string"),
        Arguments.of("'%d'.format([1, 2])",
            "ERROR: <input>:1:12: too many arguments supplied to string.format (expected 1, got 2)"),
        Arguments.of("'%d %d'.format([1])",
            "ERROR: <input>:1:15: index 1 out of range"),
        Arguments.of("'%q'.format([1])",
            "ERROR: <input>:1:12: could not parse formatting clause: unrecognized formatting clause \"q\""),
        Arguments.of("'%'.format([1])",
            "ERROR: <input>:1:11: unexpected end of string"),
        Arguments.of("'%.'.format([1.0])",
            "ERROR: <input>:1:12: could not parse formatting clause: error while parsing precision: could not fin"
            + "d end of precision specifier"),
        Arguments.of("'%.f'.format([1.0])",
            "ERROR: <input>:1:13: could not parse formatting clause: error while parsing precision: error while c"
            + "onverting precision to integer: strconv.Atoi: parsing \"\": invalid syntax"),
        Arguments.of("'%5d'.format([1])",
            "ERROR: <input>:1:13: could not parse formatting clause: unrecognized formatting clause \"5\""),
        Arguments.of("'%d'.format([duration('1s')])",
            "ERROR: <input>:1:22: error during formatting: decimal clause can only be used on integers, was given"
            + " google.protobuf.Duration"),
        Arguments.of("'%s'.format([url('http://x')])",
            "ERROR: <input>:1:17: error during formatting: string clause can only be used on strings, bools, byte"
            + "s, ints, doubles, maps, lists, types, durations, and timestamps, was given kubernetes.URL"),
        Arguments.of("'%.99999999999999999999f'.format([1.0])",
            "ERROR: <input>:1:33: could not parse formatting clause: error while parsing precision: error while c"
            + "onverting precision to integer: strconv.Atoi: parsing \"99999999999999999999\": value out of range"),
        Arguments.of("'%é'.format([1])",
            "ERROR: <input>:1:12: could not parse formatting clause: unrecognized formatting clause \"Ã\""),
        Arguments.of("'%s'.format([[[]], {}])",
            "ERROR: <input>:1:12: too many arguments supplied to string.format (expected 1, got 2)"),
        Arguments.of("'%s'.format([format.uri()])",
            "ERROR: <input>:1:24: error during formatting: string clause can only be used on strings, bools, byte"
            + "s, ints, doubles, maps, lists, types, durations, and timestamps, was given kubernetes.NamedFormat"));
  }
}
