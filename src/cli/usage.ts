export const USAGE = `Usage: folio <command> [options]

Commands:
  serve                                   Start the HTTP server (POST /v2/parse, GET /health).
  mcp                                     Serve the MCP tools over stdio for a local client (stdout
                                          carries protocol messages only; logs go to stderr). parse
                                          reads files under the client's roots, else FOLIO_ALLOWED_DIRS,
                                          else the working directory. See docs/mcp-stdio.md.
  keys create --team <name>               Create an API key for a team (the team is created if
                                          needed). Prints only the key; it is shown once.
  keys list [--json]                      List API keys: id, team, key prefix, created, last used,
                                          revoked. Keys themselves are never shown again.
  keys revoke <id>                        Revoke an API key by its id (see keys list).
  teams set <team> [--credits N|unlimited] [--add-credits N] [--rate-per-minute N]
        [--max-concurrent N] [--zdr on|off] [--siem <file path|https URL|syslog://host:port>|off]
                                          Set a team's plan (the team is created if needed):
                                          --credits sets the allowance and starts a new period,
                                          --add-credits adds to it; settings never set are the
                                          FOLIO_DEFAULT_* values. See docs/accounts.md.
  teams show <team> [--json]              A team's plan: credits left, rate, concurrency, ZDR, SIEM.
  teams list [--json]                     Every team with its plan.
  users create --email <address> --team <name> [--team <name2>…]
                                          Create a local account for the sign-in pages (teams are
                                          created if needed). The password is read from stdin (one
                                          line) or prompted for; never pass it as an argument.
  users list [--json]                     List users: id, email, teams, created.
  users add-team --email <address> --team <name>
                                          Add an existing user to a team.
  tokens issue --team <name> --resource mcp|mcp-oauth [--ttl <seconds>] [--client <id>] [--json]
                                          Create an OAuth grant for a team and print one access
                                          token for {mcp_url}/v2/mcp or /v2/mcp-oauth (shown once;
                                          --ttl 1..3600, default 3600).
  tokens list [--json]                    List OAuth grants: id, client, user, team, resource,
                                          scope, created, last used, revoked.
  tokens revoke <grant-id>                Revoke a grant: its access tokens are refused at once.
  tokens rotate-key                       Add a token signing key; it signs from now on, the
                                          previous ones keep verifying. Prints its kid.
  tokens retire-key <kid>                 Retire a signing key: its tokens are refused at once.
  migrate                                 Apply the store's missing schema migrations (PostgreSQL at
                                          DATABASE_URL, else SQLite in DATA_DIR) and print the
                                          schema version; serve also does this at start.
  parse <file> [--formats <list>] [--json] [--mode fast|auto|ocr] [--max-pages N] [--progress]
                                          Parse a local file in this process and print its markdown.
                                          --formats    comma-separated: markdown,html,rawHtml,links,images
                                                       (default markdown)
                                          --json       print the whole response object instead
                                          --mode       PDF: fast (text layer only), auto (default: OCR
                                                       where a page has no usable text), ocr (every page)
                                          --max-pages  PDF: read only the first N pages
                                          --progress   "page N of M" lines on stderr (always shown,
                                                       in place, when stderr is a terminal)
  help                                    Show this text.

Environment: PORT (3002), HOST (127.0.0.1), DATA_DIR (./data), LOG_LEVEL (info),
  FOLIO_MAX_CONCURRENT_PARSES, FOLIO_MAX_QUEUED_PARSES, FOLIO_PARSE_WORKER_MEMORY_MB,
  FOLIO_PARSE_WORKER_RECYCLE_MB;
  for mcp: FOLIO_ALLOWED_DIRS, FOLIO_API_URL and FOLIO_API_KEY (parse on that folio server).

Exit codes: 0 success, 1 failure, 2 usage error.
`;
