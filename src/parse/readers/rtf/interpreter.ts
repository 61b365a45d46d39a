/**
 * The RTF interpreter: a group stack over the tokens. Each group has a destination (where its
 * text goes), character formatting, the current font and `\ucN`; paragraph and table state
 * belong to the story (main text, a footnote, a header, a footer) the text goes to.
 */
import { ServiceError } from '../../../errors.ts';
import { BODY_WORDS, bodyWord } from './body-words.ts';
import { charsetCodePage, decodeBytes, PendingBytes, rawBytesAreUtf8 } from './code-pages.ts';
import { DESTINATION_WORDS, FOOTER_DESTINATIONS, HEADER_DESTINATIONS, PICTURE_DESTINATIONS, SKIPPED_DESTINATIONS, TRANSPARENT_DESTINATIONS } from './destinations.ts';
import { hyperlinkTarget, type Field } from './fields.ts';
import { PLAIN } from './format.ts';
import { childGroup, type Group } from './group.ts';
import { ListTable } from './lists.ts';
import { INFO_TEXT_KEYS, INFO_TIME_KEYS, infoTimeToIso, lcidToLanguage, type InfoTime, type InfoValues } from './metadata.ts';
import { Story, type ParagraphContext, type ParagraphProps } from './story.ts';
import { Tokenizer } from './tokenizer.ts';

export const MAX_DEPTH = 1000;

const SYMBOLS: Record<string, string> = {
  '~': '\u00a0',
  _: '\u2011',
  '-': '',
  '\\': '\\',
  '{': '{',
  '}': '}',
  '|': '',
  ':': '',
};

const SPECIAL_WORDS = new Map<string, string>([
  ['tab', '\t'],
  ['emdash', '\u2014'],
  ['endash', '\u2013'],
  ['emspace', '\u2003'],
  ['enspace', '\u2002'],
  ['qmspace', '\u2005'],
  ['bullet', '\u2022'],
  ['lquote', '\u2018'],
  ['rquote', '\u2019'],
  ['ldblquote', '\u201c'],
  ['rdblquote', '\u201d'],
  ['zwj', '\u200d'],
  ['zwnj', '\u200c'],
  ['zwbo', '\u200b'],
  ['ltrmark', ''],
  ['rtlmark', ''],
]);

/** Document-level control words textWord() acts on besides body words and special characters. */
const TEXT_WORDS = new Set(['ansicpg', 'mac', 'pc', 'pca', 'deff', 'deflang', 'lang', 'f', 'u', 'uc']);

const HEADING_STYLE = /^(?:heading|überschrift|titre|titolo|encabezado|kop)\s*([1-6])$/i;

export interface Interpretation {
  main: Story;
  footnotes: Story[];
  headers: Story[];
  footers: Story[];
  info: InfoValues;
}

function corrupt(reason: string): ServiceError {
  return new ServiceError('CORRUPT_FILE', `The RTF document could not be read: ${reason} Re-save it from the program that made it and upload it again.`);
}

export class Interpreter implements ParagraphContext {
  private readonly tokens: Tokenizer;
  private readonly pending = new PendingBytes();
  private readonly stack: Group[] = [];
  private group: Group;
  private codePage = 1252;
  /** The raw 8-bit text is UTF-8 whatever the code page says (code-pages.ts rawBytesAreUtf8). */
  private readonly rawUtf8: boolean;
  private defaultFont = -1;
  private readonly fontCodePages = new Map<number, number>();
  private fontEntry = 0;
  private readonly headingStyles = new Map<number, number>();
  private readonly listTable = new ListTable();
  private skipCount = 0;
  /** Pictures and embedded objects shown as placeholders. */
  pictures = 0;
  /** Review comments (`\annotation` destinations) left out. */
  comments = 0;
  private count = 0;
  private readonly info: InfoValues = { text: new Map(), times: new Map() };
  private bodyLanguage: number | undefined;
  private readonly main: Story;
  private readonly footnotes: Story[] = [];
  private readonly headers: Story[] = [];
  private readonly footers: Story[] = [];

  constructor(
    bytes: Uint8Array,
    private readonly signal: AbortSignal,
  ) {
    this.tokens = new Tokenizer(bytes);
    this.rawUtf8 = rawBytesAreUtf8(bytes);
    this.main = new Story(this);
    this.group = childGroup({ dest: 'text', story: this.main, format: PLAIN, font: -1, uc: 1, star: false, first: 0 }, 0);
  }

  headingLevel(props: ParagraphProps): number {
    if (props.outline >= 0 && props.outline < 9) return Math.min(props.outline + 1, 6);
    return this.headingStyles.get(props.style) ?? 0;
  }

  listTag(props: ParagraphProps): 'ul' | 'ol' {
    return this.listTable.tag(props);
  }

  run(): Interpretation {
    const tokens = this.tokens;
    tokens.skipLeading();
    const header = tokens.next() === 'open' && tokens.next() === 'word' ? tokens.name : '';
    if (header !== 'rtf') throw corrupt('it does not start with the RTF header ({\\rtf).');
    this.stack.push(this.group);
    this.group = childGroup(this.group, 0);
    let count = 0;
    let closed = false;
    for (let type = tokens.next(); type !== 'end'; type = tokens.next()) {
      this.count = ++count;
      if ((count & 0xffff) === 0) this.signal.throwIfAborted();
      if (type === 'text' || type === 'hex') {
        this.bytes(type);
        continue;
      }
      this.flush();
      if (type === 'open') {
        this.skipCount = 0;
        if (this.stack.length >= MAX_DEPTH) throw corrupt(`its groups are nested more than ${MAX_DEPTH} deep.`);
        this.stack.push(this.group);
        this.group = childGroup(this.group, count + 1);
      } else if (type === 'close') {
        this.skipCount = 0;
        this.group.onEnd?.();
        const parent = this.stack.pop();
        if (!parent || this.stack.length === 0) {
          closed = true;
          break;
        }
        this.group = parent;
      } else if (this.skipCount > 0) {
        this.skipCount--;
        if (type === 'word' && tokens.name === 'bin' && tokens.hasParam) tokens.skip(tokens.param);
      } else if (type === 'word') {
        this.word(tokens.name, tokens.hasParam ? tokens.param : undefined);
      } else {
        this.symbol(tokens.name);
      }
    }
    this.flush();
    if (!closed) throw corrupt('it ends before its groups close (the file is probably truncated).');
    const language = this.languageOf();
    if (language) this.info.language = language;
    return { main: this.main, footnotes: this.footnotes, headers: this.headers, footers: this.footers, info: this.info };
  }

  private deflang: number | undefined;

  private languageOf(): string | undefined {
    const lcid = this.deflang ?? this.bodyLanguage;
    return lcid === undefined ? undefined : lcidToLanguage(lcid);
  }

  private fontCodePage(): number {
    const font = this.group.font >= 0 ? this.group.font : this.defaultFont;
    return this.fontCodePages.get(font) ?? this.codePage;
  }

  private bytes(type: 'text' | 'hex'): void {
    const tokens = this.tokens;
    // Skipped destinations (picture data above all) are not decoded at all.
    if (this.group.dest === 'skip') return;
    if (type === 'hex') {
      if (this.skipCount > 0) {
        this.skipCount--;
        return;
      }
      this.pending.push(tokens.byte);
      return;
    }
    let run = tokens.textBytes();
    if (this.skipCount > 0) {
      const skipped = Math.min(this.skipCount, run.length);
      this.skipCount -= skipped;
      run = run.subarray(skipped);
    }
    if (run.length === 0) return;
    if (this.rawUtf8 && run.some((b) => b >= 0x80)) {
      // Escaped bytes before it keep their code page; the raw run is UTF-8 (a sequence never
      // spans two runs: runs end only at ASCII delimiters).
      this.flush();
      this.text(decodeBytes(run, 65001));
      return;
    }
    this.pending.pushAll(run);
  }

  private flush(): void {
    if (this.pending.length === 0) return;
    this.text(this.pending.take(this.fontCodePage()));
  }

  private text(text: string): void {
    const group = this.group;
    switch (group.dest) {
      case 'text':
        group.story.addText(text, group.format);
        break;
      case 'fldinst':
        group.field?.instruction.push(text);
        break;
      case 'info-text':
      case 'style':
        group.collect?.push(text);
        break;
      default:
        break;
    }
  }

  private symbol(name: string): void {
    const group = this.group;
    if (name === '*') {
      group.star = this.count === group.first;
      return;
    }
    if (group.dest !== 'text' && group.dest !== 'fldinst' && group.dest !== 'info-text') return;
    const text = SYMBOLS[name];
    if (text !== undefined && text !== '') this.text(text);
  }

  /** A control word that may start a destination; true when it did. */
  private destination(name: string): boolean {
    const group = this.group;
    const star = group.star;
    group.star = false;
    if (SKIPPED_DESTINATIONS.has(name)) {
      if (name === 'annotation' && group.dest !== 'skip') this.comments++;
      group.dest = 'skip';
      return true;
    }
    if (group.dest === 'skip') return true;
    if (PICTURE_DESTINATIONS.has(name)) {
      if (group.dest === 'text') {
        group.story.addImage();
        this.pictures++;
      }
      group.dest = 'skip';
      return true;
    }
    if (TRANSPARENT_DESTINATIONS.has(name)) {
      if (name === 'fldrslt') this.fieldResult();
      if (name === 'result' && group.object) group.object.result = true;
      if (name === 'shptxt') this.startTextBox();
      return true;
    }
    if (name === 'object' || name === 'shp') {
      this.startObject();
      return true;
    }
    switch (name) {
      case 'fonttbl':
        group.dest = 'fonttbl';
        return true;
      case 'stylesheet':
        group.dest = 'stylesheet';
        return true;
      case 'info':
        group.dest = 'info';
        return true;
      case 'listtable':
        group.dest = 'listtable';
        return true;
      case 'listoverridetable':
        group.dest = 'listoverridetable';
        return true;
      case 'pn':
        if (group.dest === 'text') {
          group.dest = 'pn';
          group.story.para.oldList ??= 'ol';
        } else {
          group.dest = 'skip';
        }
        return true;
      case 'field': {
        const field: Field = { instruction: [] };
        group.field = field;
        group.fieldDest = group.dest;
        return true;
      }
      case 'fldinst':
        group.dest = group.field ? 'fldinst' : 'skip';
        return true;
      case 'footnote':
        if (group.dest === 'text' && group.story === this.main) this.startFootnote();
        else group.dest = 'skip';
        return true;
      default:
        break;
    }
    if (HEADER_DESTINATIONS.has(name) || FOOTER_DESTINATIONS.has(name)) {
      const story = new Story(this);
      (HEADER_DESTINATIONS.has(name) ? this.headers : this.footers).push(story);
      group.story = story;
      group.dest = 'text';
      group.format = PLAIN;
      return true;
    }
    if (group.dest === 'info' && (INFO_TEXT_KEYS.has(name) || INFO_TIME_KEYS.has(name))) {
      this.startInfo(name);
      return true;
    }
    if (star && !(group.dest === 'stylesheet' && (name === 'cs' || name === 'ds' || name === 'ts'))) {
      group.dest = 'skip';
      return true;
    }
    return false;
  }

  private startInfo(key: string): void {
    const group = this.group;
    if (INFO_TIME_KEYS.has(key)) {
      const time: InfoTime = {};
      group.dest = 'info-time';
      group.infoTime = time;
      group.onEnd = () => {
        const iso = infoTimeToIso(time);
        if (iso) this.info.times.set(key, iso);
      };
      return;
    }
    const collect: string[] = [];
    group.dest = 'info-text';
    group.collect = collect;
    group.onEnd = () => {
      this.flush();
      const text = collect.join('');
      if (!this.info.text.has(key) && text.trim() !== '') this.info.text.set(key, text);
    };
  }

  private fieldResult(): void {
    const group = this.group;
    const field = group.field;
    if (!field) return;
    group.dest = group.fieldDest === 'text' ? 'text' : 'skip';
    const target = hyperlinkTarget(field.instruction.join(''));
    if (target) group.format = { ...group.format, href: target };
  }

  /**
   * An embedded object shows its `\result` (usually a picture, sometimes text), a shape its
   * text box text (`\shptxt`); one without either becomes a picture placeholder.
   */
  private startObject(): void {
    const group = this.group;
    if (group.dest !== 'text') {
      group.dest = 'skip';
      return;
    }
    const object = { result: false };
    const story = group.story;
    group.object = object;
    group.onEnd = () => {
      if (object.result) return;
      story.addImage();
      this.pictures++;
    };
  }

  /** A shape's text box: its own story, placed after the paragraph the shape is anchored in. */
  private startTextBox(): void {
    const group = this.group;
    if (group.dest !== 'text' || !group.object) {
      group.dest = 'skip';
      return;
    }
    group.object.result = true;
    const anchor = group.story;
    const box = new Story(this);
    group.story = box;
    group.format = PLAIN;
    group.onEnd = () => {
      const html = box.render();
      if (html !== '') anchor.addFloating(html);
    };
  }

  private startFootnote(): void {
    const number = this.footnotes.length + 1;
    this.main.addMarker(`[${number}]`);
    const story = new Story(this);
    story.addMarker(`[${number}] `);
    this.footnotes.push(story);
    this.group.story = story;
    this.group.format = PLAIN;
  }

  private word(name: string, param: number | undefined): void {
    const group = this.group;
    if (name === 'bin') {
      if (param !== undefined && param > 0) this.tokens.skip(param);
      return;
    }
    if (group.dest === 'skip') return;
    if ((group.star || DESTINATION_WORDS.has(name)) && this.destination(name)) return;
    switch (group.dest) {
      case 'text':
        // Most words of a Word document (revision ids, associated fonts…) change nothing here.
        if (BODY_WORDS.has(name) || TEXT_WORDS.has(name) || SPECIAL_WORDS.has(name)) this.textWord(name, param);
        return;
      case 'fonttbl':
        if (name === 'f' && param !== undefined) this.fontEntry = param;
        else if (name === 'fcharset' && param !== undefined) {
          const codePage = charsetCodePage(param);
          if (codePage !== undefined && !this.fontCodePages.has(this.fontEntry)) this.fontCodePages.set(this.fontEntry, codePage);
        } else if (name === 'cpg' && param !== undefined && param > 0) this.fontCodePages.set(this.fontEntry, param);
        return;
      case 'stylesheet':
      case 'style':
        this.styleWord(name, param);
        return;
      case 'info-time':
        if (group.infoTime && param !== undefined && (name === 'yr' || name === 'mo' || name === 'dy' || name === 'hr' || name === 'min' || name === 'sec')) group.infoTime[name] = param;
        return;
      case 'listtable':
        this.listTable.listWord(group, name, param);
        return;
      case 'listoverridetable':
        this.listTable.overrideWord(group, name, param);
        return;
      case 'pn':
        if (name === 'pnlvlblt') group.story.para.oldList = 'ul';
        else if (name === 'pnlvlbody' || name === 'pnlvl') group.story.para.oldList = 'ol';
        return;
      case 'fldinst':
      case 'info-text':
        if (name === 'u' && param !== undefined) this.unicode(param);
        else if (name === 'uc' && param !== undefined) group.uc = Math.max(0, Math.min(param, 10));
        else if (name === 'f' && param !== undefined) group.font = param;
        return;
      default:
        return;
    }
  }

  private styleWord(name: string, param: number | undefined): void {
    const group = this.group;
    if (group.dest === 'stylesheet') {
      // The first word of a style entry's group starts the entry.
      if (this.stack.length === 0) return;
      const parent = this.stack[this.stack.length - 1];
      if (parent?.dest !== 'stylesheet' || group.style) return;
      const style = { number: 0, outline: -1, paragraph: true };
      const collect: string[] = [];
      group.dest = 'style';
      group.style = style;
      group.collect = collect;
      group.onEnd = () => {
        this.flush();
        if (!style.paragraph) return;
        const styleName = collect.join('').replace(/;\s*$/, '').trim();
        const match = HEADING_STYLE.exec(styleName);
        const level = style.outline >= 0 && style.outline < 9 ? Math.min(style.outline + 1, 6) : match ? Number(match[1]) : /^title$/i.test(styleName) ? 1 : 0;
        if (level > 0 && !this.headingStyles.has(style.number)) this.headingStyles.set(style.number, level);
      };
    }
    const style = group.style;
    if (!style) return;
    if (name === 's' && param !== undefined) style.number = param;
    else if (name === 'cs' || name === 'ds' || name === 'ts' || name === 'tsrowd') style.paragraph = false;
    else if (name === 'outlinelevel' && param !== undefined) style.outline = param;
  }

  private unicode(param: number): void {
    const code = param < 0 ? param + 65536 : param;
    if (code >= 0 && code <= 0xffff) this.text(String.fromCharCode(code));
    this.skipCount = this.group.uc;
  }

  private textWord(name: string, param: number | undefined): void {
    const group = this.group;
    if (bodyWord(group, name, param)) return;
    const special = SPECIAL_WORDS.get(name);
    if (special !== undefined) {
      if (special !== '') this.text(special);
      return;
    }
    switch (name) {
      case 'ansicpg':
        if (param !== undefined && param > 0) this.codePage = param;
        return;
      case 'mac':
        this.codePage = 10000;
        return;
      case 'pc':
        this.codePage = 437;
        return;
      case 'pca':
        this.codePage = 850;
        return;
      case 'deff':
        if (param !== undefined) this.defaultFont = param;
        return;
      case 'deflang':
        if (param !== undefined && this.deflang === undefined && lcidToLanguage(param)) this.deflang = param;
        return;
      case 'lang':
        if (param !== undefined && this.bodyLanguage === undefined && lcidToLanguage(param)) this.bodyLanguage = param;
        return;
      case 'f':
        if (param !== undefined) group.font = param;
        return;
      case 'u':
        if (param !== undefined) this.unicode(param);
        return;
      case 'uc':
        if (param !== undefined) group.uc = Math.max(0, Math.min(param, 10));
        return;
      default:
        return;
    }
  }
}
