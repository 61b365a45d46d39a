/**
 * SECRET: the secretlint recommended preset (provider tokens, maintained upstream) plus
 * gitleaks-style provider patterns it lacks, private-key blocks, JWTs, passwords in URLs,
 * `password=`/`secret:` assignments, and high-entropy values next to key-like names.
 */
import { lintSource } from '@secretlint/core';
import { creator as recommendedPreset } from '@secretlint/secretlint-rule-preset-recommend';
import { linesMatching, regexSpans, type PiiSpan } from './spans.ts';

const SECRETLINT_CONFIG = { rules: [{ id: '@secretlint/secretlint-rule-preset-recommend', rule: recommendedPreset }] };

/** Provider token shapes (prefixes documented by each provider; lengths as gitleaks has them), each with the literals one of which it must contain. */
const PROVIDER_TOKENS: [string[], RegExp][] = [
  [['AKIA', 'ASIA', 'ABIA', 'ACCA', 'AGPA', 'AIDA', 'AROA', 'ANPA', 'ANVA', 'APKA'], /\b(?:AKIA|ASIA|ABIA|ACCA|AGPA|AIDA|AROA|ANPA|ANVA|APKA)[A-Z0-9]{16}\b/g], // AWS access key id
  [['ghp_', 'gho_', 'ghu_', 'ghs_', 'ghr_'], /\bgh[pousr]_[A-Za-z0-9]{36,255}\b/g], // GitHub
  [['github_pat_'], /\bgithub_pat_[A-Za-z0-9_]{60,255}\b/g],
  [['glpat-'], /\bglpat-[A-Za-z0-9_-]{20,}\b/g], // GitLab
  [['glptt-', 'gldt-', 'glrt-', 'glcbt-', 'glimt-', 'glagent-', 'gloas-'], /\bgl(?:ptt|dt|rt|cbt|imt|agent|oas)-[A-Za-z0-9_-]{20,}\b/g],
  [['xox'], /\bxox[abposr]-(?:\d+-){0,3}[A-Za-z0-9-]{10,}\b/g], // Slack
  [['hooks.slack.com'], /https:\/\/hooks\.slack\.com\/(?:services|workflows)\/[A-Za-z0-9+/]{20,}/g],
  [['_live_', '_test_'], /\b(?:sk|rk|pk)_(?:live|test)_[A-Za-z0-9]{16,}\b/g], // Stripe
  [['whsec_'], /\bwhsec_[A-Za-z0-9]{24,}\b/g],
  [['sk-ant-'], /\bsk-ant-(?:api|admin)\d{2}-[A-Za-z0-9_-]{40,}\b/g], // Anthropic
  [['sk-'], /\bsk-(?:proj-|svcacct-|admin-)?[A-Za-z0-9_-]{20,}(?:T3BlbkFJ[A-Za-z0-9_-]{20,})?\b/g], // OpenAI
  [['AIza'], /\bAIza[0-9A-Za-z_-]{35}\b/g], // Google API key
  [['ya29.'], /\bya29\.[0-9A-Za-z_-]{30,}\b/g], // Google OAuth access token
  [['GOCSPX-'], /\bGOCSPX-[0-9A-Za-z_-]{28}\b/g],
  [['npm_'], /\bnpm_[A-Za-z0-9]{36}\b/g], // npm
  [['pypi-AgEIcHlwaS5vcmc'], /\bpypi-AgEIcHlwaS5vcmc[A-Za-z0-9_-]{50,}\b/g], // PyPI
  [['SG.'], /\bSG\.[A-Za-z0-9_-]{22}\.[A-Za-z0-9_-]{43}\b/g], // SendGrid
  [['AC', 'SK'], /\b(?:AC|SK)[0-9a-f]{32}\b/g], // Twilio
  [['hf_'], /\bhf_[A-Za-z]{34}\b/g], // Hugging Face
  [['shpat_', 'shpca_', 'shppa_', 'shpss_'], /\bshp(?:at|ca|pa|ss)_[a-fA-F0-9]{32}\b/g], // Shopify
  [['dop_v1_'], /\bdop_v1_[a-f0-9]{64}\b/g], // DigitalOcean
  [['key-'], /\bkey-[0-9a-z]{32}\b/g], // Mailgun
  [['dckr_pat_'], /\bdckr_pat_[A-Za-z0-9_-]{27,}\b/g], // Docker Hub
  [['lin_api_', 'lin_oauth_'], /\b(?:lin_api|lin_oauth)_[A-Za-z0-9]{40}\b/g], // Linear
  [['nfp_'], /\bnfp_[A-Za-z0-9]{36}\b/g], // Netlify
  [['vercel_'], /\bvercel_[A-Za-z0-9]{24}\b/g],
  [['ATATT3xFfGF0'], /\bATATT3xFfGF0[A-Za-z0-9_=-]{100,}\b/g], // Atlassian
  [['EAA'], /\bEAA[A-Za-z0-9]{90,}\b/g], // Meta
  [['M'], /\bM[A-Za-z\d]{23,25}\.[\w-]{6}\.[\w-]{27,38}\b/g], // Discord bot
  [['dapi'], /\bdapi[a-f0-9]{32}\b/g], // Databricks
  [['glc_'], /\bglc_[A-Za-z0-9+/]{32,}={0,2}/g], // Grafana
  [['pat'], /\bpat[A-Za-z0-9]{14}\.[a-f0-9]{64}\b/g], // Airtable
  // More of gitleaks' rules (config/gitleaks.toml): prefixes each provider documents.
  [['xapp-'], /\bxapp-\d-[A-Za-z0-9]{9,}-\d{9,}-[A-Za-z0-9]{32,}\b/g], // Slack app-level token
  [['sq0atp-', 'sq0csp-'], /\bsq0(?:atp|csp)-[A-Za-z0-9_-]{22,43}\b/g], // Square
  [['EAAA'], /\bEAAA[A-Za-z0-9_-]{60}\b/g],
  [['pscale_'], /\bpscale_(?:tkn|pw|oauth)_[A-Za-z0-9=_.-]{32,64}/g], // PlanetScale
  [['hvs.', 'hvb.', 'hvr.'], /\bhv[sbr]\.[A-Za-z0-9_-]{24,}/g], // HashiCorp Vault
  [['.atlasv1.'], /\b[A-Za-z0-9]{14}\.atlasv1\.[A-Za-z0-9=_-]{60,70}/g], // Terraform Cloud
  [['dp.pt.', 'dp.st.', 'dp.ct.', 'dp.sa.', 'dp.scim.', 'dp.audit.'], /\bdp\.(?:pt|st|ct|sa|scim|audit)\.[A-Za-z0-9]{40,44}\b/g], // Doppler
  [['PMAK-'], /\bPMAK-[A-Fa-f0-9]{24}-[A-Fa-f0-9]{34}\b/g], // Postman
  [['sntrys_', 'sntryu_'], /\bsntry[su]_[A-Za-z0-9+/=_-]{40,}/g], // Sentry
  [['NRAK-', 'NRJS-', 'NRII-'], /\b(?:NRAK-[A-Z0-9]{27}|NRJS-[a-f0-9]{19}|NRII-[A-Za-z0-9-]{32})\b/g], // New Relic
  [['dt0c01.'], /\bdt0c01\.[A-Z0-9]{24}\.[A-Z0-9]{64}\b/g], // Dynatrace
  [['AGE-SECRET-KEY-1'], /\bAGE-SECRET-KEY-1[QPZRY9X8GF2TVDW0S3JN54KHCE6MUA7L]{58}\b/g], // age
  [[':AA'], /\b\d{8,10}:AA[A-Za-z0-9_-]{33}\b/g], // Telegram bot
  [['LTAI'], /\bLTAI[A-Za-z0-9]{12,20}\b/g], // Alibaba Cloud
  [['figd_', 'figh_'], /\bfig[dh]_[A-Za-z0-9_-]{40}\b/g], // Figma
  [['sbp_'], /\bsbp_[a-f0-9]{40}\b/g], // Supabase
  [['CFPAT-'], /\bCFPAT-[A-Za-z0-9_-]{43}\b/g], // Contentful
  [['pul-'], /\bpul-[a-f0-9]{40}\b/g], // Pulumi
  [['glsa_'], /\bglsa_[A-Za-z0-9]{32}_[A-Fa-f0-9]{8}\b/g], // Grafana service account
  [['fo1_'], /\bfo1_[\w-]{43}\b/g], // Fly.io
  [['ntn_'], /\bntn_[A-Za-z0-9]{40,}\b/g], // Notion
  [['rubygems_'], /\brubygems_[a-f0-9]{48}\b/g],
  [['gsk_'], /\bgsk_[A-Za-z0-9]{52}\b/g], // Groq
  [['r8_'], /\br8_[A-Za-z0-9]{37}\b/g], // Replicate
  [['pplx-'], /\bpplx-[A-Za-z0-9]{48}\b/g], // Perplexity
  [['bkua_'], /\bbkua_[a-f0-9]{40}\b/g], // Buildkite
  [['FLWSECK'], /\bFLWSECK(?:_TEST)?-[a-h0-9]{32}-X\b/g], // Flutterwave
  [['EZAK', 'EZTK'], /\bEZ[AT]K[A-Za-z0-9]{54}\b/g], // EasyPost
  [['duffel_'], /\bduffel_(?:test|live)_[A-Za-z0-9_=-]{43}\b/g],
  [['doo_v1_', 'dor_v1_'], /\bdo[or]_v1_[a-f0-9]{64}\b/g], // DigitalOcean OAuth
  [['HRKU-'], /\bHRKU-[A-Za-z0-9_-]{60}\b/g], // Heroku
  [['api_org_'], /\bapi_org_[A-Za-z]{34}\b/g], // Hugging Face organisation
  [['Q~'], /(?<![A-Za-z0-9_~.-])[A-Za-z0-9_~.]{3}\dQ~[A-Za-z0-9_~.-]{31,34}(?![A-Za-z0-9_~.-])/g], // Azure AD client secret
];

/** One scan finds which provider literals occur; literals shorter than 3 characters are too common to scan for, so their patterns always run. */
const PROVIDER_LITERALS = new RegExp(
  [...new Set(PROVIDER_TOKENS.flatMap(([literals]) => literals.filter((l) => l.length >= 3)))]
    .sort((a, b) => b.length - a.length)
    .map((l) => l.replace(/[.*+?^${}()|[\]\\]/g, '\\$&'))
    .join('|'),
  'g',
);

const PRIVATE_KEY = /-----BEGIN[ A-Z0-9]*PRIVATE KEY(?: BLOCK)?-----[\s\S]*?-----END[ A-Z0-9]*PRIVATE KEY(?: BLOCK)?-----/g;
const JWT = /\beyJ[A-Za-z0-9_-]{10,}\.eyJ[A-Za-z0-9_-]{10,}\.[A-Za-z0-9_-]{10,}/g;
const URL_PASSWORD = /:\/\/[^\s:/@<>"']{1,64}:([^\s@/<>"']{1,128})@/dg;
const PASSWORD_ASSIGNMENT = /(?<![A-Za-z0-9])(?:[A-Za-z0-9]*(?:password|passwd|passphrase)|passwort|mot de passe|contraseña|pwd|pass|secret|passcode)["']?\s*(?:[:=]|=>)\s*["'`]?([^\s"'`,;<>]{4,128})/dgi;
/** "The password is X", "the wifi passphrase for the guest network is X" (up to five words between). */
const PASSWORD_IS = /\b(?:password|passwd|passphrase|passcode|passwort|mot de passe)(?:\s+(?:for|of|to|on|für|pour|de)\s+[^\s.;:!?]+(?:\s+[^\s.;:!?]+){0,4}?)?\s+(?:is|was|ist|est)\s*:?\s*["'`]?([^\s"'`,;<>]{4,128})/dgi;
const KEY_ASSIGNMENT = /(?<![A-Za-z0-9])(?:api[_-]?key|apikey|access[_-]?key(?:[_-]?id)?|secret[_-]?key|private[_-]?key|auth[_-]?token|access[_-]?token|refresh[_-]?token|token|credentials?|signing[_-]?key|encryption[_-]?key|key)["']?\s*(?:[:=]|=>|\bis\b)\s*["'`]?([A-Za-z0-9_\-+/=.~]{16,256})/dgi;
const BEARER = /\b(?:Bearer|Basic|token)\s+([A-Za-z0-9_\-+/=.~]{16,512})/dg;

/** Every assignment and bearer pattern names one of these words: the lines they can match. */
const ASSIGNMENT_WORD = /pass|pwd|secret|key|token|credential|bearer|basic|mot de passe|contraseña/gi;

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
  const seen = new Set<string>();
  PROVIDER_LITERALS.lastIndex = 0;
  for (let m = PROVIDER_LITERALS.exec(text); m !== null; m = PROVIDER_LITERALS.exec(text)) seen.add(m[0]);
  for (const [literals, re] of PROVIDER_TOKENS) {
    if (literals.some((l) => l.length < 3 || seen.has(l))) out.push(...regexSpans(text, re, 'SECRET'));
  }
  if (text.includes('-----BEGIN')) out.push(...regexSpans(text, PRIVATE_KEY, 'SECRET'));
  if (text.includes('eyJ')) out.push(...regexSpans(text, JWT, 'SECRET'));
  if (text.includes('://')) out.push(...regexSpans(text, URL_PASSWORD, 'SECRET', notPlaceholder, 1));
  // The assignment patterns run only on the lines that name a password, key or token.
  for (const { start: shift, line } of linesMatching(text, ASSIGNMENT_WORD)) {
    const found: PiiSpan[] = [];
    found.push(...regexSpans(line, PASSWORD_ASSIGNMENT, 'SECRET', (value) => notPlaceholder(value) && !/^(?:reset|change|manager|policy|strength|field|protected|required|hash|length)$/i.test(value), 1));
    found.push(...regexSpans(line, PASSWORD_IS, 'SECRET', (value) => notPlaceholder(value) && /[\d\W_]/.test(value.replace(/[.!?]$/, '')), 1));
    found.push(...regexSpans(line, KEY_ASSIGNMENT, 'SECRET', (value) => notPlaceholder(value) && looksRandom(value), 1));
    found.push(...regexSpans(line, BEARER, 'SECRET', (value) => notPlaceholder(value) && looksRandom(value), 1));
    for (const span of found) {
      // "password=hunter2." — the sentence's full stop is not part of the value.
      let end = span.end;
      while (end > span.start + 4 && /[.,;)\]]/.test(line[end - 1] ?? '') && /^(?:\s|$)/.test(line.slice(end, end + 1))) end -= 1;
      out.push({ start: span.start + shift, end: end + shift, group: span.group });
    }
  }
  return out;
}

/** The secretlint recommended preset's findings (async; it runs on the whole text once). */
/**
 * The literals the recommended preset's rules (1password, aws, azure, basicauth, gcp, github,
 * linear, npm, openai, privatekey, sendgrid, shopify, slack) look for. secretlint runs on the
 * lines holding one of them: its per-call cost (~0.1 ms) and its scan are paid only where a
 * finding is possible.
 */
const SECRETLINT_HINT = /AKIA|ASIA|aws|AWS|ops_|OP_|AccountKey|SharedAccess|sig=|:\/\/[^\s/@:]+:[^\s/@]+@|private_key|service_account|gh[pousr]_|github_pat_|lin_(?:api|oauth)_|npm_|_authToken|sk-|SG\.|shp(?:at|ca|pa|ss)_|xox|hooks\.slack\.com|-----BEGIN/g;

/** The secretlint recommended preset's findings, run once on the hinted lines joined (offsets mapped back). */
export async function findSecretsBySecretlint(text: string): Promise<PiiSpan[]> {
  const starts: number[] = [];
  const origins: number[] = [];
  let content = '';
  let skipTo = 0;
  for (const { start, line: found } of linesMatching(text, SECRETLINT_HINT)) {
    if (start < skipTo) continue;
    let line = found;
    // A private key block spans lines: take everything up to its end marker.
    if (line.includes('-----BEGIN')) {
      const end = text.indexOf('-----END', start);
      const stop = end < 0 ? start + line.length : text.indexOf('\n', end) < 0 ? text.length : text.indexOf('\n', end);
      line = text.slice(start, stop);
      skipTo = stop;
    }
    starts.push(content.length);
    origins.push(start);
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
