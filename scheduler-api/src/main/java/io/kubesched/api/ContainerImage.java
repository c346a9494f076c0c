package io.kubesched.api;

import java.util.List;

/**
 * A container image present on a node ({@code status.images}).
 *
 * @param names the names it is known by (tags and digests)
 * @param sizeBytes its size in bytes
 */
public record ContainerImage(List<String> names, long sizeBytes) {

  public ContainerImage {
    names = List.copyOf(names);
  }
}
