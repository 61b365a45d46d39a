/** The state of one RTF group: where its text goes and how it is formatted (RTF spec, "Groups"). */
import type { Field } from './fields.ts';
import type { CharFormat } from './format.ts';
import type { InfoTime } from './metadata.ts';
import type { Story } from './story.ts';

export type Destination =
  | 'text'
  | 'skip'
  | 'fonttbl'
  | 'stylesheet'
  | 'style'
  | 'info'
  | 'info-text'
  | 'info-time'
  | 'fldinst'
  | 'listtable'
  | 'listoverridetable'
  | 'pn';

export interface Group {
  dest: Destination;
  story: Story;
  format: CharFormat;
  font: number;
  uc: number;
  /** `\*` opened the group: the next control word is an optional destination. */
  star: boolean;
  /** Index of the group's first token. */
  first: number;
  field?: Field | undefined;
  fieldDest?: Destination | undefined;
  /** Collected text of an `\info` entry or style name. */
  collect?: string[] | undefined;
  infoTime?: InfoTime | undefined;
  style?: { number: number; outline: number; paragraph: boolean } | undefined;
  list?: { id: number; levels: number[] } | undefined;
  override?: { listId: number; ls: number } | undefined;
  /** The embedded object (`\object`) this group is in: whether its `\result` was seen. */
  object?: { result: boolean } | undefined;
  onEnd?: (() => void) | undefined;
}

/** A new group: a copy of its parent's state, in one fixed shape. */
export function childGroup(parent: Group, first: number): Group {
  return {
    dest: parent.dest,
    story: parent.story,
    format: parent.format,
    font: parent.font,
    uc: parent.uc,
    star: false,
    first,
    field: parent.field,
    fieldDest: parent.fieldDest,
    collect: parent.collect,
    infoTime: parent.infoTime,
    style: parent.style,
    list: parent.list,
    override: parent.override,
    object: parent.object,
    onEnd: undefined,
  };
}
