/**
 * Office Math (OMML, ECMA-376 Part 1 §22.1) → LaTeX. mammoth drops equations entirely; this
 * converts each `m:oMath` into TeX that the markdown writer prints as `$…$` / `$$…$$` (it reads
 * `<math alttext>`). Covered: runs (with normal-text and upright styles, function names),
 * fractions, scripts, radicals, n-ary operators, delimiters, functions, limits, accents, bars,
 * group characters, matrices, equation arrays and boxes. Anything else contributes its
 * children, so no text is lost.
 */
import { childrenNamed, firstChildNamed } from './xml.ts';

const SYMBOLS: Record<string, string> = {
  α: '\\alpha', β: '\\beta', γ: '\\gamma', δ: '\\delta', ε: '\\varepsilon', ϵ: '\\epsilon', ζ: '\\zeta', η: '\\eta',
  θ: '\\theta', ϑ: '\\vartheta', ι: '\\iota', κ: '\\kappa', λ: '\\lambda', μ: '\\mu', ν: '\\nu', ξ: '\\xi', π: '\\pi',
  ϖ: '\\varpi', ρ: '\\rho', ϱ: '\\varrho', σ: '\\sigma', ς: '\\varsigma', τ: '\\tau', υ: '\\upsilon', φ: '\\varphi',
  ϕ: '\\phi', χ: '\\chi', ψ: '\\psi', ω: '\\omega', Γ: '\\Gamma', Δ: '\\Delta', Θ: '\\Theta', Λ: '\\Lambda', Ξ: '\\Xi',
  Π: '\\Pi', Σ: '\\Sigma', Υ: '\\Upsilon', Φ: '\\Phi', Ψ: '\\Psi', Ω: '\\Omega',
  '±': '\\pm', '∓': '\\mp', '×': '\\times', '÷': '\\div', '·': '\\cdot', '⋅': '\\cdot', '∗': '\\ast', '≤': '\\leq',
  '≥': '\\geq', '≠': '\\neq', '≈': '\\approx', '≡': '\\equiv', '∼': '\\sim', '≅': '\\cong', '∝': '\\propto',
  '∞': '\\infty', '∂': '\\partial', '∇': '\\nabla', '∈': '\\in', '∉': '\\notin', '∋': '\\ni', '⊂': '\\subset',
  '⊆': '\\subseteq', '⊃': '\\supset', '⊇': '\\supseteq', '∪': '\\cup', '∩': '\\cap', '∅': '\\emptyset',
  '∀': '\\forall', '∃': '\\exists', '¬': '\\neg', '∧': '\\wedge', '∨': '\\vee', '→': '\\rightarrow',
  '←': '\\leftarrow', '↔': '\\leftrightarrow', '⇒': '\\Rightarrow', '⇐': '\\Leftarrow', '⇔': '\\Leftrightarrow',
  '↦': '\\mapsto', '…': '\\ldots', '⋯': '\\cdots', '⋮': '\\vdots', '⋱': '\\ddots', '∘': '\\circ', '°': '^{\\circ}',
  '′': "'", '″': "''", '−': '-', '–': '-', '∑': '\\sum', '∏': '\\prod', '∐': '\\coprod', '∫': '\\int',
  '∬': '\\iint', '∭': '\\iiint', '∮': '\\oint', 'ℏ': '\\hbar', 'ℓ': '\\ell', 'ℝ': '\\mathbb{R}', 'ℕ': '\\mathbb{N}',
  'ℤ': '\\mathbb{Z}', 'ℚ': '\\mathbb{Q}', 'ℂ': '\\mathbb{C}', '⟨': '\\langle', '⟩': '\\rangle', '‖': '\\|',
  '⊥': '\\perp', '∥': '\\parallel', '⊗': '\\otimes', '⊕': '\\oplus', '≪': '\\ll', '≫': '\\gg', '∖': '\\setminus',
  '∣': '\\mid', '⋃': '\\bigcup', '⋂': '\\bigcap', '⋀': '\\bigwedge', '⋁': '\\bigvee', '⨁': '\\bigoplus',
  '⨂': '\\bigotimes', '∯': '\\oiint', '∰': '\\oiiint', '%': '\\%', '#': '\\#', '&': '\\&', $: '\\$', '{': '\\{', '}': '\\}',
  '\\': '\\backslash', '~': '\\sim',
};

/** Invisible operators (function application, invisible times/separator/plus) and zero-width space. */
const INVISIBLE = /[\u2061-\u2064\u200b]/g;

const FUNCTIONS = new Set([
  'sin', 'cos', 'tan', 'cot', 'sec', 'csc', 'arcsin', 'arccos', 'arctan', 'sinh', 'cosh', 'tanh', 'coth', 'log', 'ln',
  'lg', 'exp', 'lim', 'liminf', 'limsup', 'max', 'min', 'sup', 'inf', 'det', 'dim', 'ker', 'deg', 'gcd', 'arg', 'Pr', 'hom',
]);

const ACCENTS: Record<string, string> = {
  '\u0302': '\\hat', '\u0303': '\\tilde', '\u0304': '\\bar', '\u0305': '\\overline', '\u0307': '\\dot', '\u0308': '\\ddot',
  '\u20d7': '\\vec', '\u0301': '\\acute', '\u0300': '\\grave', '\u0306': '\\breve', '\u030c': '\\check',
  '\u20d6': '\\overleftarrow', '\u20e1': '\\overleftrightarrow',
};

const DELIMITERS: Record<string, string> = {
  '{': '\\{', '}': '\\}', '⟨': '\\langle', '⟩': '\\rangle', '〈': '\\langle', '〉': '\\rangle', '‖': '\\|',
  '⌈': '\\lceil', '⌉': '\\rceil', '⌊': '\\lfloor', '⌋': '\\rfloor', '|': '|', '(': '(', ')': ')', '[': '[', ']': ']',
};

function mVal(element: Element | undefined): string | undefined {
  const value = element?.getAttribute('m:val');
  return value === null ? undefined : value;
}

function property(element: Element, propertiesName: string, name: string): string | undefined {
  const props = firstChildNamed(element, propertiesName);
  return props ? mVal(firstChildNamed(props, name)) : undefined;
}

/** An on/off property (§22.1.2: present without `m:val`, or with 1/on/true, means on). */
function flag(element: Element, propertiesName: string, name: string): boolean {
  const props = firstChildNamed(element, propertiesName);
  const el = props ? firstChildNamed(props, name) : undefined;
  if (!el) return false;
  const value = mVal(el);
  return value === undefined || /^(1|on|true)$/i.test(value);
}

/** Appends TeX pieces, putting a space after a control word that a letter would otherwise extend. */
function join(pieces: readonly string[]): string {
  let out = '';
  for (const piece of pieces) {
    if (piece === '') continue;
    if (/\\[A-Za-z]+$/.test(out) && /^[A-Za-z]/.test(piece)) out += ' ';
    out += piece;
  }
  return out;
}

/** A script base or argument: braces unless it is one character or one control word. */
function group(tex: string): string {
  return /^(?:[A-Za-z0-9]|\\[A-Za-z]+)$/.test(tex) ? tex : `{${tex}}`;
}

function escapeText(text: string): string {
  return text.replace(/[\\{}#$%&_^~]/g, (c) => (c === '\\' ? '\\textbackslash{}' : c === '~' ? '\\textasciitilde{}' : c === '^' ? '\\textasciicircum{}' : `\\${c}`));
}

function symbolTex(text: string): string {
  const pieces: string[] = [];
  for (const ch of Array.from(text)) pieces.push(SYMBOLS[ch] ?? ch);
  return join(pieces);
}

function runTex(run: Element): string {
  const text = childrenNamed(run, 'm:t')
    .map((t) => t.textContent ?? '')
    .join('')
    .replace(INVISIBLE, '');
  if (text === '') return '';
  const props = firstChildNamed(run, 'm:rPr');
  if (props && firstChildNamed(props, 'm:nor')) return `\\text{${escapeText(text)}}`;
  const style = props ? mVal(firstChildNamed(props, 'm:sty')) : undefined;
  const word = text.trim();
  if (FUNCTIONS.has(word)) return `\\${word}`;
  if (style === 'p' && /^[A-Za-z]{2,}$/.test(word)) return `\\mathrm{${word}}`;
  return symbolTex(text);
}

/** The TeX of the named child's content (`m:e`, `m:num`, `m:sub` …), empty when absent. */
function part(element: Element, name: string): string {
  const child = firstChildNamed(element, name);
  return child ? contentTex(child) : '';
}

function delimiterTex(element: Element): string {
  const begin = property(element, 'm:dPr', 'm:begChr') ?? '(';
  const end = property(element, 'm:dPr', 'm:endChr') ?? ')';
  const separator = property(element, 'm:dPr', 'm:sepChr') ?? '|';
  const items = childrenNamed(element, 'm:e').map(contentTex);
  const open = begin === '' ? '.' : (DELIMITERS[begin] ?? begin);
  const close = end === '' ? '.' : (DELIMITERS[end] ?? end);
  return `\\left${open}${items.join(DELIMITERS[separator] ?? separator)}\\right${close}`;
}

function naryTex(element: Element): string {
  const chr = property(element, 'm:naryPr', 'm:chr') ?? '∫';
  let tex = SYMBOLS[chr] ?? chr;
  if (!flag(element, 'm:naryPr', 'm:subHide')) {
    const sub = part(element, 'm:sub');
    if (sub) tex += `_{${sub}}`;
  }
  if (!flag(element, 'm:naryPr', 'm:supHide')) {
    const sup = part(element, 'm:sup');
    if (sup) tex += `^{${sup}}`;
  }
  return join([tex, group(part(element, 'm:e'))]);
}

function elementTex(element: Element): string {
  switch (element.tagName) {
    case 'm:r':
      return runTex(element);
    case 'm:f': {
      const num = part(element, 'm:num');
      const den = part(element, 'm:den');
      const type = property(element, 'm:fPr', 'm:type');
      if (type === 'lin') return `${group(num)}/${group(den)}`;
      if (type === 'noBar') return `\\genfrac{}{}{0pt}{}{${num}}{${den}}`;
      return `\\frac{${num}}{${den}}`;
    }
    case 'm:sSup':
      return `${group(part(element, 'm:e'))}^{${part(element, 'm:sup')}}`;
    case 'm:sSub':
      return `${group(part(element, 'm:e'))}_{${part(element, 'm:sub')}}`;
    case 'm:sSubSup':
      return `${group(part(element, 'm:e'))}_{${part(element, 'm:sub')}}^{${part(element, 'm:sup')}}`;
    case 'm:sPre': {
      const sub = part(element, 'm:sub');
      const sup = part(element, 'm:sup');
      return join([`{}${sub ? `_{${sub}}` : ''}${sup ? `^{${sup}}` : ''}`, group(part(element, 'm:e'))]);
    }
    case 'm:rad': {
      const degree = flag(element, 'm:radPr', 'm:degHide') ? '' : part(element, 'm:deg');
      return degree ? `\\sqrt[${degree}]{${part(element, 'm:e')}}` : `\\sqrt{${part(element, 'm:e')}}`;
    }
    case 'm:nary':
      return naryTex(element);
    case 'm:d':
      return delimiterTex(element);
    case 'm:func': {
      const name = part(element, 'm:fName');
      const known = /^\\[A-Za-z]+/.test(name) ? name : /^[A-Za-z]+$/.test(name) ? `\\operatorname{${name}}` : name;
      return join([known, part(element, 'm:e')]);
    }
    case 'm:limLow':
      return `${group(part(element, 'm:e'))}_{${part(element, 'm:lim')}}`;
    case 'm:limUpp':
      return `${group(part(element, 'm:e'))}^{${part(element, 'm:lim')}}`;
    case 'm:acc': {
      const chr = property(element, 'm:accPr', 'm:chr') ?? '\u0302';
      return `${ACCENTS[chr] ?? '\\hat'}{${part(element, 'm:e')}}`;
    }
    case 'm:bar':
      return `${property(element, 'm:barPr', 'm:pos') === 'top' ? '\\overline' : '\\underline'}{${part(element, 'm:e')}}`;
    case 'm:groupChr': {
      const chr = property(element, 'm:groupChrPr', 'm:chr') ?? '\u23df';
      const top = chr === '\u23de' || property(element, 'm:groupChrPr', 'm:pos') === 'top';
      return `${top ? '\\overbrace' : '\\underbrace'}{${part(element, 'm:e')}}`;
    }
    case 'm:m': {
      const rows = childrenNamed(element, 'm:mr').map((row) => childrenNamed(row, 'm:e').map(contentTex).join(' & '));
      return `\\begin{matrix}${rows.join(' \\\\ ')}\\end{matrix}`;
    }
    case 'm:eqArr': {
      const rows = childrenNamed(element, 'm:e').map(contentTex);
      return rows.length === 1 ? (rows[0] ?? '') : `\\begin{aligned}${rows.join(' \\\\ ')}\\end{aligned}`;
    }
    default:
      // Property elements carry no content; anything else (boxes, phantoms, m:e, tracked
      // insertions, unknown extensions) contributes its children.
      if (/Pr$/.test(element.tagName) || element.tagName === 'w:del' || element.tagName === 'w:rPr') return '';
      return contentTex(element);
  }
}

function contentTex(container: Element): string {
  return join(Array.from(container.children).map(elementTex));
}

/** The TeX of one `m:oMath` element, trimmed. */
export function ommlToTex(oMath: Element): string {
  return contentTex(oMath).replace(/\s+/g, ' ').trim();
}
