package io.kubesched.fabric8;

import io.fabric8.kubernetes.client.jdkhttp.JdkHttpClientFactory;
import java.net.http.HttpClient;

/**
 * fabric8's factory for the JDK HTTP client, with the JDK client's internal tasks run where they are
 * submitted instead of on a thread pool.
 *
 * <p>The JDK client (17) runs a task inline when it is submitted from any thread but its selector thread,
 * and hands the selector thread's to its executor: the decryption of what it read, the parsing of an
 * answer, the feeding of the body to fabric8. fabric8 gives it a cached thread pool, so a binding's answer
 * woke a pool thread besides the selector and the caller; on a scheduler's few CPUs each wake-up is a
 * scheduling delay, and the binding is the longest step of a pod's way. Run inline, the selector thread
 * does it all: on 2 CPUs that raised the 500-node backlog from 491–842 to 897–935 pods/s and cut the
 * process CPU at 5 000 nodes by 13 % (the end-to-end benchmark's notes, "Where a pod's time goes";
 * docs/performance.md#measurement-notes).
 *
 * <p>The JDK client allows it: the tasks it submits are short and must not block, and it completes the
 * futures its own {@code sendAsync} returns on the common fork-join pool. fabric8 hands each watch event to
 * a serial executor before decoding it, and calls informers' handlers on its executor. But fabric8
 * completes its own future of an answer's body on the thread that ends the body, now the selector thread
 * (always for a body that takes more than one read, sometimes for a small one), so what fabric8 chains to it
 * runs there: decoding the answer (a list page), and after an informer's list the next page's request or
 * the watch's opening (a DNS lookup if the cache expired, a TLS handshake). Those hold up the client's other
 * exchanges meanwhile; informers list at start, before the scheduler places anything, and after a lost
 * watch. None of it waits for another answer of the client (read in fabric8 8.0.0), so it can stall, not
 * deadlock. Code a user chains to fabric8's asynchronous calls may run there too and must not block
 * ({@code Client#kubernetesClient()} says so). Clients the user builds are left as they are.
 *
 * <p>Closing: fabric8's factory shuts its pool down on close, which makes the JDK client abort (its next
 * task is refused); with no pool, a closed client's selector thread and idle connections stay until the JDK
 * client is garbage-collected, as a JDK 17 client with its default executor does.
 *
 * <p>Instances are stateless and thread-safe.
 */
final class InlineHttpClientFactory extends JdkHttpClientFactory {

  @Override
  protected HttpClient.Builder createNewHttpClientBuilder() {
    return super.createNewHttpClientBuilder().executor(Runnable::run);
  }
}
