package org.strata.asterixdb;

import java.io.IOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.util.ArrayList;
import java.util.List;

/** Ports free on 127.0.0.1 now, distinct, for a cluster beside others on this host. */
final class FreePorts {
  private FreePorts() {}

  /** {@code n} distinct ports that 127.0.0.1 could bind a moment ago. */
  static List<Integer> take(int n) throws IOException {
    List<ServerSocket> held = new ArrayList<>();
    List<Integer> out = new ArrayList<>();
    try {
      for (int i = 0; i < n; i++) {
        ServerSocket s = new ServerSocket(0, 1, InetAddress.getLoopbackAddress());
        held.add(s);
        out.add(s.getLocalPort());
      }
    } finally {
      for (ServerSocket s : held) {
        s.close();
      }
    }
    return out;
  }
}
