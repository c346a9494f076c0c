package io.kubesched.api;

import static org.apiguardian.api.API.Status.STABLE;

import org.apiguardian.api.API;

/**
 * A port a pod's container binds on its node.
 *
 * @param protocol {@code TCP}, {@code UDP} or {@code SCTP}
 * @param hostIp the host address it binds; {@code 0.0.0.0} for all addresses
 * @param port the host port, 1 to 65535
 */
@API(status = STABLE, since = "0.1.0")
public record HostPort(String protocol, String hostIp, int port) {

  /** The address that stands for every host address. */
  public static final String ALL_ADDRESSES = "0.0.0.0";

  /** @throws IllegalArgumentException if {@code port} is out of range or a field is empty */
  public HostPort {
    if (port < 1 || port > 65535) {
      throw new IllegalArgumentException("host port must be 1..65535, was " + port);
    }
    if (protocol.isEmpty() || hostIp.isEmpty()) {
      throw new IllegalArgumentException("host port protocol and hostIp must not be empty");
    }
  }
}
