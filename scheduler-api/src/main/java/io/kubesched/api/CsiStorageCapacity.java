package io.kubesched.api;

import static org.apiguardian.api.API.Status.EXPERIMENTAL;

import org.apiguardian.api.API;
import org.jspecify.annotations.Nullable;

/**
 * What the volume rules read of a CSIStorageCapacity object: how much a storage class can still provision in
 * one topology segment.
 *
 * @param namespace the object's namespace
 * @param name the object's name
 * @param storageClassName the class it reports on
 * @param nodeTopology the nodes it applies to; null when absent (it then applies to no node)
 * @param capacityBytes {@code capacity} in bytes; -1 when absent (unknown)
 * @param maximumVolumeSizeBytes {@code maximumVolumeSize} in bytes; -1 when absent (the same as capacity)
 */
@API(status = EXPERIMENTAL, since = "0.1.0")
public record CsiStorageCapacity(
    String namespace,
    String name,
    String storageClassName,
    @Nullable LabelSelector nodeTopology,
    long capacityBytes,
    long maximumVolumeSizeBytes) {}
