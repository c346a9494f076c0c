package io.kubesched.api;

/** Whether a persistent volume is used as a file system or as a raw block device ({@code spec.volumeMode}). */
public enum VolumeMode {
  /** {@code Filesystem}, also what an absent {@code volumeMode} means. */
  FILESYSTEM,
  /** {@code Block}. */
  BLOCK
}
