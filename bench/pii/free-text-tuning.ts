/**
 * A fourth part of bench:pii, the TUNING counterpart of free-text.ts: free-form sentences written
 * by hand for tuning the detectors (issue 14's follow-up: the template tuning part had no misses
 * left to learn from), in the style of real documents (emails, tickets, configuration snippets,
 * CVs, shipping notes, meeting minutes) from many countries. Spans are marked `[[GROUP|text]]`;
 * `{{TOKEN:n}}` is a provider-shaped token built at run time (so the repository holds no
 * token-shaped string). free-text.ts stays the held-out part: nothing here is taken from it, and
 * the detectors are not tuned on it.
 */
import type { PiiGroup } from '../../src/parse/derive/pii/index.ts';
import type { GoldSpan, LabelledSentence } from './dataset.ts';

const ALNUM = 'Zy9Xw8Vu7Ts6Rq5Po4Nm3Lk2Ji1Hg0FeDcBa';
const HEXS = '0123456789abcdef';
const run = (n: number, seed: number, alphabet = ALNUM): string => Array.from({ length: n }, (_, i) => alphabet[(i * 11 + seed * 7 + 5) % alphabet.length]).join('');
const TOKENS: (() => string)[] = [
  () => `glp${'at'}-${run(20, 1)}`, // GitLab
  () => `xap${'p'}-1-A0${run(9, 2)}-${run(13, 3, '0123456789')}-${run(64, 4, HEXS)}`, // Slack app-level
  () => `sq0${'atp'}-${run(22, 5)}`, // Square
  () => `pscale${'_tkn'}_${run(43, 6)}`, // PlanetScale
  () => `hv${'s'}.${run(90, 7)}`, // HashiCorp Vault
  () => `dp.${'pt'}.${run(43, 8)}`, // Doppler
  () => `PMAK-${run(24, 9, HEXS)}-${run(34, 10, HEXS)}`, // Postman
  () => `sntry${'s'}_${run(60, 11)}`, // Sentry
  () => `NRAK-${run(27, 12, 'ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789')}`, // New Relic
  () => `AGE-SECRET-KEY-1${run(58, 13, 'QPZRY9X8GF2TVDW0S3JN54KHCE6MUA7L')}`, // age
  () => `${run(10, 14, '0123456789')}:AA${run(33, 15)}`, // Telegram bot
  () => `figd_${run(40, 16)}`, // Figma
  () => `sbp_${run(40, 17, HEXS)}`, // Supabase
  () => `dt0c01.${run(24, 18, 'ABCDEFGHIJKLMNOPQRSTUVWXYZ234567')}.${run(64, 19, 'ABCDEFGHIJKLMNOPQRSTUVWXYZ234567')}`, // Dynatrace
  () => `AKIA${run(16, 20, 'ABCDEFGHIJKLMNOPQRSTUVWXYZ234567')}`, // AWS
  () => `${run(40, 21)}`, // an AWS secret access key (no prefix)
  () => `ghp_${run(36, 22)}`, // GitHub
  () => `sk-proj-${run(48, 23)}`, // OpenAI
  () => `CFPAT-${run(43, 24)}`, // Contentful
  () => `pul-${run(40, 25, HEXS)}`, // Pulumi
  () => `LTAI${run(20, 26)}`, // Alibaba Cloud
  () => `shpss_${run(32, 27, HEXS)}`, // Shopify
];

const SOURCE = `
The deploy bot failed again; the CI log printed the GitLab token [[SECRET|{{TOKEN:0}}]] in plain text.
Socket mode needs the app-level token: SLACK_APP_TOKEN=[[SECRET|{{TOKEN:1}}]]
Payments are now live with the Square access token [[SECRET|{{TOKEN:2}}]] (rotate it before Friday).
DATABASE_URL uses the PlanetScale service token [[SECRET|{{TOKEN:3}}]] for the branch.
export VAULT_TOKEN=[[SECRET|{{TOKEN:4}}]]
The Doppler CLI was configured with [[SECRET|{{TOKEN:5}}]] by mistake.
Postman collection runner key: [[SECRET|{{TOKEN:6}}]]
SENTRY_AUTH_TOKEN="[[SECRET|{{TOKEN:7}}]]"
New Relic user key [[SECRET|{{TOKEN:8}}]] was pasted into the ticket.
Backups are encrypted to the age identity [[SECRET|{{TOKEN:9}}]].
Our alert bot posts with the Telegram token [[SECRET|{{TOKEN:10}}]] to the on-call group.
FIGMA_TOKEN=[[SECRET|{{TOKEN:11}}]]
Run supabase login --token [[SECRET|{{TOKEN:12}}]] on the build host.
The Dynatrace API token [[SECRET|{{TOKEN:13}}]] expires in March.
aws_access_key_id = [[SECRET|{{TOKEN:14}}]]
aws_secret_access_key = [[SECRET|{{TOKEN:15}}]]
Leaked in the gist: [[SECRET|{{TOKEN:16}}]] and the OpenAI key [[SECRET|{{TOKEN:17}}]].
The Contentful management token is [[SECRET|{{TOKEN:18}}]].
PULUMI_ACCESS_TOKEN=[[SECRET|{{TOKEN:19}}]] pulumi up --yes
Alibaba Cloud AccessKey ID: [[SECRET|{{TOKEN:20}}]]
Shopify shared secret [[SECRET|{{TOKEN:21}}]] must not be committed.
PGPASSWORD=[[SECRET|Tr0ub4dor&3x]] psql -h db.internal -U app
MYSQL_ROOT_PASSWORD: "[[SECRET|kP9#vL2qW7zR]]"
Connect with mongodb+srv://appuser:[[SECRET|Qm7tR2vX9pL4]]@cluster0.example.net/prod
The wifi passphrase for the guest network is [[SECRET|BlueHarbor-2291!]] until Monday.
client_secret: [[SECRET|7fQ2xN9kR4mT8vB1cZ6wP3hJ5yL0dS2a]]
Version 4.2.17 of the installer ships with checksum 9f86d081884c7d659a2feaa0c55ad015 and build id 20240311.
Order ORD-2024-77812 was split into two parcels; the tracking number is 1Z999AA10123456784.
The release notes mention commit 3a7bd3e2 and ticket JIRA-4471, nothing else.
Our office moved to [[LOCATION|Eindhoven]] in 2021 and the warehouse to [[LOCATION|Tilburg]].
Ship to: [[LOCATION|Flat 4B, 12 MG Road, Bengaluru 560001]], India.
Please send the signed copy to [[LOCATION|350 Fifth Avenue, New York, NY 10118]].
She grew up in [[LOCATION|Kraków]] and studied in [[LOCATION|Wrocław]].
The conference is held in [[LOCATION|Cartagena]], [[LOCATION|Colombia]], this November.
Our Canadian office: [[LOCATION|220 Yonge Street, Toronto, ON M5B 2H1]].
He flew from [[LOCATION|Nairobi]] to [[LOCATION|Kigali]] on Tuesday.
Customer address: [[LOCATION|Av. Paulista, 1578 - Bela Vista, São Paulo - SP, 01310-200]]
The parcel is waiting at the depot in [[LOCATION|Ōsaka]] and will reach [[LOCATION|Nagoya]] on Friday.
Branch offices in [[LOCATION|Texas]] and [[LOCATION|Ontario]] will close at noon.
Delivery: [[LOCATION|Level 3, 100 George Street, Sydney NSW 2000]]
We met in [[LOCATION|Valparaíso]] during the workshop.
The site visit to [[LOCATION|Mombasa]] is planned for next quarter.
The team in [[LOCATION|Ho Chi Minh City]] reported the outage first.
Born in [[LOCATION|Tbilisi]], [[LOCATION|Georgia]], she moved to [[LOCATION|Tallinn]] in 2015.
Return address: [[LOCATION|Kurfürstendamm 21, 10719 Berlin]]
The hotel is on [[LOCATION|Jalan Sudirman]] in [[LOCATION|Jakarta]].
Hi [[PERSON|Oksana]], the contract for [[PERSON|Dmytro Kovalenko]] is attached.
Minutes taken by [[PERSON|Chiamaka Obi]]; present: [[PERSON|Lars Eriksson]], [[PERSON|Mei Lin Tan]].
[[PERSON|Rafael Ortega]] will present the budget to the board on Thursday.
Please call [[PHONE|+49 30 901820]] or write to [[EMAIL|empfang@example.de]] before 5 pm.
Reach our [[LOCATION|Mumbai]] desk on [[PHONE|+91 22 6654 3210]] during office hours.
Card [[FINANCIAL|4012 8888 8888 1881]] was declined twice at checkout.
Wire the deposit to [[FINANCIAL|GB82 WEST 1234 5698 7654 32]] with reference 7781.
The Amazon rainforest and the Sahara were both mentioned in the geography quiz.
The Paris Agreement and the Geneva Conventions are international treaties.
Version Berlin-2 of the font and the Tokyo theme are both deprecated.
`;

export function freeTextTuningSet(): LabelledSentence[] {
  const out: LabelledSentence[] = [];
  for (const raw of SOURCE.split('\n').map((l) => l.trim()).filter(Boolean)) {
    const line = raw.replace(/\{\{TOKEN:(\d+)\}\}/g, (_, n: string) => (TOKENS[Number(n)] as () => string)());
    let text = '';
    const spans: GoldSpan[] = [];
    let at = 0;
    for (const m of line.matchAll(/\[\[([A-Z]+)\|([^\]]+)\]\]/g)) {
      text += line.slice(at, m.index);
      spans.push({ start: text.length, end: text.length + (m[2] as string).length, group: m[1] as PiiGroup });
      text += m[2];
      at = (m.index ?? 0) + m[0].length;
    }
    out.push({ text: text + line.slice(at), spans, part: 'tuning', template: -1 });
  }
  return out;
}
