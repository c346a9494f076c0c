package io.kubesched.testcluster;

import java.io.Serial;

/**
 * A run of {@code tools/test-cluster/cluster.sh} ended with a non-zero exit status: the cluster could not be built,
 * started, restarted or stopped. The message carries the script's whole output (its own log lines and, for a
 * failed start, the end of kube-apiserver's log), so a failed end-to-end run says why.
 */
public final class ClusterScriptException extends RuntimeException {

  @Serial private static final long serialVersionUID = 1L;

  private final int exitStatus;
  private final String output;

  ClusterScriptException(String command, int exitStatus, String output) {
    super(command + " failed (exit " + exitStatus + "):\n" + output);
    this.exitStatus = exitStatus;
    this.output = output;
  }

  /** @return the script's exit status, never 0 */
  public int exitStatus() {
    return exitStatus;
  }

  /** @return what the script wrote to its standard output and error, interleaved as written */
  public String output() {
    return output;
  }
}
