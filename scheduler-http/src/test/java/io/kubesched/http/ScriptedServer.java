package io.kubesched.http;

import java.io.BufferedInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * A server on loopback that reads each HTTP/1.1 request on each connection it accepts (head, and a body of a
 * {@code Content-Length}) and answers it with the next {@link Reply} of its script, for tests of a client's
 * wire behaviour. Records every request as text.
 */
final class ScriptedServer implements AutoCloseable {

  /** What the server does with one request's connection. */
  @FunctionalInterface
  interface Reply {
    /** @return false to close the connection afterwards */
    boolean write(Socket socket) throws IOException;
  }

  /** Writes {@code answer} and keeps the connection open. */
  static Reply answer(String answer) {
    return socket -> {
      var out = socket.getOutputStream();
      out.write(answer.getBytes(StandardCharsets.ISO_8859_1));
      out.flush();
      return true;
    };
  }

  /** Writes {@code answer}, then closes the connection (as a server timing out an idle connection would). */
  static Reply answerThenClose(String answer) {
    return socket -> {
      answer(answer).write(socket);
      return false;
    };
  }

  /** Closes the connection without answering. */
  static Reply closeWithoutAnswer() {
    return socket -> false;
  }

  /** Resets the connection (TCP RST) without answering. */
  static Reply resetWithoutAnswer() {
    return socket -> {
      socket.setSoLinger(true, 0);
      socket.close();
      return false;
    };
  }

  /** Never answers: holds the connection until the server is closed. */
  static Reply silence() {
    return socket -> {
      try {
        Thread.sleep(Long.MAX_VALUE);
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
      }
      return false;
    };
  }

  private final ServerSocket server;
  private final BlockingQueue<Reply> script = new LinkedBlockingQueue<>();
  private final List<String> requests = Collections.synchronizedList(new ArrayList<>());
  private final List<Thread> threads = Collections.synchronizedList(new ArrayList<>());
  private final List<Socket> sockets = Collections.synchronizedList(new ArrayList<>());
  private final AtomicInteger accepted = new AtomicInteger();

  ScriptedServer(Reply... replies) throws IOException {
    server = new ServerSocket(0, 50, InetAddress.getLoopbackAddress());
    script.addAll(List.of(replies));
    start(this::acceptLoop);
  }

  /** @return {@code http://127.0.0.1:port} */
  String url() {
    return "http://" + server.getInetAddress().getHostAddress() + ":" + server.getLocalPort();
  }

  int port() {
    return server.getLocalPort();
  }

  /** @return how many connections were accepted */
  int accepted() {
    return accepted.get();
  }

  /** @return each request read so far, head and body, as text */
  List<String> requests() {
    return List.copyOf(requests);
  }

  private void acceptLoop() {
    while (!server.isClosed()) {
      try {
        var socket = server.accept();
        accepted.incrementAndGet();
        sockets.add(socket);
        start(() -> serve(socket));
      } catch (IOException closed) {
        return;
      }
    }
  }

  private void serve(Socket socket) {
    try (socket) {
      var in = new BufferedInputStream(socket.getInputStream());
      while (true) {
        var request = readRequest(in);
        if (request == null) {
          return;
        }
        requests.add(request);
        var reply = script.poll(10, TimeUnit.SECONDS);
        if (reply == null || !reply.write(socket)) {
          return;
        }
      }
    } catch (IOException | InterruptedException e) {
      // the client or the test closed the connection
    }
  }

  private static String readRequest(InputStream in) throws IOException {
    var head = new ByteArrayOutputStream();
    int length = 0;
    var line = new StringBuilder();
    while (true) {
      int c = in.read();
      if (c < 0) {
        return head.size() == 0 ? null : head.toString(StandardCharsets.ISO_8859_1);
      }
      head.write(c);
      if (c != '\n') {
        line.append((char) c);
        continue;
      }
      var text = line.toString().trim();
      line.setLength(0);
      if (text.toLowerCase(Locale.ROOT).startsWith("content-length:")) {
        length = Integer.parseInt(text.substring("content-length:".length()).trim());
      }
      if (text.isEmpty()) {
        head.write(in.readNBytes(length));
        return head.toString(StandardCharsets.ISO_8859_1);
      }
    }
  }

  private void start(Runnable task) {
    var thread = new Thread(task, "scripted-server");
    thread.setDaemon(true);
    threads.add(thread);
    thread.start();
  }

  @Override
  public void close() throws IOException {
    server.close();
    synchronized (sockets) {
      for (var socket : sockets) {
        socket.close();
      }
    }
    synchronized (threads) {
      threads.forEach(Thread::interrupt);
    }
  }
}
