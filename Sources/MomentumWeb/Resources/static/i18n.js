// The page's words for scripts: the server renders the `js` strings of the page's language
// into <script type="application/json" id="strings">; `t` looks one up and fills its
// {placeholders}, `tn` picks the form of a count's plural category in the language (CLDR's,
// as `Intl.PluralRules` knows them: `.one`, `.many`, `.other`; `.other` when the language has
// no text for that category), and `number` writes a number the language's way.

const element = document.getElementById('strings');
let strings = {};
try {
  strings = element ? JSON.parse(element.textContent) : {};
} catch {
  strings = {};
}

export const lang = document.documentElement.lang || 'en';

function fill(text, values) {
  return text.replace(/\{(\w+)\}/g, (whole, name) => (Object.hasOwn(values, name) ? String(values[name]) : whole));
}

// Whether the page's language has a string for `key`.
export function has(key) {
  return Object.hasOwn(strings, key);
}

export function t(key, values = {}) {
  return fill(strings[key] ?? key, values);
}

const plurals = new Intl.PluralRules(lang);

export function tn(key, count, values = {}) {
  const form = `${key}.${plurals.select(count)}`;
  return t(has(form) ? form : `${key}.other`, { ...values, count: number(count) });
}

export function number(value, options = {}) {
  return new Intl.NumberFormat(lang, options).format(value);
}
