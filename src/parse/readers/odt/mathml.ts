/**
 * MathML (presentation markup, as an ODF formula object stores it in `Object N/content.xml`) →
 * TeX, so an ODT equation is written `$…$` like a DOCX one (docx/omml.ts) and as pandoc and
 * docling write equations. Covered: tokens (`mi` `mn` `mo` `mtext` `ms`), rows and styles,
 * scripts (`msup` `msub` `msubsup` `munder` `mover` `munderover`, limits on large operators),
 * `mfrac`, `msqrt`, `mroot`, `mfenced`, tables (`mtable` → `matrix`). `semantics` gives its first
 * child (the StarMath `annotation` is the fallback when nothing converts); unknown elements
 * give their children.
 */

const SYMBOLS: Record<string, string> = {
  'α': '\\alpha', 'β': '\\beta', 'γ': '\\gamma', 'δ': '\\delta', 'ε': '\\epsilon', 'ζ': '\\zeta', 'η': '\\eta', 'θ': '\\theta',
  'ι': '\\iota', 'κ': '\\kappa', 'λ': '\\lambda', 'μ': '\\mu', 'ν': '\\nu', 'ξ': '\\xi', 'π': '\\pi', 'ρ': '\\rho', 'σ': '\\sigma',
  'τ': '\\tau', 'υ': '\\upsilon', 'φ': '\\phi', 'χ': '\\chi', 'ψ': '\\psi', 'ω': '\\omega', 'Γ': '\\Gamma', 'Δ': '\\Delta',
  'Θ': '\\Theta', 'Λ': '\\Lambda', 'Ξ': '\\Xi', 'Π': '\\Pi', 'Σ': '\\Sigma', 'Φ': '\\Phi', 'Ψ': '\\Psi', 'Ω': '\\Omega',
  '∞': '\\infty', '×': '\\times', '·': '\\cdot', '⋅': '\\cdot', '±': '\\pm', '∓': '\\mp', '÷': '\\div', '≤': '\\leq', '≥': '\\geq',
  '≠': '\\neq', '≈': '\\approx', '≡': '\\equiv', '→': '\\rightarrow', '←': '\\leftarrow', '⇒': '\\Rightarrow', '∈': '\\in',
  '∉': '\\notin', '⊂': '\\subset', '⊆': '\\subseteq', '∪': '\\cup', '∩': '\\cap', '∂': '\\partial', '∇': '\\nabla',
  '∑': '\\sum', '∏': '\\prod', '∫': '\\int', '∮': '\\oint', '∀': '\\forall', '∃': '\\exists', '−': '-', '{': '\\{', '}': '\\}',
  '…': '\\ldots', '⋯': '\\cdots',
};
const FUNCTIONS = new Set(['sin', 'cos', 'tan', 'cot', 'sec', 'csc', 'sinh', 'cosh', 'tanh', 'log', 'ln', 'lg', 'exp', 'lim', 'max', 'min', 'sup', 'inf', 'det', 'arg', 'deg', 'gcd']);
/** Bases whose under/over scripts are limits (`\sum_{i}^{n}`), not stacked text. */
const LIMIT_BASES = /^\\(?:sum|prod|int|oint|lim|max|min|sup|inf|bigcup|bigcap)$/;
const MAX_DEPTH = 200;

function localName(el: Element): string {
  const name = el.tagName;
  const colon = name.indexOf(':');
  return colon < 0 ? name : name.slice(colon + 1);
}

/** Upright identifiers (`mathvariant="normal"`, ODF's `math:fontstyle="normal"`): units, names. */
function upright(el: Element): boolean {
  return (el.getAttribute('mathvariant') ?? el.getAttribute('math:mathvariant') ?? el.getAttribute('fontstyle') ?? el.getAttribute('math:fontstyle')) === 'normal';
}

function token(el: Element, name: string): string {
  const trimmed = (el.textContent ?? '').trim();
  if (trimmed === '') return '';
  if (name === 'mtext' || name === 'ms') return `\\text{${trimmed.replace(/[{}\\]/g, '')}}`;
  if (name === 'mi' && trimmed.length > 1) return FUNCTIONS.has(trimmed) ? `\\${trimmed}` : upright(el) ? `\\mathrm{${trimmed}}` : `\\mathit{${trimmed}}`;
  return Array.from(trimmed, (c) => SYMBOLS[c] ?? c).join('');
}

/** A script's base or argument in braces unless it is one character or one command. */
function group(tex: string): string {
  return /^(?:.|\\[A-Za-z]+)$/u.test(tex) ? tex : `{${tex}}`;
}

function convert(el: Element, depth: number): string {
  if (depth > MAX_DEPTH) return '';
  const name = localName(el);
  const kids = Array.from(el.children);
  const at = (i: number): string => (kids[i] ? convert(kids[i] as Element, depth + 1) : '');
  const all = (): string => kids.map((k) => convert(k, depth + 1)).filter((t) => t !== '').join(' ');
  switch (name) {
    case 'mi':
    case 'mn':
    case 'mo':
    case 'mtext':
    case 'ms':
      return token(el, name);
    case 'annotation':
    case 'annotation-xml':
    case 'mphantom':
    case 'none':
    case 'mprescripts':
      return '';
    case 'mspace':
      return '\\ ';
    case 'semantics':
      return at(0);
    case 'msup':
      return `${group(at(0))}^{${at(1)}}`;
    case 'msub':
      return `${group(at(0))}_{${at(1)}}`;
    case 'msubsup':
      return `${group(at(0))}_{${at(1)}}^{${at(2)}}`;
    case 'munder': {
      const base = at(0);
      return LIMIT_BASES.test(base) ? `${base}_{${at(1)}}` : `\\underset{${at(1)}}{${base}}`;
    }
    case 'mover': {
      const base = at(0);
      return LIMIT_BASES.test(base) ? `${base}^{${at(1)}}` : `\\overset{${at(1)}}{${base}}`;
    }
    case 'munderover':
      return `${group(at(0))}_{${at(1)}}^{${at(2)}}`;
    case 'mfrac':
      return `\\frac{${at(0)}}{${at(1)}}`;
    case 'msqrt':
      return `\\sqrt{${all()}}`;
    case 'mroot':
      return `\\sqrt[${at(1)}]{${at(0)}}`;
    case 'mfenced': {
      const open = el.getAttribute('open') ?? '(';
      const close = el.getAttribute('close') ?? ')';
      const separator = (el.getAttribute('separators') ?? ',').trim().charAt(0);
      const delimiter = (d: string): string => (d === '' ? '.' : d === '{' || d === '}' ? `\\${d}` : d);
      return `\\left${delimiter(open)} ${kids.map((k) => convert(k, depth + 1)).join(separator ? `${separator} ` : ' ')} \\right${delimiter(close)}`;
    }
    case 'mtable':
      return `\\begin{matrix} ${kids.map((row) => Array.from(row.children).map((cell) => convert(cell, depth + 1)).join(' & ')).join(' \\\\ ')} \\end{matrix}`;
    default:
      return all();
  }
}

/** TeX for a MathML `math` element; '' when nothing in it converts. */
export function mathmlToTex(math: Element): string {
  return convert(math, 0).replace(/\s+/g, ' ').trim();
}
