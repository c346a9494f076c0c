package io.kubesched.drills;

import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.util.regex.Pattern;

/**
 * Watch expiry: etcd compacted at its current revision (through its HTTP gateway, {@code /v3/kv/compaction},
 * physical), then kube-apiserver restarted so that its watch cache starts again from the compacted store. A
 * watch that resumes from a resourceVersion the compaction removed gets 410 Gone, and the informer must list
 * again: the runner counts the scheduler's LIST requests in the API server's audit log to see that it did.
 *
 * <p>A compaction alone harms no one: kube-apiserver serves watches from its watch cache, whose history does
 * not depend on etcd's, and its own etcd watch runs at the newest revision.
 */
final class EtcdCompaction implements Fault {

  private static final Pattern REVISION = Pattern.compile("\"revision\"\\s*:\\s*\"?(\\d+)");

  @Override
  public String name() {
    return "etcd-compaction";
  }

  @Override
  public boolean forcesRelist() {
    return true;
  }

  @Override
  public void inject(Target target) throws IOException, InterruptedException {
    var ports = Files.readAllLines(target.cluster().stateDirectory().resolve("ports"));
    var port = ports.stream().filter(l -> l.startsWith("etcd_port=")).map(l -> l.substring("etcd_port=".length()))
        .findFirst().orElseThrow(() -> new IOException("no etcd_port in the test cluster's ports file"));
    var http = HttpClient.newHttpClient();
    // Any range answers with the store's current revision in its header.
    var range = post(http, port, "/v3/kv/range", "{\"key\":\"L3JlZ2lzdHJ5\",\"limit\":1}");
    var matcher = REVISION.matcher(range);
    if (!matcher.find()) {
      throw new IOException("etcd's range answer has no revision: " + range);
    }
    post(http, port, "/v3/kv/compaction", "{\"revision\":\"" + matcher.group(1) + "\",\"physical\":true}");
    target.cluster().restartApiServer();
  }

  @Override
  public void heal(Target target) {
    // Over once the API server is back.
  }

  private static String post(HttpClient http, String port, String path, String body)
      throws IOException, InterruptedException {
    var response = http.send(
        HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + port + path))
            .POST(HttpRequest.BodyPublishers.ofString(body)).build(),
        HttpResponse.BodyHandlers.ofString());
    if (response.statusCode() != 200) {
      throw new IOException("etcd " + path + " answered " + response.statusCode() + ": " + response.body());
    }
    return response.body();
  }
}
