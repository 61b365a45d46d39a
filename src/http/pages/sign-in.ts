import { hiddenFields, html, page } from './html.ts';

export interface SignInPage {
  csrfToken: string;
  /** The pending authorization request, when signing in to connect an application. */
  requestId?: string;
  clientName?: string;
  email?: string;
  /** Shown above the form (a generic failure message, never which part was wrong). */
  error?: string;
}

export function signInPage(p: SignInPage): string {
  return page(
    'Sign in to folio',
    html`${p.clientName ? html`<p>Sign in to connect <strong>${p.clientName}</strong> to your folio account.</p>` : null}
${p.error ? html`<p class="error" role="alert">${p.error}</p>` : null}
<form method="post" action="/oauth/sign-in">
${hiddenFields(p.csrfToken, p.requestId)}
<label for="email">Email</label>
<input id="email" name="email" type="email" autocomplete="username" required autofocus value="${p.email ?? ''}">
<label for="password">Password</label>
<input id="password" name="password" type="password" autocomplete="current-password" required>
<button type="submit">Sign in</button>
</form>`,
  );
}
