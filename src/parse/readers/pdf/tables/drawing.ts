/**
 * Text over a drawing is a figure's labels, not a table. A table's painted boxes tile the grid
 * (cells and rows side by side) or nest (a highlight inside a shaded cell, a panel behind its
 * boxes); a drawing's shapes overlap one another (an object's parts, a shading drawn as steps,
 * each a filled shape over the last). Where the filled shapes under a frame or a region overlap
 * one another in part — neither inside the other — more often than there are shapes, the lines
 * crossing there are the drawing's outlines and leader lines, and the words its labels ("Nut
 * case", "Locking shoulder" beside a cut-away nut, parted into "cells" by its outlines). They
 * stay in the running text, in reading order. A highlight run across a striped table's rows
 * overlaps each stripe once: fewer overlaps than shapes, still a table; so is a table over a
 * patterned background whose shapes run out of its frame.
 */
import type { Box } from '../page-model.ts';
import { SNAP } from './segments.ts';

/** Shapes, at least, a drawing holds: two overlapping boxes are a shadow or a highlight. */
const MIN_SHAPES = 3;
/**
 * Shapes, at most, a table's region holds (shaded cells and rows): more are a chart's or a map's,
 * taken for a drawing without comparing them pair by pair (a hundred thousand nested boxes must
 * not cost minutes). The ruled finder gives up at as many fills (segments.ts).
 */
const MAX_TABLE_SHAPES = 400;

function inside(a: Box, b: Box): boolean {
  return a.x0 >= b.x0 - SNAP && a.x1 <= b.x1 + SNAP && a.y0 >= b.y0 - SNAP && a.y1 <= b.y1 + SNAP;
}

/** The two boxes share area (more than the snap a shared edge leaves) and neither holds the other. */
function overlapInPart(a: Box, b: Box): boolean {
  const w = Math.min(a.x1, b.x1) - Math.max(a.x0, b.x0);
  const h = Math.min(a.y1, b.y1) - Math.max(a.y0, b.y0);
  return w > SNAP && h > SNAP && !inside(a, b) && !inside(b, a);
}

/**
 * Whether the filled shapes lying inside the box are a drawing's: overlapping one another in part
 * more often than there are shapes. Shapes running out of the box (a page's patterned background
 * behind a table) are not the frame's.
 */
export function overDrawing(box: Box, fills: readonly Box[]): boolean {
  const shapes = fills.filter((f) => inside(f, box)).sort((a, b) => a.x0 - b.x0);
  if (shapes.length < MIN_SHAPES) return false;
  if (shapes.length > MAX_TABLE_SHAPES) return true;
  let pairs = 0;
  for (let i = 0; i < shapes.length; i++) {
    const a = shapes[i] as Box;
    // Sorted by left edge: the shapes after one that starts right of a's right edge cannot meet a.
    for (let j = i + 1; j < shapes.length && (shapes[j] as Box).x0 < a.x1; j++) {
      if (overlapInPart(a, shapes[j] as Box)) pairs++;
      if (pairs > shapes.length) return true;
    }
  }
  return false;
}
