package org.strata.cli;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Optional;
import java.util.stream.Stream;
import org.strata.lsm.Durability;
import org.strata.lsm.engine.LsmStore;
import org.strata.lsm.config.MemoryComponentConfig;
import org.strata.lsm.config.StoreConfig;
import org.strata.lsm.engine.StoreVerifier;
import org.strata.lsm.testing.LogImages;

/**
 * The child process of {@link FullDiskTest}: a store on a small file system that it fills, driven
 * by commands on standard input, one a line. It answers on standard output with lines starting
 * with {@code @} (anything else there is the log): {@code @ACK <i>} for each acknowledged write,
 * {@code @ERROR <message>} for a refused one, and one line per command result. Key {@code i} holds
 * {@link #value(int)}.
 *
 * <p>Arguments: the file system's mount point, the size of the filler file to create there first
 * (freed later by {@code free}), and optionally {@code recover}: open the store a killed child
 * left (no filler), and {@code group}: a new store's durability is {@code group}, not {@code
 * sync}. It answers {@code @READY <pid>} once the store is
 * open. Commands: {@code load} (writes until one is refused),
 * {@code image <dir>} (copies the store's files: a crash image), {@code free}, {@code write <n>
 * [first key]}, {@code flush}, {@code verify} (closes the
 * store, verifies it and lists its files, opens it again), {@code check <n>} (keys 0 to n-1),
 * {@code exit}.
 */
public final class FullDiskChild {
  private FullDiskChild() {}

  /** The value of key {@code i}: about 600 bytes, different for each key. */
  static String value(int i) {
    return ("value-" + i + "-").repeat(50);
  }

  static String key(int i) {
    return String.format("key%08d", i);
  }

  public static void main(String[] args) throws IOException {
    Path mount = Path.of(args[0]);
    long fillerBytes = Long.parseLong(args[1]);
    boolean recover = java.util.Arrays.asList(args).subList(2, args.length).contains("recover");
    Durability durability = java.util.Arrays.asList(args).subList(2, args.length)
        .contains("group") ? Durability.GROUP : Durability.SYNC;
    PrintStream out = new PrintStream(System.out, true, StandardCharsets.UTF_8);
    Path filler = mount.resolve("filler");
    Path dir = mount.resolve("store");
    LsmStore store;
    if (recover) {
      store = LsmStore.open(dir, null);
    } else {
      Files.write(filler, new byte[(int) fillerBytes]);
      store = LsmStore.open(dir, StoreConfig.defaults()
          .withMemoryComponent(MemoryComponentConfig.of(512 * 1024, 2))
          .withDurability(durability));
    }
    int next = 0;
    out.println("@READY " + ProcessHandle.current().pid());
    BufferedReader in = new BufferedReader(new InputStreamReader(System.in,
        StandardCharsets.UTF_8));
    for (String line; (line = in.readLine()) != null; ) {
      String[] cmd = line.trim().split(" ");
      switch (cmd[0]) {
        case "load" -> {
          // Bounded: a file system that never fills fails the test instead of running forever.
          String error = null;
          for (int n = 0; n < 200_000 && error == null; n++) {
            error = write(store, next++, out);
          }
          out.println(error == null ? "@NOTFULL" : "@FULL " + error);
        }
        case "image" -> {
          // What a crash at this moment leaves (durability sync: every acknowledged write is in a
          // file), copied outside the full file system for the test to recover.
          LogImages.copyTree(dir, Path.of(cmd[1]));
          out.println("@IMAGED");
        }
        case "free" -> {
          Files.delete(filler);
          out.println("@FREED");
        }
        case "write" -> {
          int n = Integer.parseInt(cmd[1]);
          if (cmd.length > 2) {
            next = Integer.parseInt(cmd[2]);
          }
          for (int i = 0; i < n; i++) {
            String error = write(store, next++, out);
            if (error != null) {
              out.println("@ERROR " + error);
            }
          }
          out.println("@WRITTEN");
        }
        case "flush" -> {
          try {
            store.flush();
            out.println("@FLUSHED");
          } catch (RuntimeException e) {
            out.println("@FLUSH-ERROR " + oneLine(e));
          }
        }
        case "verify" -> {
          // verify refuses a store that is open: close it, verify, open it again.
          store.close();
          StoreVerifier.VerifyReport r = StoreVerifier.verify(dir);
          for (String f : r.faults()) {
            out.println("@FAULT " + f);
          }
          try (Stream<Path> s = Files.list(dir)) {
            s.forEach(p -> out.println("@FILE " + p.getFileName()));
          }
          store = LsmStore.open(dir, null);
          out.println("@VERIFIED " + r.ok());
        }
        case "check" -> {
          int n = Integer.parseInt(cmd[1]);
          for (int i = 0; i < n; i++) {
            String expected = value(i);
            Optional<byte[]> v = store.get(key(i).getBytes(StandardCharsets.UTF_8));
            out.println("@VAL " + i + " " + v.map(b -> new String(b, StandardCharsets.UTF_8)
                .equals(expected) ? "ok" : "wrong").orElse("missing"));
          }
          out.println("@CHECKED");
        }
        case "exit" -> {
          store.close();
          out.println("@BYE");
          return;
        }
        default -> out.println("@UNKNOWN " + line);
      }
    }
  }

  /** Writes key {@code i}; prints {@code @ACK i} and returns null, or returns the error. */
  private static String write(LsmStore store, int i, PrintStream out) {
    try {
      store.put(key(i).getBytes(StandardCharsets.UTF_8),
          value(i).getBytes(StandardCharsets.UTF_8));
      out.println("@ACK " + i);
      return null;
    } catch (RuntimeException e) {
      return oneLine(e);
    }
  }

  private static String oneLine(Throwable e) {
    return String.valueOf(e.getMessage()).replace('\n', ' ');
  }
}
