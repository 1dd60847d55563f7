// What every page's actions share: a failure's words beside what was pressed, the end of a
// session, and the wallet's counters in the top bar.
import { announce, APIError, NetworkError } from './api.js';
import { t } from './i18n.js';

// A failed action's reason, beside what was pressed; a request that never got an answer
// (api.js's NetworkError) says so in words rather than the browser's own.
export function describeError(error) {
  if (error instanceof APIError) return error.detail;
  if (error instanceof NetworkError) return t('app.noAnswer');
  return String(error.message ?? error);
}

// The session ended (signed out on another device, or expired): sign in again.
export function sessionEnded(error) {
  if (!(error instanceof APIError && error.status === 401)) return false;
  location.assign('/signin');
  return true;
}

export function showError(scope, error) {
  if (sessionEnded(error)) return;
  const target = scope?.querySelector?.('[data-error]')
    ?? scope?.parentElement?.closest?.('article, section, li')?.querySelector('[data-error]');
  const message = describeError(error);
  // A visible slot is an alert itself; otherwise the live region says it.
  if (target) target.textContent = message;
  else announce(message);
}

export function setCounters(wallet) {
  if (!wallet) return;
  document.getElementById('diamonds').textContent = wallet.diamonds;
  document.getElementById('freezes').textContent = wallet.freezes;
  document.querySelectorAll('[data-balance]').forEach((node) => { node.textContent = wallet.diamonds; });
}
