import type { OAuthGrant } from '../../../auth/grants.ts';
import { hiddenFields, html, page } from './html.ts';

export interface Connection {
  grant: OAuthGrant;
  clientName: string;
}

export function accountPage(p: { csrfToken: string; email: string; connections: Connection[]; notice?: string }): string {
  const rows = p.connections.map(
    (c) => html`<tr><td>${c.clientName}</td><td>${c.grant.teamName}</td><td>${c.grant.createdAt.slice(0, 19).replace('T', ' ')} UTC</td><td>${c.grant.lastUsedAt ? `${c.grant.lastUsedAt.slice(0, 19).replace('T', ' ')} UTC` : 'never'}</td>
<td><form method="post" action="/account/connections/revoke">${hiddenFields(p.csrfToken)}<input type="hidden" name="grant_id" value="${c.grant.id}"><button type="submit" aria-label="Revoke ${c.clientName} (${c.grant.teamName})">Revoke</button></form></td></tr>`,
  );
  return page(
    'Account settings',
    html`<p>Signed in as <strong>${p.email}</strong>.</p>
<nav aria-label="Settings"><strong aria-current="page">MCP</strong></nav>
<section aria-labelledby="mcp-heading">
<h2 id="mcp-heading">MCP connections</h2>
${p.notice ? html`<p role="status">${p.notice}</p>` : null}
${
  p.connections.length === 0
    ? html`<p>No application is connected to your account.</p>`
    : html`<table><thead><tr><th scope="col">Application</th><th scope="col">Team</th><th scope="col">Created</th><th scope="col">Last used</th><th scope="col"><span class="visually-hidden">Action</span></th></tr></thead><tbody>${rows}</tbody></table>`
}
<p>Revoking a connection stops its access and refresh tokens at once; the application must connect again.</p>
</section>
<form method="post" action="/oauth/sign-out">${hiddenFields(p.csrfToken)}<button type="submit">Sign out</button></form>`,
  );
}
