// Momentum's web app: pages come rendered from the server; this module makes them
// interactive (check-ins, the store, memories, preferences), keeps them live through the
// server-sent event stream, and hands milestones to the celebration module.
import { api, announce, APIError, NetworkError, reducedMotion } from './api.js';
import { startSession, presentNext } from './celebrate.js';
import { socialActions, socialForms, watchRoles } from './social.js';
import { t, tn, number } from './i18n.js';

const signedIn = () => Boolean(document.querySelector('.topbar'));

// Re-renders the current page on the server and swaps in its main content and counters.
// `live` marks a refresh for another device's change: it waits while the user is typing,
// so that nothing they type is thrown away. A refresh after the user's own action runs now.
let pending = null;
export function refresh({ live = false, focus = null } = {}) {
  if (pending) return pending;
  pending = (async () => {
    const editing = document.activeElement?.closest?.('main form textarea, main form input[type=text]');
    if (live && editing) {
      editing.addEventListener('blur', () => refresh(), { once: true });
      return;
    }
    let response;
    try {
      response = await fetch(location.href, { credentials: 'same-origin', headers: { Accept: 'text/html' } });
    } catch {
      return; // Offline: the page stays as it is; the live stream refreshes it when back.
    }
    if (response.redirected && new URL(response.url).pathname === '/signin') {
      location.assign('/signin'); // The session ended (signed out elsewhere).
      return;
    }
    if (!response.ok) return;
    const page = new DOMParser().parseFromString(await response.text(), 'text/html');
    const focused = document.activeElement && document.activeElement !== document.body ? document.activeElement : null;
    // The control that started this refresh (a check-in button, disabled and so no longer
    // focused) keeps the focus's place for keyboard users, unless the user has moved on.
    const origin = focused ? null : focus;
    const focusedAction = origin?.action ?? focused?.dataset?.action;
    const focusedHabit = origin?.habit ?? focused?.dataset?.habit;
    const focusedStep = focused?.dataset?.step ? `[data-step="${focused.dataset.step}"]` : '';
    const focusedForm = focused?.form ?? focused?.closest?.('main form');
    const focusedIndex = focusedForm ? [...focusedForm.elements].indexOf(focused) : -1;
    const selection = [focused?.selectionStart, focused?.selectionEnd];
    // A form with changes not yet saved stays as it is; every other form is fresh (so a
    // change from another device shows), keeping a "Saved." just shown.
    for (const fresh of page.querySelectorAll('main form')) {
      const current = [...document.querySelectorAll('main form')].find((form) => formKey(form) === formKey(fresh));
      if (!current) continue;
      const details = fresh.closest('details');
      if (details) details.open = Boolean(current.closest('details')?.open);
      if (current.dataset.dirty === 'true') {
        fresh.replaceWith(current);
      } else if (Number(current.dataset.keepUntil ?? 0) > Date.now()) {
        fresh.dataset.keepUntil = current.dataset.keepUntil;
        const saved = fresh.querySelector('[data-saved]');
        if (saved) saved.textContent = current.querySelector('[data-saved]')?.textContent ?? '';
      }
    }
    for (const id of ['main', 'counters']) {
      const fresh = page.getElementById(id);
      const current = document.getElementById(id);
      if (fresh && current) current.replaceWith(fresh);
    }
    const balance = page.querySelector('[data-balance]');
    document.querySelectorAll('[data-balance]').forEach((node) => { node.textContent = balance?.textContent ?? node.textContent; });
    applyLayout();
    document.body.dataset.refreshes = String(Number(document.body.dataset.refreshes ?? 0) + 1);
    let target = null;
    if (focused && document.contains(focused)) {
      target = focused; // in a form kept as it was
    } else if (focusedForm && focusedIndex >= 0) {
      // The same control of the form's fresh copy.
      const form = [...document.querySelectorAll('main form')].find((f) => formKey(f) === formKey(focusedForm));
      target = form?.elements?.[focusedIndex] ?? null;
    } else if (focusedHabit) {
      target = document.querySelector(`[data-habit="${CSS.escape(focusedHabit)}"][data-action="${focusedAction}"]${focusedStep}`)
        ?? document.querySelector(`li[data-habit="${CSS.escape(focusedHabit)}"] a`);
      if (!target && origin) {
        // The habit's own page: its pressed button is gone (done); its heading takes focus.
        target = document.querySelector('main h1');
        target?.setAttribute('tabindex', '-1');
      }
    }
    if (target && document.activeElement !== target) {
      target.focus({ preventScroll: true });
      if (selection[0] != null && target.setSelectionRange) {
        try { target.setSelectionRange(selection[0], selection[1]); } catch { /* not a text field */ }
      }
    }
  })().finally(() => { pending = null; });
  return pending;
}

// MARK: groups and order

// Collapsed groups are remembered per browser; arranging lasts while the tab is open. Both
// are applied again after each refresh, which replaces the page's content.
const collapsedKey = 'momentum.collapsedGroups';
function collapsedGroups() {
  try { return new Set(JSON.parse(localStorage.getItem(collapsedKey) ?? '[]')); } catch { return new Set(); }
}

function applyLayout() {
  const collapsed = collapsedGroups();
  for (const group of document.querySelectorAll('details.habit-group')) {
    group.open = !collapsed.has(group.dataset.group);
  }
  const arranging = sessionStorage.getItem('momentum.arranging') === 'true'
    && document.querySelector('[data-action=arrange]') !== null;
  document.body.classList.toggle('arranging', arranging);
  const toggle = document.querySelector('[data-action=arrange]');
  if (toggle) {
    toggle.setAttribute('aria-pressed', String(arranging));
    toggle.textContent = arranging ? t('app.arrange.done') : t('app.arrange.start');
  }
  for (const row of document.querySelectorAll('li.habit[data-habit]')) row.draggable = arranging;
  for (const form of document.querySelectorAll('form.milestone-form')) shapeMilestoneForm(form);
}

// MARK: your own milestones

// The milestone form shows the fields its rule takes: what it counts for a first, a count
// or a streak; an item and what breaks a streak only for logs (a habit's streak is broken
// by missed days); how many for a count or a streak. A first counts logs only.
function shapeMilestoneForm(form) {
  const rule = form.elements.rule.value;
  const source = form.elements.source;
  for (const option of source?.querySelectorAll('option') ?? []) {
    option.disabled = rule === 'first' && option.value.startsWith('habit:');
  }
  if (source?.selectedOptions[0]?.disabled) {
    source.value = [...source.options].find((option) => !option.disabled)?.value ?? '';
  }
  const logs = (source?.value ?? '').startsWith('kind:');
  for (const label of form.querySelectorAll('[data-when]')) {
    const shown = label.dataset.when.split(' ').includes(rule) && (!('logs' in label.dataset) || logs);
    label.hidden = !shown;
    for (const control of label.querySelectorAll('input, select, textarea')) control.disabled = !shown;
  }
  const target = form.elements.target;
  if (target) target.max = rule === 'streak' ? '36525' : '1000000';
}

// An id for a new milestone from its title: readable, and unique with a random tail.
function milestoneID(title) {
  const slug = title.toLowerCase().normalize('NFKD').replace(/[^a-z0-9]+/g, '-').replace(/^-|-$/g, '').slice(0, 40)
    || 'milestone';
  const bytes = crypto.getRandomValues(new Uint8Array(3));
  return `${slug}-${Array.from(bytes, (b) => b.toString(16).padStart(2, '0')).join('')}`;
}

function resetMilestoneForm(form) {
  form.reset();
  delete form.dataset.dirty;
  form.elements.milestone.value = '';
  form.querySelector('[data-milestone-submit]').textContent = t('app.milestone.save');
  form.querySelector('[data-action=new-milestone]').hidden = true;
  const summary = form.closest('details')?.querySelector('[data-milestone-summary]');
  if (summary) summary.textContent = t('app.milestone.add');
  shapeMilestoneForm(form);
}

document.addEventListener('toggle', (event) => {
  const group = event.target;
  if (!(group instanceof HTMLDetailsElement) || !group.classList.contains('habit-group')) return;
  const collapsed = collapsedGroups();
  if (group.open) collapsed.delete(group.dataset.group); else collapsed.add(group.dataset.group);
  localStorage.setItem(collapsedKey, JSON.stringify([...collapsed]));
}, true);

// The order on screen, as one `order` event: the habits in the order they are shown.
async function saveOrder() {
  const habits = [...document.querySelectorAll('li.habit[data-habit]')].map((row) => row.dataset.habit);
  await pushEvent(`order ${habits.join(' ')}`, { type: 'order', habits });
}

let dragged = null;
document.addEventListener('dragstart', (event) => {
  const row = event.target.closest?.('li.habit[draggable=true]');
  if (!row) return;
  dragged = row;
  row.classList.add('dragging');
  event.dataTransfer.effectAllowed = 'move';
  event.dataTransfer.setData('text/plain', row.dataset.habit);
});
document.addEventListener('dragover', (event) => {
  const row = event.target.closest?.('li.habit[data-habit]');
  if (!dragged || !row || row === dragged || row.parentElement !== dragged.parentElement) return;
  event.preventDefault();
  const box = row.getBoundingClientRect();
  const after = event.clientY > box.top + box.height / 2;
  document.querySelectorAll('.drop-before, .drop-after').forEach((r) => r.classList.remove('drop-before', 'drop-after'));
  row.classList.add(after ? 'drop-after' : 'drop-before');
});
document.addEventListener('drop', async (event) => {
  const row = event.target.closest?.('li.habit[data-habit]');
  if (!dragged || !row || row === dragged || row.parentElement !== dragged.parentElement) return;
  event.preventDefault();
  const after = row.classList.contains('drop-after');
  row.classList.remove('drop-before', 'drop-after');
  row.parentElement.insertBefore(dragged, after ? row.nextElementSibling : row);
  const moved = dragged;
  try {
    await saveOrder();
    announce(t('app.arrange.moved', { name: moved.querySelector('.habit-name')?.textContent ?? t('app.arrange.theHabit') }));
    await refresh();
  } catch (error) {
    showError(moved, error);
  }
});
document.addEventListener('dragend', () => {
  dragged?.classList.remove('dragging');
  document.querySelectorAll('.drop-before, .drop-after').forEach((r) => r.classList.remove('drop-before', 'drop-after'));
  dragged = null;
});

function formKey(form) {
  return form.id || `${form.dataset.action}:${form.dataset.memory ?? form.dataset.habit ?? ''}`;
}

// A failed action's reason, beside what was pressed; a request that never got an answer
// (api.js's NetworkError) says so in words rather than the browser's own.
// The files of a zip archive, by their path in it, as text: entries stored or deflated
// (what Loop and every zip tool write), inflated by the browser itself.
async function unzip(blob) {
  const bytes = new Uint8Array(await blob.arrayBuffer());
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const damaged = () => new Error(t('app.import.notZip', { name: blob.name ?? t('app.import.theZipFile') }));
  let end = -1;
  for (let at = bytes.length - 22; at >= Math.max(0, bytes.length - 65_557); at -= 1) {
    if (view.getUint32(at, true) === 0x06054b50) {
      end = at;
      break;
    }
  }
  if (end < 0) throw damaged();
  const count = view.getUint16(end + 10, true);
  let at = view.getUint32(end + 16, true);
  const files = {};
  const text = new TextDecoder();
  for (let n = 0; n < count; n += 1) {
    if (at + 46 > bytes.length || view.getUint32(at, true) !== 0x02014b50) throw damaged();
    const method = view.getUint16(at + 10, true);
    const size = view.getUint32(at + 20, true);
    const nameLength = view.getUint16(at + 28, true);
    const local = view.getUint32(at + 42, true);
    const name = text.decode(bytes.subarray(at + 46, at + 46 + nameLength));
    at += 46 + nameLength + view.getUint16(at + 30, true) + view.getUint16(at + 32, true);
    if (name.endsWith('/') || !/\.(csv|json)$/i.test(name)) continue;
    if (local + 30 > bytes.length) throw damaged();
    const start = local + 30 + view.getUint16(local + 26, true) + view.getUint16(local + 28, true);
    if (start + size > bytes.length) throw damaged();
    const data = bytes.subarray(start, start + size);
    if (method === 0) {
      files[name] = text.decode(data);
    } else if (method === 8) {
      if (typeof DecompressionStream === 'undefined') {
        throw new Error(t('app.import.noUnzip'));
      }
      const stream = new Blob([data]).stream().pipeThrough(new DecompressionStream('deflate-raw'));
      files[name] = text.decode(await new Response(stream).arrayBuffer());
    } else {
      throw new Error(t('app.import.unreadable', { name }));
    }
  }
  return files;
}

// Choosing another export file starts over with a check.
document.addEventListener('change', (event) => {
  if (!event.target.matches?.('[data-import-files]')) return;
  const form = event.target.form;
  delete form.dataset.checked;
  form.querySelector('[data-import-submit]').textContent = t('app.import.check');
  form.querySelector('[data-import-report]').replaceChildren();
  form.querySelector('[data-error]').textContent = '';
});

function describeError(error) {
  if (error instanceof APIError) return error.detail;
  if (error instanceof NetworkError) return t('app.noAnswer');
  return String(error.message ?? error);
}

// The session ended (signed out on another device, or expired): sign in again.
function sessionEnded(error) {
  if (!(error instanceof APIError && error.status === 401)) return false;
  location.assign('/signin');
  return true;
}

function showError(scope, error) {
  if (sessionEnded(error)) return;
  const target = scope?.querySelector?.('[data-error]')
    ?? scope?.parentElement?.closest?.('article, section, li')?.querySelector('[data-error]');
  const message = describeError(error);
  // A visible slot is an alert itself; otherwise the live region says it.
  if (target) target.textContent = message;
  else announce(message);
}

function setCounters(wallet) {
  if (!wallet) return;
  document.getElementById('diamonds').textContent = wallet.diamonds;
  document.getElementById('freezes').textContent = wallet.freezes;
  document.querySelectorAll('[data-balance]').forEach((node) => { node.textContent = wallet.diamonds; });
}

// MARK: writes that are safe to repeat

// Each write of an event carries a client event id, kept until the server has answered
// it. When the connection drops after the server stored the event but before its answer
// arrived, pressing the button again sends the same id, and the server answers as it did
// the first time instead of storing a second check-in or purchase.
const unanswered = new Map();

function newEventID() {
  const bytes = crypto.getRandomValues(new Uint8Array(12));
  return `e_web-${Array.from(bytes, (byte) => byte.toString(16).padStart(2, '0')).join('')}`;
}

// `name` names the write ("check-in <habit>"); a press on another day is another write,
// even on a page left open overnight after a failure.
async function sendEvent(name, path, body) {
  const key = `${name} ${new Date().toDateString()}`;
  const eventId = unanswered.get(key) ?? newEventID();
  unanswered.set(key, eventId);
  try {
    const result = await api('POST', path, { ...body, eventId });
    unanswered.delete(key);
    return result;
  } catch (error) {
    // A refusal is an answer; only a lost connection or a server fault keeps the id.
    if (error instanceof APIError && error.status < 500) unanswered.delete(key);
    throw error;
  }
}

// MARK: pack forms

// A pack's form as one event: its type, kind and fixed values, each filled field (numbers
// as numbers, `dates.born` nested), a new id where the form makes one, and the day when it
// is not today. `tap` is the button pressed in a form of taps ({field, value, group}).
function formEvent(form, tap) {
  const payload = { type: form.dataset.type, ...JSON.parse(form.dataset.values || '{}') };
  if (form.dataset.kind) payload.kind = form.dataset.kind;
  for (const element of form.elements) {
    if (!element.name || element.name === 'day' || element.value.trim() === '') continue;
    const value = element.type === 'number' ? Number(element.value) : element.value.trim();
    const path = element.name.split('.');
    let target = payload;
    for (const key of path.slice(0, -1)) target = target[key] ??= {};
    target[path[path.length - 1]] = value;
  }
  if (tap) {
    payload[tap.field] = tap.value;
    if (tap.group) payload.group = tap.group;
  }
  // A stage leaves the stage its method is at.
  const method = form.dataset.type === 'stage' ? form.querySelector('select[name=method]')?.selectedOptions[0] : null;
  if (method?.dataset.from) payload.from = method.dataset.from;
  const day = form.querySelector('input[name=day]');
  if (day && day.value && day.value !== day.dataset.today) payload.day = day.value;
  const newID = form.dataset.newId;
  if (newID && !payload[newID]) {
    const slug = String(payload.name ?? newID).toLowerCase().normalize('NFKD').replace(/[^a-z0-9]+/g, '-')
      .replace(/^-|-$/g, '').slice(0, 40) || newID;
    const bytes = crypto.getRandomValues(new Uint8Array(3));
    payload[newID] = `${slug}-${Array.from(bytes, (b) => b.toString(16).padStart(2, '0')).join('')}`;
  }
  return payload;
}

// Sends one event through the push route; a refusal comes back as the event's result.
async function pushEvent(name, payload) {
  const key = `${name} ${JSON.stringify(payload)}`;
  const id = unanswered.get(key) ?? newEventID();
  unanswered.set(key, id);
  const tz = document.body.dataset.zone || Intl.DateTimeFormat().resolvedOptions().timeZone;
  let result;
  try {
    result = await api('POST', '/v1/events', { events: [{ id, at: new Date().toISOString(), tz, ...payload }] });
  } catch (error) {
    if (error instanceof APIError && error.status < 500) unanswered.delete(key);
    throw error;
  }
  unanswered.delete(key);
  const outcome = result.results?.[0];
  if (outcome && (outcome.status === 'rejected' || outcome.status === 'invalid')) {
    const problem = outcome.error ?? {};
    throw new APIError(problem.message ?? t('app.eventRefused'), 422, {
      error: { code: 'invalid_input', message: problem.message, details: [{ field: problem.field ?? '', issue: problem.message ?? '' }] },
    });
  }
  setCounters(result.wallet);
  return result;
}

// Logs a pack's form (or one of its taps), then shows the page as it now is and whatever
// the entry unlocked.
async function logEntry(form, tap) {
  const payload = formEvent(form, tap);
  for (const field of form.querySelectorAll('[required]')) {
    if (!field.value.trim()) {
      throw new Error(t('app.log.needed', { field: field.labels?.[0]?.textContent.replace('*', '').trim() ?? field.name }));
    }
  }
  await pushEvent(`log ${form.id}`, payload);
  const title = form.querySelector('h3')?.textContent.trim() ?? t('app.log.entry');
  const saved = form.querySelector('[data-saved]');
  if (saved) saved.textContent = tap ? t('app.log.logged', { label: tap.label }) : t('saved');
  announce(tap ? t('app.log.tapLogged', { title, label: tap.label }) : t('app.log.saved', { title }));
  if (!tap) {
    form.reset();
    delete form.dataset.dirty;
    form.dataset.keepUntil = String(Date.now() + 4000);
  }
  await refresh();
  await presentNext().catch(() => {});
}

// MARK: the freeze store

// After a check-in (or an amount logged): the counters, a word for screen readers, the
// page again, seed 000's tier 1 shimmer on the habit's row (not with Reduce Motion), and
// any celebration it brought.
async function checkedIn(result, message) {
  const habit = result.habit.definition.id;
  setCounters(result.wallet);
  announce(message);
  await refresh({ focus: { habit, action: 'check-in' } });
  const row = document.querySelector(`li.habit[data-habit="${CSS.escape(habit)}"]`);
  if (row && !reducedMotion()) {
    row.classList.add('shimmer');
    setTimeout(() => row.classList.remove('shimmer'), 1200);
  }
  // The check-in is stored: a celebration that cannot be fetched now waits for later.
  await presentNext().catch(() => {});
}

// A streak's length in its unit (the habit's `data-unit`: day, week, month, year or period).
function streakLength(count, unit) {
  switch (unit) {
    case 'day': return tn('app.checkIn.day', count);
    case 'week': return tn('app.checkIn.week', count);
    case 'month': return tn('app.checkIn.month', count);
    case 'year': return tn('app.checkIn.year', count);
    case 'period': return tn('app.checkIn.period', count);
    default: return `${number(count)} ${count === 1 ? unit : `${unit}s`}`;
  }
}

// The schedules the habit forms offer, by their option's value.
const schedules = {
  daily: { kind: 'daily' },
  weekdays: { kind: 'weekdays', days: ['monday', 'tuesday', 'wednesday', 'thursday', 'friday'] },
  3: { kind: 'timesPerWeek', count: 3 },
};

// A habit form's goal for a day as the API's `target`: absent for a check-off habit,
// `{atLeast|atMost, unit}` otherwise. The amount is checked here so that the message
// names the field the person sees.
function formTarget(form) {
  const kind = form.elements.target?.value ?? 'check';
  const unit = form.elements.measure?.value.trim() ?? '';
  if (kind === 'check') return unit ? { unit } : {};
  const text = form.elements.amount.value.trim();
  const amount = Number(text);
  if (text === '' || !Number.isFinite(amount)) throw new Error(t('app.goal.needsAmount'));
  if (kind === 'atLeast' && amount <= 0) throw new Error(t('app.goal.atLeastAboveZero'));
  if (amount < 0) throw new Error(t('app.goal.notNegative'));
  return unit ? { [kind]: amount, unit } : { [kind]: amount };
}

// Whether a form's goal fields differ from what the page was rendered with.
function targetChanged(form) {
  const fields = [form.elements.amount, form.elements.measure].filter(Boolean);
  const select = form.elements.target;
  const option = select ? [...select.options].find((o) => o.defaultSelected) ?? select.options[0] : null;
  return (select && option.value !== select.value) || fields.some((field) => field.value !== field.defaultValue);
}

function storeTotal() {
  const form = document.getElementById('store-form');
  const chosen = form.querySelector('input[name=pack]:checked');
  const field = form.querySelector('input[name=days]');
  if (!chosen) return { total: 0, body: null, problem: t('app.store.choose') };
  if (chosen.value === 'custom') {
    const days = Number(field.value);
    const maximum = Number(field.max) || Infinity;
    if (field.value.trim() === '' || !Number.isInteger(days) || days < 1 || days > maximum) {
      const problem = Number.isFinite(maximum)
        ? t('app.store.daysInRange', { maximum: number(maximum) }) : t('app.store.daysAtLeastOne');
      return { total: 0, body: null, problem };
    }
    return { total: days * Number(chosen.dataset.price), body: { days } };
  }
  return { total: Number(chosen.dataset.diamonds), body: { item: chosen.value } };
}

function updateStore() {
  const { total, body, problem } = storeTotal();
  document.getElementById('store-total').textContent = total;
  // Digits only: the counter may be written with the language's thousands separator.
  const balance = Number(document.getElementById('diamonds').textContent.replace(/\D/g, ''));
  const confirm = document.querySelector('[data-action=confirm-purchase]');
  const error = document.getElementById('store-error');
  confirm.disabled = !body || total > balance;
  error.textContent = problem ?? (total > balance ? tn('app.store.needMore', total - balance) : '');
}

// MARK: actions

// Seed 003: a purchase ends with a frost burst, shimmering flakes from the freeze counter
// (decorative: hidden from screen readers, and none with Reduce Motion).
function frostBurst() {
  if (reducedMotion()) return;
  const counter = document.getElementById('freezes')?.closest('.counter');
  const box = counter?.getBoundingClientRect();
  const burst = document.createElement('div');
  burst.className = 'frost-burst';
  burst.setAttribute('aria-hidden', 'true');
  burst.style.left = `${box ? box.left + box.width / 2 : window.innerWidth / 2}px`;
  burst.style.top = `${box ? box.top + box.height / 2 : 80}px`;
  for (let i = 0; i < 18; i += 1) {
    const flake = document.createElement('span');
    const angle = (i / 18) * 2 * Math.PI;
    flake.textContent = i % 3 === 0 ? '❄' : '✦';
    flake.style.setProperty('--dx', `${Math.cos(angle) * (50 + Math.random() * 40)}px`);
    flake.style.setProperty('--dy', `${Math.sin(angle) * (50 + Math.random() * 40)}px`);
    burst.append(flake);
  }
  document.body.append(burst);
  counter?.classList.add('shimmer');
  setTimeout(() => {
    burst.remove();
    counter?.classList.remove('shimmer');
  }, 1200);
}

// Web Push: the service worker (/sw.js) shows what the server pushes and opens its page.
function base64UrlBytes(text) {
  const base64 = text.replace(/-/g, '+').replace(/_/g, '/');
  const raw = atob(base64 + '='.repeat((4 - (base64.length % 4)) % 4));
  return Uint8Array.from(raw, (c) => c.charCodeAt(0));
}

function withTimeout(promise, ms, message) {
  return Promise.race([promise, new Promise((_, reject) => setTimeout(() => reject(new Error(message)), ms))]);
}

if ('serviceWorker' in navigator && document.querySelector('#counters')) {
  navigator.serviceWorker.register('/sw.js').catch(() => {});
}

const actions = {
  async 'enable-push'(button) {
    if (!('serviceWorker' in navigator) || !('PushManager' in window) || !('Notification' in window)) {
      throw new Error(t('app.push.unsupported'));
    }
    button.disabled = true;
    const permission = await Notification.requestPermission();
    if (permission !== 'granted') {
      throw new Error(t('app.push.blocked'));
    }
    const { vapidPublicKey } = await api('GET', '/v1/push-targets');
    const registration = await navigator.serviceWorker.register('/sw.js');
    await navigator.serviceWorker.ready;
    const subscription = await withTimeout(
      registration.pushManager.subscribe({ userVisibleOnly: true, applicationServerKey: base64UrlBytes(vapidPublicKey) }),
      20000, t('app.push.timeout'));
    const { endpoint, keys } = subscription.toJSON();
    await api('POST', '/v1/push-targets', { channel: 'webPush', endpoint, keys });
    announce(t('app.push.on'));
    location.reload();
  },
  async 'remove-push-target'(button) {
    button.disabled = true;
    await api('DELETE', `/v1/push-targets/${encodeURIComponent(button.dataset.target)}`);
    button.closest('li').remove();
    announce(t('app.push.deviceRemoved'));
  },
  async 'check-in'(button) {
    button.disabled = true;
    const habit = button.dataset.habit;
    const result = await sendEvent(`check-in ${habit}`, `/v1/habits/${encodeURIComponent(habit)}/check-ins`, {});
    const streak = result.habit.current;
    const unit = button.closest('[data-unit]')?.dataset.unit ?? 'day';
    await checkedIn(result, t('app.checkIn.done', { name: result.habit.definition.name, streak: streakLength(streak, unit) }));
  },
  async skip(button) {
    const habit = button.dataset.habit;
    await sendEvent(`skip ${habit}`, `/v1/habits/${encodeURIComponent(habit)}/skips`, {});
    announce(t('app.skipped'));
    await refresh();
  },
  async offer(button) {
    const decision = { habit: button.dataset.habit, day: button.dataset.day, accept: button.dataset.accept === 'true' };
    const result = await sendEvent(`offer ${JSON.stringify(decision)}`, '/v1/freeze-offers/decisions', decision);
    setCounters(result.wallet);
    announce(button.dataset.accept === 'true' ? t('app.freezeUsed') : t('app.offerDeclined'));
    await refresh();
  },
  'open-store'() {
    const dialog = document.getElementById('store');
    document.getElementById('store-error').textContent = '';
    updateStore();
    dialog.showModal();
  },
  'close-store'() {
    document.getElementById('store').close();
  },
  async 'confirm-purchase'(button) {
    const { body } = storeTotal();
    if (!body) return;
    button.disabled = true;
    try {
      const result = await sendEvent(`purchase ${JSON.stringify(body)}`, '/v1/store/purchases', body);
      setCounters(result.wallet);
      document.getElementById('store').close();
      frostBurst();
      announce(t('app.store.bought', {
        freezes: tn('app.store.freezes', result.wallet.freezes), diamonds: tn('app.store.diamonds', result.wallet.diamonds),
      }));
    } catch (error) {
      if (!sessionEnded(error)) document.getElementById('store-error').textContent = describeError(error);
    } finally {
      button.disabled = false;
    }
  },
  async 'archive-habit'(button) {
    if (!window.confirm(t('app.confirmArchive', { name: button.dataset.name }))) return;
    const habit = button.dataset.habit;
    await sendEvent(`archive ${habit}`, `/v1/habits/${encodeURIComponent(habit)}/archive`, {});
    location.assign('/today');
  },
  async resume(button) {
    await pushEvent(`resume ${button.dataset.pause}`, { type: 'resume', pause: button.dataset.pause });
    announce(t('app.resumed'));
    await refresh();
  },
  'edit-milestone'(button) {
    const form = document.querySelector('form.milestone-form');
    const definition = JSON.parse(button.dataset.definition || '{}');
    resetMilestoneForm(form);
    form.elements.milestone.value = button.dataset.milestone;
    // A choice the form no longer offers (an archived habit, a kind of another pack, a
    // first where the account logs nothing) is kept, so that saving changes nothing else.
    const offer = (select, value, label) => {
      if (!select || value === undefined || value === '') return;
      if (![...select.options].some((option) => option.value === value)) select.add(new Option(label, value));
      select.value = value;
    };
    offer(form.elements.rule, definition.rule, definition.rule);
    offer(form.elements.breaks, definition.breaks, definition.breaks);
    const source = definition.habit ? `habit:${definition.habit}` : definition.kind ? `kind:${definition.kind}` : '';
    offer(form.elements.source, source, definition.habit ?? definition.kind);
    for (const name of ['title', 'tier', 'badge', 'message', 'item', 'breaksItem', 'target']) {
      if (definition[name] !== undefined && form.elements[name]) form.elements[name].value = String(definition[name]);
    }
    shapeMilestoneForm(form);
    // An edit under way survives the page's live refreshes.
    form.dataset.dirty = 'true';
    form.querySelector('[data-milestone-submit]').textContent = t('app.milestone.saveChanges');
    form.querySelector('[data-action=new-milestone]').hidden = false;
    const details = form.closest('details');
    details.querySelector('[data-milestone-summary]').textContent = t('app.milestone.edit', { title: definition.title ?? '' });
    details.open = true;
    form.elements.title.focus();
  },
  'new-milestone'(button) {
    resetMilestoneForm(button.form);
    button.form.closest('details').open = false;
  },
  async 'delete-milestone'(button) {
    const title = button.dataset.title;
    if (!window.confirm(t('app.milestone.confirmDelete', { title }))) return;
    button.disabled = true;
    await api('DELETE', `/v1/milestones/${encodeURIComponent(button.dataset.milestone)}`);
    announce(t('app.milestone.deleted', { title }));
    await refresh();
  },
  async 'cancel-pause'(button) {
    await pushEvent(`remove ${button.dataset.pause}`, { type: 'removal', event: button.dataset.pause });
    announce(t('app.pauseCancelled'));
    await refresh();
  },
  arrange() {
    const arranging = sessionStorage.getItem('momentum.arranging') === 'true';
    sessionStorage.setItem('momentum.arranging', String(!arranging));
    applyLayout();
    announce(arranging ? t('app.arrange.announceDone') : t('app.arrange.announceStart'));
  },
  async 'move-habit'(button) {
    const row = button.closest('li.habit');
    const step = Number(button.dataset.step);
    const sibling = step < 0 ? row.previousElementSibling : row.nextElementSibling;
    const name = row.querySelector('.habit-name')?.textContent ?? t('app.arrange.theHabitStart');
    if (!sibling) {
      announce(step < 0 ? t('app.arrange.alreadyFirst', { name }) : t('app.arrange.alreadyLast', { name }));
      return;
    }
    row.parentElement.insertBefore(row, step < 0 ? sibling : sibling.nextElementSibling);
    button.focus();
    await saveOrder();
    await refresh();
    document.querySelector(`[data-action=move-habit][data-habit="${CSS.escape(row.dataset.habit)}"][data-step="${step}"]`)?.focus();
    announce(step < 0 ? t('app.arrange.movedUp', { name }) : t('app.arrange.movedDown', { name }));
  },
  async 'unarchive-habit'(button) {
    const habit = button.dataset.habit;
    await pushEvent(`unarchive ${habit}`, { type: 'habit.unarchived', habit });
    announce(t('app.unarchived', { name: button.dataset.name }));
    await refresh();
  },
  async 'delete-account'() {
    // The word to type is the language's own; DELETE is understood in every language.
    const word = t('app.deleteAccount.word');
    const typed = window.prompt(t('app.deleteAccount.prompt', { word }))?.trim().toLocaleUpperCase();
    if (typed !== word.toLocaleUpperCase() && typed !== 'DELETE') return;
    await api('DELETE', '/v1/account');
    location.assign('/signin');
  },
  async 'revoke-device'(button) {
    await api('DELETE', `/v1/devices/${encodeURIComponent(button.dataset.device)}`);
    announce(t('app.deviceSignedOut', { name: button.dataset.name }));
    await refresh();
  },
  day(button) {
    document.querySelectorAll('.calendar .day[aria-pressed=true]').forEach((b) => b.setAttribute('aria-pressed', 'false'));
    button.setAttribute('aria-pressed', 'true');
    document.getElementById('day-detail').textContent = button.dataset.detail;
  },
  async 'log-tap'(button) {
    const form = button.closest('form');
    button.disabled = true;
    try {
      await logEntry(form, {
        field: button.dataset.field, value: button.dataset.value, group: button.dataset.group || null,
        label: button.textContent.replace('✓', '').trim(),
      });
    } finally {
      if (document.contains(button) && button.getAttribute('aria-pressed') !== 'true') button.disabled = false;
    }
  },
  async 'remove-entry'(button) {
    if (!window.confirm(t('app.confirmRemoveEntry', { action: button.getAttribute('aria-label') }))) return;
    await pushEvent(`remove ${button.dataset.event}`, { type: 'removal', event: button.dataset.event });
    announce(t('app.entryRemoved'));
    await refresh();
  },
  async 'read-all'() {
    await api('POST', '/v1/notifications/read', {});
    announce(t('app.allRead'));
    await refresh();
  },
  async 'open-notification'(link) {
    // Read, then open its page (the page opens even if marking it read fails).
    await api('POST', '/v1/notifications/read', { keys: [link.dataset.key] }).catch(() => {});
    location.assign(link.getAttribute('href'));
  },
  async 'remove-subject-photo'(button) {
    await api('DELETE', `/v1/subjects/${encodeURIComponent(button.dataset.subject)}/photo`);
    announce(t('app.photoRemoved'));
    await refresh();
  },
  async 'remove-photo'(button) {
    await api('DELETE', `/v1/memories/${encodeURIComponent(button.dataset.memory)}/photo`);
    announce(t('app.photoRemoved'));
    await refresh();
  },
};

const forms = {
  async 'log-event'(form) {
    await logEntry(form, null);
  },
  async 'create-habit'(form) {
    const data = new FormData(form);
    const definition = {
      name: data.get('name'), schedule: schedules[data.get('schedule')], policy: data.get('policy'),
      difficulty: data.get('difficulty'), category: data.get('category'),
    };
    const target = formTarget(form);
    if (Object.keys(target).length) definition.target = target;
    const group = String(data.get('group') ?? '').trim();
    if (group) definition.group = group;
    const habit = await sendEvent(`create-habit ${JSON.stringify(definition)}`, '/v1/habits', definition);
    announce(t('app.habitCreated', { name: habit.definition.name }));
    form.reset();
    await refresh();
  },
  async 'edit-habit'(form) {
    const data = new FormData(form);
    const changes = { name: data.get('name'), difficulty: data.get('difficulty') };
    if (data.get('category')) changes.category = data.get('category');
    if (targetChanged(form)) changes.target = formTarget(form);
    const group = form.elements.group;
    if (group && group.value.trim() !== group.defaultValue) changes.group = group.value.trim();
    const schedule = form.elements.schedule;
    const keep = [...schedule.options].find((o) => o.defaultSelected)?.value;
    if (schedule.value !== keep && schedules[schedule.value]) changes.schedule = schedules[schedule.value];
    const result = await api('PATCH', `/v1/habits/${encodeURIComponent(form.dataset.habit)}`, changes);
    form.querySelector('[data-saved]').textContent = t('saved');
    announce(t('app.habitSaved', { name: result.definition.name }));
    await refresh();
  },
  async 'log-amount'(form) {
    const habit = form.dataset.habit;
    const text = form.elements.value.value.trim();
    const value = Number(text);
    if (text === '' || !Number.isFinite(value) || value < 0) throw new Error(t('app.amount.invalid'));
    const result = await sendEvent(
      `amount ${habit} ${value}`, `/v1/habits/${encodeURIComponent(habit)}/check-ins`, { value });
    const { logged, remaining } = result.habit.today;
    const unit = result.habit.definition.target?.unit ? ` ${result.habit.definition.target.unit}` : '';
    const amount = { name: result.habit.definition.name, logged: number(logged), unit, remaining: number(remaining) };
    let message = t('app.amount.today', amount);
    if (remaining > 0) message = t('app.amount.toGo', amount);
    else if (result.habit.today.state === 'completed') message = t('app.amount.done', amount);
    await checkedIn(result, message);
  },
  async 'define-milestone'(form) {
    const data = new FormData(form);
    const title = String(data.get('title') ?? '').trim();
    if (!title) throw new Error(t('app.milestone.needsTitle'));
    const rule = String(data.get('rule'));
    const body = { title, rule, tier: Number(data.get('tier') ?? 2) };
    for (const name of ['badge', 'message']) {
      const value = String(data.get(name) ?? '').trim();
      if (value) body[name] = value;
    }
    if (rule !== 'moment') {
      const source = String(data.get('source') ?? '');
      if (!source) throw new Error(t('app.milestone.needsSource'));
      const value = source.slice(source.indexOf(':') + 1);
      if (source.startsWith('habit:')) {
        body.habit = value;
      } else {
        body.kind = value;
        const item = String(data.get('item') ?? '').trim();
        if (item) body.item = item;
        const breaks = String(data.get('breaks') ?? '');
        if (rule === 'streak' && breaks) {
          body.breaks = breaks;
          const breaksItem = String(data.get('breaksItem') ?? '').trim();
          if (breaksItem) body.breaksItem = breaksItem;
        }
      }
      if (rule !== 'first') {
        const target = Number(data.get('target'));
        if (!Number.isInteger(target) || target < 1) throw new Error(t('app.milestone.needsTarget'));
        body.target = target;
      }
    }
    const editing = form.elements.milestone.value;
    const id = editing || milestoneID(title);
    const result = await api('PUT', `/v1/milestones/${encodeURIComponent(id)}`, body);
    const reached = result.unlocks?.length > 0;
    let message = t('app.milestone.added', { title });
    if (reached) message = t('app.milestone.reached', { title });
    else if (editing) message = t('app.milestone.changesSaved', { title });
    announce(message);
    resetMilestoneForm(form);
    form.closest('details').open = false;
    await refresh();
    await presentNext().catch(() => {});
  },
  async pause(form) {
    const data = new FormData(form);
    const payload = { type: 'pause', from: data.get('from'), until: data.get('until') };
    if (form.dataset.habit) payload.habit = form.dataset.habit;
    const note = String(data.get('note') ?? '').trim();
    if (note) payload.note = note;
    if (payload.until < payload.from) throw new Error(t('app.pause.backwards'));
    await pushEvent(`pause ${JSON.stringify(payload)}`, payload);
    announce(t('app.pause.paused', { from: payload.from, until: payload.until }));
    form.reset();
    await refresh();
  },
  // Another app's export: checked first (a dry run that lists what would come in), then
  // imported with a second press.
  async 'import-habits'(form) {
    const chosen = [...form.querySelector('[data-import-files]').files];
    if (!chosen.length) throw new Error(t('app.import.chooseFile'));
    const files = {};
    for (const file of chosen) {
      if (/\.zip$/i.test(file.name)) {
        Object.assign(files, await unzip(file));
      } else {
        // Files chosen one by one lose their folders: each habit's Checkmarks.csv would
        // take the place of the others.
        if (files[file.name] !== undefined) {
          throw new Error(t('app.import.sameName', { name: file.name }));
        }
        files[file.name] = await file.text();
      }
    }
    // Loop's scores are its own arithmetic; the server has no use for them.
    for (const name of Object.keys(files)) if (/(^|\/)scores\.csv$/i.test(name)) delete files[name];
    const source = Object.keys(files).some((name) => /\.json$/i.test(name)) ? 'beaver' : 'loop';
    const key = chosen.map((file) => `${file.name}:${file.size}:${file.lastModified}`).join('|');
    const dryRun = form.dataset.checked !== key;
    const slot = form.querySelector('[data-import-report]');
    let report;
    try {
      report = await api('POST', '/v1/imports', { source, files, dryRun });
    } catch (error) {
      delete form.dataset.checked;
      form.querySelector('[data-import-submit]').textContent = t('app.import.check');
      const details = error instanceof APIError && error.body?.error?.code === 'invalid_import'
        ? error.body.error.details ?? [] : [];
      if (!details.length) throw error;
      const list = document.createElement('ul');
      list.className = 'problems';
      for (const detail of details) {
        const item = document.createElement('li');
        const where = document.createElement('code');
        where.textContent = detail.field;
        item.append(where, ` ${detail.issue}`);
        list.append(item);
      }
      slot.replaceChildren(list);
      throw new Error(tn('app.import.nothingImported', details.length));
    }
    const heading = document.createElement('p');
    const newHabits = report.habits.filter((habit) => habit.new).length;
    const counts = { habits: tn('app.import.newHabits', newHabits), entries: tn('app.import.entries', report.stored) };
    heading.textContent = dryRun ? t('app.import.ready', counts) : t('app.import.imported', counts);
    if (report.alreadyImported) heading.textContent += ` ${tn('app.import.importedBefore', report.alreadyImported)}`;
    const habits = document.createElement('ul');
    for (const habit of report.habits) {
      const item = document.createElement('li');
      const name = document.createElement('strong');
      name.textContent = habit.name;
      const parts = [tn('app.import.checkIns', habit.checkIns)];
      if (habit.skips) parts.push(tn('app.import.skips', habit.skips));
      if (habit.archived) parts.push(t('app.import.archived'));
      if (!habit.new) parts.push(t('app.import.alreadyHere'));
      item.append(name, ` — ${parts.join(', ')}`);
      habits.append(item);
    }
    const notes = document.createElement('ul');
    notes.className = 'muted';
    for (const note of report.notes) {
      const item = document.createElement('li');
      item.textContent = note;
      notes.append(item);
    }
    if (report.future) {
      const item = document.createElement('li');
      item.textContent = tn('app.import.future', report.future);
      notes.append(item);
    }
    slot.replaceChildren(heading, habits, notes);
    const submit = form.querySelector('[data-import-submit]');
    if (dryRun) {
      form.dataset.checked = key;
      submit.textContent = newHabits || report.stored ? t('app.import.import') : t('app.import.check');
      if (!report.stored) delete form.dataset.checked;
      announce(heading.textContent);
    } else {
      delete form.dataset.checked;
      submit.textContent = t('app.import.check');
      const link = document.createElement('a');
      link.href = '/today';
      link.textContent = t('app.import.seeThem');
      heading.append(' ', link);
      announce(heading.textContent);
    }
  },
  async 'change-password'(form) {
    const data = new FormData(form);
    const result = await api('POST', '/v1/account/password', {
      currentPassword: data.get('currentPassword'), newPassword: data.get('newPassword'),
      signOutOtherDevices: data.get('signOutOtherDevices') === 'on',
    });
    form.reset();
    const others = result.signedOutDevices;
    const message = others ? tn('app.password.othersSignedOut', others) : t('app.password.changed');
    form.querySelector('[data-saved]').textContent = message;
    announce(message);
    await refresh();
  },
  async 'save-note'(form) {
    const memory = form.dataset.memory;
    await api('PATCH', `/v1/memories/${encodeURIComponent(memory)}`, { note: new FormData(form).get('note') });
    form.querySelector('[data-saved]').textContent = t('saved');
    announce(t('app.noteSaved'));
  },
  async 'save-profile'(form) {
    const data = new FormData(form);
    const checked = (name) => form.querySelector(`[name=${name}]`).checked;
    const packs = data.getAll('packs');
    if (!packs.length) throw new Error(t('app.needsPack'));
    await api('PATCH', '/v1/profile', {
      packs, displayName: data.get('displayName'), celebrationStyle: data.get('celebrationStyle'),
      reduceMotion: checked('reduceMotion'), doNotDisturb: checked('doNotDisturb'),
      timeZone: data.get('timeZone'), dayStartHour: Number(data.get('dayStartHour')),
      language: data.get('language') || null,
      notifications: {
        reminders: checked('reminders'), celebrations: checked('celebrations'), weeklySummary: checked('weeklySummary'),
        streakAtRisk: checked('streakAtRisk'), streakBroken: checked('streakBroken'), freezes: checked('freezes'),
        reminderHour: data.get('reminderHour') === '' ? null : Number(data.get('reminderHour')),
        weeklyDay: data.get('weeklyDay'), weeklyHour: Number(data.get('weeklyHour')),
        quietHours: checked('quiet') ? { from: data.get('quietFrom'), to: data.get('quietTo') } : null,
        dailyCap: data.get('dailyCap') === '' ? null : Number(data.get('dailyCap')),
      },
    });
    document.body.dataset.reduceMotion = String(checked('reduceMotion'));
    form.querySelector('[data-saved]').textContent = t('saved');
    form.querySelector('[data-error]').textContent = '';
    announce(t('app.preferencesSaved'));
    // So do the language (every word on the page) and what the account tracks.
    if (packs.join('+') !== form.dataset.packs || (data.get('language') ?? '') !== (form.dataset.language ?? '')) {
      location.reload();
    }
  },
};

Object.assign(actions, socialActions(refresh));
Object.assign(forms, socialForms(refresh));
watchRoles(refresh, showError);

document.addEventListener('click', async (event) => {
  const button = event.target.closest('[data-action]');
  if (!button || button.tagName === 'FORM' || button.tagName === 'INPUT') return;
  const action = actions[button.dataset.action];
  if (!action) return;
  event.preventDefault();
  try {
    await action(button);
  } catch (error) {
    button.disabled = false;
    showError(button.closest('article, form, section, li'), error);
  }
});

document.addEventListener('submit', async (event) => {
  const form = event.target.closest('form[data-action]');
  if (!form || !forms[form.dataset.action]) return;
  event.preventDefault();
  const submit = form.querySelector('[type=submit]');
  if (submit) submit.disabled = true;
  try {
    form.querySelector('[data-error]')?.replaceChildren();
    await forms[form.dataset.action](form);
    delete form.dataset.dirty;
    form.dataset.keepUntil = String(Date.now() + 4000);
  } catch (error) {
    showError(form, error);
  } finally {
    if (submit) submit.disabled = false;
  }
});

// A stage form offers the stages of the method chosen.
function filterStages(form) {
  const method = form.querySelector('select[name=method]')?.value;
  const stages = form.querySelector('select[name=to]');
  if (!stages) return;
  for (const group of stages.querySelectorAll('optgroup')) {
    group.hidden = Boolean(method) && group.dataset.method !== method;
    group.disabled = group.hidden;
  }
  if (stages.selectedOptions[0]?.dataset.method && stages.selectedOptions[0].dataset.method !== method) stages.value = '';
  // The next stage is the likely one.
  const next = form.querySelector('select[name=method]')?.selectedOptions[0]?.dataset.next;
  if (next && !stages.value) stages.value = next;
}

document.addEventListener('change', async (event) => {
  const input = event.target;
  if (input.closest?.('#store-form')) return updateStore();
  if (input.name === 'method' && input.form?.dataset.type === 'stage') return filterStages(input.form);
  if ((input.name === 'rule' || input.name === 'source') && input.form?.classList.contains('milestone-form')) {
    return shapeMilestoneForm(input.form);
  }
  const action = input.dataset?.action;
  if ((action !== 'upload-photo' && action !== 'upload-subject-photo') || !input.files?.length) return;
  const path = action === 'upload-photo'
    ? `/v1/memories/${encodeURIComponent(input.dataset.memory)}/photo`
    : `/v1/subjects/${encodeURIComponent(input.dataset.subject)}/photo`;
  const label = input.closest('label');
  label?.classList.add('busy');
  try {
    await api('PUT', path, input.files[0]);
    announce(t('app.photoAdded'));
    await refresh();
  } catch (error) {
    showError(input.closest('article, .subject-card'), error);
  } finally {
    label?.classList.remove('busy');
    input.value = '';
  }
});

// MARK: share cards

// "Download PNG" takes the server's PNG when it can make one; a server without its
// rasterizer (rsvg-convert) answers that it cannot, and the browser then draws the SVG card
// on a canvas of the card's size and saves that: a PNG on any machine.
async function rasterize(svgURL, width, height) {
  const response = await fetch(svgURL, { credentials: 'same-origin' });
  if (!response.ok) throw new APIError(t('app.card.notLoaded', { status: response.status }), response.status, null);
  const url = URL.createObjectURL(await response.blob());
  try {
    const image = new Image();
    await new Promise((resolve, reject) => {
      image.onload = resolve;
      image.onerror = () => reject(new Error(t('app.card.notDrawn')));
      image.src = url;
    });
    const canvas = document.createElement('canvas');
    canvas.width = width;
    canvas.height = height;
    canvas.getContext('2d').drawImage(image, 0, 0, width, height);
    return await new Promise((resolve, reject) => {
      canvas.toBlob((blob) => (blob ? resolve(blob) : reject(new Error(t('app.card.noPNG')))), 'image/png');
    });
  } finally {
    URL.revokeObjectURL(url);
  }
}

function save(blob, name) {
  const url = URL.createObjectURL(blob);
  const link = Object.assign(document.createElement('a'), { href: url, download: name });
  document.body.append(link);
  link.click();
  link.remove();
  setTimeout(() => URL.revokeObjectURL(url), 10_000);
}

document.addEventListener('click', async (event) => {
  const link = event.target.closest?.('a[data-download=png]');
  if (!link) return;
  event.preventDefault();
  const slot = link.parentElement.querySelector('[data-error]');
  if (slot) slot.textContent = '';
  try {
    let blob = null;
    try {
      const response = await fetch(link.href, { credentials: 'same-origin' });
      if (response.ok && response.headers.get('Content-Type')?.startsWith('image/png')) blob = await response.blob();
    } catch {
      blob = null; // No answer: the browser can still draw it if the SVG loads.
    }
    blob ??= await rasterize(link.dataset.svg, Number(link.dataset.width), Number(link.dataset.height));
    save(blob, link.getAttribute('download'));
    announce(t('app.card.downloaded'));
  } catch (error) {
    if (slot) slot.textContent = describeError(error);
    else announce(describeError(error));
  }
});

// The calendar is one Tab stop; the arrow keys move a day (left, right) or a week (up,
// down), Home and End to its first and last day, Enter or Space shows the day.
document.addEventListener('keydown', (event) => {
  const day = event.target.closest?.('.calendar button.day');
  if (!day || event.altKey || event.ctrlKey || event.metaKey) return;
  const days = [...document.querySelectorAll('.calendar button.day')];
  const index = days.indexOf(day);
  const moves = { ArrowLeft: -1, ArrowRight: 1, ArrowUp: -7, ArrowDown: 7 };
  let next = index;
  if (event.key in moves) next = index + moves[event.key];
  else if (event.key === 'Home') next = 0;
  else if (event.key === 'End') next = days.length - 1;
  else return;
  event.preventDefault();
  next = Math.max(0, Math.min(days.length - 1, next));
  days.forEach((button) => { button.tabIndex = -1; });
  days[next].tabIndex = 0;
  days[next].focus();
});

// Enter in the store (in the custom number of days) buys; the dialog form would otherwise
// close the store as Cancel does.
document.getElementById('store-form')?.addEventListener('submit', (event) => {
  event.preventDefault();
  const confirm = document.querySelector('[data-action=confirm-purchase]');
  if (!confirm.disabled) actions['confirm-purchase'](confirm);
});

document.addEventListener('input', (event) => {
  if (event.target.closest?.('#store-form')) {
    // Typing a number of days means buying that many.
    if (event.target.name === 'days') document.querySelector('#store-form input[value=custom]').checked = true;
    updateStore();
  }
});

// What the user changed in a form and has not saved yet survives a live refresh.
for (const type of ['input', 'change']) {
  document.addEventListener(type, (event) => {
    const form = event.target.closest?.('main form[data-action]');
    if (form) form.dataset.dirty = 'true';
  });
}

// The sign-up form starts in the browser's own zone.
const zoneSelect = document.querySelector('[data-detect-zone]');
if (zoneSelect) {
  const zone = Intl.DateTimeFormat().resolvedOptions().timeZone;
  if ([...zoneSelect.options].some((option) => option.value === zone || option.text === zone)) zoneSelect.value = zone;
}

applyLayout();

if (signedIn()) {
  // Live: another device's change re-renders this page. The stream is closed when the
  // page is left (a browser allows only six connections per server, and a kept page would
  // hold its stream open) and opened again if the page comes back from the history cache.
  let stream = null;
  let timer = null;
  const open = () => {
    stream = new EventSource('/v1/stream');
    stream.addEventListener('change', () => {
      // Several changes in a burst (a batch, this tab's own write) re-render once.
      clearTimeout(timer);
      timer = setTimeout(() => refresh({ live: true }), 150);
    });
    stream.addEventListener('ready', () => { document.body.dataset.live = 'true'; });
  };
  open();
  window.addEventListener('pagehide', () => { stream?.close(); stream = null; });
  window.addEventListener('pageshow', (event) => {
    if (event.persisted && !stream) {
      open();
      refresh();
    }
  });
  startSession().catch(() => {});
}
