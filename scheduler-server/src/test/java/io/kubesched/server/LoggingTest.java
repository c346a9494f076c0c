package io.kubesched.server;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.kubesched.api.ConfigurationException;
import io.kubesched.api.PodInfo;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.regex.Pattern;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.slf4j.LoggerFactory;
import org.slf4j.MDC;
import tools.jackson.databind.json.JsonMapper;

/** The server's logging through SLF4J, as the loop's classes log: what reaches standard error. */
class LoggingTest {

  private static final org.slf4j.Logger LOOP = LoggerFactory.getLogger("io.kubesched.informer.cycle.BindingCycle");
  private static final org.slf4j.Logger FABRIC8 = LoggerFactory.getLogger("io.fabric8.kubernetes.client.Some");
  private static final JsonMapper JSON = JsonMapper.builder().build();

  private final ByteArrayOutputStream err = new ByteArrayOutputStream();
  private PrintStream saved;

  @BeforeEach
  void captureStandardError() {
    saved = System.err;
    System.setErr(new PrintStream(err, true, StandardCharsets.UTF_8));
  }

  @AfterEach
  void restore() {
    System.setErr(saved);
    Logging.configure("text", 0);
  }

  private List<String> lines() {
    return err.toString(StandardCharsets.UTF_8).lines().toList();
  }

  @Test
  void json_is_one_object_per_line_with_the_pairs_and_the_mdc_as_fields() {
    Logging.configure("json", 0);
    MDC.put("profile", "kubesched");
    try {
      LOOP.atInfo().setMessage("Bound {} to {}").addArgument("ns/p").addArgument("node-1")
          .addKeyValue("pod", "ns/p").addKeyValue("node", "node-1").log();
    } finally {
      MDC.remove("profile");
    }
    LOOP.debug("not at -v=0");
    var lines = lines();
    assertEquals(1, lines.size(), lines.toString());
    var line = JSON.readTree(lines.get(0));
    assertEquals("Bound ns/p to node-1", line.get("message").asString());
    assertEquals("info", line.get("level").asString());
    assertEquals("io.kubesched.informer.cycle.BindingCycle", line.get("logger").asString());
    assertEquals("ns/p", line.get("pod").asString());
    assertEquals("node-1", line.get("node").asString());
    assertEquals("kubesched", line.get("profile").asString());
    assertTrue(Pattern.matches("\\d{4}-\\d\\d-\\d\\dT\\d\\d:\\d\\d:\\d\\d\\.\\d{3}Z", line.get("time").asString()),
        line.get("time").asString());
  }

  @Test
  void an_exception_is_its_one_line_message_below_4_and_a_stack_from_4() {
    Logging.configure("json", 0);
    LOOP.warn("Binding failed", new IllegalStateException("refused\nby the server"));
    Logging.configure("json", 4);
    LOOP.warn("Binding failed", new IllegalStateException("refused"));
    var lines = lines();
    assertEquals(2, lines.size(), lines.toString());
    var quiet = JSON.readTree(lines.get(0));
    assertEquals("java.lang.IllegalStateException: refused by the server", quiet.get("error").asString());
    assertFalse(quiet.has("stack"));
    var loud = JSON.readTree(lines.get(1));
    assertTrue(loud.get("stack").asString().contains("at io.kubesched.server.LoggingTest"), loud.toString());
  }

  @Test
  void text_is_time_level_logger_message_and_pairs_on_one_line() {
    Logging.configure("text", 0);
    LOOP.atInfo().setMessage("Pod ns/p is unschedulable:\n0/3 nodes").addKeyValue("pod", "ns/p")
        .addKeyValue("profile", "kube sched").log();
    LOOP.warn("Failed", new IllegalStateException("no"));
    var lines = lines();
    assertEquals(2, lines.size(), lines.toString());
    assertTrue(Pattern.matches("\\S+Z INFO  BindingCycle Pod ns/p is unschedulable:\\\\n0/3 nodes pod=ns/p"
        + " profile=\"kube sched\"", lines.get(0)), lines.get(0));
    assertTrue(lines.get(1).endsWith("WARN  BindingCycle Failed error=\"java.lang.IllegalStateException: no\""),
        lines.get(1));
  }

  @Test
  void dependencies_are_one_level_quieter() {
    Logging.configure("text", 0);
    FABRIC8.info("quiet at 0");
    FABRIC8.warn("heard at 0");
    Logging.configure("text", 4);
    FABRIC8.info("heard at 4");
    FABRIC8.debug("quiet at 4");
    LOOP.debug("heard at 4 too");
    var text = String.join("\n", lines());
    assertFalse(text.contains("quiet"), text);
    assertTrue(text.contains("heard at 0") && text.contains("heard at 4") && text.contains("heard at 4 too"), text);
  }

  @Test
  void from_2_each_decision_is_a_line_with_the_pod_its_node_and_its_profile() {
    var pod = PodInfo.builder("default", "p").schedulerName("kubesched").build();
    Logging.configure("json", 1);
    new DecisionLog().bound(pod, "node-0");
    Logging.configure("json", 2);
    new DecisionLog().bound(pod, "node-1");
    var lines = lines();
    assertEquals(1, lines.size(), lines.toString());
    var line = JSON.readTree(lines.get(0));
    assertEquals("default/p (kubesched): bound to node-1", line.get("message").asString());
    assertEquals("default/p", line.get("pod").asString());
    assertEquals("node-1", line.get("node").asString());
    assertEquals("kubesched", line.get("profile").asString());
  }

  @Test
  void another_format_or_a_negative_verbosity_is_the_one_line_message() {
    var format = assertThrows(ConfigurationException.class, () -> Logging.configure("logfmt", 0));
    assertEquals("command line: --logging-format must be one of [text, json], was 'logfmt'", format.getMessage());
    var verbosity = assertThrows(ConfigurationException.class, () -> Logging.configure("json", -1));
    assertEquals("command line: -v must be 0 or more, was -1", verbosity.getMessage());
  }
}
