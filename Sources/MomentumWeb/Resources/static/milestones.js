// Your own milestones: the form that defines one (showing the fields its rule takes),
// editing and deleting one.
import { api, announce } from './api.js';
import { presentNext } from './celebrate.js';
import { t } from './i18n.js';
import { afterRender, refresh } from './refresh.js';

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

afterRender(() => {
  for (const form of document.querySelectorAll('form.milestone-form')) shapeMilestoneForm(form);
});

document.addEventListener('change', (event) => {
  const input = event.target;
  if ((input.name === 'rule' || input.name === 'source') && input.form?.classList.contains('milestone-form')) {
    shapeMilestoneForm(input.form);
  }
});

export const actions = {
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
};

export const forms = {
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
};
