// Notifications: Web Push turned on for this browser (or a device's removed), and the
// notification list read.
import { api, announce } from './api.js';
import { t } from './i18n.js';
import { refresh } from './refresh.js';

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

export const actions = {
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
};
