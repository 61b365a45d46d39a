/**
 * A third part of bench:pii: free-form sentences written by hand, not from the templates, in
 * the style of real documents (letters, tickets, minutes, CVs, README snippets). Spans are marked
 * `[[GROUP|text]]`; `{{TOKEN:n}}` is a provider-shaped token built at run time. It is small (48
 * sentences) and reported separately: it shows how far the template figures carry.
 */
import type { PiiGroup } from '../../src/parse/derive/pii/index.ts';
import type { LabelledSentence } from './dataset.ts';

const ALNUM = 'AbCdEfGhIjKlMnOpQrStUvWxYz0123456789';
const run = (n: number, seed: number): string => Array.from({ length: n }, (_, i) => ALNUM[(i * 7 + seed * 13 + 3) % ALNUM.length]).join('');
const TOKENS = [
  () => `gh${'p'}_${run(36, 1)}`,
  () => `xo${'xp'}-${'2048'}-${'7781'}-${run(24, 2)}`,
  () => `AK${'IA'}${'QWERTY7ZXCV2B3N4'}`,
  () => `sk${'_live'}_${run(28, 3)}`,
];

const SOURCE = `
Hi [[PERSON|Margaret]], thanks for the quick reply yesterday.
Minutes taken by [[PERSON|Chidi Okafor]]; apologies from [[PERSON|Eleanor Vance]] and [[PERSON|Tomás Ruiz]].
The workshop will take place in [[LOCATION|Ljubljana]] this October.
Please forward the signed lease to [[EMAIL|property.mgmt@rentals.example.net]] by Friday.
Patient [[PERSON|Ahmed Karimi]], DOB 1987-04-12, was referred by [[PERSON|Dr. Lisa Wong]].
Our new warehouse is at [[LOCATION|4500 Industrial Parkway, Fremont, CA 94538]].
For urgent issues page the on-call engineer at [[PHONE|+1 (650) 253-0000]].
Büro [[LOCATION|Hamburg]]: Tel. [[PHONE|040 3290 7710]], Fax [[PHONE|040 3290 7711]] intern.
Version 3.2.1 was tagged on 2023-11-02 (commit 9fceb02d0ae598e95dc970b74767f19372d61af8).
The invoice INV-2023-00417 totals EUR 12,480.00, due 30 days net.
Transfer to [[FINANCIAL|GB33 BUKB 2020 1555 5555 55]] quoting reference 7781-AX.
She grew up in [[LOCATION|Kraków]] before moving to [[LOCATION|Montréal]] for her PhD.
The ticket was escalated by [[PERSON|Priyanka Chopra-Singh]] from the [[LOCATION|Pune]] office.
Set GITHUB_TOKEN to {{TOKEN:0}} in the CI secrets, not in the workflow file.
Slack bot token: {{TOKEN:1}}
aws_access_key_id = {{TOKEN:2}}
Stripe charges use {{TOKEN:3}} in production only.
The UUID 3fa85f64-5717-4562-b3fc-2c963f66afa6 identifies the dataset, not a user.
The meeting with Acme Robotics moved from Tuesday to Thursday at 14:00.
Chapter 7 of Pride and Prejudice is assigned for next week.
Contact our DPO at [[EMAIL|dpo@privacy.example.eu]] or write to [[LOCATION|Rue de la Loi 200, 1049 Bruxelles]].
Dear [[PERSON|Professor Nakamura]], I am writing to ask about the summer program.
Best regards,\n[[PERSON|Ingrid Bergström]]
Call [[PHONE|+61 3 9123 4567]] between 9 and 5 AEST.
The router at 10.0.0.1 serves 254 addresses.
Card ending 4242 was charged twice; full number on file is [[FINANCIAL|4000 0566 5566 5556]].
My SSN is [[FINANCIAL|078-05-1120]] — please redact it from the form.
Our Nairobi partner is [[PERSON|Wambui Njoroge]] ([[EMAIL|wambui@partners.example.co.ke]]).
The river floods every spring near [[LOCATION|Cologne]].
Ask [[PERSON|Björn]] for the keys to the lab.
Routing number: [[FINANCIAL|021000021]]; account number: [[FINANCIAL|000123456789]].
Delivery address: [[LOCATION|Flat 3, 27 Hillside Road, Bristol BS6 5AA]].
The SHA-256 of the release is e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855.
Build 20240315.4 passed all 1,284 tests in 6 m 12 s.
Lorem ipsum dolor sit amet, consectetur adipiscing elit, sed do eiusmod tempor.
Please call back on [[PHONE|07700 900123]] after six.
Reservation for [[PERSON|Mr. Olusegun Obasanjo]], two nights, arriving the 14th.
The conference moves to [[LOCATION|Cape Town]] next year and [[LOCATION|Lisbon]] the year after.
Reviewer 2 (anonymous) asked for more ablations on ImageNet.
The password for the guest Wi-Fi is [[SECRET|Sunflower-2024!]] until the end of the month.
DATABASE_URL=postgres://app:[[SECRET|pa55w0rd-Xy9]]@10.1.2.3:5432/prod
Signed, [[PERSON|Anneliese Hoffmann]], Head of Finance.
The Python 3.12 release notes mention faster comprehensions.
Questions? Email [[EMAIL|support+billing@shop.example.com]] or ring [[PHONE|+44 161 496 0000]].
Our founder [[PERSON|Kwabena Asante]] opened the first store in [[LOCATION|Kumasi]].
Order #100-2345678-1234567 will arrive on Monday.
The API returns HTTP 429 after 1000 requests per minute.
Employee [[PERSON|Rosa Delgado]] (ID 4471) transferred to the [[LOCATION|Madrid]] office.
`;

export function freeTextSet(): LabelledSentence[] {
  const out: LabelledSentence[] = [];
  SOURCE.trim().split('\n').forEach((raw, i) => {
    const line = raw.replace(/\\n/g, '\n').replace(/\{\{TOKEN:(\d)\}\}/g, (_m, n: string) => `[[SECRET|${TOKENS[Number(n)]?.() ?? ''}]]`);
    let text = '';
    const spans: LabelledSentence['spans'] = [];
    let at = 0;
    for (const m of line.matchAll(/\[\[([A-Z]+)\|([^\]]+)\]\]/g)) {
      text += line.slice(at, m.index);
      spans.push({ start: text.length, end: text.length + (m[2] ?? '').length, group: m[1] as PiiGroup });
      text += m[2];
      at = (m.index ?? 0) + m[0].length;
    }
    out.push({ text: text + line.slice(at), spans, part: 'held-out', template: -1 - i });
  });
  return out;
}
