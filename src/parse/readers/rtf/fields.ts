/**
 * Fields (`{\field{\*\fldinst …}{\fldrslt …}}`): the result is what Word shows; a HYPERLINK
 * field's result becomes a link to its target (`HYPERLINK "url" \l "anchor"`).
 */

export interface Field {
  /** The instruction text, in pieces. */
  instruction: string[];
}

/** The link target of a field instruction, or undefined when it is not a usable HYPERLINK. */
export function hyperlinkTarget(instruction: string): string | undefined {
  const match = /^\s*HYPERLINK\b(.*)$/is.exec(instruction);
  if (!match) return undefined;
  const args = match[1] as string;
  const tokens: string[] = [];
  const pattern = /"([^"]*)"|(\\[a-z])|(\S+)/gi;
  for (let m = pattern.exec(args); m; m = pattern.exec(args)) tokens.push(m[1] ?? m[2] ?? m[3] ?? '');
  let url: string | undefined;
  let anchor: string | undefined;
  for (let i = 0; i < tokens.length; i++) {
    const token = tokens[i] as string;
    if (token.toLowerCase() === '\\l') {
      anchor = tokens[++i];
    } else if (/^\\[a-z]$/i.test(token)) {
      if (/^\\[mn]$/i.test(token)) continue;
      i++; // a switch with an argument (\o tooltip, \t target)
    } else if (url === undefined) {
      url = token;
    }
  }
  const target = `${url ?? ''}${anchor ? `#${anchor}` : ''}`.trim();
  return target === '' ? undefined : target;
}
