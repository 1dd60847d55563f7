// Momentum's web app: pages come rendered from the server; this module makes them
// interactive (check-ins, the store, memories, preferences), keeps them live through the
// server-sent event stream, and hands milestones to the celebration module. Each page's
// or concern's actions live in their own module; this one dispatches to them.
import { startSession } from './celebrate.js';
import { socialActions, socialForms, watchRoles } from './social.js';
import { refresh, render, signedIn } from './refresh.js';
import { showError } from './common.js';
import * as layout from './layout.js';
import * as milestones from './milestones.js';
import * as packs from './packs.js';
import * as habits from './habits.js';
import * as store from './store.js';
import * as imports from './imports.js';
import * as memories from './memories.js';
import * as notifications from './notifications.js';
import * as account from './account.js';

// Buttons and links by their `data-action`, forms by theirs.
const actions = {
  ...notifications.actions, ...habits.actions, ...store.actions, ...milestones.actions, ...layout.actions,
  ...account.actions, ...packs.actions, ...memories.actions,
};
const forms = {
  ...packs.forms, ...habits.forms, ...milestones.forms, ...imports.forms, ...account.forms, ...memories.forms,
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

// What the user changed in a form and has not saved yet survives a live refresh.
for (const type of ['input', 'change']) {
  document.addEventListener(type, (event) => {
    const form = event.target.closest?.('main form[data-action]');
    if (form) form.dataset.dirty = 'true';
  });
}

render();

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
