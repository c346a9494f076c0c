package io.kubesched.informer.leader;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.fabric8.kubernetes.api.model.coordination.v1.Lease;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientException;
import io.fabric8.kubernetes.client.extended.leaderelection.resourcelock.LeaderElectionRecord;
import io.fabric8.kubernetes.client.jdkhttp.JdkHttpClientFactory;
import io.fabric8.kubernetes.client.server.mock.KubernetesMockServer;
import io.kubesched.informer.watch.MockServers;
import java.time.Duration;
import java.time.ZoneOffset;
import java.time.ZonedDateTime;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * The lock renews with an update (PUT) carrying the resource version it read, never a patch, so that the Lease
 * needs only kube-scheduler's rights (create, get and update); a stale version fails as a conflict.
 */
class UpdatingLeaseLockTest {

  private static final ZonedDateTime T0 = ZonedDateTime.of(2026, 12, 2, 8, 0, 0, 0, ZoneOffset.UTC);

  private final CopyOnWriteArrayList<String> methods = new CopyOnWriteArrayList<>();
  private KubernetesMockServer server;
  private KubernetesClient client;

  @BeforeEach
  void startServer() {
    server = MockServers.crud();
    client = server.createClient(new JdkHttpClientFactory());
  }

  @AfterEach
  void stopServer() {
    client.close();
    MockServers.destroy(server);
  }

  @Test
  void a_renewal_is_an_update_of_the_version_read_and_a_stale_one_conflicts() throws InterruptedException {
    var lock = new UpdatingLeaseLock("ns", "sched", "a");
    lock.create(client, record("a", T0));
    var read = lock.get(client);
    assertEquals("a", read.getHolderIdentity());

    lock.update(client, record("a", T0.plusSeconds(2)));

    var lease = client.resources(Lease.class).inNamespace("ns").withName("sched").get();
    assertEquals(T0.plusSeconds(2).toInstant(), lease.getSpec().getRenewTime().toInstant());
    drainMethods();
    assertTrue(methods.contains("PUT") && !methods.contains("PATCH"), methods.toString());

    // Someone else writes the Lease after this lock's read: the next update must not overwrite it.
    lease.getSpec().setHolderIdentity("b");
    client.resource(lease).update();
    var conflict = assertThrows(KubernetesClientException.class,
        () -> lock.update(client, record("a", T0.plusSeconds(4))));
    assertEquals(409, conflict.getCode());
    assertEquals("b", client.resources(Lease.class).inNamespace("ns").withName("sched").get().getSpec()
        .getHolderIdentity());
  }

  @Test
  void an_update_before_any_read_is_refused() {
    var lock = new UpdatingLeaseLock("ns", "sched", "a");
    assertThrows(KubernetesClientException.class, () -> lock.update(client, record("a", T0)));
  }

  private void drainMethods() throws InterruptedException {
    for (var request = server.takeRequest(100, TimeUnit.MILLISECONDS);
        request != null;
        request = server.takeRequest(100, TimeUnit.MILLISECONDS)) {
      methods.add(request.getMethod());
    }
  }

  private static LeaderElectionRecord record(String holder, ZonedDateTime renewed) {
    return new LeaderElectionRecord(holder, Duration.ofSeconds(15), T0, renewed, 0);
  }
}
