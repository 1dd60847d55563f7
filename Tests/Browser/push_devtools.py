"""Web Push in headless Chromium, for the browser tests, over the DevTools protocol.

Real push services are out of reach here, and headless Chromium has no notification UI to
click, so these helpers stand in for both, while the app's own service worker (sw.js) does
the rest:

    grant_notifications(driver, origin)        # Notification.permission === 'granted'
    deliver_push(driver, origin, {"title": ..., "url": "/habits/read", "key": ...})
    shown = shown_notifications(driver)        # what the worker showed
    click_notification(driver, shown[0]["tag"])  # runs sw.js's notificationclick handler

`driver` is a Selenium `webdriver.Chrome` whose current page is on the app's origin with
the service worker registered and active.

Two things need more than `driver.execute_cdp_cmd` (which cannot receive events, nor talk
to another target): the registration's id (Chromium's own number, which
`ServiceWorker.deliverPushMessage` takes, is only told by the `ServiceWorker` domain's
events) and code run inside the service worker. For those the helpers open a second
DevTools connection to the browser, at the address chromedriver reports
(`goog:chromeOptions.debuggerAddress`), with websocket-client, which Selenium itself depends
on. Each call opens its own connection, and closing it detaches every session it made.
"""

import json
import time
import urllib.request

import websocket  # websocket-client, a dependency of selenium

DEFAULT_TIMEOUT = 10


class PushDevToolsError(RuntimeError):
    """Something these helpers could not do, with what to check."""


# -- The DevTools connection --------------------------------------------------------------

class _DevTools:
    """One connection to the browser's DevTools endpoint, beside chromedriver's own."""

    def __init__(self, driver, timeout):
        self.timeout = timeout
        self.events = []
        self.next_id = 0
        address = (driver.capabilities.get("goog:chromeOptions") or {}).get("debuggerAddress")
        if not address:
            raise PushDevToolsError(
                "chromedriver reported no DevTools address (goog:chromeOptions.debuggerAddress): "
                "is this a local Chromium started by chromedriver?")
        try:
            with urllib.request.urlopen(f"http://{address}/json/version", timeout=timeout) as response:
                url = json.load(response)["webSocketDebuggerUrl"]
            # Chromium refuses DevTools connections that send an Origin header.
            self.socket = websocket.create_connection(url, timeout=timeout, suppress_origin=True)
        except (OSError, KeyError, ValueError, websocket.WebSocketException) as error:
            raise PushDevToolsError(f"cannot connect to Chromium's DevTools at {address}: {error}") from error

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.socket.close()

    def _receive(self, deadline):
        remaining = deadline - time.time()
        if remaining <= 0:
            return None
        self.socket.settimeout(remaining)
        try:
            return json.loads(self.socket.recv())
        except websocket.WebSocketTimeoutException:
            return None

    def call(self, method, params=None, session=None):
        """Sends one command (to `session`, else to the browser) and returns its result;
        events that arrive meanwhile are kept for `wait_for_event`."""
        self.next_id += 1
        message = {"id": self.next_id, "method": method, "params": params or {}}
        if session:
            message["sessionId"] = session
        self.socket.send(json.dumps(message))
        deadline = time.time() + self.timeout
        while True:
            reply = self._receive(deadline)
            if reply is None:
                raise PushDevToolsError(f"DevTools did not answer {method} within {self.timeout} s")
            if reply.get("id") == self.next_id:
                if "error" in reply:
                    raise PushDevToolsError(f"DevTools refused {method}: {reply['error'].get('message')}")
                return reply.get("result", {})
            if "method" in reply:
                self.events.append(reply)

    def wait_for_event(self, found, timeout):
        """Reads events (those kept, then new ones) until `found(event)` returns a value
        other than None, and returns it; None when `timeout` passes first."""
        deadline = time.time() + timeout
        seen = 0
        while True:
            while seen < len(self.events):
                value = found(self.events[seen])
                seen += 1
                if value is not None:
                    return value
            event = self._receive(deadline)
            if event is None:
                return None
            if "method" in event:
                self.events.append(event)


def _page_target(driver):
    """The DevTools target id of the driver's current page."""
    return driver.execute_cdp_cmd("Target.getTargetInfo", {})["targetInfo"]["targetId"]


def _worker(devtools, driver, running, timeout):
    """The service worker controlling the driver's page: {registrationId, scopeURL,
    targetId, pageSession}. Its registration's id is told only by the ServiceWorker
    domain's events, to a session on the page (pageSession, which stays attached until the
    connection closes). With `running`, a stopped worker is started, so that it has a
    target to run code in."""
    page_url = driver.current_url
    session = devtools.call("Target.attachToTarget", {"targetId": _page_target(driver), "flatten": True})["sessionId"]
    registrations = {}  # registrationId -> scopeURL (of every origin: the page's is picked)
    versions = {}  # versionId -> the version, latest state
    started = False  # startWorker was sent

    def pick():
        # The registration whose scope is the longest prefix of the page (the one that
        # controls it), with an activated version.
        best = None
        for version in versions.values():
            scope = registrations.get(version["registrationId"])
            if scope is None or version["status"] != "activated" or not page_url.startswith(scope):
                continue
            if best is None or len(scope) > len(best["scopeURL"]):
                best = {"registrationId": version["registrationId"], "scopeURL": scope,
                        "runningStatus": version["runningStatus"],
                        "targetId": version.get("targetId") if version["runningStatus"] == "running" else None}
        return best

    def update(event):
        params = event["params"]
        if event["method"] == "ServiceWorker.workerRegistrationUpdated":
            for registration in params["registrations"]:
                if registration.get("isDeleted"):
                    registrations.pop(registration["registrationId"], None)
                else:
                    registrations[registration["registrationId"]] = registration["scopeURL"]
        elif event["method"] == "ServiceWorker.workerVersionUpdated":
            for version in params["versions"]:
                versions[version["versionId"]] = version
        else:
            return None
        worker = pick()
        if worker is None:
            return None
        if not running or worker["targetId"] or (worker["runningStatus"] == "stopped" and not started):
            return worker
        return None  # starting (or stopping): its next update tells

    devtools.call("ServiceWorker.enable", session=session)
    worker = devtools.wait_for_event(update, timeout)
    if worker and running and not worker["targetId"]:
        # Registered and active, but stopped (idle): start it and wait until it runs.
        started = True
        devtools.call("ServiceWorker.startWorker", {"scopeURL": worker["scopeURL"]}, session=session)
        worker = devtools.wait_for_event(update, timeout)
    if worker is None:
        state = ("its worker did not start" if pick() else
                 "no activated service worker controls it (did the page register /sw.js and wait "
                 "for navigator.serviceWorker.ready?)")
        raise PushDevToolsError(f"no service worker for {page_url} within {timeout} s: {state}")
    return dict(worker, pageSession=session)


# -- What the tests call -------------------------------------------------------------------

def grant_notifications(driver, origin):
    """Grants `origin` (e.g. 'http://127.0.0.1:8080') the notifications permission, so
    that `Notification.permission === 'granted'` and the worker's showNotification works.
    (The page session accepts the Browser domain's command.)"""
    driver.execute_cdp_cmd("Browser.grantPermissions", {"origin": origin, "permissions": ["notifications"]})


def deliver_push(driver, origin, payload, timeout=DEFAULT_TIMEOUT):
    """Delivers a push message to the service worker of the driver's page, as a push
    service would (the browser hands the worker's `push` event the payload, already
    decrypted). `payload` is a dict (sent as JSON) or a str (sent as it is). Returns the
    registration's id.

    CDP: ServiceWorker.enable on the page (its events tell the registration's id), then
    ServiceWorker.deliverPushMessage(origin, registrationId, data)."""
    data = payload if isinstance(payload, str) else json.dumps(payload)
    origin = origin.rstrip("/")
    with _DevTools(driver, timeout) as devtools:
        worker = _worker(devtools, driver, running=False, timeout=timeout)
        devtools.call("ServiceWorker.deliverPushMessage",
                      {"origin": origin, "registrationId": worker["registrationId"], "data": data},
                      session=worker["pageSession"])
        return worker["registrationId"]


_GET_NOTIFICATIONS = """
const done = arguments[arguments.length - 1];
navigator.serviceWorker.ready
  .then((r) => r.getNotifications())
  .then((ns) => done(ns.map((n) => ({ title: n.title, body: n.body, tag: n.tag, data: n.data }))),
        (e) => done({ error: String(e) }));
"""


def shown_notifications(driver, at_least=1, timeout=DEFAULT_TIMEOUT):
    """The notifications the page's service worker registration shows now, as dicts
    {title, body, tag, data}, once there are at least `at_least` of them (0: at once).
    Raises PushDevToolsError when that many do not show within `timeout` seconds."""
    deadline = time.time() + timeout
    while True:
        shown = driver.execute_async_script(_GET_NOTIFICATIONS)
        if isinstance(shown, dict):
            raise PushDevToolsError(f"getNotifications failed: {shown['error']}")
        if len(shown) >= at_least:
            return shown
        if time.time() >= deadline:
            permission = driver.execute_script("return Notification.permission")
            hint = "" if permission == "granted" else " (call grant_notifications first)"
            raise PushDevToolsError(
                f"{len(shown)} notification(s) shown after {timeout} s, expected {at_least}; "
                f"Notification.permission is '{permission}'{hint}")
        time.sleep(0.05)


# Runs in the service worker: dispatches a notificationclick for the shown notification
# with the tag to sw.js's own handler, and waits for what it passed to waitUntil. (A
# constructed event's own waitUntil throws, so this one keeps the promises instead.)
_CLICK = """
(async (tag) => {
  const [notification] = await self.registration.getNotifications({ tag });
  if (!notification) return { error: 'no notification with the tag ' + JSON.stringify(tag) + ' is shown' };
  const shown = { title: notification.title, body: notification.body, tag: notification.tag, data: notification.data };
  const event = new NotificationEvent('notificationclick', { notification });
  const pending = [];
  Object.defineProperty(event, 'waitUntil', { value: (promise) => { pending.push(promise); } });
  self.dispatchEvent(event);
  try {
    await Promise.all(pending);
  } catch (error) {
    return { error: 'the notificationclick handler failed: ' + error, notification: shown };
  }
  return { notification: shown };
})(%s)
"""


def click_notification(driver, tag, timeout=DEFAULT_TIMEOUT):
    """Clicks the shown notification with `tag`, as far as the service worker can tell:
    its `notificationclick` handler (sw.js's own) runs, and this returns once the promise
    it handed to waitUntil settles (the page has navigated then). Returns the notification
    clicked, {title, body, tag, data}: the test can wait for the page's URL to become
    data['url'].

    Headless Chromium has no notification UI, and DevTools has no command to click one, so
    the event is dispatched inside the worker (CDP: Target.attachToTarget on the worker's
    target, Runtime.evaluate). Unlike a real click it gives no user activation: the
    handler's clients.openWindow() and focus() are refused, so the app's page must be open
    (the handler navigates it)."""
    with _DevTools(driver, timeout) as devtools:
        worker = _worker(devtools, driver, running=True, timeout=timeout)
        session = devtools.call("Target.attachToTarget", {"targetId": worker["targetId"], "flatten": True})["sessionId"]
        reply = devtools.call("Runtime.evaluate", {
            "expression": _CLICK % json.dumps(tag), "awaitPromise": True, "returnByValue": True,
        }, session=session)
    if "exceptionDetails" in reply:
        details = reply["exceptionDetails"]
        message = (details.get("exception") or {}).get("description") or details.get("text")
        raise PushDevToolsError(f"clicking the notification failed in the service worker: {message}")
    result = reply["result"].get("value") or {}
    if "error" in result:
        raise PushDevToolsError(result["error"])
    return result["notification"]
