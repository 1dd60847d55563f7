// Momentum's service worker: shows the server's Web Push notifications, opens the right
// page when one is clicked, and keeps the push subscription registered when the browser
// renews it. It caches nothing: every page comes fresh from the server.

const FALLBACK_URL = '/notifications';
const ICON = '/static/icon.svg';

// A new version takes over at once: there is no cached state for old pages to depend on.
self.addEventListener('install', () => {
  self.skipWaiting();
});

self.addEventListener('activate', (event) => {
  event.waitUntil(self.clients.claim());
});

// Only a path on this origin: a push must never send the user to another site. The
// resolved origin is checked too, since URL parsing reads '/\host' and '/\t/host' as '//host'.
function safePath(url) {
  if (typeof url !== 'string' || !url.startsWith('/') || url.startsWith('//')) return FALLBACK_URL;
  try {
    return new URL(url, self.location.origin).origin === self.location.origin ? url : FALLBACK_URL;
  } catch {
    return FALLBACK_URL;
  }
}

// The payload is the server's JSON; anything else (or one without a title) still shows,
// as a generic notification, so that a push is never silently dropped.
function readPayload(data) {
  if (!data) return { title: 'Momentum', body: '', url: FALLBACK_URL };
  let text = '';
  try {
    text = data.text();
    const payload = JSON.parse(text);
    if (payload && typeof payload === 'object' && typeof payload.title === 'string' && payload.title) {
      return payload;
    }
  } catch {
    // Not JSON: the text itself is the message.
  }
  return { title: 'Momentum', body: text, url: FALLBACK_URL };
}

self.addEventListener('push', (event) => {
  const payload = readPayload(event.data);
  const url = safePath(payload.url);
  const key = typeof payload.key === 'string' && payload.key ? payload.key : undefined;
  event.waitUntil((async () => {
    await self.registration.showNotification(payload.title, {
      body: typeof payload.body === 'string' ? payload.body : '',
      tag: key, // a notification sent again (a retry) replaces the one shown
      data: { url, key },
      icon: ICON,
      badge: ICON,
      timestamp: Date.parse(payload.at) || Date.now(),
    });
    // Open pages refresh their bell.
    const windows = await self.clients.matchAll({ type: 'window', includeUncontrolled: true });
    for (const client of windows) client.postMessage({ type: 'momentum-notification', key });
  })());
});

self.addEventListener('notificationclick', (event) => {
  event.notification.close();
  const url = new URL(safePath(event.notification.data?.url), self.location.origin).href;
  event.waitUntil((async () => {
    const windows = await self.clients.matchAll({ type: 'window', includeUncontrolled: true });
    const client = windows.find((c) => new URL(c.url).origin === self.location.origin);
    if (!client) {
      await self.clients.openWindow(url);
      return;
    }
    // navigate() resolves to null for a page this worker does not control; focusing the
    // window still shows the user where the click went.
    let target = client;
    try {
      target = (await client.navigate(url)) ?? client;
    } catch {
      // An uncontrolled page cannot be navigated from here: open a new window instead.
      await self.clients.openWindow(url);
      return;
    }
    try {
      await target.focus();
    } catch {
      // Focusing needs a user gesture on some browsers; the page has navigated anyway.
    }
  })());
});

// The browser renewed the subscription (keys rotated or expired): register the new one,
// with the server's same key. Failures are ignored: the page registers again on its next visit.
self.addEventListener('pushsubscriptionchange', (event) => {
  event.waitUntil((async () => {
    try {
      const applicationServerKey = event.oldSubscription?.options?.applicationServerKey;
      const sub = event.newSubscription
        ?? await self.registration.pushManager.subscribe({ userVisibleOnly: true, applicationServerKey });
      const { p256dh, auth } = sub.toJSON().keys ?? {};
      await fetch('/v1/push-targets', {
        method: 'POST',
        credentials: 'same-origin',
        headers: { 'Content-Type': 'application/json', 'X-Momentum-Client': 'web' },
        body: JSON.stringify({ channel: 'webPush', endpoint: sub.endpoint, keys: { p256dh, auth } }),
      });
    } catch {
      // Nothing to do: see above.
    }
  })());
});
