/**
 * SECRET: the secretlint recommended preset (provider tokens, maintained upstream) plus
 * gitleaks-style provider patterns it lacks, private-key blocks, JWTs, passwords in URLs,
 * `password=`/`secret:` assignments, and high-entropy values next to key-like names.
 */
import { lintSource } from '@secretlint/core';
import { creator as recommendedPreset } from '@secretlint/secretlint-rule-preset-recommend';
import { regexSpans, type PiiSpan } from './spans.ts';

const SECRETLINT_CONFIG = { rules: [{ id: '@secretlint/secretlint-rule-preset-recommend', rule: recommendedPreset }] };

/** Provider token shapes (prefixes are documented by each provider; lengths as gitleaks has them). */
const PROVIDER_TOKENS: RegExp[] = [
  /\b(?:AKIA|ASIA|ABIA|ACCA|AGPA|AIDA|AROA|ANPA|ANVA|APKA)[A-Z0-9]{16}\b/g, // AWS access key id
  /\bgh[pousr]_[A-Za-z0-9]{36,255}\b/g, // GitHub
  /\bgithub_pat_[A-Za-z0-9_]{60,255}\b/g,
  /\bglpat-[A-Za-z0-9_-]{20,}\b/g, // GitLab
  /\bgl(?:ptt|dt|rt|cbt|imt|agent|oas)-[A-Za-z0-9_-]{20,}\b/g,
  /\bxox[abposr]-(?:\d+-){0,3}[A-Za-z0-9-]{10,}\b/g, // Slack
  /https:\/\/hooks\.slack\.com\/(?:services|workflows)\/[A-Za-z0-9+/]{20,}/g,
  /\b(?:sk|rk|pk)_(?:live|test)_[A-Za-z0-9]{16,}\b/g, // Stripe
  /\bwhsec_[A-Za-z0-9]{24,}\b/g,
  /\bsk-ant-(?:api|admin)\d{2}-[A-Za-z0-9_-]{40,}\b/g, // Anthropic
  /\bsk-(?:proj-|svcacct-|admin-)?[A-Za-z0-9_-]{20,}(?:T3BlbkFJ[A-Za-z0-9_-]{20,})?\b/g, // OpenAI
  /\bAIza[0-9A-Za-z_-]{35}\b/g, // Google API key
  /\bya29\.[0-9A-Za-z_-]{30,}\b/g, // Google OAuth access token
  /\bGOCSPX-[0-9A-Za-z_-]{28}\b/g,
  /\bnpm_[A-Za-z0-9]{36}\b/g, // npm
  /\bpypi-AgEIcHlwaS5vcmc[A-Za-z0-9_-]{50,}\b/g, // PyPI
  /\bSG\.[A-Za-z0-9_-]{22}\.[A-Za-z0-9_-]{43}\b/g, // SendGrid
  /\b(?:AC|SK)[0-9a-f]{32}\b/g, // Twilio
  /\bhf_[A-Za-z]{34}\b/g, // Hugging Face
  /\bshp(?:at|ca|pa|ss)_[a-fA-F0-9]{32}\b/g, // Shopify
  /\bdop_v1_[a-f0-9]{64}\b/g, // DigitalOcean
  /\bkey-[0-9a-z]{32}\b/g, // Mailgun
  /\bdckr_pat_[A-Za-z0-9_-]{27,}\b/g, // Docker Hub
  /\b(?:lin_api|lin_oauth)_[A-Za-z0-9]{40}\b/g, // Linear
  /\bnfp_[A-Za-z0-9]{36}\b/g, // Netlify
  /\bvercel_[A-Za-z0-9]{24}\b/g,
  /\bATATT3xFfGF0[A-Za-z0-9_=-]{100,}\b/g, // Atlassian
  /\bEAA[A-Za-z0-9]{90,}\b/g, // Meta
  /\bM[A-Za-z\d]{23,25}\.[\w-]{6}\.[\w-]{27,38}\b/g, // Discord bot
  /\bdapi[a-f0-9]{32}\b/g, // Databricks
  /\bglc_[A-Za-z0-9+/]{32,}={0,2}/g, // Grafana
  /\bpat[A-Za-z0-9]{14}\.[a-f0-9]{64}\b/g, // Airtable
];

const PRIVATE_KEY = /-----BEGIN[ A-Z0-9]*PRIVATE KEY(?: BLOCK)?-----[\s\S]*?-----END[ A-Z0-9]*PRIVATE KEY(?: BLOCK)?-----/g;
const JWT = /\beyJ[A-Za-z0-9_-]{10,}\.eyJ[A-Za-z0-9_-]{10,}\.[A-Za-z0-9_-]{10,}/g;
const URL_PASSWORD = /\b[a-z][a-z0-9+.-]{1,20}:\/\/[^\s:/@<>"']{1,64}:([^\s@/<>"']{1,128})@/dgi;
const PASSWORD_ASSIGNMENT = /(?<![A-Za-z0-9])(?:password|passwd|passwort|mot de passe|contraseña|pwd|pass|passphrase|secret|passcode)["']?\s*(?:[:=]|=>)\s*["'`]?([^\s"'`,;<>]{4,128})/dgi;
const PASSWORD_IS = /\b(?:password|passwd|passphrase|passcode|passwort|mot de passe)\s+(?:is|was|ist|est)\s*:?\s*["'`]?([^\s"'`,;<>]{4,128})/dgi;
const KEY_ASSIGNMENT = /(?<![A-Za-z0-9])(?:api[_-]?key|apikey|access[_-]?key(?:[_-]?id)?|secret[_-]?key|private[_-]?key|auth[_-]?token|access[_-]?token|refresh[_-]?token|token|credentials?|signing[_-]?key|encryption[_-]?key|key)["']?\s*(?:[:=]|=>|\bis\b)\s*["'`]?([A-Za-z0-9_\-+/=.~]{16,256})/dgi;
const BEARER = /\b(?:Bearer|Basic|token)\s+([A-Za-z0-9_\-+/=.~]{16,512})/dg;

/** Shannon entropy in bits per character. */
export function entropy(value: string): number {
  const counts = new Map<string, number>();
  for (const ch of value) counts.set(ch, (counts.get(ch) ?? 0) + 1);
  let h = 0;
  for (const n of counts.values()) {
    const p = n / value.length;
    h -= p * Math.log2(p);
  }
  return h;
}

/** A random-looking credential: long, high entropy, mixes letters and digits, not a word or path. */
function looksRandom(value: string): boolean {
  if (value.length < 16) return false;
  if (/^[a-z]+(?:[_-][a-z]+)*$/i.test(value)) return false; // words, snake_case names
  if (/^(?:https?|file):|\/\/|\.(?:com|org|net|io|html?|js|json|ts|py|md)$/i.test(value)) return false;
  if (!/\d/.test(value) || !/[A-Za-z]/.test(value)) return false;
  if (/^\$\{|^<|^%\(|^\{\{/.test(value)) return false; // templates and placeholders
  return entropy(value) >= 3.5;
}

function notPlaceholder(value: string): boolean {
  if (/^[*x•.]+$/i.test(value)) return false; // already masked
  if (/^(?:<[^>]*>|\$\{?[A-Z_]+\}?|%[A-Z_]+%|\{\{.*\}\}|null|none|true|false|undefined|required|optional|string|changeme|your[_-]?\w*|example|\*+)$/i.test(value)) return false;
  return true;
}

export function findSecretsByPattern(text: string): PiiSpan[] {
  const out: PiiSpan[] = [];
  for (const re of PROVIDER_TOKENS) out.push(...regexSpans(text, re, 'SECRET'));
  if (text.includes('-----BEGIN')) out.push(...regexSpans(text, PRIVATE_KEY, 'SECRET'));
  if (text.includes('eyJ')) out.push(...regexSpans(text, JWT, 'SECRET'));
  if (text.includes('://')) out.push(...regexSpans(text, URL_PASSWORD, 'SECRET', notPlaceholder, 1));
  out.push(...regexSpans(text, PASSWORD_ASSIGNMENT, 'SECRET', (value) => notPlaceholder(value) && !/^(?:reset|change|manager|policy|strength|field|protected|required|hash|length)$/i.test(value), 1));
  out.push(...regexSpans(text, PASSWORD_IS, 'SECRET', (value) => notPlaceholder(value) && /[\d\W_]/.test(value.replace(/[.!?]$/, '')), 1));
  out.push(...regexSpans(text, KEY_ASSIGNMENT, 'SECRET', (value) => notPlaceholder(value) && looksRandom(value), 1));
  out.push(...regexSpans(text, BEARER, 'SECRET', (value) => notPlaceholder(value) && looksRandom(value), 1));
  return out;
}

/** The secretlint recommended preset's findings (async; it runs on the whole text once). */
/** Lines that can hold a credential: a run of 16+ token characters, a key block, or `user:pass@`. */
const CANDIDATE_LINE = /^.*(?:[A-Za-z0-9_\-+/=]{16}|-----BEGIN|:\/\/[^\s/@]*:[^\s/@]*@).*$/gm;

/**
 * The secretlint recommended preset's findings. It runs once, on the candidate lines only
 * (joined; offsets mapped back), which keeps its cost proportional to token-like text.
 */
export async function findSecretsBySecretlint(text: string): Promise<PiiSpan[]> {
  const starts: number[] = [];
  const origins: number[] = [];
  let content = '';
  CANDIDATE_LINE.lastIndex = 0;
  for (let m = CANDIDATE_LINE.exec(text); m !== null; m = CANDIDATE_LINE.exec(text)) {
    // A private key block spans lines: take everything up to its end marker.
    let line = m[0];
    if (line.includes('-----BEGIN')) {
      const end = text.indexOf('-----END', m.index);
      const stop = end < 0 ? m.index + line.length : text.indexOf('\n', end) < 0 ? text.length : text.indexOf('\n', end);
      line = text.slice(m.index, stop);
      CANDIDATE_LINE.lastIndex = stop;
    }
    starts.push(content.length);
    origins.push(m.index);
    content += `${line}\n`;
  }
  if (content === '') return [];
  const result = await lintSource({
    source: { content, filePath: '/document.txt', ext: '.txt', contentType: 'text' },
    options: { config: SECRETLINT_CONFIG },
  });
  return result.messages.map((msg) => {
    let i = starts.length - 1;
    while (i > 0 && (starts[i] ?? 0) > msg.range[0]) i -= 1;
    const shift = (origins[i] ?? 0) - (starts[i] ?? 0);
    return { start: msg.range[0] + shift, end: msg.range[1] + shift, group: 'SECRET' as const };
  });
}
