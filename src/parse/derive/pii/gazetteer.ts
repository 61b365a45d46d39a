/**
 * Small offline gazetteers for `aggressive`: given names from many cultures (compromise's lexicon
 * is mostly English), and countries and large cities. Lower-cased.
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
