package io.kubesched.http;

import static io.kubesched.http.ScriptedServer.answer;
import static io.kubesched.http.ScriptedServer.answerThenClose;
import static io.kubesched.http.ScriptedServer.closeWithoutAnswer;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.EOFException;
import java.io.IOException;
import java.net.InetAddress;
import java.net.ProtocolException;
import java.net.Socket;
import java.net.SocketTimeoutException;
import java.nio.charset.StandardCharsets;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

/** One HTTP/1.1 exchange at a time over a socket: what is written, and each way an answer's body ends. */
class Http11ConnectionTest {

  private static final Map<String, List<String>> NO_HEADERS = Map.of();

  private static Http11Connection connect(ScriptedServer server) throws IOException {
    return new Http11Connection(new Socket(InetAddress.getLoopbackAddress(), server.port()));
  }

  private static String text(byte[] body) {
    return new String(body, StandardCharsets.UTF_8);
  }

  @Test
  @DisplayName("writes the request line, Host, the headers, Content-Length and the body; reads a Content-Length"
      + " answer and keeps the connection")
  void contentLength() throws Exception {
    try (var server = new ScriptedServer(answer("HTTP/1.1 201 Created\r\nContent-Type: application/json\r\n"
            + "Content-Length: 13\r\n\r\n{\"kind\":\"X\"}\n"));
        var connection = connect(server)) {
      var headers = new LinkedHashMap<String, List<String>>();
      headers.put("Authorization", List.of("Bearer t"));
      headers.put("Accept", List.of("application/json", "*/*"));
      headers.put("Content-Length", List.of("999")); // replaced by the body's real length

      var answer =
          connection.exchange(
              "POST", "/api/v1/namespaces/a/pods/b/binding?x=1", "127.0.0.1:6443", headers,
              "{\"a\":1}".getBytes(StandardCharsets.UTF_8), 5_000);

      assertEquals(201, answer.code());
      assertEquals("{\"kind\":\"X\"}\n", text(answer.body()));
      assertEquals(List.of("application/json"), answer.headers().get("content-type"));
      assertTrue(answer.keepAlive());
      assertEquals(
          "POST /api/v1/namespaces/a/pods/b/binding?x=1 HTTP/1.1\r\nHost: 127.0.0.1:6443\r\n"
              + "Authorization: Bearer t\r\nAccept: application/json\r\nAccept: */*\r\nContent-Length: 7\r\n\r\n"
              + "{\"a\":1}",
          server.requests().get(0));
    }
  }

  @Test
  @DisplayName("a chunked answer (chunk extensions, trailers) is read whole, and the next exchange on the same"
      + " connection reads its own answer")
  void chunked() throws Exception {
    try (var server =
            new ScriptedServer(
                answer("HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n4;name=value\r\nWiki\r\n"
                    + "b\r\npedia, the \r\n0\r\nX-Trailer: t\r\n\r\n"),
                answer("HTTP/1.1 200 OK\r\nContent-Length: 2\r\n\r\nok"));
        var connection = connect(server)) {
      var first = connection.exchange("GET", "/a", "h", NO_HEADERS, null, 5_000);
      var second = connection.exchange("GET", "/b", "h", NO_HEADERS, null, 5_000);

      assertEquals("Wikipedia, the ", text(first.body()));
      assertTrue(first.keepAlive());
      assertEquals("ok", text(second.body()));
      assertEquals(1, server.accepted());
      assertFalse(server.requests().get(0).contains("Content-Length"), "a GET without a body has no length");
    }
  }

  @Test
  @DisplayName("an interim 100 Continue is skipped for the answer after it")
  void interimAnswer() throws Exception {
    try (var server =
            new ScriptedServer(answer("HTTP/1.1 100 Continue\r\n\r\nHTTP/1.1 200 OK\r\nContent-Length: 1\r\n\r\nx"));
        var connection = connect(server)) {
      var answer = connection.exchange("PUT", "/a", "h", NO_HEADERS, new byte[0], 5_000);

      assertEquals(200, answer.code());
      assertEquals("x", text(answer.body()));
    }
  }

  @Test
  @DisplayName("without a length the body runs to the connection's end, which is then not kept; nor is one the"
      + " server says it closes, nor an HTTP/1.0 one")
  void notKept() throws Exception {
    try (var server =
            new ScriptedServer(
                answerThenClose("HTTP/1.1 200 OK\r\n\r\nall of it"),
                answer("HTTP/1.1 200 OK\r\nConnection: keep-alive, close\r\nContent-Length: 0\r\n\r\n"),
                answer("HTTP/1.0 200 OK\r\nContent-Length: 0\r\n\r\n"))) {
      try (var connection = connect(server)) {
        var answer = connection.exchange("GET", "/", "h", NO_HEADERS, null, 5_000);
        assertEquals("all of it", text(answer.body()));
        assertFalse(answer.keepAlive());
      }
      try (var connection = connect(server)) {
        assertFalse(connection.exchange("GET", "/", "h", NO_HEADERS, null, 5_000).keepAlive());
      }
      try (var connection = connect(server)) {
        assertFalse(connection.exchange("GET", "/", "h", NO_HEADERS, null, 5_000).keepAlive());
      }
    }
  }

  @Test
  @DisplayName("204 and HEAD answers have no body, whatever their length says")
  void noBody() throws Exception {
    try (var server =
            new ScriptedServer(
                answer("HTTP/1.1 204 No Content\r\n\r\n"),
                answer("HTTP/1.1 200 OK\r\nContent-Length: 5\r\n\r\n"),
                answer("HTTP/1.1 200 OK\r\nContent-Length: 1\r\n\r\nz"));
        var connection = connect(server)) {
      assertArrayEquals(new byte[0], connection.exchange("DELETE", "/", "h", NO_HEADERS, null, 5_000).body());
      assertArrayEquals(new byte[0], connection.exchange("HEAD", "/", "h", NO_HEADERS, null, 5_000).body());
      assertEquals("z", text(connection.exchange("GET", "/", "h", NO_HEADERS, null, 5_000).body()));
    }
  }

  @Test
  @DisplayName("a connection closed before the answer began is told apart from one closed in its middle")
  void endedEarly() throws Exception {
    try (var server =
            new ScriptedServer(
                closeWithoutAnswer(), answerThenClose("HTTP/1.1 200 OK\r\nContent-Length: 10\r\n\r\nabc"),
                answerThenClose("HTTP/1.1 200 OK\r\nContent-"))) {
      try (var connection = connect(server)) {
        assertThrows(
            Http11Connection.NoAnswerException.class,
            () -> connection.exchange("POST", "/", "h", NO_HEADERS, new byte[0], 5_000));
      }
      for (int i = 0; i < 2; i++) {
        try (var connection = connect(server)) {
          var failure =
              assertThrows(IOException.class, () -> connection.exchange("GET", "/", "h", NO_HEADERS, null, 5_000));
          assertTrue(failure instanceof EOFException, failure.toString());
        }
      }
    }
  }

  @Test
  @DisplayName("a connection reset before the answer began is no answer too")
  void resetEarly() throws Exception {
    try (var server = new ScriptedServer(ScriptedServer.resetWithoutAnswer()); var connection = connect(server)) {
      assertThrows(
          Http11Connection.NoAnswerException.class,
          () -> connection.exchange("POST", "/", "h", NO_HEADERS, new byte[0], 5_000));
    }
  }

  @Test
  @DisplayName("malformed answers are refused: no status line, a bad status code, a bad chunk size, conflicting"
      + " lengths")
  void malformed() throws Exception {
    var answers =
        List.of(
            "SSH-2.0-OpenSSH\r\n\r\n",
            "HTTP/1.1 2x1 Created\r\n\r\n",
            "HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\nzz\r\n",
            "HTTP/1.1 200 OK\r\nContent-Length: 1\r\nContent-Length: 2\r\n\r\nab",
            "HTTP/1.1 200 OK\r\nno colon\r\n\r\n");
    for (var malformed : answers) {
      try (var server = new ScriptedServer(answer(malformed)); var connection = connect(server)) {
        assertThrows(
            ProtocolException.class, () -> connection.exchange("GET", "/", "h", NO_HEADERS, null, 5_000), malformed);
      }
    }
  }

  @Test
  @DisplayName("a header name or value with a line break is refused before anything is sent")
  void headerInjection() throws Exception {
    try (var server = new ScriptedServer(); var connection = connect(server)) {
      assertThrows(
          IllegalArgumentException.class,
          () -> connection.exchange("GET", "/", "h", Map.of("X", List.of("a\r\nInjected: b")), null, 5_000));
      assertThrows(
          IllegalArgumentException.class,
          () -> connection.exchange("GET", "/", "h", Map.of("X\nY", List.of("a")), null, 5_000));
      assertEquals(List.of(), server.requests());
    }
  }

  @Test
  @DisplayName("a server that does not answer within the read timeout fails the exchange with a time-out")
  void readTimeout() throws Exception {
    try (var server = new ScriptedServer(ScriptedServer.silence()); var connection = connect(server)) {
      assertThrows(
          SocketTimeoutException.class, () -> connection.exchange("GET", "/", "h", NO_HEADERS, null, 200));
    }
  }
}
