/**
 * Server-rendered pages of the authorization server: a tagged template that escapes every
 * interpolated value, and the page shell. No JavaScript; one same-origin stylesheet (the CSP
 * allows only 'self').
 */

/** Text safe to place in an HTML page (element content or a double-quoted attribute). */
export class Html {
  constructor(readonly value: string) {}
  toString(): string {
    return this.value;
  }
}

export function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c] ?? c);
}

type Value = string | number | Html | readonly Html[] | null | undefined;

/** html`<p>${userText}</p>`: strings are escaped, Html values are inserted as they are. */
export function html(strings: TemplateStringsArray, ...values: Value[]): Html {
  let out = strings[0] ?? '';
  values.forEach((v, i) => {
    if (v instanceof Html) out += v.value;
    else if (Array.isArray(v)) out += v.map((h: Html) => h.value).join('');
    else if (v !== null && v !== undefined) out += escapeHtml(String(v));
    out += strings[i + 1] ?? '';
  });
  return new Html(out);
}

export const STYLESHEET_PATH = '/oauth/style.css';
export const STYLESHEET = `body{font:16px/1.5 system-ui,sans-serif;max-width:34rem;margin:3rem auto;padding:0 1rem;color:#1a1a1a}
h1{font-size:1.5rem}label{display:block;margin:.75rem 0 .25rem;font-weight:600}
input[type=email],input[type=password]{width:100%;padding:.5rem;font:inherit;box-sizing:border-box}
button{font:inherit;padding:.5rem 1.25rem;margin:1rem .5rem 0 0;cursor:pointer}
button:focus,input:focus{outline:3px solid #1d4ed8;outline-offset:2px}
.error{color:#b91c1c;font-weight:600}fieldset label{display:inline;font-weight:normal}fieldset{border:1px solid #ccc;padding:.75rem}
table{border-collapse:collapse;width:100%}td,th{text-align:left;padding:.4rem;border-bottom:1px solid #ddd}
code{word-break:break-all}`;

export function page(title: string, body: Html): string {
  return `<!doctype html>\n${html`<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>${title} · folio</title>
<link rel="stylesheet" href="${STYLESHEET_PATH}">
</head>
<body>
<main>
<h1>${title}</h1>
${body}
</main>
</body>
</html>
`.value}`;
}

/** The hidden fields every form carries: the session's CSRF token and, in the OAuth flow, the pending request id. */
export function hiddenFields(csrfToken: string, requestId?: string): Html {
  return html`<input type="hidden" name="csrf_token" value="${csrfToken}">${requestId ? html`<input type="hidden" name="request" value="${requestId}">` : null}`;
}
