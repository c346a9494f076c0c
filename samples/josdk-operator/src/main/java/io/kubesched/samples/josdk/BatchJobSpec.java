package io.kubesched.samples.josdk;

import com.fasterxml.jackson.annotation.JsonInclude;
import org.jspecify.annotations.Nullable;

/**
 * What a {@link BatchJob} asks for, as written: every field may be missing or wrong here; {@link Workers#check}
 * says what is wrong, naming the field.
 *
 * @param team the team the job belongs to: a label value, put on every worker as {@value
 *     io.kubesched.samples.josdk.placement.TeamPacking#TEAM_LABEL}
 * @param workers how many worker pods, at least 1
 * @param cpu each worker's CPU request and limit, a quantity ({@code 500m}, {@code 1})
 * @param memory each worker's memory request and limit, a quantity ({@code 1Gi})
 * @param image the workers' container image; {@value Workers#DEFAULT_IMAGE} if absent
 */
@JsonInclude(JsonInclude.Include.NON_NULL)
public record BatchJobSpec(
    @Nullable String team,
    @Nullable Integer workers,
    @Nullable String cpu,
    @Nullable String memory,
    @Nullable String image) {}
