package io.kubesched.drills;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.io.IOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.net.SocketTimeoutException;
import org.junit.jupiter.api.Test;

class TcpProxyTest {

  /** An upstream that echoes each byte, one thread per connection. */
  private static ServerSocket echo() throws IOException {
    var server = new ServerSocket(0, 50, InetAddress.getLoopbackAddress());
    var acceptor = new Thread(() -> {
      while (true) {
        try {
          var socket = server.accept();
          var thread = new Thread(() -> {
            try (socket) {
              socket.getInputStream().transferTo(socket.getOutputStream());
            } catch (IOException e) {
              // closed
            }
          });
          thread.setDaemon(true);
          thread.start();
        } catch (IOException e) {
          return;
        }
      }
    });
    acceptor.setDaemon(true);
    acceptor.start();
    return server;
  }

  private static int roundTrip(Socket socket, int value) throws IOException {
    socket.getOutputStream().write(value);
    socket.getOutputStream().flush();
    return socket.getInputStream().read();
  }

  @Test
  void forwards_holds_while_stalled_then_drops_and_forwards_again() throws Exception {
    try (var upstream = echo(); var proxy = new TcpProxy(upstream.getLocalPort());
        var socket = new Socket(InetAddress.getLoopbackAddress(), proxy.port())) {
      socket.setSoTimeout(1000);
      assertEquals(7, roundTrip(socket, 7));
      assertEquals(1, proxy.connections());

      proxy.stall();
      assertThrows(SocketTimeoutException.class, () -> roundTrip(socket, 8));
      try (var late = new Socket(InetAddress.getLoopbackAddress(), proxy.port())) {
        late.setSoTimeout(500);
        assertThrows(SocketTimeoutException.class, () -> roundTrip(late, 9)); // accepted, never answered
        proxy.dropAllAndResume();
        assertEquals(-1, late.getInputStream().read());
      }
      assertEquals(-1, socket.getInputStream().read()); // dropped: the held byte is lost

      try (var again = new Socket(InetAddress.getLoopbackAddress(), proxy.port())) {
        again.setSoTimeout(1000);
        assertEquals(10, roundTrip(again, 10));
      }
    }
  }

  @Test
  void resumed_after_a_stall_it_delivers_the_held_bytes_and_answers_the_connections_accepted_meanwhile()
      throws Exception {
    try (var upstream = echo(); var proxy = new TcpProxy(upstream.getLocalPort());
        var socket = new Socket(InetAddress.getLoopbackAddress(), proxy.port())) {
      socket.setSoTimeout(1000);
      assertEquals(7, roundTrip(socket, 7));
      proxy.stall();
      socket.getOutputStream().write(8);
      socket.getOutputStream().flush();
      try (var late = new Socket(InetAddress.getLoopbackAddress(), proxy.port())) {
        late.setSoTimeout(1000);
        late.getOutputStream().write(9);
        late.getOutputStream().flush();
        Thread.sleep(200);
        assertEquals(0, socket.getInputStream().available(), "held while stalled");
        proxy.resume();
        assertEquals(8, socket.getInputStream().read());
        assertEquals(9, late.getInputStream().read());
        assertEquals(2, proxy.connections());
      }
    }
  }

  @Test
  void a_connection_to_a_stopped_upstream_is_closed_and_not_counted() throws Exception {
    int port;
    try (var gone = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
      port = gone.getLocalPort();
    }
    try (var proxy = new TcpProxy(port); var socket = new Socket(InetAddress.getLoopbackAddress(), proxy.port())) {
      socket.setSoTimeout(2000);
      assertEquals(-1, socket.getInputStream().read());
      long deadline = System.nanoTime() + 2_000_000_000L;
      while (proxy.connections() > 0 && System.nanoTime() < deadline) {
        Thread.sleep(10);
      }
      assertEquals(0, proxy.connections());
    }
  }
}
