/**
 * The PII detectors one by one (src/parse/derive/pii): each group's positives, the hard
 * negatives beside them (order numbers, versions, dates, hashes, UUIDs, IPs), and the
 * replacement styles. Tokens are assembled at run time so no credential-shaped string is committed.
 */
import { describe, expect, it } from 'vitest';
import { findPii, piiSettings, redactText, PII_GROUPS, type PiiGroup } from '../../src/parse/derive/pii/index.ts';

const ALL = new Set<PiiGroup>(PII_GROUPS);
async function found(text: string, mode: 'fast' | 'aggressive' = 'fast'): Promise<[PiiGroup, string][]> {
  return (await findPii(text, { mode, groups: ALL })).map((s) => [s.group, text.slice(s.start, s.end)]);
}
const repeat = (alphabet: string, n: number): string => Array.from({ length: n }, (_, i) => alphabet[(i * 7 + 3) % alphabet.length]).join('');
const ALNUM = 'AbCdEfGhIjKlMnOpQrStUvWxYz0123456789';

describe('fast detectors', () => {
  it('EMAIL: addresses, not image names', async () => {
    expect(await found('Write to jane.doe+news@mail.example.org or logo@2x.png.')).toEqual([['EMAIL', 'jane.doe+news@mail.example.org']]);
  });

  it('PHONE: international and national forms of several countries in running text', async () => {
    const text = 'Call +44 20 7946 0958, (415) 555-0132, Tel. 030 12345678, +81 3-1234-5678 or +234 803 123 4567.';
    expect((await found(text)).map(([g, v]) => `${g}:${v}`)).toEqual([
      'PHONE:+44 20 7946 0958', 'PHONE:(415) 555-0132', 'PHONE:030 12345678', 'PHONE:+81 3-1234-5678', 'PHONE:+234 803 123 4567',
    ]);
  });

  it('PHONE hard negatives: order numbers, dates, versions, IPs, amounts', async () => {
    expect(await found('Order 4839201756 shipped 2024-03-15 (v2.14.3) from 192.168.10.20 for 1 234 567 units.')).toEqual([]);
    // A results table (pdf/docling 2305.03393v1-pg9) and a chart axis: decimals and counts side by side.
    expect(await found('| 6 | OTSL HTML | 0.965 0.969 | 0.934 0.927 | 0.955 0.955 |\n0 5 10 15 20')).toEqual([]);
  });

  it('FINANCIAL: Luhn-valid cards, mod-97 IBANs, labelled BIC/accounts, SSNs, NINOs', async () => {
    const text = 'Card 4111 1111 1111 1111, IBAN DE89 3704 0044 0532 0130 00, BIC: DEUTDEFF500, account number: 12345678, SSN 123-45-6789, NI AB 12 34 56 C.';
    expect((await found(text)).map(([, v]) => v)).toEqual(['4111 1111 1111 1111', 'DE89 3704 0044 0532 0130 00', 'DEUTDEFF500', '12345678', '123-45-6789', 'AB 12 34 56 C']);
  });

  it('FINANCIAL hard negatives: a Luhn-failing card, a wrong IBAN check, an unlabelled number, ISBN', async () => {
    expect(await found('Ref 4111 1111 1111 1112, DE88 3704 0044 0532 0130 00, 12345678, ISBN 978-3-16-148410-0, 000-12-3456.')).toEqual([]);
    // An IBM i user profile name (pdf/docling redp5110) is not a National Insurance number.
    expect(await found('the special authority SM590000 A user connects')).toEqual([]);
  });

  it('SECRET: provider tokens, key blocks, JWTs, URL passwords, assignments', async () => {
    const github = `gh${'p'}_${repeat(ALNUM, 36)}`;
    const aws = `AK${'IA'}${repeat('ABCDEFGHIJKLMNOPQRSTUVWXYZ234567', 16)}`;
    const jwt = `ey${'J'}${repeat(ALNUM, 20)}.ey${'J'}${repeat(ALNUM, 30)}.${repeat(ALNUM, 40)}`;
    const key = `-----BEGIN ${'PRIVATE'} KEY-----\n${repeat(ALNUM, 64)}\n-----END ${'PRIVATE'} KEY-----`;
    const text = `token ${github}\naws ${aws}\njwt ${jwt}\n${key}\npostgres://app:S3cr3t!pw@db:5432/x\npassword = hunter2!\napi_key: "${repeat(ALNUM, 32)}"`;
    const values = (await found(text)).map(([g, v]) => `${g}:${v}`);
    expect(values).toEqual([
      `SECRET:${github}`, `SECRET:${aws}`, `SECRET:${jwt}`, `SECRET:${key}`, 'SECRET:S3cr3t!pw', 'SECRET:hunter2!', `SECRET:${repeat(ALNUM, 32)}`,
    ]);
  });

  it('SECRET hard negatives: hashes, UUIDs, placeholders, prose about passwords', async () => {
    const text = 'commit 3f2a9c1e8b7d6f5a4c3b2a1f0e9d8c7b6a5f4e3d, id 123e4567-e89b-12d3-a456-426614174000, password: ********, API_KEY=${API_KEY}, reset your password via the link.';
    expect(await found(text)).toEqual([]);
  });
});

describe('fast detectors: the second round of rules (bench:pii free-text tuning part)', () => {
  it('SECRET: more of gitleaks\' provider prefixes', async () => {
    const upper = 'ABCDEFGHIJKLMNOPQRSTUVWXYZ234567';
    const tokens = [
      `dp.${'pt'}.${repeat(ALNUM, 43)}`, // Doppler
      `NRAK-${repeat('ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789', 27)}`, // New Relic
      `AGE-SECRET-KEY-1${repeat('QPZRY9X8GF2TVDW0S3JN54KHCE6MUA7L', 58)}`, // age
      `${'1234567890'}:AA${repeat(ALNUM, 33)}`, // Telegram bot
      `LTAI${repeat(ALNUM, 20)}`, // Alibaba Cloud
      `hv${'s'}.${repeat(ALNUM, 90)}`, // Vault
      `dt0c01.${repeat(upper, 24)}.${repeat(upper, 64)}`, // Dynatrace
      `PMAK-${repeat('0123456789abcdef', 24)}-${repeat('0123456789abcdef', 34)}`, // Postman
    ];
    for (const token of tokens) expect(await found(`the value ${token} was leaked`), token).toEqual([['SECRET', token]]);
  });

  it('SECRET: environment-style password names and "the passphrase for … is"', async () => {
    expect(await found('PGPASSWORD=Tr0ub4dor&3x psql -h db')).toEqual([['SECRET', 'Tr0ub4dor&3x']]);
    expect(await found('The wifi passphrase for the guest network is Harbor-2291! until Monday.')).toEqual([['SECRET', 'Harbor-2291!']]);
    expect(await found('The password for the guest network is printed on the router.')).toEqual([]);
  });

  it('PHONE: a Brazilian CEP is a postcode, not a number to call', async () => {
    expect(await found('Av. Paulista, 1578 - Bela Vista, São Paulo - SP, 01310-200')).toEqual([]);
  });
});

describe('aggressive detectors', () => {
  it('LOCATION: CLDR region and time-zone city names, accent-folded; movement and meeting cues; street words', async () => {
    const places = async (text: string): Promise<string[]> => (await found(text, 'aggressive')).filter(([g]) => g === 'LOCATION').map(([, v]) => v);
    expect(await places('He flew on to Kigali and then Bujumbura.')).toEqual(expect.arrayContaining(['Kigali', 'Bujumbura']));
    expect(await places('Sie wohnt jetzt in Krakow, nicht in Österreich.')).toEqual(expect.arrayContaining(['Krakow', 'Österreich']));
    expect(await places('We met in Valparaíso during the workshop.')).toContain('Valparaíso');
    expect(await places('The site visit to Mombasa is next month.')).toContain('Mombasa');
    expect((await places('The hotel is on Jalan Sudirman near the station.')).some((v) => v.includes('Jalan Sudirman'))).toBe(true);
  });

  it('LOCATION hard negatives: places naming treaties, themes and versions', async () => {
    const places = (await found('The Paris Agreement, the Geneva Conventions, the Tokyo theme and Berlin-2 were discussed.', 'aggressive')).filter(([g]) => g === 'LOCATION');
    expect(places).toEqual([]);
    // A table-of-contents line (pdf-bench 01030000000016): "from … to …" in a title is no journey.
    expect((await found('7. LEGO Toys: from Wooden Blocks to Plastic Bricks 50', 'aggressive')).filter(([g]) => g === 'LOCATION')).toEqual([]);
    expect(await found('Flights from Nairobi to Kigali leave daily.', 'aggressive')).toEqual(expect.arrayContaining([['LOCATION', 'Nairobi'], ['LOCATION', 'Kigali']]));
  });

  it('PERSON: "<verb> by" cues; a name does not run into a bracket', async () => {
    const found1 = await found('Minutes taken by Chiamaka Obi.', 'aggressive');
    expect(found1).toContainEqual(['PERSON', 'Chiamaka Obi']);
    const found2 = await found('Tariq Aziz (India) won the prize.', 'aggressive');
    expect(found2.some(([g, v]) => g === 'PERSON' && v.includes('('))).toBe(false);
    expect(found2).toContainEqual(['LOCATION', 'India']);
  });

  it('PERSON and LOCATION from NLP, cues and address patterns', async () => {
    const text = 'Dear Ms. Wanjiru Kamau,\nName: Oluwaseun Adeyemi\nAddress: 12 rue de la Paix, 75002 Paris\nWe met José García in Lyon near 221B Baker Street.';
    const groups = await found(text, 'aggressive');
    const values = groups.map(([g, v]) => `${g}:${v}`);
    for (const [group, name] of [['PERSON', 'Wanjiru Kamau'], ['PERSON', 'Oluwaseun Adeyemi'], ['PERSON', 'José García'], ['LOCATION', 'Lyon']]) {
      expect(groups.some(([g, v]) => g === group && v.includes(name ?? '')), `${group} ${name} in ${values.join(' | ')}`).toBe(true);
    }
    expect(values.some((v) => v.startsWith('LOCATION:') && v.includes('rue de la Paix'))).toBe(true);
    expect(values.some((v) => v.startsWith('LOCATION:') && v.includes('Baker Street'))).toBe(true);
  });

  it('fast finds no names or places', async () => {
    expect(await found('Dear Ms. Wanjiru Kamau, welcome to Lyon.')).toEqual([]);
  });
});

describe('replace styles and entities', () => {
  const text = 'Mail jane@example.com or call +44 20 7946 0958.';
  it('tag, mask and remove', async () => {
    const tag = piiSettings({ mode: 'fast', replaceStyle: 'tag' });
    const mask = piiSettings({ mode: 'fast', replaceStyle: 'mask' });
    const remove = piiSettings({ mode: 'fast', replaceStyle: 'remove' });
    if (!tag || !mask || !remove) throw new Error('settings');
    expect((await redactText(text, tag)).text).toBe('Mail <EMAIL> or call <PHONE>.');
    expect((await redactText(text, mask)).text).toBe(`Mail ${'*'.repeat(16)} or call ${'*'.repeat(16)}.`);
    expect((await redactText(text, remove)).text).toBe('Mail  or call .');
  });

  it('entities limit the groups; counts are per group', async () => {
    const settings = piiSettings({ mode: 'fast', replaceStyle: 'tag', entities: ['PHONE'] });
    if (!settings) throw new Error('settings');
    const out = await redactText(text, settings);
    expect(out.text).toBe('Mail jane@example.com or call <PHONE>.');
    expect(out.counts.PHONE).toBe(1);
    expect(out.counts.EMAIL).toBe(0);
  });

  it('true means accurate (aggressive without an LLM), every group, tag', () => {
    const s = piiSettings(true);
    expect(s?.requested).toBe('accurate');
    expect(s?.mode).toBe('aggressive');
    expect([...(s?.groups ?? [])].sort()).toEqual([...PII_GROUPS].sort());
    expect(s?.replaceStyle).toBe('tag');
    expect(piiSettings(false)).toBeUndefined();
  });
});
