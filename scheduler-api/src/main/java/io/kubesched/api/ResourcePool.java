package io.kubesched.api;

import static org.apiguardian.api.API.Status.EXPERIMENTAL;

import org.apiguardian.api.API;

/**
 * The pool a {@link ResourceSlice} belongs to: kube's {@code ResourcePool}. Only the slices of a pool's newest
 * generation count, and a pool is complete when that many slices are seen.
 *
 * @param name the pool's name, unique per driver
 * @param generation the pool's generation
 * @param resourceSliceCount how many slices the pool has at that generation
 */
@API(status = EXPERIMENTAL, since = "0.1.0")
public record ResourcePool(String name, long generation, long resourceSliceCount) {}
