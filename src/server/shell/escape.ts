/**
 * HTML escaping as the two renderers of a shell page write it: both turn `" & ' < >` into
 * entities, React writing the apostrophe `&#x27;` (escapeTextForBrowser) and Astro `&#39;`
 * (escapeHTML). A filled page must match each byte for byte where each wrote.
 */
const ESCAPED = /["'&<>]/;

function escaper(apostrophe: string): (text: string) => string {
  return (text) => {
    if (!ESCAPED.test(text)) return text;
    let out = '';
    let last = 0;
    for (let i = 0; i < text.length; i++) {
      let entity: string;
      switch (text.charCodeAt(i)) {
        case 34: entity = '&quot;'; break;
        case 38: entity = '&amp;'; break;
        case 39: entity = apostrophe; break;
        case 60: entity = '&lt;'; break;
        case 62: entity = '&gt;'; break;
        default: continue;
      }
      if (last !== i) out += text.slice(last, i);
      out += entity;
      last = i + 1;
    }
    return last === text.length ? out : out + text.slice(last);
  };
}

/** React's escaping, for text and attribute values alike. */
export const escapeHtml = escaper('&#x27;');
/** Astro's escaping, for markup text, attributes and island props. */
export const escapeAstro = escaper('&#39;');
