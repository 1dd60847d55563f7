#!/usr/bin/env python3
"""The operator's console in a real headless Chromium, driven by Selenium.

Started by ConsoleBrowserTests (Swift) against a live server with an owner and a viewer:

    python3 Tests/Browser/console_test.py --base-url http://127.0.0.1:PORT --artifacts DIR \
        --owner-email E --viewer-email V --password P

The walkthrough: a console page sends the browser to sign in; a wrong password is refused
with one message; the owner signs in, opens every section in the navigation (each a page
in the layout, screenshot saved), adds an operator through the form and sees the notice,
finds it in the audit log, and signs out; the viewer signs in and sees neither the audit
log in the navigation nor the form to add operators. The operators page on a phone's width
and in dark mode too. Each area's own checks can be added as functions in their own files
(console_<area>.py), called from `walkthrough` with the signed-in browser.

Exits non-zero, with a message and a screenshot, on any failure; never skips.
"""

import argparse
import os
import shutil
import sys
import traceback
import uuid

import console_keys

try:
    from selenium import webdriver
    from selenium.webdriver.chrome.service import Service
    from selenium.webdriver.common.by import By
    from selenium.webdriver.support.ui import WebDriverWait
except ImportError:  # pragma: no cover - reported to the Swift test as a failure
    print("selenium is not installed: run `pip install selenium` (.ci/run does)", file=sys.stderr)
    sys.exit(3)


def find_binary(*names):
    for name in names:
        path = shutil.which(name)
        if path:
            return path
    return None


class Console:
    """One Chromium on the console (its own cookie jar)."""

    def __init__(self, args, name, width=1280, dark=False):
        options = webdriver.ChromeOptions()
        chromium = find_binary("chromium", "chromium-browser", "google-chrome")
        if not chromium:
            raise SystemExit("no chromium binary: install Debian's chromium (.ci/run does)")
        options.binary_location = chromium
        for argument in ["--headless=new", "--no-sandbox", "--disable-dev-shm-usage", f"--window-size={width},900",
                         "--disable-gpu", "--lang=en-US"]:
            options.add_argument(argument)
        driver_path = find_binary("chromedriver")
        if not driver_path:
            raise SystemExit("no chromedriver: install Debian's chromium-driver (.ci/run does)")
        self.driver = webdriver.Chrome(service=Service(driver_path), options=options)
        self.driver.implicitly_wait(0)
        if width < 500:
            self.driver.execute_cdp_cmd("Emulation.setDeviceMetricsOverride", {
                "width": width, "height": 844, "deviceScaleFactor": 1, "mobile": True})
        if dark:
            self.driver.execute_cdp_cmd("Emulation.setEmulatedMedia", {
                "features": [{"name": "prefers-color-scheme", "value": "dark"}]})
        self.base = args.base_url
        self.artifacts = args.artifacts
        self.name = name

    def get(self, path):
        self.driver.get(self.base + path)
        self.wait_for("document.readyState === 'complete'")

    def js(self, script, *args):
        return self.driver.execute_script(script, *args)

    def wait_for(self, script, timeout=10, message=None):
        try:
            return WebDriverWait(self.driver, timeout, poll_frequency=0.05).until(
                lambda d: d.execute_script("return (" + script + ")"))
        except Exception:
            self.shot("failure-" + self.name)
            raise AssertionError(message or ("timed out waiting for: " + script))

    def css(self, selector):
        return self.driver.find_element(By.CSS_SELECTOR, selector)

    def all(self, selector):
        return self.driver.find_elements(By.CSS_SELECTOR, selector)

    def path(self):
        return self.js("return location.pathname + location.search")

    def text(self):
        return self.css("body").text

    def shot(self, name):
        os.makedirs(self.artifacts, exist_ok=True)
        self.driver.save_screenshot(os.path.join(self.artifacts, name + ".png"))

    def submit(self, form_selector):
        """Submits a form with its submit button, and waits for the next page."""
        marker = str(uuid.uuid4())
        self.js("document.body.dataset.before = arguments[0]", marker)
        self.css(form_selector + " button[type=submit]").click()
        self.wait_for(f"document.readyState === 'complete' && document.body.dataset.before !== '{marker}'")

    def sign_in(self, email, password):
        self.css("input[name=email]").clear()
        self.css("input[name=email]").send_keys(email)
        self.css("input[name=password]").send_keys(password)
        self.submit("form[action='/console/sign-in']")

    def check_layout(self):
        """The page is in the console's layout and its stylesheet applied."""
        assert self.all(".console-header") and self.all("nav.console-nav"), f"no layout at {self.path()}"
        background = self.js("return getComputedStyle(document.querySelector('.console-header')).backgroundColor")
        assert background not in ("rgba(0, 0, 0, 0)", "transparent"), "console.css is not applied"

    def quit(self):
        self.driver.quit()


def expect(condition, message):
    if not condition:
        raise AssertionError(message)


def walkthrough(args):
    owner = Console(args, "owner")
    try:
        # A page of the console, without a session: the sign-in page, coming back to it.
        owner.get("/console/operators")
        expect(owner.path().startswith("/console/sign-in?next="), f"not sent to sign in: {owner.path()}")
        owner.shot("console-sign-in")
        owner.sign_in(args.owner_email, "not the password")
        expect("do not match" in owner.text(), "a wrong password was not refused with its message")
        owner.shot("console-sign-in-refused")

        owner.sign_in(args.owner_email, args.password)
        expect(owner.path() == "/console/operators", f"signed in to {owner.path()}")
        owner.check_layout()
        expect(args.owner_email in owner.css(".console-header").text, "the header does not say who is signed in")

        # Every section in the navigation opens a page in the layout.
        links = [(a.text, a.get_attribute("href")) for a in owner.all("nav.console-nav a")]
        expect(len(links) >= 2, f"the navigation lists {links}")
        for title, href in links:
            owner.driver.get(href)
            owner.wait_for("document.readyState === 'complete'")
            owner.check_layout()
            current = owner.css("nav.console-nav a[aria-current=page]").text
            expect(current == title, f"{href}: the navigation marks {current!r}, not {title!r}")
            expect(owner.all("main h1"), f"{href} has no heading")
            owner.shot("console-" + href.rstrip("/").rsplit("/", 1)[-1])

        # An owner adds an operator through the form.
        owner.get("/console/operators")
        email = f"ada-{uuid.uuid4().hex[:6]}@example.com"
        owner.css("form[action='/console/operators'] input[name=email]").send_keys(email)
        owner.css("form[action='/console/operators'] input[name=name]").send_keys("Ada Lovelace")
        owner.css("form[action='/console/operators'] input[name=password]").send_keys("a long initial password")
        owner.submit("form[action='/console/operators']")
        notice = owner.css(".notice").text
        expect(email in notice and "viewer" in notice, f"the notice says {notice!r}")
        expect(email in owner.css("table").text, "the new operator is not listed")
        owner.shot("console-operators-added")

        owner.get("/console/audit?action=operator.")
        rows = owner.css("table").text
        expect("operator.added" in rows and "operator.signed_in" in rows, f"the audit log shows {rows!r}")
        owner.shot("console-audit-filtered")

        console_keys.keys_webhooks_and_notifications(owner)

        owner.submit("form[action='/console/sign-out']")
        expect(owner.path().startswith("/console/sign-in"), f"signed out to {owner.path()}")
        owner.get("/console/operators")
        expect(owner.path().startswith("/console/sign-in"), "the session outlived its sign-out")
    finally:
        owner.quit()

    viewer = Console(args, "viewer")
    try:
        viewer.get("/console/sign-in")
        viewer.sign_in(args.viewer_email, args.password)
        viewer.check_layout()
        titles = [a.text for a in viewer.all("nav.console-nav a")]
        expect("Audit log" not in titles, f"a viewer's navigation lists {titles}")
        viewer.get("/console/operators")
        expect(not viewer.all("form[action='/console/operators']"), "a viewer is offered the form to add operators")
        viewer.get("/console/audit")
        expect("Not allowed" in viewer.text(), "a viewer opened the audit log")
        viewer.check_layout()
        viewer.shot("console-viewer-refused")
    finally:
        viewer.quit()

    for name, width, dark in [("console-operators-phone", 390, False), ("console-operators-dark", 1280, True)]:
        browser = Console(args, name, width=width, dark=dark)
        try:
            browser.get("/console/sign-in?next=%2Fconsole%2Foperators")
            browser.sign_in(args.owner_email, args.password)
            browser.check_layout()
            browser.shot(name)
            # Everything fits the screen's width; a wide table scrolls inside its own box.
            wide = browser.js("""return [...document.querySelectorAll('body *')]
                .filter(e => !e.closest('.table-wrap') && e.getBoundingClientRect().right > arguments[0] + 1)
                .slice(0, 5).map(e => e.tagName + '.' + e.className).join(', ')""", width)
            expect(not wide, f"{name}: wider than the screen: {wide}")
        finally:
            browser.quit()


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--base-url", required=True)
    parser.add_argument("--artifacts", default="artifacts/screenshots")
    parser.add_argument("--owner-email", required=True)
    parser.add_argument("--viewer-email", required=True)
    parser.add_argument("--password", required=True)
    args = parser.parse_args()
    try:
        walkthrough(args)
    except Exception:
        traceback.print_exc()
        return 1
    print("console walkthrough: passed")
    return 0


if __name__ == "__main__":
    sys.exit(main())
