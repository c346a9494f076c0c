package io.kubesched.fabric8;

import io.fabric8.kubernetes.api.model.NamedAuthInfo;
import io.fabric8.kubernetes.api.model.NamedCluster;
import io.fabric8.kubernetes.api.model.NamedContext;
import io.fabric8.kubernetes.client.Config;
import io.fabric8.kubernetes.client.internal.KubeConfigUtils;
import java.io.File;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.function.Function;
import org.jspecify.annotations.Nullable;

/**
 * Reads a kubeconfig file as fabric8's {@code Config.fromKubeconfig(File)} does, without its cost. Every place the
 * library or its server reads a kubeconfig goes through here: the scheduler's own connection, and the server's
 * {@code --authentication-kubeconfig} and {@code --authorization-kubeconfig}.
 *
 * <p>Thread-safe; stateless. Internal: not for use outside the library.
 */
public final class Kubeconfigs {

  /**
   * The keys under which fabric8's kubeconfig parser (8.0.0) notes the file each context, cluster and user came from
   * (its {@code KubeConfigUtils} reads them back).
   */
  private static final String CONTEXT_FILE_KEY = "KUBERNETES_CONFIG_CONTEXT_FILE_KEY";

  private static final String CLUSTER_FILE_KEY = "KUBERNETES_CONFIG_CLUSTER_FILE_KEY";
  private static final String USER_FILE_KEY = "KUBERNETES_CONFIG_AUTH_INFO_FILE_KEY";

  private Kubeconfigs() {}

  /**
   * What {@code Config.fromKubeconfig(File)} returns for {@code path}. fabric8 parses a kubeconfig with its static
   * default serialization, whose resolver of polymorphic objects (a kubeconfig's extensions) loads every {@code
   * KubernetesResource} class the model jars list as services on first use: about 500 classes a scheduler never
   * sees (gateway API, certificates, …), 9 MiB of a 500-node benchmark run's peak RSS. Here the same model is
   * parsed by a serialization that searches no class path, each context, cluster and user is tagged with the file it
   * came from as fabric8's parser does (relative certificate and key paths resolve against it), and fabric8 merges
   * the model into a client configuration. {@code KubeconfigsTest} checks that the two configurations agree.
   *
   * @throws IOException if the file cannot be read
   * @throws IllegalArgumentException if the file is empty
   * @throws RuntimeException as fabric8's parser, for a file that is not a kubeconfig
   */
  public static Config read(Path path) throws IOException {
    io.fabric8.kubernetes.api.model.Config kubeconfig;
    try (var in = Files.newInputStream(path)) {
      kubeconfig =
          Fabric8Compat.get().plainSerialization().unmarshal(in, io.fabric8.kubernetes.api.model.Config.class);
    }
    if (kubeconfig == null) {
      throw new IllegalArgumentException("the file is empty");
    }
    var file = path.toFile();
    tagWithFile(kubeconfig.getContexts(), NamedContext::getAdditionalProperties, CONTEXT_FILE_KEY, file);
    tagWithFile(kubeconfig.getClusters(), NamedCluster::getAdditionalProperties, CLUSTER_FILE_KEY, file);
    tagWithFile(kubeconfig.getUsers(), NamedAuthInfo::getAdditionalProperties, USER_FILE_KEY, file);
    var config = Config.empty();
    KubeConfigUtils.merge(config, null, kubeconfig);
    return config;
  }

  private static <T> void tagWithFile(
      @Nullable List<T> entries, Function<T, Map<String, Object>> properties, String key, File file) {
    if (entries != null) {
      entries.forEach(entry -> properties.apply(entry).put(key, file));
    }
  }
}
