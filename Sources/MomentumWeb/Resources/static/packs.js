// A pack's forms: an entry logged from its fields or one of its taps, an entry removed, and
// a stage form's choice of stages.
import { announce } from './api.js';
import { presentNext } from './celebrate.js';
import { t } from './i18n.js';
import { refresh } from './refresh.js';
import { pushEvent } from './events.js';

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

document.addEventListener('change', (event) => {
  const input = event.target;
  if (input.name === 'method' && input.form?.dataset.type === 'stage') filterStages(input.form);
});

export const actions = {
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
};

export const forms = {
  async 'log-event'(form) {
    await logEntry(form, null);
  },
};
