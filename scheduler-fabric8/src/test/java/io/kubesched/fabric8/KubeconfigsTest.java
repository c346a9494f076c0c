package io.kubesched.fabric8;

import static org.junit.jupiter.api.Assertions.assertEquals;

import io.fabric8.kubernetes.client.Config;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.function.Function;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Reading a kubeconfig without fabric8's class-path search, to the same configuration fabric8 makes. */
class KubeconfigsTest {

  @TempDir Path dir;

  @Test
  @DisplayName(
      "a kubeconfig is read as fabric8 reads it: the current context's server, namespace, token, and"
          + " certificate paths relative to the file")
  void kubeconfigIsReadAsFabric8ReadsIt() throws IOException {
    var path =
        Files.writeString(
            Files.createDirectories(dir.resolve("home/.kube")).resolve("config"),
            """
            apiVersion: v1
            kind: Config
            clusters:
            - name: staging
              cluster:
                server: https://staging.example:6443
                insecure-skip-tls-verify: true
            - name: prod
              cluster:
                server: https://prod.example:443
                certificate-authority: pki/ca.crt
                extensions:
                - name: vendor.example/info
                  extension:
                    apiVersion: vendor.example/v1
                    kind: ClusterInfo
                    region: north
            users:
            - name: deployer
              user:
                token: deploy-token
            - name: admin
              user:
                client-certificate: pki/admin.crt
                client-key: ../keys/admin.key
            contexts:
            - name: staging-deployer
              context:
                cluster: staging
                user: deployer
                namespace: team-b
            - name: prod-admin
              context:
                cluster: prod
                user: admin
                namespace: ops
            current-context: prod-admin
            preferences: {}
            """);

    var ours = Kubeconfigs.read(path);
    var fabric8s = Config.fromKubeconfig(path.toFile());

    assertEquals("https://prod.example:443/", ours.getMasterUrl());
    assertEquals(dir.resolve("home/.kube/pki/ca.crt").toString(), ours.getCaCertFile());
    assertEquals(
        dir.resolve("home/keys/admin.key"), Path.of(ours.getClientKeyFile()).normalize());
    for (var property :
        List.<Function<Config, Object>>of(
            Config::getMasterUrl,
            Config::getNamespace,
            Config::getCaCertFile,
            Config::getClientCertFile,
            Config::getClientKeyFile,
            Config::getAutoOAuthToken,
            Config::isTrustCerts,
            config -> config.getCurrentContext().getName(),
            config -> config.getContexts().size(),
            Config::getFile)) {
      assertEquals(property.apply(fabric8s), property.apply(ours));
    }
  }
}
