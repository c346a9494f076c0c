package io.kubesched.http;

import java.io.BufferedInputStream;
import java.io.BufferedOutputStream;
import java.io.ByteArrayOutputStream;
import java.io.EOFException;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.ProtocolException;
import java.net.Socket;
import java.net.SocketTimeoutException;
import java.nio.channels.ClosedChannelException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import org.jspecify.annotations.Nullable;

/**
 * One HTTP/1.1 connection, used by one thread at a time: writes a request and reads its whole answer on the
 * calling thread. What {@link BlockingHttpClient} pools.
 *
 * <p>It speaks only what a Kubernetes API server answers a short request with: a status line, headers, and a
 * body of a {@code Content-Length}, in chunks ({@code Transfer-Encoding: chunked}), or up to the end of the
 * connection; interim {@code 1xx} answers are skipped. No compression is asked for, no upgrade, no pipelining.
 * A request is written in one piece (head and body through one buffer), so a small one leaves in one TLS
 * record and one TCP segment, with {@code TCP_NODELAY} set.
 *
 * <p>Not thread-safe; the pool hands a connection to one exchange at a time.
 */
final class Http11Connection implements AutoCloseable {

  /** The largest head (status line and headers) read before the answer is refused. */
  private static final int MAX_HEAD = 64 * 1024;

  private final Socket socket;
  private final InputStream in;
  private final OutputStream out;

  /** @param socket connected (and, for HTTPS, wrapped in TLS) */
  Http11Connection(Socket socket) throws IOException {
    this.socket = socket;
    socket.setTcpNoDelay(true);
    this.in = new BufferedInputStream(socket.getInputStream(), 16 * 1024);
    this.out = new BufferedOutputStream(socket.getOutputStream(), 8 * 1024);
  }

  /** An answer read in full. */
  record Answer(int code, Map<String, List<String>> headers, byte[] body, boolean keepAlive) {}

  /** Thrown when the connection ended before any byte of the answer: the request may be sent again. */
  static final class NoAnswerException extends IOException {
    NoAnswerException() {
      super("the connection was closed before an answer");
    }

    NoAnswerException(IOException cause) {
      super("the connection was closed before an answer: " + cause, cause);
    }
  }

  /**
   * Sends a request and reads its answer.
   *
   * @param target the request target: the path and query, as sent
   * @param host the {@code Host} header's value
   * @param headers the request's headers; {@code Content-Length} is set here
   * @param body null for none
   * @param readTimeoutMillis the longest wait for each read, 0 for none
   * @throws NoAnswerException if the connection ended before the answer began (a kept-alive connection the
   *     server closed meanwhile: the end of the stream, a broken pipe or a reset before the answer's first
   *     byte); nothing of the answer was read. Not for a read timeout, nor a close by this client or an
   *     interrupt
   * @throws IOException on any other failure; the connection must not be used again
   */
  Answer exchange(
      String method, String target, String host, Map<String, List<String>> headers, byte @Nullable [] body,
      int readTimeoutMillis)
      throws IOException {
    socket.setSoTimeout(readTimeoutMillis);
    var head = new StringBuilder(256);
    head.append(method).append(' ').append(target).append(" HTTP/1.1\r\n");
    appendHeader(head, "Host", host);
    for (var header : headers.entrySet()) {
      if (header.getKey().equalsIgnoreCase("Host") || header.getKey().equalsIgnoreCase("Content-Length")) {
        continue;
      }
      for (var value : header.getValue()) {
        appendHeader(head, header.getKey(), value);
      }
    }
    if (body != null) {
      appendHeader(head, "Content-Length", Integer.toString(body.length));
    }
    head.append("\r\n");
    String statusLine;
    try {
      out.write(head.toString().getBytes(StandardCharsets.ISO_8859_1));
      if (body != null) {
        out.write(body);
      }
      out.flush();
      statusLine = readLine(true);
    } catch (NoAnswerException | SocketTimeoutException | ClosedChannelException | EOFException
        | ProtocolException e) {
      // no answer yet; a slow server; closed by this client or an interrupt; part of an answer: not a lost
      // connection
      throw e;
    } catch (IOException e) {
      // The server had closed the connection (a broken pipe on writing, a reset before the first byte).
      throw new NoAnswerException(e);
    }
    while (true) {
      var answer = readAnswer(method, statusLine);
      if (answer != null) {
        return answer;
      }
      statusLine = readLine(false);
    }
  }

  /** @return the answer, or null for an interim (1xx) one, after which the final one follows */
  private @Nullable Answer readAnswer(String method, String statusLine) throws IOException {
    // HTTP/1.1 201 Created
    if (!statusLine.startsWith("HTTP/1.") || statusLine.length() < 12 || statusLine.charAt(8) != ' ') {
      throw new ProtocolException("not an HTTP/1.x status line: '" + abbreviate(statusLine) + "'");
    }
    int code;
    try {
      code = Integer.parseInt(statusLine.substring(9, 12));
    } catch (NumberFormatException e) {
      throw new ProtocolException("no status code in '" + abbreviate(statusLine) + "'");
    }
    var headers = readHeaders();
    if (code >= 100 && code < 200) {
      return null;
    }
    boolean keepAlive = !statusLine.startsWith("HTTP/1.0") && !has(headers, "connection", "close");
    byte[] body;
    if (method.equals("HEAD") || code == 204 || code == 304) {
      body = new byte[0];
    } else if (has(headers, "transfer-encoding", "chunked")) {
      body = readChunked();
    } else if (headers.containsKey("content-length")) {
      body = readExactly(contentLength(headers.get("content-length")));
    } else {
      body = in.readAllBytes();
      keepAlive = false;
    }
    return new Answer(code, headers, body, keepAlive);
  }

  private Map<String, List<String>> readHeaders() throws IOException {
    var headers = new LinkedHashMap<String, List<String>>();
    int size = 0;
    for (String line; !(line = readLine(false)).isEmpty(); ) {
      size += line.length();
      if (size > MAX_HEAD) {
        throw new ProtocolException("answer's headers longer than " + MAX_HEAD + " bytes");
      }
      int colon = line.indexOf(':');
      if (colon <= 0) {
        throw new ProtocolException("malformed header line '" + abbreviate(line) + "'");
      }
      headers
          .computeIfAbsent(line.substring(0, colon).trim().toLowerCase(Locale.ROOT), name -> new ArrayList<>(1))
          .add(line.substring(colon + 1).trim());
    }
    return headers;
  }

  private byte[] readChunked() throws IOException {
    var body = new ByteArrayOutputStream();
    while (true) {
      var sizeLine = readLine(false);
      int extension = sizeLine.indexOf(';');
      long size;
      try {
        size = Long.parseLong((extension < 0 ? sizeLine : sizeLine.substring(0, extension)).trim(), 16);
      } catch (NumberFormatException e) {
        throw new ProtocolException("malformed chunk size '" + abbreviate(sizeLine) + "'");
      }
      if (size < 0 || size > Integer.MAX_VALUE - body.size()) {
        throw new ProtocolException("chunk size out of range: " + size);
      }
      if (size == 0) {
        readHeaders(); // trailers, ignored
        return body.toByteArray();
      }
      body.write(readExactly((int) size));
      if (!readLine(false).isEmpty()) {
        throw new ProtocolException("chunk not followed by CRLF");
      }
    }
  }

  private byte[] readExactly(int length) throws IOException {
    var bytes = in.readNBytes(length);
    if (bytes.length != length) {
      throw new EOFException("answer's body ended after " + bytes.length + " of " + length + " bytes");
    }
    return bytes;
  }

  /**
   * A line ending in CRLF (or LF), without it, as ISO-8859-1.
   *
   * @param first whether it is the answer's first line: an end of the connection before its first byte is then
   *     a {@link NoAnswerException}
   */
  private String readLine(boolean first) throws IOException {
    var line = new StringBuilder(64);
    while (true) {
      int c = in.read();
      if (c < 0) {
        if (first && line.length() == 0) {
          throw new NoAnswerException();
        }
        throw new EOFException("connection closed in the middle of the answer's head");
      }
      if (c == '\n') {
        int end = line.length();
        if (end > 0 && line.charAt(end - 1) == '\r') {
          line.setLength(end - 1);
        }
        return line.toString();
      }
      if (line.length() >= MAX_HEAD) {
        throw new ProtocolException("answer's line longer than " + MAX_HEAD + " bytes");
      }
      line.append((char) c);
    }
  }

  private static void appendHeader(StringBuilder head, String name, String value) {
    if (name.isEmpty() || hasLineBreak(name) || hasLineBreak(value)) {
      throw new IllegalArgumentException("header '" + abbreviate(name) + "' has no name or a line break");
    }
    head.append(name).append(": ").append(value).append("\r\n");
  }

  private static boolean hasLineBreak(String s) {
    return s.indexOf('\r') >= 0 || s.indexOf('\n') >= 0;
  }

  private static boolean has(Map<String, List<String>> headers, String name, String token) {
    var values = headers.get(name);
    if (values == null) {
      return false;
    }
    for (var value : values) {
      for (var part : value.split(",")) {
        if (part.trim().equalsIgnoreCase(token)) {
          return true;
        }
      }
    }
    return false;
  }

  private static int contentLength(List<String> values) throws ProtocolException {
    long length;
    try {
      length = Long.parseLong(values.get(0));
    } catch (NumberFormatException e) {
      throw new ProtocolException("malformed Content-Length '" + abbreviate(values.get(0)) + "'");
    }
    for (var value : values) {
      if (!value.equals(values.get(0))) {
        throw new ProtocolException("conflicting Content-Length headers " + values);
      }
    }
    if (length < 0 || length > Integer.MAX_VALUE - 8) {
      throw new ProtocolException("Content-Length out of range: " + length);
    }
    return (int) length;
  }

  private static String abbreviate(String s) {
    return s.length() <= 100 ? s : s.substring(0, 100) + "…";
  }

  /** Closes the socket; idempotent, also from another thread (an exchange blocked on it then fails). */
  @Override
  public void close() {
    try {
      socket.close();
    } catch (IOException ignored) {
      // closing: nothing left to do with it
    }
  }
}
