export const USAGE = `Usage: folio <command> [options]

Commands:
  serve                                   Start the HTTP server (POST /v2/parse, GET /health).
  keys create --team <name>               Create an API key for a team (the team is created if
                                          needed). Prints only the key; it is shown once.
  keys list [--json]                      List API keys: id, team, key prefix, created, last used,
                                          revoked. Keys themselves are never shown again.
  keys revoke <id>                        Revoke an API key by its id (see keys list).
  parse <file> [--formats <list>] [--json]
                                          Parse a local file in this process and print its markdown.
                                          --formats  comma-separated: markdown,html,rawHtml,links,images
                                                     (default markdown)
                                          --json     print the whole response object instead
  help                                    Show this text.

Environment: PORT (3002), HOST (127.0.0.1), DATA_DIR (./data), LOG_LEVEL (info),
  FOLIO_MAX_CONCURRENT_PARSES, FOLIO_MAX_QUEUED_PARSES, FOLIO_PARSE_WORKER_MEMORY_MB.

Exit codes: 0 success, 1 failure, 2 usage error.
`;
