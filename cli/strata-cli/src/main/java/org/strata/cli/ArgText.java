package org.strata.cli;

import java.nio.charset.Charset;
import java.nio.charset.StandardCharsets;
import java.util.HexFormat;
import org.strata.lsm.Utf8;
import picocli.CommandLine;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.ParameterException;

/**
 * Keys, values and paths from the command line, exactly as typed or refused. The JVM turns argv's
 * bytes into strings with the locale's charset ({@code sun.jnu.encoding}) before {@code main}
 * runs, and bytes that charset cannot decode become U+FFFD: under a UTF-8 locale {@code 0xFF} and
 * {@code 0xFE} both arrive as U+FFFD, and under {@code LC_ALL=C} (ASCII) every non-ASCII byte
 * does, so distinct keys would be stored as one. An argument that may have changed so is refused
 * with one line naming it and what is allowed: UTF-8 text (in a UTF-8 locale; {@code bin/strata}
 * runs Java under {@code C.UTF-8} when the locale is C or POSIX), or any bytes as hex digits with
 * {@code --hex}.
 *
 * <p>Arguments given to {@link Main#run(java.io.PrintStream, java.io.PrintStream, String...)} by
 * Java code are Java strings, not decoded bytes: {@link #EXACT} takes them as they are.
 */
final class ArgText {
  /** Arguments that are Java strings already (in-process callers): taken as they are. */
  static final ArgText EXACT = new ArgText(null);

  private static final String HEX_ALLOWED = "with --hex, keys and values are hex digits, two per"
      + " byte (e.g. ff00 for the bytes 0xFF 0x00; an empty string for no bytes)";

  /** The charset argv was decoded with; null: the arguments are exact Java strings. */
  private final Charset argv;

  private ArgText(Charset argv) {
    this.argv = argv;
  }

  /** Arguments the JVM decoded from argv with {@code charset}. */
  static ArgText decodedWith(Charset charset) {
    return new ArgText(charset);
  }

  /** Arguments as this JVM decoded them from argv: with its {@code sun.jnu.encoding}. */
  static ArgText ofThisJvm() {
    String name = System.getProperty("sun.jnu.encoding");
    Charset c;
    try {
      c = name == null ? Charset.defaultCharset() : Charset.forName(name);
    } catch (RuntimeException e) {
      c = StandardCharsets.US_ASCII; // unknown: only ASCII is surely what was typed
    }
    return new ArgText(c);
  }

  /**
   * Why {@code arg} may not be what was typed, or null if it is: it holds U+FFFD (what the JVM
   * makes of bytes it cannot decode), or it holds non-ASCII characters that a charset other than
   * UTF-8 decoded.
   */
  String whyNotExact(String arg) {
    if (argv == null) {
      return null;
    }
    boolean utf8 = argv.equals(StandardCharsets.UTF_8);
    if (arg.indexOf('\uFFFD') >= 0) {
      return utf8 ? "it is not valid UTF-8 (the JVM turns bytes it cannot decode into U+FFFD,"
          + " so different bytes would arrive as the same text)"
          : "the JVM decodes arguments with this locale's charset " + argv.name() + ", not"
          + " UTF-8, and turned bytes it cannot decode into U+FFFD";
    }
    if (!utf8 && !arg.chars().allMatch(ch -> ch < 0x80)) {
      return "it is not ASCII, and the JVM decodes arguments with this locale's charset "
          + argv.name() + ", not UTF-8, so its characters may not be the bytes typed";
    }
    return null;
  }

  /** {@code arg} if it is exactly what was typed; otherwise a usage error naming {@code label}. */
  String exact(CommandSpec spec, String label, String arg) {
    String why = whyNotExact(arg);
    if (why != null) {
      throw new ParameterException(spec.commandLine(), label + " is refused: " + why
          + "; allowed: " + allowedText() + ", or any bytes as hex digits with --hex");
    }
    return arg;
  }

  /**
   * The bytes of argument {@code arg} ({@code label}: {@code KEY}, {@code VALUE}, {@code
   * --from}): with {@code hex}, the bytes its hex digits spell; otherwise its UTF-8, if it is
   * exactly what was typed. Null stays null.
   */
  byte[] bytes(CommandSpec spec, String label, String arg, boolean hex) {
    if (arg == null) {
      return null;
    }
    if (hex) {
      return parseHex(spec, label, arg);
    }
    try {
      return Utf8.encode(exact(spec, label, arg), what(label));
    } catch (IllegalArgumentException e) {
      throw new ParameterException(spec.commandLine(), e.getMessage());
    }
  }

  /**
   * Argument {@code arg} as text (a dataset's key or field value): with {@code hex}, the UTF-8
   * text its hex digits spell; otherwise {@code arg}, if it is exactly what was typed.
   */
  String text(CommandSpec spec, String label, String arg, boolean hex) {
    if (arg == null) {
      return null;
    }
    try {
      if (hex) {
        return Utf8.decode(parseHex(spec, label, arg), what(label));
      }
      Utf8.check(exact(spec, label, arg), what(label));
      return arg;
    } catch (IllegalArgumentException e) {
      throw new ParameterException(spec.commandLine(), e.getMessage()
          + (hex ? " (a dataset's keys and values are text)" : ""));
    }
  }

  /** The usage-error text for what may be typed as text in this process. */
  private String allowedText() {
    return argv == null || argv.equals(StandardCharsets.UTF_8) ? "UTF-8 text"
        : "ASCII text (or UTF-8 text in a UTF-8 locale, e.g. LC_ALL=C.UTF-8)";
  }

  /** How the engine's UTF-8 errors name an argument: {@code key}, {@code value}, {@code --from}. */
  private static String what(String label) {
    return label.startsWith("-") ? label : label.toLowerCase(java.util.Locale.ROOT);
  }

  private static byte[] parseHex(CommandSpec spec, String label, String arg) {
    if (arg.length() % 2 != 0 || !arg.chars().allMatch(c -> Character.digit(c, 16) >= 0
        && c < 0x80)) {
      throw new ParameterException(spec.commandLine(), label + " '" + Utf8.printable(arg)
          + "' is not hex: " + (arg.length() % 2 != 0 ? "it has an odd number of digits"
          : "it holds a character other than 0-9, a-f, A-F") + "; " + HEX_ALLOWED);
    }
    return HexFormat.of().parseHex(arg);
  }

  /** {@code bytes} as lowercase hex digits, two per byte. */
  static String hex(byte[] bytes) {
    return HexFormat.of().formatHex(bytes);
  }

  /** The Path converter of every option: refuses an empty path and one the JVM may have changed. */
  CommandLine.ITypeConverter<java.nio.file.Path> pathConverter() {
    return value -> {
      if (value.isEmpty()) {
        throw new CommandLine.TypeConversionException("an empty path is not allowed; give a"
            + " path ('.' is the working directory)");
      }
      String why = whyNotExact(value);
      if (why != null) {
        throw new CommandLine.TypeConversionException("'" + Utf8.printable(value) + "' is"
            + " refused: " + why + "; allowed: a path in " + allowedText());
      }
      return java.nio.file.Path.of(value);
    };
  }
}
