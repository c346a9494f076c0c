package io.kubesched.samples.josdk;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonProperty;
import java.util.Collections;
import java.util.Map;
import java.util.TreeMap;
import org.jspecify.annotations.Nullable;

/**
 * What the operator last saw of a {@link BatchJob}, written by {@link BatchJobReconciler}.
 *
 * @param phase {@link Phase#PENDING} until every worker is bound to a node, then {@link Phase#PLACED}; {@link
 *     Phase#INVALID} if the spec cannot be run (the message says why)
 * @param placed how many workers are bound to a node
 * @param nodes each bound worker's node, by worker pod name, sorted
 * @param message what the phase means for this job: the count, or what is wrong with the spec, or why a worker
 *     waits
 * @param observedGeneration the job's {@code metadata.generation} this status was written for
 */
@JsonInclude(JsonInclude.Include.NON_NULL)
public record BatchJobStatus(
    Phase phase, int placed, Map<String, String> nodes, String message, @Nullable Long observedGeneration) {

  /** Copies {@code nodes} sorted by worker name; an absent map (as read from the API server) is empty. */
  public BatchJobStatus {
    nodes = nodes == null ? Map.of() : Collections.unmodifiableMap(new TreeMap<>(nodes));
  }

  /** A job's phase, as {@code status.phase} spells it. */
  public enum Phase {
    /** Workers are created or waiting for a node. */
    @JsonProperty("Pending")
    PENDING,
    /** Every worker is bound to a node. */
    @JsonProperty("Placed")
    PLACED,
    /** The spec cannot be run; the message names the field and value. */
    @JsonProperty("Invalid")
    INVALID
  }
}
