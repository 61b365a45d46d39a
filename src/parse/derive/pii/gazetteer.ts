/**
 * Small offline gazetteers for `aggressive`: given names from many cultures (compromise's lexicon
 * is mostly English), and countries and large cities. Lower-cased.
 *
 * The place list is completed from the Unicode CLDR data Node ships (maintained upstream, no
 * dependency): every region's name in eight languages (Intl.DisplayNames) and the cities of the
 * IANA time-zone database (`Europe/Tallinn`, `Africa/Kigali`; Intl.supportedValuesOf). Names
 * that are also given names or common words ("Regina", "Darwin", "Easter", "Chad") are left out.
 */
export const GIVEN_NAMES = new Set(`
james john robert michael william david richard joseph thomas charles mary patricia jennifer linda elizabeth barbara susan jessica sarah karen
emma olivia ava sophia isabella mia amelia harper evelyn liam noah oliver elijah lucas mason ethan logan jacob jack harry george oscar charlie
mohammed muhammad ahmed ali omar hassan hussein fatima aisha zainab mariam khadija yusuf ibrahim abdullah karim layla amira samir rania nour
wei li ming jing xin hui yan lei jun hao yang fang ling mei xiao zhang chen wang liu hiroshi takeshi yuki haruto sota yui hina aiko kenji akira
satoshi naoko keiko min-jun seo-yeon ji-woo jae ji-hoon soo-jin hye-jin minh anh thanh huong linh duc trang nguyen
raj rahul priya ananya arjun vikram deepak sanjay anil sunita kavya aditya rohan neha pooja amit ravi lakshmi meera
oluwaseun chidi ngozi chinedu emeka adaeze kwame kofi ama abena amara tunde folasade yetunde babajide thabo sipho lerato nomvula wanjiru kamau
juan jose josé carlos luis miguel javier alejandro diego pablo sofia lucia valentina camila gabriela mariana maría maria carmen isabel ana
joão pedro paulo tiago beatriz inês francisca giulia giuseppe giovanni marco francesca chiara alessandro matteo lorenzo
pierre jean jacques louis antoine camille chloé léa manon élodie amélie françois hans klaus jürgen stefan lukas leon mia hannah anna lena
lars erik sven anders ingrid astrid björn freya sigrid nils olga ivan dmitri sergei natasha tatiana anastasia mikhail alexei svetlana
piotr katarzyna agnieszka tomasz jan eva petr zuzana ferenc zsófia andrei ioana mehmet ayşe mustafa emre elif zeynep yosef david noa tamar
avi shira dov rachel moshe chaim sean siobhan aoife niamh ciarán patrick bridget seamus kai leilani keanu malia tane aroha wiremu
`.split(/\s+/).filter(Boolean));

/** Countries and large cities, lower-cased, comma-separated (multi-word names allowed). */
export const PLACES = new Set(`
afghanistan, albania, algeria, argentina, armenia, australia, austria, azerbaijan, bangladesh, belgium, bolivia,
brazil, bulgaria, cambodia, cameroon, canada, chile, china, colombia, croatia, cuba, cyprus, czechia, denmark, ecuador,
egypt, estonia, ethiopia, finland, france, georgia, germany, ghana, greece, guatemala, hungary, iceland, india,
indonesia, iran, iraq, ireland, israel, italy, jamaica, japan, jordan, kazakhstan, kenya, korea, kuwait, latvia,
lebanon, lithuania, luxembourg, malaysia, mexico, mongolia, morocco, nepal, netherlands, nigeria, norway, pakistan,
panama, peru, philippines, poland, portugal, qatar, romania, russia, rwanda, senegal, serbia, singapore, slovakia,
slovenia, somalia, spain, sweden, switzerland, syria, taiwan, tanzania, thailand, tunisia, turkey, uganda, ukraine,
uruguay, uzbekistan, venezuela, vietnam, yemen, zambia, zimbabwe, england, scotland, wales, london, paris, berlin,
madrid, rome, lisbon, dublin, amsterdam, brussels, vienna, zurich, geneva, munich, hamburg, frankfurt, cologne, milan,
naples, turin, barcelona, valencia, seville, porto, lyon, marseille, toulouse, nice, copenhagen, stockholm, oslo,
helsinki, warsaw, krakow, prague, budapest, bucharest, athens, istanbul, ankara, cairo, lagos, abuja, nairobi, accra,
johannesburg, cape town, durban, casablanca, tunis, addis ababa, kinshasa, dakar, tokyo, osaka, kyoto, yokohama, seoul,
busan, beijing, shanghai, shenzhen, guangzhou, hong kong, taipei, singapore, bangkok, hanoi, manila, jakarta,
kuala lumpur, mumbai, delhi, bangalore, bengaluru, chennai, kolkata, hyderabad, pune, karachi, lahore, dhaka,
kathmandu, colombo, dubai, riyadh, doha, tehran, baghdad, jerusalem, tel aviv, beirut, amman, sydney, melbourne,
brisbane, perth, adelaide, auckland, wellington, christchurch, toronto, montreal, vancouver, calgary, ottawa, new york,
los angeles, chicago, houston, phoenix, philadelphia, san antonio, san diego, dallas, san francisco, seattle, boston,
denver, atlanta, miami, austin, portland, detroit, minneapolis, nashville, baltimore, mexico city, guadalajara,
monterrey, bogotá, bogota, lima, santiago, buenos aires, são paulo, sao paulo, rio de janeiro, brasília, caracas,
quito, montevideo, havana
`.split(',').map((s) => s.trim()).filter(Boolean));

/** CLDR place names that are also given names, surnames or ordinary words. */
const NOT_PLACES = new Set(`
oral easter christmas wake midway phoenix regina stanley dawson darwin resolute chatham jersey wallis hobart kirov samara
canary thule truk menominee lindeman creston nome chad guinea man maurice niger cocos comoro norfolk victoria
`.split(/\s+/).filter(Boolean));

const REGION_LANGUAGES = ['en', 'fr', 'de', 'es', 'it', 'pt', 'nl', 'pl'];
/** Time-zone areas whose last part names a city or island; US county zones (Indiana/Knox, …) left out. */
const CITY_ZONE = /^(?:Africa|America|Asia|Atlantic|Australia|Europe|Indian|Pacific)\/(?!(?:Indiana|Kentucky|North_Dakota)\/)/;

/** Lower-case without diacritics: "Kraków" and "Krakow" are one place. */
export function foldPlace(name: string): string {
  return name.normalize('NFKD').replace(/\p{M}/gu, '').toLowerCase();
}

function addCldrPlaces(places: Set<string>): void {
  const add = (name: string): void => {
    const lower = name.toLowerCase();
    if (NOT_PLACES.has(lower) || GIVEN_NAMES.has(lower) || !/^\p{L}/u.test(name)) return;
    places.add(lower);
    places.add(foldPlace(name));
  };
  const letters = 'ABCDEFGHIJKLMNOPQRSTUVWXYZ';
  for (const language of REGION_LANGUAGES) {
    let names: Intl.DisplayNames;
    try {
      names = new Intl.DisplayNames([language], { type: 'region', fallback: 'none' });
    } catch {
      continue; // a Node built without full ICU: the static list only
    }
    for (const a of letters) {
      for (const b of letters) {
        const code = a + b;
        // Private-use and grouping codes (AA, QM–QZ, XA–XZ, ZZ, EU, EZ, UN) are not places.
        if (/^(?:AA|Q[M-Z]|X[A-Z]|ZZ|EU|EZ|UN)$/.test(code) && code !== 'XK') continue;
        const name = names.of(code);
        if (name && name !== code) add(name);
      }
    }
  }
  let zones: string[] = [];
  try {
    zones = Intl.supportedValuesOf('timeZone');
  } catch {
    zones = [];
  }
  for (const zone of zones) {
    if (CITY_ZONE.test(zone)) add((zone.split('/').pop() as string).replace(/_/g, ' '));
  }
}

addCldrPlaces(PLACES);
for (const place of [...PLACES]) PLACES.add(foldPlace(place));
