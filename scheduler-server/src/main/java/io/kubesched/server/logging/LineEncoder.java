package io.kubesched.server.logging;

import ch.qos.logback.classic.spi.ILoggingEvent;
import ch.qos.logback.core.encoder.EncoderBase;
import java.nio.charset.StandardCharsets;
import java.util.function.Function;

/**
 * Logback's encoder for the server's log: each event as one {@link LogLine}, written by the format's {@code
 * format} ({@link JsonLineEncoder#format} or {@link TextLineEncoder#format}) and a line break, in UTF-8; no
 * header, no footer.
 *
 * <p>Thread-safe: Logback's appender calls {@link #encode} under its own lock, and this keeps no state.
 */
final class LineEncoder extends EncoderBase<ILoggingEvent> {

  private final Function<LogLine, String> format;
  private final boolean withStack;

  /**
   * @param format writes one line (and, in text, the stack trace's lines after it), without a final break
   * @param withStack whether a logged exception's stack trace is written
   */
  LineEncoder(Function<LogLine, String> format, boolean withStack) {
    this.format = format;
    this.withStack = withStack;
  }

  @Override
  public byte[] headerBytes() {
    return new byte[0];
  }

  @Override
  public byte[] encode(ILoggingEvent event) {
    return (format.apply(LogLine.of(event, withStack)) + "\n").getBytes(StandardCharsets.UTF_8);
  }

  @Override
  public byte[] footerBytes() {
    return new byte[0];
  }
}
