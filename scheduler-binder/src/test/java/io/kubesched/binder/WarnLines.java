package io.kubesched.binder;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.util.List;

/**
 * The WARN lines the binder logs while open: SLF4J's simple binding (the tests' binding, at level warn) writes
 * to whatever {@code System.err} is at the time of each line, so standard error is swapped for a buffer until
 * {@link #close}, as the server's logging test captures it. Lines of other loggers (a client thread's) are left
 * out. Tests run one at a time in a module's JVM, so no other test's lines land in the buffer.
 */
public final class WarnLines implements AutoCloseable {

  private static final String BINDER = "io.kubesched.binder";

  private final PrintStream saved = System.err;
  private final ByteArrayOutputStream err = new ByteArrayOutputStream();

  private WarnLines() {
    System.setErr(new PrintStream(err, true, StandardCharsets.UTF_8));
  }

  /** Starts capturing; {@link #close} restores standard error. */
  public static WarnLines capture() {
    return new WarnLines();
  }

  /** @return the binder's WARN lines so far, in order */
  public List<String> lines() {
    return err.toString(StandardCharsets.UTF_8).lines()
        .filter(line -> line.contains(" WARN " + BINDER))
        .toList();
  }

  @Override
  public void close() {
    System.setErr(saved);
    saved.print(err.toString(StandardCharsets.UTF_8));
  }
}
