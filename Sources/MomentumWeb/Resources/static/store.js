// The freeze store: a pack or a number of days bought with diamonds, ending in a frost burst.
import { announce, reducedMotion } from './api.js';
import { t, tn, number } from './i18n.js';
import { describeError, sessionEnded, setCounters } from './common.js';
import { sendEvent } from './events.js';

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

export const actions = {
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
};

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

document.addEventListener('change', (event) => {
  if (event.target.closest?.('#store-form')) updateStore();
});
