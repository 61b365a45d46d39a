/**
 * Control words of document text that change only the current group and story: character
 * formatting, paragraph properties (`\pard` resets them), and table structure.
 */
import { PLAIN, type CharFormat } from './format.ts';
import type { Group } from './group.ts';
import { defaultParagraph } from './story.ts';

function setFormat(group: Group, change: Partial<CharFormat>): void {
  group.format = { ...group.format, ...change };
}

/** The control words bodyWord() applies. */
export const BODY_WORDS = new Set([
  'par', 'sect', 'line', 'pard', 'plain', 'b', 'i', 'strike', 'striked', 'super', 'sub', 'nosupersub', 'v', 's', 'outlinelevel', 'ls', 'fi', 'li', 'lin', 'ilvl', 'intbl', 'itap', 'cell', 'nestcell', 'nestrow', 'row', 'trowd', 'cellx', 'clmgf', 'clmrg', 'clvmgf', 'clvmrg',
]);

/** Applies a body control word; false when the word is not one of these. */
export function bodyWord(group: Group, name: string, param: number | undefined): boolean {
  const story = group.story;
  const para = story.para;
  const on = param === undefined || param !== 0;
  switch (name) {
    case 'par':
    case 'sect':
      story.endParagraph();
      return true;
    case 'line':
      story.addBreak();
      return true;
    case 'pard':
      story.para = defaultParagraph();
      return true;
    case 'plain':
      group.format = group.format.href ? { ...PLAIN, href: group.format.href } : PLAIN;
      return true;
    case 'b':
      setFormat(group, { bold: on });
      return true;
    case 'i':
      setFormat(group, { italic: on });
      return true;
    case 'strike':
    case 'striked':
      setFormat(group, { strike: on });
      return true;
    case 'super':
      setFormat(group, { sup: true, sub: false });
      return true;
    case 'sub':
      setFormat(group, { sub: true, sup: false });
      return true;
    case 'nosupersub':
      setFormat(group, { sup: false, sub: false });
      return true;
    case 'v':
      setFormat(group, { hidden: on });
      return true;
    case 's':
      if (param !== undefined) para.style = param;
      return true;
    case 'outlinelevel':
      if (param !== undefined) para.outline = param;
      return true;
    case 'ls':
      if (param !== undefined) para.list = Math.max(0, param);
      return true;
    case 'fi':
      if (param !== undefined) para.firstIndent = param;
      return true;
    case 'li':
    case 'lin':
      if (param !== undefined) para.indent = param;
      return true;
    case 'ilvl':
      if (param !== undefined) para.level = Math.max(0, param);
      return true;
    case 'intbl':
      para.inTable = true;
      return true;
    case 'itap':
      para.inTable = param !== undefined && param > 0;
      return true;
    case 'cell':
      story.endCell(false);
      return true;
    case 'nestcell':
    case 'nestrow':
      story.endCell(true);
      return true;
    case 'row':
      story.endRow();
      return true;
    case 'trowd':
      story.startRowDefinition();
      return true;
    case 'cellx':
      story.endCellDef(param ?? 0);
      return true;
    case 'clmgf':
      story.cellDef.mergeFirst = true;
      return true;
    case 'clmrg':
      story.cellDef.mergeNext = true;
      return true;
    case 'clvmgf':
      story.cellDef.vmergeFirst = true;
      return true;
    case 'clvmrg':
      story.cellDef.vmergeNext = true;
      return true;
    default:
      return false;
  }
}
