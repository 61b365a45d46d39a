/**
 * The MCP web tools hold their team's place in the fair queue for the whole call, as their HTTP
 * routes do (docs/limits.md): `scrape` (fetch and parse), `search` (with its result scrapes),
 * `map`. A call that waited runs with what is left of its `timeout`. The `parse` tool takes its
 * place in the parse runner; keyless and local callers have no team.
 */
import type { TeamLimits } from '../limits/teams/index.ts';
import { DEFAULT_TIMEOUT_MS } from '../parse/options.ts';
import { MAP_DEFAULT_TIMEOUT_MS } from '../web/map.ts';
import { DEFAULT_SEARCH_TIMEOUT_MS } from '../web/search/request.ts';
import type { ToolCallWrapper } from './server.ts';

const WEB_TOOL_TIMEOUTS: Readonly<Record<string, number>> = { scrape: DEFAULT_TIMEOUT_MS, search: DEFAULT_SEARCH_TIMEOUT_MS, map: MAP_DEFAULT_TIMEOUT_MS };

export function teamToolJobs(limits: Pick<TeamLimits, 'job'>): ToolCallWrapper {
  return (tool, caller, input, signal, run) => {
    const fallback = WEB_TOOL_TIMEOUTS[tool.name];
    if (caller.teamId === undefined || fallback === undefined) return run(input);
    const given = input.timeout;
    const timeoutMs = typeof given === 'number' && Number.isInteger(given) && given > 0 ? given : fallback;
    return limits.job(caller.teamId, { timeoutMs, signal, what: tool.name }, (remainingMs, held) => run(held.waited ? { ...input, timeout: remainingMs } : input));
  };
}
