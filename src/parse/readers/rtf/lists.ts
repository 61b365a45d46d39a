/**
 * The list table (`\listtable`: each `\list` with its `\listid` and one `\levelnfcN` per
 * `\listlevel`) and the list override table (`\listoverride`: `\lsN` → `\listid`). A list
 * paragraph's `\lsN` + `\ilvlN` find its level's number format: 23 (bullet) and 255 (none) make
 * a bullet list, every other format a numbered one. Broken tables give bullet lists.
 */
import type { Group } from './group.ts';
import type { ParagraphProps } from './story.ts';

const BULLET = 23;
const NO_NUMBER = 255;

export class ListTable {
  private readonly lists = new Map<number, number[]>();
  private readonly overrides = new Map<number, number>();

  /** The list kind of a list paragraph. */
  tag(props: ParagraphProps): 'ul' | 'ol' {
    const listId = this.overrides.get(props.list);
    const levels = listId === undefined ? undefined : this.lists.get(listId);
    const nfc = levels?.[props.level] ?? levels?.[0];
    return nfc === undefined || nfc === BULLET || nfc === NO_NUMBER ? 'ul' : 'ol';
  }

  /** A control word inside `\listtable`. */
  listWord(group: Group, name: string, param: number | undefined): void {
    if (name === 'list') {
      const list = { id: 0, levels: [] as number[] };
      group.list = list;
      group.onEnd = () => {
        if (!this.lists.has(list.id)) this.lists.set(list.id, list.levels);
      };
    } else if (name === 'listid' && param !== undefined && group.list) {
      group.list.id = param;
    } else if (name === 'listlevel' && group.list) {
      group.list.levels.push(0);
    } else if ((name === 'levelnfc' || name === 'levelnfcn') && param !== undefined && group.list && group.list.levels.length > 0) {
      group.list.levels[group.list.levels.length - 1] = param;
    }
  }

  /** A control word inside `\listoverridetable`. */
  overrideWord(group: Group, name: string, param: number | undefined): void {
    if (name === 'listoverride') {
      const override = { listId: 0, ls: 0 };
      group.override = override;
      group.onEnd = () => {
        if (override.ls > 0 && !this.overrides.has(override.ls)) this.overrides.set(override.ls, override.listId);
      };
    } else if (name === 'listid' && param !== undefined && group.override) {
      group.override.listId = param;
    } else if (name === 'ls' && param !== undefined && group.override) {
      group.override.ls = param;
    }
  }
}
