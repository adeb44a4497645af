package org.strata.cli;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Keys and values from the command line are stored exactly or refused, in real child processes
 * whose arguments are raw bytes ({@code printf}) decoded by the JVM with the locale's charset. A
 * JVM turns bytes its charset cannot decode into U+FFFD, so before this two different keys
 * ({@code 0xFF}, {@code 0xFE}) were stored as one, and under {@code LC_ALL=C} every non-ASCII key.
 * Now such an argument is refused with one line naming it and what is allowed, and {@code --hex}
 * stores and reads back any bytes.
 */
class CommandLineKeysTest {
  @TempDir Path tmp;

  private CliChild.Result sh(Map<String, String> env, String script, String... args)
      throws Exception {
    return CliChild.run(tmp.resolve("scratch"), tmp, env, List.of(), script, args);
  }

  private static void oneErrorLine(CliChild.Result r, String... contains) {
    assertThat(r.code()).as(r.err()).isEqualTo(2);
    // The error line and picocli's pointer to the command's help, nothing else.
    assertThat(r.errLines()).as(r.err()).hasSize(2);
    assertThat(r.errLines().get(0)).startsWith("error: ").contains(contains);
    assertThat(r.errLines().get(1)).startsWith("Try 'strata ");
  }

  @Test
  void bytesThatAreNotUtf8AreRefusedAndHexStoresThemExactly() throws Exception {
    String utf8 = CliChild.utf8Locale();
    assumeTrue(utf8 != null, "needs a UTF-8 locale (locale -a lists none)");
    Map<String, String> env = CliChild.locale(utf8);
    Path dir = tmp.resolve("store");
    String d = dir.toString();

    // 0xFF and 0xFE decode to the same U+FFFD: both refused, nothing created.
    oneErrorLine(sh(env, "strata put --dir \"$1\" \"$(printf '\\377')\" v1", d), "KEY",
        "UTF-8", "--hex");
    oneErrorLine(sh(env, "strata put --dir \"$1\" k \"$(printf 'a\\376')\"", d), "VALUE",
        "--hex");
    assertThat(dir).as("nothing written for a refused argument").doesNotExist();

    // --hex: the same two keys are two keys.
    assertThat(sh(env, "strata put --dir \"$1\" --hex ff 7631", d).code()).isZero();
    assertThat(sh(env, "strata put --dir \"$1\" --hex FE 7632", d).code()).isZero();
    CliChild.Result g = sh(env, "strata get --dir \"$1\" --hex ff", d);
    assertThat(g.code()).as(g.err()).isZero();
    assertThat(g.outText()).isEqualTo("7631\n");
    assertThat(sh(env, "strata get --dir \"$1\" --hex fe", d).outText()).isEqualTo("7632\n");
    // A key of text, read back in hex and as text.
    assertThat(sh(env, "strata put --dir \"$1\" \"$(printf 'k\\303\\251')\" v3", d).code())
        .isZero();
    CliChild.Result scan = sh(env, "strata scan --dir \"$1\" --hex", d);
    assertThat(scan.code()).as(scan.err()).isZero();
    assertThat(scan.outText()).isEqualTo("6bc3a9\t7633\nfe\t7632\nff\t7631\n");
    assertThat(sh(env, "strata scan --dir \"$1\" --hex --from fe --to fe", d).outText())
        .isEqualTo("fe\t7632\n");
    assertThat(sh(env, "strata get --dir \"$1\" \"$(printf 'k\\303\\251')\"", d).out())
        .isEqualTo("v3\n".getBytes(StandardCharsets.UTF_8));
    // Text output never shows bytes that are not UTF-8 changed: it refuses, pointing to --hex.
    CliChild.Result text = sh(env, "strata scan --dir \"$1\" --from fe", d);
    assertThat(text.code()).isEqualTo(1);
    assertThat(text.errLines()).as(text.err()).hasSize(1);
    assertThat(text.errLines().get(0)).startsWith("error: key is not valid UTF-8")
        .contains("--hex");
    // --from given as undecodable bytes is refused too, naming --from.
    oneErrorLine(sh(env, "strata scan --dir \"$1\" --from \"$(printf '\\377')\"", d), "--from");
    oneErrorLine(sh(env, "strata get --dir \"$1\" \"$(printf '\\377')\"", d), "KEY");
    oneErrorLine(sh(env, "strata delete --dir \"$1\" \"$(printf '\\376')\"", d), "KEY");
    assertThat(sh(env, "strata delete --dir \"$1\" --hex ff", d).code()).isZero();
    CliChild.Result gone = sh(env, "strata get --dir \"$1\" --hex ff", d);
    assertThat(gone.code()).isEqualTo(1);
    assertThat(gone.outText()).isEqualTo("not found\n");
    assertThat(sh(env, "strata get --dir \"$1\" --hex fe", d).outText()).isEqualTo("7632\n");
  }

  @Test
  void underACLocaleNonAsciiArgumentsAreRefusedNotMangled() throws Exception {
    Map<String, String> c = CliChild.locale("C");
    Path dir = tmp.resolve("store");
    String d = dir.toString();
    // 'é' and 'ü' are two bytes each; the JVM of a C locale decodes every one to U+FFFD, so
    // before this they were stored as the same four-U+FFFD key.
    oneErrorLine(sh(c, "strata put --dir \"$1\" \"$(printf '\\303\\251')\" v1", d), "KEY",
        "--hex");
    oneErrorLine(sh(c, "strata put --dir \"$1\" k \"$(printf '\\303\\274')\"", d), "VALUE");
    assertThat(dir).doesNotExist();
    assertThat(sh(c, "strata put --dir \"$1\" --hex c3a9 76c3a9", d).code()).isZero();
    assertThat(sh(c, "strata put --dir \"$1\" ascii v", d).code()).isZero();
    oneErrorLine(sh(c, "strata get --dir \"$1\" \"$(printf '\\303\\274')\"", d), "KEY");
    oneErrorLine(sh(c, "strata scan --dir \"$1\" --to \"$(printf '\\303\\274')\"", d), "--to");
    // A directory named in bytes the JVM cannot decode is refused too, not created elsewhere.
    oneErrorLine(sh(c, "strata put --dir \"$1/$(printf 'd\\303\\251')\" k v", tmp.toString()),
        "--dir");
    try (var s = Files.list(tmp)) {
      assertThat(s.map(p -> p.getFileName().toString())).containsExactlyInAnyOrder("store",
          "scratch");
    }
    // What was stored reads back exactly; as text it is printed as the UTF-8 bytes it is.
    assertThat(sh(c, "strata get --dir \"$1\" --hex c3a9", d).outText()).isEqualTo("76c3a9\n");
    assertThat(sh(c, "strata scan --dir \"$1\"", d).out()).isEqualTo(
        "ascii\tv\n\u00e9\tv\u00e9\n".getBytes(StandardCharsets.UTF_8));
  }
}
