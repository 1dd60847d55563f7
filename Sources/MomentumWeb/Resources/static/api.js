// The JSON API, called with the session cookie. Writes carry X-Momentum-Client, which the
// server requires of cookie-authenticated writes (a cross-site form cannot send it).
import { has, lang, t } from './i18n.js';

export class APIError extends Error {
  constructor(message, status, body) {
    super(message);
    this.status = status;
    this.body = body;
  }
  // The server's error details as sentences ("Display name must have 1 to 100
  // characters."), or its message. The API speaks English; in another language a refusal
  // the page knows (by its code, or a field's rule) is told in that language.
  get detail() {
    const code = this.body?.error?.code;
    const details = code === 'invalid_input' ? this.body.error.details ?? [] : [];
    if (details.length) return details.map((d) => translatedField(d.field) ?? sentence(d.field, d.issue)).join(' ');
    if (lang !== 'en' && code && has(`errors.code.${code}`)) return t(`errors.code.${code}`);
    return sentence('', this.message);
  }
}

// A field's rule in the page's language ("O nome precisa ter de 1 a 100 caracteres."),
// when the page is not in English and knows the field.
function translatedField(field) {
  const name = String(field ?? '').split('.').pop().replace(/\[\d+\]$/, '');
  return lang !== 'en' && has(`errors.field.${name}`) ? t(`errors.field.${name}`) : null;
}

// "displayName" + "must have 1 to 100 characters" → "Display name must have 1 to 100
// characters."; an issue that names its subject itself ("a habit name is …") stands alone.
export function sentence(field, issue) {
  const label = String(field ?? '').split('.').pop().replace(/\[\d+\]$/, '')
    .replace(/([a-z])([A-Z])/g, '$1 $2').toLowerCase();
  const predicate = /^(must|is|are|was|has|have|cannot|can't|should|appears|needs|does|not)\b/.test(issue);
  let text = label && predicate ? `${label} ${issue}` : String(issue ?? '');
  text = text.charAt(0).toUpperCase() + text.slice(1);
  return /[.!?)]$/.test(text) ? text : `${text}.`;
}

// A request that got no answer: the connection failed, or the server could not be reached.
export class NetworkError extends Error {}

export async function api(method, path, body) {
  const init = { method, headers: { 'X-Momentum-Client': 'web' }, credentials: 'same-origin' };
  if (body instanceof Blob) {
    init.body = body;
    init.headers['Content-Type'] = body.type || 'application/octet-stream';
  } else if (body !== undefined) {
    init.body = JSON.stringify(body);
    init.headers['Content-Type'] = 'application/json';
  }
  let response;
  try {
    response = await fetch(path, init);
  } catch (error) {
    throw new NetworkError(String(error?.message ?? error));
  }
  const text = await response.text();
  let json = null;
  try {
    json = text ? JSON.parse(text) : null;
  } catch {
    json = null;
  }
  if (!response.ok) {
    throw new APIError(json?.error?.message ?? t('api.serverAnswered', { status: response.status }), response.status, json);
  }
  return json;
}

// Says something to screen readers through the page's live region.
export function announce(message) {
  const region = document.getElementById('announcer');
  if (!region) return;
  region.textContent = '';
  setTimeout(() => { region.textContent = message; }, 30);
}

export function reducedMotion() {
  return window.matchMedia('(prefers-reduced-motion: reduce)').matches || document.body.dataset.reduceMotion === 'true';
}
