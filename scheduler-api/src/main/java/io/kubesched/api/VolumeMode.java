package io.kubesched.api;

import static org.apiguardian.api.API.Status.EXPERIMENTAL;

import org.apiguardian.api.API;

/** Whether a persistent volume is used as a file system or as a raw block device ({@code spec.volumeMode}). */
@API(status = EXPERIMENTAL, since = "0.1.0")
public enum VolumeMode {
  /** {@code Filesystem}, also what an absent {@code volumeMode} means. */
  FILESYSTEM,
  /** {@code Block}. */
  BLOCK
}
