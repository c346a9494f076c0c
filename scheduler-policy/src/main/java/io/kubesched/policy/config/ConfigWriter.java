package io.kubesched.policy.config;

import java.math.BigDecimal;
import java.time.Duration;
import java.util.Objects;
import java.util.Optional;
import org.jspecify.annotations.Nullable;
import tools.jackson.core.StreamWriteFeature;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;
import tools.jackson.databind.node.JsonNodeFactory;
import tools.jackson.databind.node.ObjectNode;
import tools.jackson.dataformat.yaml.YAMLMapper;
import tools.jackson.dataformat.yaml.YAMLWriteFeature;

/**
 * Writes a {@link SchedulerConfiguration} as kube-scheduler's {@code --write-config-to} does: the versioned {@code
 * kubescheduler.config.k8s.io/v1} object with kube's defaults in, its fields in alphabetical order (as Go's JSON
 * encoding of a map writes them). Pure.
 */
final class ConfigWriter {

  private static final JsonNodeFactory NODES = JsonNodeFactory.instance;
  // Numbers plain: YAML 1.1 readers such as kube's take 1.0E10 for a string; strings quoted, so that none reads
  // back as a boolean, a number or null.
  private static final YAMLMapper YAML =
      YAMLMapper.builder()
          .enable(StreamWriteFeature.WRITE_BIGDECIMAL_AS_PLAIN)
          .disable(YAMLWriteFeature.WRITE_DOC_START_MARKER)
          .build();
  private static final JsonMapper JSON =
      JsonMapper.builder().enable(StreamWriteFeature.WRITE_BIGDECIMAL_AS_PLAIN).build();

  /**
   * One profile as the file wrote what the writer cannot derive from the resolved profile.
   *
   * @param schedulerName its scheduler name, after defaulting
   * @param percentageOfNodesToScore its own {@code percentageOfNodesToScore}, if it sets one
   * @param plugins its {@code plugins} as written, if any (a private copy, never handed out)
   * @param pluginConfig its {@code pluginConfig} as written, if any (a private copy, never handed out)
   */
  record ProfileSource(
      String schedulerName,
      Optional<JsonNode> percentageOfNodesToScore,
      Optional<JsonNode> plugins,
      Optional<JsonNode> pluginConfig) {

    ProfileSource {
      Objects.requireNonNull(schedulerName, "schedulerName");
      percentageOfNodesToScore = percentageOfNodesToScore.map(JsonNode::deepCopy);
      plugins = plugins.map(JsonNode::deepCopy);
      pluginConfig = pluginConfig.map(JsonNode::deepCopy);
    }

    static ProfileSource of(String schedulerName, @Nullable JsonNode profile) {
      if (profile == null) {
        return new ProfileSource(schedulerName, Optional.empty(), Optional.empty(), Optional.empty());
      }
      return new ProfileSource(
          schedulerName,
          Optional.ofNullable(ConfigReader.field(profile, "percentageOfNodesToScore")),
          Optional.ofNullable(ConfigReader.field(profile, "plugins")),
          Optional.ofNullable(ConfigReader.field(profile, "pluginConfig")));
    }
  }

  private ConfigWriter() {}

  static String yaml(SchedulerConfiguration configuration) {
    return YAML.writeValueAsString(tree(configuration));
  }

  static String json(SchedulerConfiguration configuration) {
    return JSON.writeValueAsString(tree(configuration));
  }

  static ObjectNode tree(SchedulerConfiguration c) {
    var root = NODES.objectNode();
    root.put("apiVersion", SchedulerConfiguration.API_VERSION);
    var connection = c.clientConnection();
    var client = root.putObject("clientConnection");
    client.put("acceptContentTypes", connection.acceptContentTypes());
    client.put("burst", connection.burst());
    client.put("contentType", connection.contentType());
    client.put("kubeconfig", c.kubeconfig().map(Object::toString).orElse(""));
    client.set("qps", NODES.numberNode(decimal(connection.qps())));
    root.put("enableContentionProfiling", c.contentionProfiling());
    root.put("enableProfiling", c.profiling());
    root.put("kind", SchedulerConfiguration.KIND);
    var election = c.leaderElection();
    var leader = root.putObject("leaderElection");
    leader.put("leaderElect", election.leaderElect());
    leader.put("leaseDuration", go(election.leaseDuration()));
    leader.put("renewDeadline", go(election.renewDeadline()));
    leader.put("resourceLock", election.resourceLock());
    leader.put("resourceName", election.resourceName());
    leader.put("resourceNamespace", election.resourceNamespace());
    leader.put("retryPeriod", go(election.retryPeriod()));
    root.put("parallelism", c.parallelism());
    root.put("percentageOfNodesToScore", c.percentageOfNodesToScore());
    root.put("podInitialBackoffSeconds", c.podInitialBackoff().toSeconds());
    root.put("podMaxBackoffSeconds", c.podMaxBackoff().toSeconds());
    var profiles = root.putArray("profiles");
    for (var source : c.profileSources()) {
      var profile = profiles.addObject();
      source.pluginConfig().ifPresent(node -> profile.set("pluginConfig", node.deepCopy()));
      source.plugins().ifPresent(node -> profile.set("plugins", node.deepCopy()));
      source.percentageOfNodesToScore().ifPresent(node -> profile.set("percentageOfNodesToScore", node.deepCopy()));
      profile.put("schedulerName", source.schedulerName());
    }
    return root;
  }

  /**
   * @return {@code value}'s shortest decimal that reads back as it; its exact value where that decimal is above
   *     the largest float (which a reader of 32-bit floats refuses): only near {@link Float#MAX_VALUE}
   */
  static BigDecimal decimal(float value) {
    var shortest = new BigDecimal(Float.toString(value));
    if (shortest.doubleValue() > Float.MAX_VALUE) {
      return new BigDecimal((double) value);
    }
    return shortest.stripTrailingZeros();
  }

  private static String go(Duration duration) {
    return ConfigReader.goString(duration);
  }
}
