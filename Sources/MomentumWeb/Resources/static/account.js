// The account: preferences, the password, devices signed in, deleting the account, and
// the sign-up form's time zone.
import { api, announce } from './api.js';
import { t, tn } from './i18n.js';
import { refresh } from './refresh.js';

export const actions = {
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
};

export const forms = {
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

// The sign-up form starts in the browser's own zone.
const zoneSelect = document.querySelector('[data-detect-zone]');
if (zoneSelect) {
  const zone = Intl.DateTimeFormat().resolvedOptions().timeZone;
  if ([...zoneSelect.options].some((option) => option.value === zone || option.text === zone)) zoneSelect.value = zone;
}
