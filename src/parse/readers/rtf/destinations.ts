import { INFO_TEXT_KEYS, INFO_TIME_KEYS } from './metadata.ts';

/**
 * Destinations (RTF spec, "Destinations"): groups whose text is not document text. Those read
 * for something (fonts, styles, lists, `\info`, fields, notes, headers) are handled by the
 * interpreter; these are skipped whole. An unknown destination marked `\*` is skipped too.
 */

export const SKIPPED_DESTINATIONS = new Set([
  'colortbl', 'themedata', 'colorschememapping', 'datastore', 'latentstyles', 'filetbl', 'revtbl', 'rsidtbl', 'xmlnstbl',
  'mmathPr', 'generator', 'pntext', 'listtext', 'pntxta', 'pntxtb', 'nonshppict', 'bkmkstart', 'bkmkend', 'txe', 'xe', 'tc',
  'tcn', 'rxe', 'docvar', 'userprops', 'template', 'ftnsep', 'ftnsepc', 'ftncn', 'aftnsep', 'aftnsepc', 'aftncn', 'objdata',
  'objclass', 'objname', 'picprop', 'blipuid', 'wgrffmtfilter', 'pgdsctbl', 'listpicture', 'protusertbl', 'passwordhash',
  'fchars', 'lchars', 'shprslt', 'do', 'atnid', 'atnauthor', 'annotation', 'atrfstart', 'atrfend', 'atndate', 'atnicn',
  'atntime', 'atnparent', 'atnref', 'falt', 'panose', 'fname', 'fontemb', 'fontfile', 'keycode', 'printim', 'buptim',
  'nextfile', 'hlinkbase', 'oldcprops', 'oldpprops', 'oldsprops', 'oldtprops', 'mmath', 'ud', 'background', 'private',
  'xform', 'formfield', 'datafield', 'sp', 'sn', 'sv', 'svb', 'listname', 'leveltext', 'levelnumbers',
]);

/** Picture destinations: a placeholder for the picture, its data skipped. */
export const PICTURE_DESTINATIONS = new Set(['pict']);

export const HEADER_DESTINATIONS = new Set(['header', 'headerl', 'headerr', 'headerf']);
export const FOOTER_DESTINATIONS = new Set(['footer', 'footerl', 'footerr', 'footerf']);

/**
 * Destinations (also behind `\*`) whose content stays document text. A shape (`\shp`) is read
 * from its instructions (`\shpinst`, text box text in `\shptxt`); its `\shprslt` is the same
 * shape for readers that cannot, so it is skipped.
 */
export const TRANSPARENT_DESTINATIONS = new Set(['shppict', 'shpinst', 'shptxt', 'result', 'fldrslt']);

/** Every control word destination() acts on (the others reach it only after `\*`). */
export const DESTINATION_WORDS = new Set([
  ...SKIPPED_DESTINATIONS,
  ...PICTURE_DESTINATIONS,
  ...TRANSPARENT_DESTINATIONS,
  ...HEADER_DESTINATIONS,
  ...FOOTER_DESTINATIONS,
  ...INFO_TEXT_KEYS,
  ...INFO_TIME_KEYS,
  'object', 'shp', 'fonttbl', 'stylesheet', 'info', 'listtable', 'listoverridetable', 'pn', 'field', 'fldinst', 'footnote',
]);
