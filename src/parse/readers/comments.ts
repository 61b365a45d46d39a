/**
 * Review comments are left out of the output by every Word-family reader (.docx, .doc, Word 2003
 * XML, .rtf), as pandoc leaves them out by default; the reader says so with this one warning.
 */
export const COMMENTS_LEFT_OUT = 'Comments in the document are left out of the output.';
