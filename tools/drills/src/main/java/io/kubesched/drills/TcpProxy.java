package io.kubesched.drills;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.util.HashSet;
import java.util.Set;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A TCP proxy on loopback in front of kube-apiserver, so that a fault can stall the scheduler's connections
 * without touching the API server. TLS passes through unchanged (the API server's certificate names
 * 127.0.0.1, which the proxy listens on too). Two threads per connection pump the bytes; while {@linkplain
 * #stall() stalled} they hold what they read and new connections are accepted but not forwarded.
 *
 * <p>Thread-safe: {@link #stall}, {@link #resume}, {@link #dropAllAndResume} and {@link #close} from any thread.
 */
final class TcpProxy implements AutoCloseable {

  private static final Logger LOG = LoggerFactory.getLogger(TcpProxy.class);

  private final int upstreamPort;
  private final ServerSocket server;
  private final Thread acceptor;
  private final Set<Socket> sockets = new HashSet<>(); // guarded by this
  private boolean stalled; // guarded by this
  private boolean closed; // guarded by this

  /** Listens on a free loopback port and forwards each connection to {@code upstreamPort} on loopback. */
  TcpProxy(int upstreamPort) throws IOException {
    this.upstreamPort = upstreamPort;
    this.server = new ServerSocket(0, 256, InetAddress.getLoopbackAddress());
    this.acceptor = new Thread(this::accept, "drills-proxy-accept");
    acceptor.setDaemon(true);
    acceptor.start();
  }

  /** @return the port the proxy listens on */
  int port() {
    return server.getLocalPort();
  }

  /** @return how many connections the proxy forwards (or holds) now */
  synchronized int connections() {
    // The accepted side of each connection: the upstream side is a socket of its own.
    return (int) sockets.stream().filter(s -> !s.isClosed() && s.getLocalPort() == server.getLocalPort()).count();
  }

  /** Stops forwarding: bytes read are held, new connections are accepted and left unanswered. */
  synchronized void stall() {
    stalled = true;
    LOG.info("proxy stalls {} connections", connections());
  }

  /** Forwards again, the bytes held while stalled first; the connections stay. */
  synchronized void resume() {
    stalled = false;
    notifyAll();
    LOG.info("proxy forwards {} connections again", connections());
  }

  /** Closes every connection (held bytes are lost) and forwards again. */
  void dropAllAndResume() {
    Set<Socket> dropped;
    synchronized (this) {
      dropped = Set.copyOf(sockets);
      sockets.clear();
      stalled = false;
      notifyAll();
    }
    dropped.forEach(TcpProxy::closeQuietly);
    LOG.info("proxy dropped {} connections and forwards again", dropped.stream().filter(s -> s.getLocalPort() == port()).count());
  }

  @Override
  public void close() {
    synchronized (this) {
      closed = true;
      notifyAll();
    }
    closeQuietly(server);
    dropAllAndResume();
  }

  private void accept() {
    while (true) {
      Socket client;
      try {
        client = server.accept();
      } catch (IOException e) {
        return; // closed
      }
      if (!track(client)) {
        closeQuietly(client);
        return;
      }
      var thread = new Thread(() -> connect(client), "drills-proxy-connect");
      thread.setDaemon(true);
      thread.start();
    }
  }

  private void connect(Socket client) {
    Socket upstream = new Socket();
    try {
      if (!awaitFlowing(client)) {
        return;
      }
      if (!track(upstream)) {
        return;
      }
      upstream.connect(new InetSocketAddress(InetAddress.getLoopbackAddress(), upstreamPort), 5000);
      var back = new Thread(() -> pump(upstream, client), "drills-proxy-down");
      back.setDaemon(true);
      back.start();
      pump(client, upstream);
    } catch (IOException e) {
      // kube-apiserver is down (restarting): the client sees its connection closed, as with no proxy
      closeQuietly(client);
      closeQuietly(upstream);
      untrack(client);
      untrack(upstream);
    }
  }

  private void pump(Socket from, Socket to) {
    var buffer = new byte[16384];
    try (InputStream in = from.getInputStream(); OutputStream out = to.getOutputStream()) {
      int n;
      while ((n = in.read(buffer)) >= 0) {
        if (!awaitFlowing(from)) {
          return;
        }
        out.write(buffer, 0, n);
        out.flush();
      }
    } catch (IOException e) {
      // one side closed or dropped: close both
    } finally {
      closeQuietly(from);
      closeQuietly(to);
      untrack(from);
      untrack(to);
    }
  }

  /** @return whether forwarding may go on: false once the socket was dropped or the proxy closed */
  private synchronized boolean awaitFlowing(Socket socket) {
    while (stalled && !closed && sockets.contains(socket)) {
      try {
        wait();
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        return false;
      }
    }
    return !closed && sockets.contains(socket);
  }

  private synchronized boolean track(Socket socket) {
    if (closed) {
      return false;
    }
    sockets.add(socket);
    return true;
  }

  private synchronized void untrack(Socket socket) {
    sockets.remove(socket);
  }

  private static void closeQuietly(AutoCloseable closeable) {
    try {
      closeable.close();
    } catch (Exception e) {
      // already closed
    }
  }
}
