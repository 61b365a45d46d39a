import type { Team } from '../../store/types.ts';
import { hiddenFields, html, page } from './html.ts';

export function chooseTeamPage(p: { csrfToken: string; requestId: string; clientName: string; teams: Team[] }): string {
  return page(
    'Choose a team',
    html`<p><strong>${p.clientName}</strong>'s requests will be billed to the team you choose.</p>
<form method="post" action="/oauth/team">
${hiddenFields(p.csrfToken, p.requestId)}
<fieldset>
<legend>Team</legend>
${p.teams.map(
  (t, i) => html`<div><input type="radio" id="team-${i}" name="team_id" value="${t.id}" required${i === 0 ? html` checked` : null}><label for="team-${i}">${t.name}</label></div>`,
)}
</fieldset>
<button type="submit">Continue</button>
</form>`,
  );
}
