package io.kubesched.simulation;

import static org.apiguardian.api.API.Status.EXPERIMENTAL;

import io.kubesched.api.Resources;
import org.apiguardian.api.API;

/**
 * One node at the end of a simulation.
 *
 * @param name the node's name
 * @param allocatable what the node offers to pods
 * @param requested the sum of the requests of the pods on it, those placed by the simulation included
 * @param pods how many pods it holds
 * @param placed how many of them the simulation placed
 * @param unschedulable whether it is cordoned
 */
@API(status = EXPERIMENTAL, since = "0.1.0")
public record NodeUsage(
    String name, Resources allocatable, Resources requested, int pods, int placed, boolean unschedulable) {}
