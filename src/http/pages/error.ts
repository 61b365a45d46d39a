import { html, page } from './html.ts';

export function errorPage(title: string, message: string): string {
  return page(title, html`<p role="alert">${message}</p>`);
}
