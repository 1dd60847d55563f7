// Habits: checking in (or logging an amount), skipping, freeze offers, pauses, archiving,
// creating and editing one, and a habit's calendar.
import { api, announce, reducedMotion } from './api.js';
import { presentNext } from './celebrate.js';
import { t, tn, number } from './i18n.js';
import { refresh } from './refresh.js';
import { setCounters } from './common.js';
import { sendEvent, pushEvent } from './events.js';

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

export const actions = {
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
  async 'cancel-pause'(button) {
    await pushEvent(`remove ${button.dataset.pause}`, { type: 'removal', event: button.dataset.pause });
    announce(t('app.pauseCancelled'));
    await refresh();
  },
  async 'unarchive-habit'(button) {
    const habit = button.dataset.habit;
    await pushEvent(`unarchive ${habit}`, { type: 'habit.unarchived', habit });
    announce(t('app.unarchived', { name: button.dataset.name }));
    await refresh();
  },
  day(button) {
    document.querySelectorAll('.calendar .day[aria-pressed=true]').forEach((b) => b.setAttribute('aria-pressed', 'false'));
    button.setAttribute('aria-pressed', 'true');
    document.getElementById('day-detail').textContent = button.dataset.detail;
  },
};

export const forms = {
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
};
