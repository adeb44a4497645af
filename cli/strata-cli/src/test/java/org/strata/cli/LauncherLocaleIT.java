package org.strata.cli;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code bin/strata} over the packaged jars, under {@code LC_ALL=C}: where {@code C.UTF-8} exists
 * it runs Java under it, so a UTF-8 key typed in a C locale arrives exactly (the JVM of a C locale
 * decodes argv as ASCII and makes every other byte U+FFFD); bytes that are not UTF-8 are still
 * refused, and {@code --hex} stores them.
 */
class LauncherLocaleIT {
  @TempDir Path tmp;

  private CliChild.Result strata(Map<String, String> env, String script, String... args)
      throws Exception {
    Path bin = Path.of(System.getProperty("user.dir")).resolve("..").resolve("..").resolve("bin")
        .resolve("strata").normalize();
    Map<String, String> e = new java.util.HashMap<>(env);
    e.put("STRATA_BIN", bin.toString());
    e.put("STRATA_JAVA_OPTS", "-Xmx256m");
    return CliChild.run(tmp.resolve("scratch"), tmp, e, List.of(),
        "strata() { \"$STRATA_BIN\" \"$@\"; }\n" + script, args);
  }

  @Test
  void utf8KeysTypedUnderTheCLocaleArriveExactly() throws Exception {
    String utf8 = CliChild.utf8Locale();
    assumeTrue(utf8 != null && utf8.toLowerCase(java.util.Locale.ROOT).startsWith("c."),
        "needs the C.UTF-8 locale");
    Map<String, String> c = CliChild.locale("C");
    String d = tmp.resolve("store").toString();
    CliChild.Result put = strata(c, "strata put --dir \"$1\" \"$(printf 'k\\303\\251')\""
        + " \"$(printf 'v\\303\\274')\"", d);
    assertThat(put.code()).as(put.err()).isZero();
    assertThat(put.err()).isEmpty();
    CliChild.Result get = strata(c, "strata get --dir \"$1\" \"$(printf 'k\\303\\251')\"", d);
    assertThat(get.code()).as(get.err()).isZero();
    assertThat(get.out()).isEqualTo("v\u00fc\n".getBytes(StandardCharsets.UTF_8));
    assertThat(strata(c, "strata get --dir \"$1\" --hex 6bc3a9", d).outText())
        .isEqualTo("76c3bc\n");
    // A path in UTF-8 is what was typed, too (the shell looks: this JVM's locale may not be UTF-8).
    CliChild.Result path = strata(c, "d=\"$1/$(printf 'd\\303\\251')\";"
        + " strata put --dir \"$d\" k v && test -f \"$d/config.json\"", tmp.toString());
    assertThat(path.code()).as(path.err()).isZero();

    CliChild.Result bad = strata(c, "strata put --dir \"$1\" \"$(printf '\\377')\" v", d);
    assertThat(bad.code()).isEqualTo(2);
    assertThat(bad.errLines()).as(bad.err()).hasSize(2);
    assertThat(bad.errLines().get(0)).startsWith("error: KEY is refused").contains("--hex");
    assertThat(strata(c, "strata scan --dir \"$1\" --hex", d).outText())
        .isEqualTo("6bc3a9\t76c3bc\n");
  }
}
