#!/usr/bin/env python3
"""The change stream read by a page on another origin, in headless Chromium.

Started by CrossOriginBrowserTests (Swift) against a live server whose CORS settings allow
the page origin http://127.0.0.1:<page port> for the whole API. This script serves one page
on that port; the same page reached as http://localhost:<page port> is another origin,
which the server does not allow.

1. The allowed page runs the guide's JavaScript helper (docs/integrate-your-backend.md): it
   asks for a stream ticket with the device's bearer token, opens
   `new EventSource(server + "/v1/stream?ticket=…")`, and sees `ready`; a check-in made
   through the API then arrives as `change`.
2. The disallowed page opens the stream with a ticket of its own: Chromium refuses to hand
   it the answer (no `Access-Control-Allow-Origin` for it), so it sees an error and never a
   message, even when a change is made.

Exits non-zero, with a message, on any failure; never skips (no Chromium, chromedriver or
Selenium is a failure, as in browser_test.py).
"""

import argparse
import http.server
import json
import shutil
import sys
import threading
import urllib.request

try:
    from selenium import webdriver
    from selenium.webdriver.chrome.service import Service
    from selenium.webdriver.support.ui import WebDriverWait
except ImportError:  # pragma: no cover - reported to the Swift test as a failure
    print("selenium is not installed: run `pip install selenium` (.ci/run does)", file=sys.stderr)
    sys.exit(3)

# The page: the guide's helper, verbatim in spirit (a ticket, then EventSource), recording
# what it sees in window.seen for the test to read.
PAGE = """<!doctype html>
<html><head><meta charset="utf-8"><title>Another origin</title></head>
<body><p id="state">starting</p>
<script>
window.seen = [];
async function openMomentumStream(server, token, onChange) {
  const answer = await fetch(server + "/v1/stream-tickets", {
    method: "POST", headers: { "Authorization": "Bearer " + token },
  });
  if (!answer.ok) throw new Error("no ticket: " + answer.status);
  const { ticket } = await answer.json();
  const stream = new EventSource(server + "/v1/stream?ticket=" + encodeURIComponent(ticket));
  stream.addEventListener("ready", () => window.seen.push("ready"));
  stream.addEventListener("change", (event) => onChange(JSON.parse(event.data)));
  stream.onerror = () => { window.seen.push("error"); stream.close(); };
  return stream;
}
window.startWithToken = (server, token) =>
  openMomentumStream(server, token, (change) => window.seen.push("change:" + change.kind))
    .catch((error) => window.seen.push("failed:" + error.message));
window.startWithTicket = (server, ticket) => {
  const stream = new EventSource(server + "/v1/stream?ticket=" + encodeURIComponent(ticket));
  stream.addEventListener("ready", () => window.seen.push("ready"));
  stream.addEventListener("change", (event) => window.seen.push("change:" + JSON.parse(event.data).kind));
  stream.onerror = () => { window.seen.push("error"); stream.close(); };
};
</script></body></html>
"""


class PageHandler(http.server.BaseHTTPRequestHandler):
    def do_GET(self):
        body = PAGE.encode()
        self.send_response(200)
        self.send_header("Content-Type", "text/html; charset=utf-8")
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        self.wfile.write(body)

    def log_message(self, *args):
        pass


def api(server, method, path, token=None, body=None):
    request = urllib.request.Request(server + path, method=method,
                                     data=None if body is None else json.dumps(body).encode())
    request.add_header("Content-Type", "application/json")
    if token:
        request.add_header("Authorization", "Bearer " + token)
    with urllib.request.urlopen(request, timeout=10) as answer:
        text = answer.read().decode()
        return json.loads(text) if text else {}


def browser():
    chromium = next((shutil.which(n) for n in ["chromium", "chromium-browser", "google-chrome"] if shutil.which(n)),
                    None)
    driver_path = shutil.which("chromedriver")
    if not chromium or not driver_path:
        raise SystemExit("no chromium or chromedriver: install Debian's chromium and chromium-driver (.ci/run does)")
    options = webdriver.ChromeOptions()
    options.binary_location = chromium
    for argument in ["--headless=new", "--no-sandbox", "--disable-dev-shm-usage", "--disable-gpu"]:
        options.add_argument(argument)
    return webdriver.Chrome(service=Service(driver_path), options=options)


def wait_for(driver, script, timeout=10, message=""):
    try:
        return WebDriverWait(driver, timeout, poll_frequency=0.05).until(
            lambda d: d.execute_script("return (" + script + ")"))
    except Exception:
        seen = driver.execute_script("return window.seen")
        raise AssertionError(f"{message}: timed out waiting for {script}; the page saw {seen}")


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--server", required=True)
    parser.add_argument("--page-port", type=int, required=True)
    args = parser.parse_args()
    pages = http.server.ThreadingHTTPServer(("127.0.0.1", args.page_port), PageHandler)
    threading.Thread(target=pages.serve_forever, daemon=True).start()
    account = api(args.server, "POST", "/v1/accounts", body={
        "email": "web@example.com", "password": "correct horse", "displayName": "Web", "timeZone": "UTC"})
    token = account["token"]
    api(args.server, "POST", "/v1/habits", token, {"name": "Walk", "habit": "walk"})
    driver = browser()
    try:
        # 1. The allowed origin: a ticket through CORS, the stream, a change.
        driver.get(f"http://127.0.0.1:{args.page_port}/")
        driver.execute_script("window.startWithToken(arguments[0], arguments[1])", args.server, token)
        wait_for(driver, "window.seen.includes('ready')", message="the allowed page never opened the stream")
        api(args.server, "POST", "/v1/habits/walk/check-ins", token, {})
        wait_for(driver, "window.seen.includes('change:events')", message="the change never reached the page")
        assert "error" not in driver.execute_script("return window.seen"), driver.execute_script("return window.seen")
        print("allowed origin: ticket, ready, change:", driver.execute_script("return window.seen"))

        # 2. Another origin (localhost is not 127.0.0.1): the stream cannot be read.
        ticket = api(args.server, "POST", "/v1/stream-tickets", token)["ticket"]
        driver.get(f"http://localhost:{args.page_port}/")
        driver.execute_script("window.startWithTicket(arguments[0], arguments[1])", args.server, ticket)
        wait_for(driver, "window.seen.includes('error')", message="the disallowed page was not refused")
        api(args.server, "POST", "/v1/habits", token, {"name": "Read", "habit": "read"})
        seen = driver.execute_script("return window.seen")
        assert seen == ["error"], f"the disallowed page read the stream: {seen}"
        print("disallowed origin: refused by the browser:", seen)
    finally:
        driver.quit()
        pages.shutdown()


if __name__ == "__main__":
    try:
        main()
    except AssertionError as failure:
        print("FAILED:", failure, file=sys.stderr)
        sys.exit(1)
