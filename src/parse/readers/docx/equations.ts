/**
 * Equations through mammoth: before conversion, each OMML equation in a story part is replaced
 * by a run holding a sentinel (private-use characters around an index); after conversion, each
 * sentinel in the HTML becomes `<math alttext="TeX">` — `display="block"` for a display
 * equation (`m:oMathPara`, or an equation alone in its paragraph), which the markdown writer
 * prints as `$$…$$`, inline otherwise (`$…$`).
 */
import { ommlToTex } from './omml.ts';
import { childrenNamed, parseXml } from './xml.ts';

const OPEN = '\uE000';
const CLOSE = '\uE001';
const SENTINEL = /\uE000(\d+)\uE001/g;
const MATH_ELEMENT = /<m:oMathPara\b[^>]*>[\s\S]*?<\/m:oMathPara>|<m:oMath\b[^>]*>[\s\S]*?<\/m:oMath>|<m:oMath\b[^>]*\/>/g;

interface Equation {
  tex: string;
  display: boolean;
}

export class Equations {
  private readonly items: Equation[] = [];

  private sentinelRun(tex: string, display: boolean): string {
    this.items.push({ tex, display });
    return `<w:r><w:t xml:space="preserve">${OPEN}${this.items.length - 1}${CLOSE}</w:t></w:r>`;
  }

  /** Returns the part's XML with every equation replaced by a sentinel run. */
  patch(xml: string): string {
    if (!xml.includes('<m:oMath')) return xml;
    return xml.replace(MATH_ELEMENT, (fragment) => {
      const root = parseXml(fragment).documentElement;
      if (!root) return '';
      if (root.tagName === 'm:oMathPara') {
        return childrenNamed(root, 'm:oMath')
          .map((math) => ommlToTex(math))
          .filter((tex) => tex !== '')
          .map((tex) => this.sentinelRun(tex, true))
          .join('');
      }
      const tex = ommlToTex(root);
      return tex === '' ? '' : this.sentinelRun(tex, false);
    });
  }

  /** Replaces the sentinels in the converted document by `<math>` elements. */
  restore(body: Element): void {
    if (this.items.length === 0) return;
    const document = body.ownerDocument;
    const walker = document.createTreeWalker(body, 4 /* NodeFilter.SHOW_TEXT */);
    const texts: Text[] = [];
    for (let node = walker.nextNode(); node; node = walker.nextNode()) {
      if ((node.nodeValue ?? '').includes(OPEN)) texts.push(node as Text);
    }
    const maths: Element[] = [];
    for (const text of texts) {
      const value = text.nodeValue ?? '';
      const fragment = document.createDocumentFragment();
      let last = 0;
      for (const match of value.matchAll(SENTINEL)) {
        const equation = this.items[Number(match[1])];
        if (!equation) continue;
        if (match.index > last) fragment.appendChild(document.createTextNode(value.slice(last, match.index)));
        const math = document.createElement('math');
        math.setAttribute('display', equation.display ? 'block' : 'inline');
        math.setAttribute('alttext', equation.tex);
        math.textContent = equation.tex;
        fragment.appendChild(math);
        maths.push(math);
        last = match.index + match[0].length;
      }
      if (last < value.length) fragment.appendChild(document.createTextNode(value.slice(last)));
      text.parentNode?.replaceChild(fragment, text);
    }
    // An equation alone in its paragraph is displayed by Word even without m:oMathPara.
    for (const math of maths) {
      const paragraph = math.parentElement;
      if (!paragraph || paragraph.tagName !== 'P') continue;
      const alone = Array.from(paragraph.childNodes).every(
        (node) => (node.nodeType === 1 && (node as Element).tagName.toLowerCase() === 'math') || (node.nodeType === 3 && (node.nodeValue ?? '').trim() === ''),
      );
      if (alone) math.setAttribute('display', 'block');
    }
  }
}
