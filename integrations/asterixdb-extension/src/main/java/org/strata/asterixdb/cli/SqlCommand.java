package org.strata.asterixdb.cli;

import com.fasterxml.jackson.databind.JsonNode;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.Callable;
import org.strata.asterixdb.StatementErrors;
import org.strata.ycsb.asterixdb.QueryService;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/**
 * {@code strata asterixdb sql FILE|-}: sends the file's SQL++ (or standard input's) to the query
 * service as one request and prints each result as one JSON line. A failed statement prints the
 * server's message and exits 1.
 */
@Command(name = "sql", mixinStandardHelpOptions = true,
    description = "Send SQL++ to an AsterixDB query service and print the results.")
final class SqlCommand implements Callable<Integer> {
  @Parameters(index = "0", paramLabel = "FILE|-", description = "SQL++ file, or - for stdin")
  String file;

  @Option(names = "--host", defaultValue = "127.0.0.1", description = "Query service host.")
  String host;

  @Option(names = "--port", defaultValue = "19002", description = "Query service port.")
  int port;

  @Option(names = "--timeout-s", defaultValue = "600",
      description = "Seconds a request may take (default: ${DEFAULT-VALUE}).")
  long timeoutSeconds;

  @picocli.CommandLine.Spec picocli.CommandLine.Model.CommandSpec spec;

  @Override
  public Integer call() throws Exception {
    String text;
    if (file.equals("-")) {
      text = new String(System.in.readAllBytes(), StandardCharsets.UTF_8);
    } else {
      try {
        text = Files.readString(Path.of(file), StandardCharsets.UTF_8);
      } catch (NoSuchFileException e) {
        throw new IllegalArgumentException("SQL++ file '" + file + "' does not exist");
      }
    }
    if (text.isBlank()) {
      throw new IllegalArgumentException("no SQL++ statement in " + (file.equals("-")
          ? "standard input" : "'" + file + "'"));
    }
    QueryService qs = new QueryService(host, port, Duration.ofSeconds(timeoutSeconds));
    List<JsonNode> results;
    try {
      results = qs.execute(text);
    } catch (QueryService.QueryFailedException e) {
      List<String> lines = StatementErrors.explain(text, e.messages());
      spec.commandLine().getErr().println("error: the statement failed: " + lines.get(0));
      for (String l : lines.subList(1, lines.size())) {
        spec.commandLine().getErr().println(l);
      }
      return 1;
    } catch (IOException e) {
      spec.commandLine().getErr().println("error: cannot reach the query service at "
          + qs.uri() + ": " + e);
      return 1;
    }
    for (JsonNode r : results) {
      spec.commandLine().getOut().println(r.toString());
    }
    return 0;
  }
}
