package io.kubesched.api;

import static org.apiguardian.api.API.Status.STABLE;

import java.util.List;
import org.apiguardian.api.API;

/**
 * A container image present on a node ({@code status.images}).
 *
 * @param names the names it is known by (tags and digests)
 * @param sizeBytes its size in bytes
 */
@API(status = STABLE, since = "0.1.0")
public record ContainerImage(List<String> names, long sizeBytes) {

  public ContainerImage {
    names = List.copyOf(names);
  }
}
