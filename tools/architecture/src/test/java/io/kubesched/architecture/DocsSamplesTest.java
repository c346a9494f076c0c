package io.kubesched.architecture;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.io.StringWriter;
import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import javax.tools.DiagnosticCollector;
import javax.tools.JavaFileObject;
import javax.tools.SimpleJavaFileObject;
import javax.tools.ToolProvider;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestFactory;

/**
 * Every Java code block of the README and of {@code docs/} compiles against the published modules, so that a
 * renamed method or a moved type fails the build instead of a reader. This module sees every published module,
 * which is why the check lives here.
 *
 * <p>A block is compiled as it is shown, with the imports a reader would add (the library's exported packages,
 * jqwik's, {@code java.util}, {@code java.time}): a block that declares a type is a compilation unit; any other
 * is the body of a method. What a fragment takes from its surroundings is said in an HTML comment on the line
 * before the block, invisible to readers, in clauses separated by {@code ; }: {@code with Client client,
 * Controller controller} declares those names (as the method's parameters), {@code declares void schedule(Options
 * options)} a method the block calls (another page's), {@code member of PolicyContract} puts the block in a class
 * implementing that type. Blocks marked {@code <!-- sample: X -->} are also compared, word for
 * word, with the test {@code X} that runs them.
 */
class DocsSamplesTest {

  private static final Path ROOT = Path.of("../..");

  private static final List<String> IMPORTS = List.of(
      "io.kubesched.api.*", "io.kubesched.facade.*", "io.kubesched.policy.*", "io.kubesched.policy.framework.*",
      "io.kubesched.policy.plugins.*", "io.kubesched.policy.config.*", "io.kubesched.testkit.*",
      "io.kubesched.micrometer.*", "io.kubesched.simulation.*", "io.kubesched.crd.*", "io.kubesched.spring.*", "net.jqwik.api.*", "java.util.*", "java.time.*", "java.nio.file.*");

  private static final Pattern BLOCK = Pattern.compile("(?:<!-- ([a-z]+): ([^\\n]*?) -->\\n[ \\t]*)?```java\\n(.*?)```",
      Pattern.DOTALL);

  private static final Pattern TYPE = Pattern.compile(
      "^(?:public |final |abstract |sealed )*(?:class|record|interface|enum) (\\w+)", Pattern.MULTILINE);

  /** A Java block of a page, with the line it starts on and what its comment says about its surroundings. */
  record Sample(Path page, int line, String directive, String argument, String code) {

    String where() {
      return ROOT.relativize(page) + ":" + line;
    }

    /** The compilation unit a reader's IDE would compile. */
    String source(String className) {
      var out = new StringBuilder();
      IMPORTS.forEach(i -> out.append("import ").append(i).append(";\n"));
      var type = TYPE.matcher(code);
      if (type.find()) {
        return out.append(code).toString();
      }
      var memberOf = clause("member of ");
      if (!memberOf.isEmpty()) {
        return out.append("abstract class ").append(className).append(" implements ").append(memberOf)
            .append(" {\n").append(code).append("}\n").toString();
      }
      var params = clause("with ");
      var declares = clause("declares ");
      // A block whose last statement has no semicolon shows an expression (a builder chain, say).
      var last = code.strip().replaceAll("//[^\n]*$", "").strip();
      var body = last.endsWith(";") || last.endsWith("}") ? code : "Object shown = " + code + ";\n";
      return out.append("abstract class ").append(className).append(" {\n")
          .append(declares.isEmpty() ? "" : "  abstract " + declares + " throws Exception;\n")
          .append("  void sample(").append(params).append(") throws Exception {\n").append(body).append("  }\n}\n")
          .toString();
    }

    /** The text after {@code prefix} in the block's compile comment, empty if it has no such clause. */
    private String clause(String prefix) {
      if (!directive.equals("compile")) {
        return "";
      }
      for (var part : argument.split("; ")) {
        if (part.startsWith(prefix)) {
          return part.substring(prefix.length());
        }
      }
      return "";
    }

    String className() {
      var type = TYPE.matcher(code);
      return type.find() ? type.group(1) : "Sample" + Math.abs((page + ":" + line).hashCode());
    }
  }

  static List<Sample> samples() throws IOException {
    var pages = new ArrayList<Path>();
    pages.add(ROOT.resolve("README.md"));
    try (Stream<Path> docs = Files.walk(ROOT.resolve("docs"))) {
      docs.filter(p -> p.toString().endsWith(".md")).sorted().forEach(pages::add);
    }
    var samples = new ArrayList<Sample>();
    for (var page : pages) {
      var text = Files.readString(page);
      Matcher m = BLOCK.matcher(text);
      while (m.find()) {
        int line = (int) text.substring(0, m.start(3)).lines().count();
        samples.add(new Sample(page, line, m.group(1) == null ? "" : m.group(1),
            m.group(2) == null ? "" : m.group(2), m.group(3)));
      }
    }
    return samples;
  }

  @TestFactory
  Stream<DynamicTest> every_java_block_of_the_docs_compiles() throws IOException {
    // The blocks marked as samples are compiled, run and compared with the page by their own tests.
    return samples().stream().filter(s -> !s.directive().equals("sample")).map(s -> DynamicTest.dynamicTest(s.where(), () -> {
      var errors = compile(s.className(), s.source(s.className()));
      assertTrue(errors.isEmpty(), () -> s.where() + " does not compile:\n" + errors + "\n" + s.source(s.className()));
    }));
  }

  @Test
  void the_docs_have_java_blocks_to_check() throws IOException {
    // A change to the block pattern that finds nothing would make the check above pass vacuously.
    assertTrue(samples().size() >= 8, "found " + samples().size());
  }

  @Test
  void a_block_that_calls_what_does_not_exist_fails() {
    var broken = new Sample(ROOT.resolve("docs/x.md"), 1, "", "", "Options options = Options.builder().noSuchSetting().build();\n");
    assertFalse(compile(broken.className(), broken.source(broken.className())).isEmpty());
    var fine = new Sample(ROOT.resolve("docs/x.md"), 1, "compile", "with Client client",
        "Controller controller = client.newPodController((pod, nodes) -> Decision.unschedulable(Map.of()));\n");
    assertEquals("", compile(fine.className(), fine.source(fine.className())));
  }

  /** @return javac's errors, empty if it compiled */
  private static String compile(String className, String source) {
    var javac = ToolProvider.getSystemJavaCompiler();
    var diagnostics = new DiagnosticCollector<JavaFileObject>();
    var file = new SimpleJavaFileObject(URI.create("string:///" + className + ".java"), JavaFileObject.Kind.SOURCE) {
      @Override
      public CharSequence getCharContent(boolean ignoreEncodingErrors) {
        return source;
      }
    };
    var output = new StringWriter();
    List<String> options = List.of("-proc:none", "-classpath", System.getProperty("java.class.path"), "-d",
        tempDir().toString(), "-Xlint:none");
    boolean ok = javac.getTask(output, null, diagnostics, options, null, List.of(file)).call();
    if (ok) {
      return "";
    }
    var errors = new StringBuilder(output.toString());
    diagnostics.getDiagnostics().forEach(d -> errors.append("line ").append(d.getLineNumber()).append(": ")
        .append(d.getMessage(Locale.ROOT)).append('\n'));
    return errors.toString();
  }

  private static Path tempDir() {
    try {
      return Files.createTempDirectory("docs-samples");
    } catch (IOException e) {
      throw new java.io.UncheckedIOException(e);
    }
  }
}
