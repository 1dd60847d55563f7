// The habit list's layout: groups collapsed or open, and the order of habits, arranged by
// dragging a row or with the move buttons.
import { announce } from './api.js';
import { t } from './i18n.js';
import { afterRender, refresh } from './refresh.js';
import { showError } from './common.js';
import { pushEvent } from './events.js';

// Collapsed groups are remembered per browser; arranging lasts while the tab is open. Both
// are applied again after each refresh, which replaces the page's content.
const collapsedKey = 'momentum.collapsedGroups';
function collapsedGroups() {
  try { return new Set(JSON.parse(localStorage.getItem(collapsedKey) ?? '[]')); } catch { return new Set(); }
}

export function applyLayout() {
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
}

afterRender(applyLayout);

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

export const actions = {
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
};
