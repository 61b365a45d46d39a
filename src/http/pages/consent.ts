import { hiddenFields, html, page } from './html.ts';

/** What a scope lets the application do, in words (scopes.ts). */
const SCOPE_WORDS: Record<string, string> = { mcp: 'use all folio tools (parse, scrape, search, map, crawl) on your behalf' };

export interface ConsentPage {
  csrfToken: string;
  requestId: string;
  clientName: string;
  /** The host the browser returns to after approval. */
  redirectHost: string;
  scopes: string[];
  teamName: string;
  email: string;
}

export function consentPage(p: ConsentPage): string {
  return page(
    'Allow access?',
    html`<p><strong>${p.clientName}</strong> wants to access folio as <strong>${p.email}</strong>, billed to team <strong>${p.teamName}</strong>.</p>
<p>After you answer, you will be sent back to <strong>${p.redirectHost}</strong>.</p>
<p>It will be able to:</p>
<ul>${p.scopes.map((s) => html`<li><code>${s}</code>: ${SCOPE_WORDS[s] ?? s}</li>`)}</ul>
<form method="post" action="/oauth/consent">
${hiddenFields(p.csrfToken, p.requestId)}
<button type="submit" name="decision" value="approve">Approve</button>
<button type="submit" name="decision" value="deny">Deny</button>
</form>
<p>You can revoke this access at any time in your <a href="/account">account settings</a>.</p>`,
  );
}
