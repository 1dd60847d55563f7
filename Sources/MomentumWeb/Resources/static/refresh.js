// Re-rendering the page from the server: the one way every page shows a change, the user's
// own or another device's. Modules that arrange what the server rendered (collapsed
// groups, the milestone form's fields) register with afterRender and run after each one.

export const signedIn = () => Boolean(document.querySelector('.topbar'));

const renderers = [];

// Runs `arrange` after each refresh (which replaces the page's content), and from render().
export function afterRender(arrange) {
  renderers.push(arrange);
}

// Arranges the page as it now is: at start, and after each refresh.
export function render() {
  for (const arrange of renderers) arrange();
}

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
    render();
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

// A form's identity across refreshes.
export function formKey(form) {
  return form.id || `${form.dataset.action}:${form.dataset.memory ?? form.dataset.habit ?? ''}`;
}
