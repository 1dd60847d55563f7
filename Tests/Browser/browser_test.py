#!/usr/bin/env python3
"""Momentum's web app in a real headless Chromium, driven by Selenium.

Run by `swift test` (MomentumServerTests/BrowserTests.swift), which starts a live server
with the demo account and passes its address:

    python3 Tests/Browser/browser_test.py --base-url http://127.0.0.1:PORT --artifacts DIR

Each scenario is one function; a failure prints what was expected and saves a screenshot.
Screenshots of every screen go to DIR (a test artefact). Exit status 0 means every
scenario passed.
"""

import argparse
import base64
import datetime
import json
import os
import shutil
import struct
import sys
import tarfile
import tempfile
import time
import traceback
import urllib.parse
import urllib.request
import uuid
import zipfile
import zlib

try:
    from selenium import webdriver
    from selenium.webdriver.chrome.service import Service
    from selenium.common.exceptions import StaleElementReferenceException
    from selenium.webdriver.common.by import By
    from selenium.webdriver.common.keys import Keys
    from selenium.webdriver.support.ui import WebDriverWait
except ImportError:  # pragma: no cover - reported to the Swift test as a failure
    print("selenium is not installed: run `pip install selenium` (.ci/run does)", file=sys.stderr)
    sys.exit(3)

DEMO_EMAIL = "demo@momentum.local"
DEMO_PASSWORD = "momentum-demo"


def find_binary(*names):
    for name in names:
        path = shutil.which(name)
        if path:
            return path
    return None


class Browser:
    """One Chromium (one device: its own cookie jar)."""

    def __init__(self, args, name, reduced_motion=False, width=1280, dark=False, lang="en-US"):
        options = webdriver.ChromeOptions()
        chromium = find_binary("chromium", "chromium-browser", "google-chrome")
        if not chromium:
            raise SystemExit("no chromium binary: install Debian's chromium (.ci/run does)")
        options.binary_location = chromium
        for argument in ["--headless=new", "--no-sandbox", "--disable-dev-shm-usage", f"--window-size={width},1000",
                         "--disable-gpu", f"--lang={lang}"]:
            options.add_argument(argument)
        self.downloads = tempfile.mkdtemp(prefix="momentum-downloads-")
        # (Several downloads from one page ask the user once; here they are allowed up front.)
        options.add_experimental_option("prefs", {
            "download.default_directory": self.downloads, "download.prompt_for_download": False,
            "profile.default_content_setting_values.automatic_downloads": 1,
            "intl.accept_languages": lang})
        driver_path = find_binary("chromedriver")
        if not driver_path:
            raise SystemExit("no chromedriver: install Debian's chromium-driver (.ci/run does)")
        self.driver = webdriver.Chrome(service=Service(driver_path), options=options)
        self.driver.implicitly_wait(0)
        self.driver.execute_cdp_cmd("Page.setDownloadBehavior", {"behavior": "allow", "downloadPath": self.downloads})
        if width < 500:
            # Chromium's windows are at least 500 px wide: a phone's width is emulated.
            self.driver.execute_cdp_cmd("Emulation.setDeviceMetricsOverride", {
                "width": width, "height": 844, "deviceScaleFactor": 1, "mobile": True})
        features = []
        if reduced_motion:
            features.append({"name": "prefers-reduced-motion", "value": "reduce"})
        if dark:
            features.append({"name": "prefers-color-scheme", "value": "dark"})
        if features:
            self.driver.execute_cdp_cmd("Emulation.setEmulatedMedia", {"features": features})
        self.base = args.base_url
        self.operator_token = args.operator_token
        self.artifacts = args.artifacts
        self.name = name

    def get(self, path):
        self.driver.get(self.base + path)
        self.wait_for("document.readyState === 'complete'")

    def js(self, script, *args):
        return self.driver.execute_script(script, *args)

    def wait_for(self, script, timeout=10, message=None):
        """Waits until a JavaScript expression is truthy; returns its value."""
        try:
            return WebDriverWait(self.driver, timeout, poll_frequency=0.05).until(
                lambda d: d.execute_script("return (" + script + ")"))
        except Exception:
            self.shot("failure-" + self.name)
            raise AssertionError(message or ("timed out waiting for: " + script))

    def settle(self, quiet=0.6, timeout=8):
        """Waits until the page has stopped re-rendering (own writes and live updates)."""
        deadline = time.time() + timeout
        last = self.js("return document.body.dataset.refreshes || '0'")
        stable_since = time.time()
        while time.time() < deadline:
            time.sleep(0.1)
            now = self.js("return document.body.dataset.refreshes || '0'")
            if now != last:
                last, stable_since = now, time.time()
            elif time.time() - stable_since >= quiet:
                return

    def css(self, selector):
        return self.driver.find_element(By.CSS_SELECTOR, selector)

    def click(self, selector):
        """Clicks the element `selector` finds, finding it again if a live refresh (another
        device's change, or this page's own write coming back over the stream) replaced it
        between finding and clicking."""
        for attempt in range(5):
            try:
                self.css(selector).click()
                return
            except StaleElementReferenceException:
                if attempt == 4:
                    raise
                time.sleep(0.1)

    def all(self, selector):
        return self.driver.find_elements(By.CSS_SELECTOR, selector)

    def shot(self, name):
        os.makedirs(self.artifacts, exist_ok=True)
        self.driver.save_screenshot(os.path.join(self.artifacts, name + ".png"))

    def api(self, method, path, body=None):
        """Calls the JSON API from the page, with its session cookie."""
        result = self.driver.execute_async_script("""
            const [method, path, body, done] = arguments;
            const init = {method, credentials: 'same-origin', headers: {'X-Momentum-Client': 'web'}};
            if (body !== null) { init.body = JSON.stringify(body); init.headers['Content-Type'] = 'application/json'; }
            fetch(path, init).then(async r => done({status: r.status, text: await r.text()}))
              .catch(e => done({status: 0, text: String(e)}));
        """, method, path, body)
        return result["status"], (json.loads(result["text"]) if result["text"] else None)

    def sign_in(self, email, password):
        self.get("/signin")
        self.css("input[name=email]").send_keys(email)
        self.css("input[name=password]").send_keys(password)
        self.css("form button[type=submit]").click()
        self.wait_for("location.pathname === '/today'", message="signing in did not reach /today")

    def dismiss_celebrations(self):
        """Closes whatever celebration the session start shows (with Done)."""
        deadline = time.time() + 4
        while time.time() < deadline:
            done = self.js("const b = document.querySelector('.celebration .done'); if (b && b.offsetParent !== null) { b.click(); return true } return false")
            if not done and not self.js("return document.querySelector('.celebration') !== null"):
                time.sleep(0.3)
                if not self.js("return document.querySelector('.celebration') !== null"):
                    return
            time.sleep(0.2)

    def dismiss_queued(self, until_rule=None):
        """Dismisses queued celebrations unseen, through the API, until the next is one of
        `until_rule` (returned) or none is left (None)."""
        _, body = self.api("GET", "/v1/celebrations/next")
        while body and body.get("celebration"):
            celebration = body["celebration"]
            if until_rule is not None and celebration["unlock"]["rule"] == until_rule:
                return celebration
            self.api("POST", f"/v1/celebrations/{celebration['id'].replace('#', '%23')}/dismissed")
            _, body = self.api("GET", "/v1/celebrations/next")
        return None

    def quit(self):
        self.driver.quit()
        shutil.rmtree(self.downloads, ignore_errors=True)


def sign_up(browser, name, packs=None):
    """Signs up a new account; `packs` lists what it tracks (the sign-up's default otherwise)."""
    browser.get("/signup")
    email = f"{name}-{uuid.uuid4().hex[:8]}@example.com"
    browser.css("input[name=displayName]").send_keys(name.capitalize())
    browser.css("input[name=email]").send_keys(email)
    browser.css("input[name=password]").send_keys("correct horse battery")
    if packs is not None:
        for box in browser.all("input[name=packs]"):
            if box.is_selected() != (box.get_attribute("value") in packs):
                box.click()
    browser.shot("signup")
    browser.click("form button[type=submit]")
    browser.wait_for("location.pathname === '/today'", message="signing up did not reach /today")
    return email


def create_habit(browser, name):
    browser.js("document.querySelector('details.new-habit').open = true")
    field = browser.css("#new-habit input[name=name]")
    field.clear()
    field.send_keys(name)
    browser.click("#new-habit button[type=submit]")
    browser.wait_for(f"[...document.querySelectorAll('.habit-name')].some(a => a.textContent === {json.dumps(name)})",
                     message=f"the new habit {name} did not appear")
    browser.settle()
    return browser.js(f"return [...document.querySelectorAll('li.habit')].find(li => li.querySelector('.habit-name').textContent === {json.dumps(name)}).dataset.habit")


def admin_import(browser, email, events):
    """Stores `events` for the account of `email` through the operator's import
    (`POST /v1/admin/imports`): a device may not send events dated before its account
    was created, so a new account's past is brought in the way an operator moves a user's
    history from another app."""
    request = urllib.request.Request(
        browser.base + "/v1/admin/imports", method="POST",
        data=json.dumps({"email": email, "events": events}).encode(),
        headers={"Content-Type": "application/json", "Authorization": f"Bearer {browser.operator_token}"})
    with urllib.request.urlopen(request) as response:
        body = json.loads(response.read())
    rejected = [r for r in body["results"] if r["status"] != "applied"]
    assert not rejected, f"the import refused {rejected}"
    return body


def push_history(browser, email, habit, days, zone="UTC"):
    """Completions on each of the `days` days before today (imported for the account)."""
    now = datetime.datetime.now(datetime.timezone.utc)
    events = []
    for back in range(days, 0, -1):
        at = (now - datetime.timedelta(days=back)).strftime("%Y-%m-%dT%H:%M:%SZ")
        events.append({"id": f"{habit}-{back}-{uuid.uuid4().hex[:6]}", "type": "completion", "at": at, "tz": zone,
                       "habit": habit})
    admin_import(browser, email, events)


def create_habit_api(browser, email, habit, created_days_ago, zone="UTC"):
    at = (datetime.datetime.now(datetime.timezone.utc) - datetime.timedelta(days=created_days_ago, hours=1))
    admin_import(browser, email, [{
        "id": f"create-{habit}-{uuid.uuid4().hex[:6]}", "type": "habit.created", "at": at.strftime("%Y-%m-%dT%H:%M:%SZ"),
        "tz": zone, "habit": habit, "name": habit.capitalize()}])


def counter(browser, name):
    # Read in one step: a live refresh may replace the element at any moment.
    return int(browser.js("return document.getElementById(arguments[0]).textContent", name))


def downloaded_png(browser, before, timeout=20):
    """The path of a PNG downloaded since `before` (the download folder's names then), once
    its header is written (Chromium may create the file before it writes it); None if none."""
    return downloaded(browser, before, ".png", 24, timeout)


def downloaded(browser, before, suffix, size, timeout=20):
    """The path of a file ending in `suffix` downloaded since `before`, once it holds at least
    `size` bytes; None if none came within `timeout` seconds."""
    deadline = time.time() + timeout
    while time.time() < deadline:
        new = [f for f in set(os.listdir(browser.downloads)) - before if f.endswith(suffix)]
        if new and os.path.getsize(os.path.join(browser.downloads, new[0])) >= size:
            return os.path.join(browser.downloads, new[0])
        time.sleep(0.1)
    return None


def png_size(path):
    with open(path, "rb") as handle:
        header = handle.read(24)
    assert header[:8] == b"\x89PNG\r\n\x1a\n", f"{path} is not a PNG"
    return struct.unpack(">II", header[16:24])


def tiny_png():
    """A 2×2 PNG made here (no fixture files)."""
    def chunk(kind, data):
        return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(kind + data) & 0xFFFFFFFF)
    raw = b"".join(b"\x00" + b"\xff\x80\x00" * 2 for _ in range(2))
    return (b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", struct.pack(">IIBBBBB", 2, 2, 8, 2, 0, 0, 0))
            + chunk(b"IDAT", zlib.compress(raw)) + chunk(b"IEND", b""))


def tiny_png_file(name):
    """A file holding `tiny_png()`, for a file input."""
    path = os.path.join(tempfile.mkdtemp(), name)
    with open(path, "wb") as handle:
        handle.write(tiny_png())
    return path


# MARK: scenarios

def sign_up_create_check_in_streak_shows(args):
    browser = Browser(args, "signup")
    try:
        browser.get("/signin")
        browser.shot("signin")
        sign_up(browser, "newcomer")
        browser.dismiss_celebrations()
        habit = create_habit(browser, "Drink water")
        browser.shot("today-new-habit")
        row = f"li.habit[data-habit='{habit}']"
        assert browser.css(row + " [data-streak]").text == "0"
        browser.css(row + " button[data-action=check-in]").click()
        browser.wait_for(f"document.querySelector(\"{row} [data-streak]\")?.textContent === '1'",
                         message="the streak did not show 1 after the check-in")
        browser.wait_for(f"document.querySelector(\"{row} button.check\").disabled")
        browser.shot("today-checked-in")
    finally:
        browser.quit()


def everything_by_keyboard(args):
    browser = Browser(args, "keyboard")
    try:
        sign_up(browser, "typist")
        browser.dismiss_celebrations()
        # The skip link is the first stop and moves focus to the content.
        browser.css("body").send_keys(Keys.TAB)
        assert browser.js("return document.activeElement.classList.contains('skip')"), "the skip link is not first"
        browser.js("document.querySelector('details.new-habit').open = true")
        name = browser.css("#new-habit input[name=name]")
        name.send_keys("Floss")
        name.send_keys(Keys.ENTER)  # submits the form
        browser.wait_for("document.querySelector('li.habit button[data-action=check-in]') !== null",
                         message="Enter did not create the habit")
        browser.settle()
        # Tab from the habit's link to its check-in button, and press Enter. (Leaving the
        # name field lets the page apply the live update it held while the user typed; focus
        # stays on the same button through it.)
        # If that update re-renders the list between focusing the link and the Tab key, the
        # key lands on the replaced link; Tab is then pressed again from the new one.
        for _ in range(3):
            browser.css("li.habit a.habit-name").send_keys(Keys.TAB)
            browser.settle()
            if browser.js("return document.activeElement.dataset.action") == "check-in":
                break
        assert browser.js("return document.activeElement.dataset.action") == "check-in", \
            browser.js("return document.activeElement.outerHTML")
        browser.driver.switch_to.active_element.send_keys(Keys.ENTER)
        browser.wait_for("document.querySelector('li.habit [data-streak]').textContent === '1'",
                         message="Enter on the check-in button did not check in")
        browser.dismiss_celebrations()
        # The store opens from the counter with Enter and closes with Escape.
        browser.css("button.counter[data-action=open-store]").send_keys(Keys.ENTER)
        browser.wait_for("document.getElementById('store').open", message="Enter did not open the store")
        browser.driver.switch_to.active_element.send_keys(Keys.ESCAPE)
        browser.wait_for("!document.getElementById('store').open", message="Escape did not close the store")
        unlabelled = browser.js("""return [...document.querySelectorAll('button, input, select, textarea, a[href]')]
            .filter(e => e.offsetParent !== null || e.closest('dialog'))
            .filter(e => !(e.getAttribute('aria-label') || e.labels?.length || e.textContent.trim() || e.title))
            .map(e => e.outerHTML.slice(0, 80))""")
        assert not unlabelled, f"controls without a label: {unlabelled}"
    finally:
        browser.quit()


def demo_screens_and_memory_photo(args):
    browser = Browser(args, "demo")
    try:
        browser.sign_in(DEMO_EMAIL, DEMO_PASSWORD)
        # The demo's waiting milestone is Ollie's 7-day outdoor potty streak (seed 000's
        # example): the first session opens with its card.
        browser.wait_for("document.querySelector('.celebration[data-tier=\"2\"]') !== null",
                         message="the demo account's first session showed no milestone card")
        text = browser.js("return document.querySelector('.celebration[data-tier=\"2\"]').textContent")
        assert "7-day outdoor potty streak" in text, f"the demo's card shows {text!r}"
        browser.shot("celebration-demo-7-day")
        browser.dismiss_celebrations()
        browser.shot("today")
        browser.click("a.habit-name[href='/habits/walk']")
        browser.wait_for("location.pathname === '/habits/walk'")
        cells = browser.all(".calendar button.day")
        assert len(cells) == 91, f"the calendar has {len(cells)} days, not 91"
        states = set(browser.js("return [...document.querySelectorAll('.calendar button.day')].map(b => [...b.classList].find(c => c.startsWith('state-')))"))
        assert "state-completed" in states, states
        assert browser.all(".calendar .in-streak"), "the current streak is not highlighted"
        # One Tab stop for the calendar (its last day); the arrow keys move through the days.
        stops = browser.all(".calendar button.day[tabindex='0']")
        assert len(stops) == 1 and stops[0] == cells[-1], f"{len(stops)} Tab stops in the calendar"
        cells[-1].send_keys(Keys.ARROW_LEFT)
        assert browser.js("return document.activeElement") == cells[-2], "ArrowLeft did not move to the day before"
        browser.driver.switch_to.active_element.send_keys(Keys.ARROW_UP)
        assert browser.js("return document.activeElement") == cells[-9], "ArrowUp did not move a week back"
        browser.driver.switch_to.active_element.send_keys(Keys.ENTER)
        browser.wait_for("document.querySelector('.calendar .day[aria-pressed=true]') === document.activeElement",
                         message="Enter on a day did not select it")
        noted = browser.all(".calendar button.day.has-note")
        target = noted[0] if noted else cells[-2]
        browser.js("arguments[0].scrollIntoView({block: 'center'})", target)
        target.click()
        detail = browser.css("#day-detail").text
        assert "logged at" in detail, f"the day's detail shows no time: {detail!r}"
        if noted:
            assert "“" in detail, f"the day's note is missing: {detail!r}"
        assert browser.all("svg.chart polyline"), "no analytics chart"
        assert browser.all(".badges li"), "no milestone badges"
        browser.shot("habit-details")

        browser.get("/journey")
        assert browser.all(".timeline li"), "the journey timeline is empty"
        # Four months of milestones: cards by name, each month's small daily steps in a line.
        small = browser.js("return [...document.querySelectorAll('.timeline li.muted')].map(l => l.textContent)")
        assert small and all("small step" in line for line in small), small
        # (Every seed's milestones over four months: habits, the puppy, savings, growth.)
        assert len(browser.all(".timeline li")) < 80, f"{len(browser.all('.timeline li'))} lines in the timeline"
        browser.shot("journey")
        browser.get("/profile")
        browser.shot("profile")

        browser.get("/memories")
        browser.wait_for("document.querySelectorAll('article.memory').length > 10")
        # Memories without a photo show their illustration (a puppy, a flame, a piggy bank or
        # a sprout with the achievement's prop), not a camera icon (issue 45).
        assert "📷" not in browser.js("return document.querySelector('main').textContent")
        assert browser.js("return document.querySelectorAll('.scrapbook article.memory img.illustration').length") > 10, \
            "the memories without a photo show no illustration"
        browser.wait_for("[...document.querySelectorAll('.scrapbook article.memory img.illustration')].slice(0, 3)"
                         ".every(i => i.complete && i.naturalWidth === 200)",
                         message="the first memories' illustrations did not load")
        browser.shot("memories")
        categories = browser.all(".filters a")
        assert len(categories) > 2, "no category filters"
        categories[1].click()
        browser.wait_for("location.search.startsWith('?category=')")
        wanted = browser.js("return new URLSearchParams(location.search).get('category')")
        shown = browser.js("return [...document.querySelectorAll('.scrapbook:not(.on-this-day) article.memory .muted')].map(p => p.textContent.split(' · ')[1])")
        assert shown and all(c == wanted for c in shown), f"filter {wanted} shows {shown}"
        browser.get("/memories")
        photo = tiny_png_file("moment.png")
        first = browser.css("article.memory[data-memory]")
        memory = first.get_attribute("data-memory")
        first.find_element(By.CSS_SELECTOR, "input[type=file]").send_keys(photo)
        browser.wait_for(f"document.querySelector('article.memory[data-memory=\"{memory}\"] img.photo') !== null",
                         message="the uploaded photo did not appear on its memory: " + browser.js(
                             f"return document.querySelector('article.memory[data-memory=\"{memory}\"] [data-error]')?.textContent"))
        source = browser.js(f"return document.querySelector('article.memory[data-memory=\"{memory}\"] img.photo').src")
        browser.settle()
        loaded = browser.wait_for(f"document.querySelector('article.memory[data-memory=\"{memory}\"] img.photo').naturalWidth")
        assert loaded == 2, f"the photo at {source} did not load (width {loaded})"
        note = browser.css(f"article.memory[data-memory='{memory}'] textarea")
        note.clear()
        note.send_keys("Muddy paws, happy dog")
        browser.click(f"article.memory[data-memory='{memory}'] form.note button")
        browser.wait_for("document.getElementById('announcer').textContent === 'Note saved.'")
        assert browser.js(f"return document.querySelector('article.memory[data-memory=\"{memory}\"] [data-saved]').textContent") \
            == "Saved.", "saving a note showed no Saved"
        browser.get("/memories")
        assert browser.css(f"article.memory[data-memory='{memory}'] textarea").get_attribute("value") == "Muddy paws, happy dog"
        assert browser.js(f"return document.querySelector('article.memory[data-memory=\"{memory}\"] img.illustration')") is None, \
            "the memory with a photo still shows its illustration"
        browser.shot("memories-photo")

        # Share cards: the preview, and downloads with the right pixel size.
        browser.click(f"article.memory[data-memory='{memory}'] a[href$='/share']")
        browser.wait_for("location.pathname.endsWith('/share')")
        browser.wait_for("[...document.querySelectorAll('.share-format img')].every(i => i.naturalWidth > 0)",
                         message="a share-card preview did not load")
        browser.shot("share")
        expected = {"square": (1080, 1080), "story": (1080, 1920), "landscape": (1920, 1080)}
        for fmt, size in expected.items():
            before = set(os.listdir(browser.downloads))
            browser.click(f".share-format[data-format={fmt}] a[data-download=png]")
            path = downloaded_png(browser, before)
            assert path, f"the {fmt} PNG was not downloaded"
            assert png_size(path) == size, f"{fmt} PNG is {png_size(path)}, not {size}"
        # A server without its rasterizer (rsvg-convert) answers 503 for a PNG: the browser
        # draws the card itself, at the card's size.
        browser.js("""const original = window.fetch.bind(window);
            window.fetch = (url, init) => String(url).includes('type=png')
              ? Promise.resolve(new Response(JSON.stringify({error: {code: 'rasterizer_unavailable',
                  message: 'PNG share cards need rsvg-convert'}}), {status: 503, headers: {'Content-Type': 'application/json'}}))
              : original(url, init);""")
        for name in os.listdir(browser.downloads):  # the same file name is saved over in place
            os.remove(os.path.join(browser.downloads, name))
        before = set()
        browser.click(".share-format[data-format=story] a[data-download=png]")
        path = downloaded_png(browser, before)
        assert path, "without the server's rasterizer, no PNG was downloaded: " + repr(browser.js(
            "return document.querySelector('.share-format[data-format=story] [data-error]').textContent"))
        assert png_size(path) == (1080, 1920), f"the browser's PNG is {png_size(path)}, not 1080 × 1920"
        assert browser.js("return document.querySelector('.share-format[data-format=story] [data-error]').textContent") == ""
        before = set(os.listdir(browser.downloads))
        browser.click(".share-format[data-format=square] a[data-download=svg]")
        deadline = time.time() + 10
        while time.time() < deadline and not [f for f in set(os.listdir(browser.downloads)) - before if f.endswith(".svg")]:
            time.sleep(0.1)
        svgs = [f for f in set(os.listdir(browser.downloads)) - before if f.endswith(".svg")]
        assert svgs, "the SVG was not downloaded"
        with open(os.path.join(browser.downloads, svgs[0])) as handle:
            text = handle.read()
        assert 'width="1080"' in text and 'height="1080"' in text, "the square SVG is not 1080 × 1080"
    finally:
        browser.quit()


def seven_day_milestone_card_and_reduced_motion(args):
    for reduced in (False, True):
        browser = Browser(args, "reduced" if reduced else "milestone", reduced_motion=reduced)
        try:
            email = sign_up(browser, "reducer" if reduced else "sevener")
            browser.dismiss_celebrations()
            create_habit_api(browser, email, "stretch", created_days_ago=6)
            push_history(browser, email, "stretch", 6)
            # The history's own milestone (its first day done) is seen already.
            browser.dismiss_queued()
            browser.get("/today")
            browser.dismiss_celebrations()
            row = "li.habit[data-habit='stretch']"
            assert browser.css(row + " [data-streak]").text == "6"
            browser.css(row + " button[data-action=check-in]").click()
            browser.wait_for("document.querySelector('.celebration[data-tier=\"2\"]') !== null", timeout=10,
                             message="the 7-day milestone showed no card")
            title = browser.js("return document.querySelector('.celebration[data-tier=\"2\"] h2').textContent")
            assert "7" in title, f"the card is not the 7-day milestone: {title!r}"
            announced = browser.wait_for("document.getElementById('announcer').textContent")
            assert announced, "the celebration was not announced"
            particles = browser.js("return document.querySelectorAll('.celebration .particle').length")
            hidden = browser.js("const l = document.querySelector('.celebration .particles'); return l ? l.getAttribute('aria-hidden') : 'none'")
            time.sleep(0.5)
            if reduced:
                browser.shot("celebration-reduced-motion")
                assert particles == 0, f"reduced motion still drew {particles} particles"
            else:
                browser.shot("celebration-card")
                assert particles > 0, "the milestone card has no confetti"
                assert hidden == "true", "the particle layer is not hidden from screen readers"
                # The card's emblem is the achievement's badge, and its title is not repeated.
                icon = browser.js("return document.querySelector('.celebration[data-tier=\"2\"] .icon').textContent")
                assert icon and icon != "✅", f"the card's emblem is {icon!r}"
                subtitle = browser.js("return document.querySelector('.celebration[data-tier=\"2\"] .when').textContent")
                assert subtitle.strip().lower() != title.strip().lower(), f"the title {title!r} is repeated"
                # Without a photo, the card shows the milestone's illustration.
                browser.wait_for("document.querySelector('.celebration[data-tier=\"2\"] .photo-slot img.illustration')"
                                 "?.naturalWidth === 200", message="the card shows no illustration")
                # "Add photo" on the card puts the photo in the milestone's memory and on the card.
                browser.css(".celebration[data-tier=\"2\"] .upload input[type=file]").send_keys(tiny_png_file("stretch.png"))
                browser.wait_for("document.querySelector('.celebration[data-tier=\"2\"] .photo-slot img:not(.illustration)') !== null",
                                 message="the card's Add photo did not show the photo")
                assert browser.js("return document.querySelector('.celebration[data-tier=\"2\"] .photo-slot img.illustration')") is None, \
                    "the card shows the illustration beside the photo"
                browser.shot("celebration-card-photo")
            browser.css(".celebration .done").send_keys(Keys.ENTER)  # by keyboard
            browser.wait_for("document.querySelector('.celebration') === null", message="Done did not close the card")
        finally:
            browser.quit()


def thirty_day_milestone_full_screen_with_photo_prompt(args):
    browser = Browser(args, "fullscreen")
    try:
        email = sign_up(browser, "marathoner")
        browser.dismiss_celebrations()
        create_habit_api(browser, email, "read", created_days_ago=29)
        push_history(browser, email, "read", 29)
        # The history's own milestones (the 7-day card among them) wait in the queue: clear it.
        browser.dismiss_queued()
        browser.get("/today")
        # Every phase the full-screen card passes through, recorded by the page as it happens
        # (polling from here misses a short phase when the machine is busy).
        browser.js("""
            window.__phases = [];
            const note = node => {
              if (node?.classList?.contains('celebration') && node.classList.contains('fullscreen')
                  && node.dataset.phase) window.__phases.push(node.dataset.phase);
            };
            new MutationObserver(records => {
              for (const record of records) {
                if (record.type === 'attributes') note(record.target);
                for (const node of record.addedNodes) {
                  note(node);
                  node.querySelectorAll?.('.celebration.fullscreen').forEach(note);
                }
              }
            }).observe(document.body, {subtree: true, childList: true, attributes: true,
                                       attributeFilter: ['data-phase']});
        """)
        browser.click("li.habit[data-habit='read'] button[data-action=check-in]")
        browser.wait_for("document.querySelector('.celebration.fullscreen[data-tier=\"3\"]') !== null",
                         message="the 30-day milestone showed no full-screen celebration")
        shot = False
        deadline = time.time() + 10
        while time.time() < deadline and "settle" not in browser.js("return window.__phases"):
            phase = browser.js("return document.querySelector('.celebration.fullscreen')?.dataset.phase")
            if phase == "buildUp" and not shot:
                browser.shot("celebration-fullscreen-buildup")
                shot = True
            time.sleep(0.05)
        phases = set(browser.js("return window.__phases"))
        assert {"buildUp", "reveal", "settle"} <= phases, f"the sequence ran through {sorted(phases)}"
        assert browser.js("return document.querySelectorAll('.celebration.fullscreen .particle').length") > 0, \
            "no confetti in the full-screen sequence"
        browser.wait_for("!document.querySelector('.celebration.fullscreen .photo-prompt').hidden",
                         message="the photo prompt did not appear")
        # The full-screen moment shows the milestone's illustration: a flame beside a trophy.
        browser.wait_for("document.querySelector('.celebration.fullscreen .icon img.illustration')?.naturalWidth === 200",
                         message="the full-screen celebration shows no illustration")
        browser.shot("celebration-fullscreen")
        browser.css(".celebration.fullscreen .photo-prompt input[type=file]").send_keys(tiny_png_file("finish.png"))
        browser.wait_for("document.querySelector('.celebration.fullscreen .photo-prompt p').textContent === 'Saved to your memories.'",
                         message="the photo was not saved to the milestone's memory")
        browser.click(".celebration.fullscreen .done")
        browser.wait_for("document.querySelector('.celebration') === null")
        status, body = browser.api("GET", "/v1/memories")
        photographed = [m for m in body["memories"] if m.get("photo") and "streak-milestone" in m["id"]]
        assert photographed, "no 30-day memory has the photo"
    finally:
        browser.quit()


def journey_shows_the_progression_timeline(args):
    browser = Browser(args, "journey")
    try:
        email = sign_up(browser, "meditator")
        browser.dismiss_celebrations()
        status, body = browser.api("PATCH", "/v1/profile", {"pack": "growth"})
        assert status == 200, f"switching to the growth pack failed: {status} {body}"
        now = datetime.datetime.now(datetime.timezone.utc)
        events = []
        for back, (before, after) in zip((5, 3, 1), ((None, "beginner"), ("beginner", "steady"), ("steady", "deepening"))):
            event = {"id": f"stage-{after}", "type": "stage", "tz": "UTC", "method": "meditation", "to": after,
                     "at": (now - datetime.timedelta(days=back)).strftime("%Y-%m-%dT%H:%M:%SZ")}
            if before:
                event["from"] = before
            events.append(event)
        admin_import(browser, email, events)
        browser.get("/journey")
        items = browser.js("return [...document.querySelectorAll('.timeline li strong')].map(s => s.textContent)")
        assert items[:3] == ["Beginner", "Steady Sitter", "Deepening"], f"the progression timeline shows {items}"
        advances = browser.js("return [...document.querySelectorAll('.stats .big')].map(b => b.textContent)")
        assert "2" in advances, f"the statistics show no advances: {advances}"
        browser.shot("journey-progression")
    finally:
        browser.quit()


def freeze_purchase_updates_both_counters(args):
    browser = Browser(args, "store")
    try:
        email = sign_up(browser, "shopper")
        browser.dismiss_celebrations()
        create_habit_api(browser, email, "run", created_days_ago=13)
        push_history(browser, email, "run", 13)
        browser.get("/today")
        browser.dismiss_celebrations()
        diamonds, freezes = counter(browser, "diamonds"), counter(browser, "freezes")
        assert diamonds > 0, "the history earned no diamonds"
        browser.click("button.counter[data-action=open-store]")
        browser.wait_for("document.getElementById('store').open")
        price = int(browser.css("#store input[value=custom]").get_attribute("data-price"))
        days = browser.css("#store input[name=days]")
        days.clear()
        days.send_keys("2")
        browser.wait_for(f"document.getElementById('store-total').textContent === '{2 * price}'",
                         message="the live total did not follow the custom days")
        browser.shot("store")
        # Enter in the number of days buys them (the dialog's form would close it as Cancel).
        days.send_keys(Keys.ENTER)
        browser.wait_for("!document.getElementById('store').open", message="the store did not close after buying")
        browser.wait_for("document.querySelectorAll('.frost-burst span').length > 0", timeout=2,
                         message="the purchase ended without seed 003's frost burst")
        browser.shot("store-frost-burst")
        browser.wait_for(f"document.getElementById('diamonds').textContent === '{diamonds - 2 * price}'",
                         message="the diamond counter did not drop")
        assert counter(browser, "freezes") == freezes + 2
        browser.get("/today")
        assert counter(browser, "diamonds") == diamonds - 2 * price and counter(browser, "freezes") == freezes + 2
        browser.shot("store-after")
    finally:
        browser.quit()


def a_lost_answer_pressed_again_checks_in_once(args):
    browser = Browser(args, "lost-answer")
    try:
        sign_up(browser, "commuter")
        browser.dismiss_celebrations()
        habit = create_habit(browser, "Stretch")
        # The first check-in reaches the server, which stores it, but its answer is lost
        # (as on a train going into a tunnel): the page sees a network error, and its live
        # stream, lost with the connection, does not bring the change either.
        browser.wait_for("document.body.dataset.live === 'true'", message="the live stream did not open")
        browser.js("window.dispatchEvent(new PageTransitionEvent('pagehide'))")
        browser.js("""
            window.sentCheckIns = [];
            const realFetch = window.fetch;
            window.fetch = async (path, init) => {
                if (String(path).endsWith('/check-ins')) {
                    window.sentCheckIns.push(JSON.parse(init.body));
                    if (window.sentCheckIns.length === 1) {
                        await realFetch(path, init);
                        throw new TypeError('Failed to fetch');
                    }
                }
                return realFetch(path, init);
            };
        """)
        row = f"li.habit[data-habit='{habit}']"
        button = row + " button[data-action=check-in]"
        browser.css(button).click()
        browser.wait_for(f"window.sentCheckIns.length === 1 && !document.querySelector(\"{button}\").disabled",
                         message="the check-in button did not come back after the lost answer")
        message = browser.css(row + " [data-error]")
        assert message.is_displayed() and "No answer from the server" in message.text, \
            f"the lost answer was not shown beside the habit: {message.text!r}"
        browser.shot("lost-answer-error")
        browser.css(button).click()
        browser.wait_for(f"document.querySelector(\"{row} [data-streak]\")?.textContent === '1'",
                         message="pressing check-in again did not show the streak")
        sent = browser.js("return window.sentCheckIns")
        assert len(sent) == 2, f"expected two attempts, saw {sent}"
        assert sent[0].get("eventId") and sent[0] == sent[1], f"the attempts carried different event ids: {sent}"
        status, body = browser.api("GET", "/v1/events")
        assert status == 200, f"{status} {body}"
        completions = [change["event"] for change in body["events"]
                       if change["event"]["type"] == "completion" and change["event"]["habit"] == habit]
        assert len(completions) == 1, f"the retried check-in was stored {len(completions)} times: {completions}"
        browser.shot("lost-answer-retried")
    finally:
        browser.quit()


def unsaved_edits_and_long_names_survive(args):
    browser = Browser(args, "edits")
    try:
        sign_up(browser, "editor")
        browser.dismiss_celebrations()
        browser.get("/profile")
        browser.wait_for("document.body.dataset.live === 'true'", message="the live stream did not open")

        def change_elsewhere():
            """Another device's change: the page re-renders itself from the server."""
            before = int(browser.js("return Number(document.body.dataset.refreshes || 0)"))
            status, body = browser.api("POST", "/v1/subjects", {"name": f"Pet {uuid.uuid4().hex[:4]}"})
            assert status == 201, f"{status} {body}"
            browser.wait_for(f"Number(document.body.dataset.refreshes || 0) > {before}",
                             message="the page did not refresh for a change made elsewhere")
            browser.settle()

        # A ticked box and a chosen hour, not saved yet, stay through a live refresh.
        browser.click("#preferences input[name=doNotDisturb]")
        browser.js("const s = document.querySelector('#preferences select[name=dayStartHour]');"
                   "s.value = '4'; s.dispatchEvent(new Event('change', {bubbles: true}));")
        browser.click("h1")
        change_elsewhere()
        assert browser.css("#preferences input[name=doNotDisturb]").is_selected(), "the unsaved tick was lost"
        assert browser.css("#preferences select[name=dayStartHour]").get_attribute("value") == "4", \
            "the unsaved hour was lost"
        # Saved: "Saved." stays although saving is itself a change the page hears of.
        browser.js("document.querySelector('#preferences button[type=submit]').click()")  # (the sticky bar may cover it)
        browser.wait_for("document.querySelector('#preferences [data-saved]').textContent === 'Saved.'")
        change_elsewhere()
        assert browser.css("#preferences [data-saved]").text == "Saved.", "the page's own save wiped 'Saved.'"
        browser.get("/profile")
        assert browser.css("#preferences input[name=doNotDisturb]").is_selected(), "Do Not Disturb was not saved"

        # A habit name with no spaces keeps every habit's button on screen, even on a phone.
        browser.driver.set_window_size(390, 844)
        browser.get("/today")
        create_habit(browser, "W" * 100)
        create_habit(browser, "Read")
        overflow = browser.js("return document.documentElement.scrollWidth - window.innerWidth")
        assert overflow <= 0, f"the page is {overflow} px wider than the phone's screen"
        browser.shot("today-long-name-phone")
    finally:
        browser.quit()


def edit_and_archive_a_habit_and_sign_out_a_device(args):
    browser = Browser(args, "manage")
    other = Browser(args, "manage-other")
    try:
        email = sign_up(browser, "manager")
        browser.dismiss_celebrations()
        habit = create_habit(browser, "Floss")
        browser.get("/habits/" + habit)
        browser.js("document.querySelector('details.edit-habit').open = true")
        name = browser.css("#edit-habit input[name=name]")
        name.clear()
        name.send_keys("Floss nightly")
        browser.js("document.querySelector('#edit-habit select[name=difficulty]').value = 'hard'")
        browser.js("document.querySelector('#edit-habit select[name=schedule]').value = '3'")
        browser.click("#edit-habit button[type=submit]")
        browser.wait_for("document.querySelector('h1').textContent.includes('Floss nightly')",
                         message="the habit page did not show the new name")
        browser.settle()
        assert browser.css("#edit-habit [data-saved]").text == "Saved."
        status, body = browser.api("GET", f"/v1/habits/{habit}")
        assert status == 200 and body["habit"]["definition"]["difficulty"] == "hard", f"{status} {body}"
        assert body["habit"]["definition"]["schedule"] == {"kind": "timesPerWeek", "count": 3}, body
        assert "3 times a week" in browser.css("#edit-habit select[name=schedule] option:checked").text
        browser.shot("habit-edited")

        # The profile lists both browsers; signing the other one out sends it to sign-in.
        other.sign_in(email, "correct horse battery")
        other.dismiss_celebrations()
        browser.get("/profile")
        rows = browser.js("return [...document.querySelectorAll('ul.devices li')].map(li => li.innerText)")
        assert len(rows) == 2 and sum("(this browser)" in row for row in rows) == 1, rows
        assert all(row.startswith("Chrome on Linux") for row in rows), rows
        browser.shot("profile-devices")
        browser.click("ul.devices button[data-action=revoke-device]")
        browser.wait_for("document.querySelectorAll('ul.devices li').length === 1",
                         message="the signed-out device stayed in the list")
        other.get("/today")
        assert other.js("return location.pathname") == "/signin", "the signed-out browser still opened Today"

        # Archived: off Today, its page says so and offers no check-in.
        browser.get("/habits/" + habit)
        browser.js("document.querySelector('details.edit-habit').open = true")
        browser.click("button[data-action=archive-habit]")
        browser.driver.switch_to.alert.accept()
        browser.wait_for("location.pathname === '/today'", message="archiving did not return to Today")
        assert not browser.all(f"li.habit[data-habit='{habit}']"), "the archived habit is still on Today"
        browser.get("/habits/" + habit)
        assert "Archived on" in browser.css(".archived").text
        assert not browser.all("[data-action=check-in]"), "an archived habit offers a check-in"
    finally:
        browser.quit()
        other.quit()


def numeric_habits_count_toward_their_goal(args):
    """A habit with an amount: created with its goal from the form, logged in amounts on
    Today (progress toward "at least", the over-the-limit warning for "at most"), and its
    goal changed on its page."""
    browser = Browser(args, "numeric", width=390, dark=True)
    try:
        sign_up(browser, "hydra")
        browser.dismiss_celebrations()
        habits = {}
        for name, kind, amount, unit in [("Water", "atLeast", "8", "glasses"), ("Coffee", "atMost", "2", "cups")]:
            browser.js("document.querySelector('details.new-habit').open = true")
            browser.js("document.querySelector('#new-habit select[name=target]').value = arguments[0]", kind)
            browser.css("#new-habit input[name=amount]").send_keys(amount)
            browser.css("#new-habit input[name=measure]").send_keys(unit)
            habits[name] = create_habit(browser, name)
        status, body = browser.api("GET", f"/v1/habits/{habits['Water']}")
        assert body["habit"]["definition"]["target"] == {"atLeast": 8, "unit": "glasses"}, body

        def log(name, value):
            form = f"form[data-action=log-amount][data-habit='{habits[name]}']"
            field = browser.css(form + " input[name=value]")
            field.clear()
            field.send_keys(value)
            before = browser.js("return document.body.dataset.refreshes || '0'")
            browser.click(form + " button[type=submit]")
            browser.wait_for(f"(document.body.dataset.refreshes || '0') !== '{before}'",
                             message=f"logging {value} for {name} did not refresh Today")
            browser.settle()
            browser.dismiss_celebrations()

        def progress(name):
            return browser.js("return document.querySelector(`li.habit[data-habit='${arguments[0]}'] [data-progress]`).textContent",
                              habits[name])

        log("Water", "3")
        assert progress("Water") == "3 of 8 glasses today", progress("Water")
        # The field takes no negative amount: the browser refuses it before anything is sent.
        field = json.dumps(f"form[data-action=log-amount][data-habit='{habits['Water']}'] input[name=value]")
        browser.js(f"document.querySelector({field}).value = '-2'")
        assert not browser.js(f"return document.querySelector({field}).checkValidity()"), "a negative amount was valid"
        log("Water", "5.5")
        assert progress("Water") == "8.5 of 8 glasses today", progress("Water")
        row = f"li.habit[data-habit='{habits['Water']}']"
        assert "done" in browser.css(row).get_attribute("class"), "reaching the goal did not mark the day done"
        log("Coffee", "3")
        assert progress("Coffee") == "3 cups today: over the limit of 2", progress("Coffee")
        browser.shot("numeric-today")

        browser.get("/habits/" + habits["Water"])
        browser.js("document.querySelector('details.edit-habit').open = true")
        amount = browser.css("#edit-habit input[name=amount]")
        amount.clear()
        amount.send_keys("10")
        browser.click("#edit-habit button[type=submit]")
        browser.wait_for("document.body.innerText.includes('Goal: 10 glasses a day.')",
                         message="the new goal did not show on the habit page")
        status, body = browser.api("GET", f"/v1/habits/{habits['Water']}")
        assert body["habit"]["definition"]["target"] == {"atLeast": 10, "unit": "glasses"}, body
        browser.shot("numeric-habit")
    finally:
        browser.quit()


def pause_a_habit_and_take_a_vacation(args):
    """Pauses from the web app: one habit from its page (paused days in the calendar and the
    legend), then every habit from Today (the vacation banner), ended with End now; a pause
    to come is cancelled; a start past the backfill window is refused beside the form."""
    browser = Browser(args, "pause", width=390, dark=True)
    try:
        sign_up(browser, "paula")
        browser.dismiss_celebrations()
        habit = create_habit(browser, "Swim")
        browser.get("/habits/" + habit)
        browser.js("document.querySelector('details.pauses').open = true")
        form = f"form[data-action=pause][data-habit='{habit}']"
        browser.css(form + " input[name=note]").send_keys("Flu")
        browser.click(form + " button[type=submit]")
        browser.wait_for("document.querySelectorAll('.pause-list li').length === 1",
                         message="the habit's pause was not listed")
        browser.settle()
        assert "Flu" in browser.css(".pause-list li").text
        assert browser.all(".calendar .day.state-paused"), "today is not paused in the calendar"
        assert "Paused (vacation)" in browser.css(".legend").text
        browser.shot("pause-habit")

        # Too far back: refused beside the form, nothing paused.
        browser.get("/today")
        browser.js("document.querySelector('details.pauses').open = true")
        start = browser.js("const d = new Date(); d.setDate(d.getDate() - 5); return d.toISOString().slice(0, 10)")
        browser.js(f"const f = document.querySelector('form[data-action=pause]:not([data-habit])');"
                   f"f.elements.from.removeAttribute('min'); f.elements.from.value = '{start}';"
                   f"f.elements.until.removeAttribute('min'); f.requestSubmit()")
        browser.wait_for("document.querySelector('details.pauses [data-error]').textContent.includes('at most 1 day back')",
                         message="a pause past the backfill window was not refused")
        browser.get("/today")
        browser.js("document.querySelector('details.pauses').open = true")
        browser.css("form[data-action=pause]:not([data-habit]) input[name=note]").send_keys("Porto")
        browser.click("form[data-action=pause]:not([data-habit]) button[type=submit]")
        browser.wait_for("document.querySelector('.vacation') !== null", message="the vacation banner did not show")
        browser.settle()
        assert "Porto" in browser.css(".vacation").text
        assert browser.all("li.habit .dot.state-paused"), "Today's week does not show the paused day"
        browser.shot("vacation")
        browser.click("button[data-action=resume]")
        browser.wait_for("document.querySelector('.vacation') === null", message="End now did not end the vacation")
        browser.settle()

        # A pause to come: listed, then cancelled.
        browser.js("document.querySelector('details.pauses').open = true")
        later = browser.js("const d = new Date(); d.setDate(d.getDate() + 10); return d.toISOString().slice(0, 10)")
        browser.js(f"const f = document.querySelector('form[data-action=pause]:not([data-habit])');"
                   f"f.elements.from.value = '{later}'; f.elements.until.value = '{later}'; f.requestSubmit()")
        browser.wait_for("document.querySelector('button[data-action=cancel-pause]') !== null",
                         message="the pause to come was not listed")
        browser.settle()
        browser.click("button[data-action=cancel-pause]")
        browser.wait_for("document.querySelector('button[data-action=cancel-pause]') === null",
                         message="Cancel did not remove the pause to come")
        status, body = browser.api("GET", "/v1/today")
        assert [p["habit"] if "habit" in p else None for p in body["pauses"]] == [habit], body["pauses"]
    finally:
        browser.quit()


def groups_order_and_unarchive(args):
    """Habits in groups on a phone: arranged by keyboard (↓) and by dragging, a group
    collapsed (and still collapsed after a reload), one archived and brought back."""
    browser = Browser(args, "groups", width=390, dark=True)
    try:
        sign_up(browser, "gus")
        browser.dismiss_celebrations()
        ids = {}
        for name, group in [("Stretch", "Morning routine"), ("Read", ""), ("Tea", "Morning routine"),
                            ("Journal", "Evening")]:
            browser.js("document.querySelector('details.new-habit').open = true")
            if group:
                browser.css("#new-habit input[name=group]").send_keys(group)
            ids[name] = create_habit(browser, name)

        def names():
            return browser.js("return [...document.querySelectorAll('li.habit .habit-name')].map(a => a.textContent)")

        assert names() == ["Read", "Stretch", "Tea", "Journal"], names()
        browser.js("document.querySelector('[data-action=arrange]').click()")
        assert browser.js("return document.body.classList.contains('arranging')"), "Arrange did not start arranging"
        # Keyboard: focus Stretch's ↓ and press Enter.
        down = browser.css(f"button[data-action=move-habit][data-habit='{ids['Stretch']}'][data-step='1']")
        browser.js("arguments[0].focus()", down)
        before = browser.js("return document.body.dataset.refreshes || '0'")
        browser.driver.switch_to.active_element.send_keys(Keys.ENTER)
        browser.wait_for(f"(document.body.dataset.refreshes || '0') !== '{before}'", message="↓ did not save the order")
        browser.settle()
        assert names() == ["Read", "Tea", "Stretch", "Journal"], names()
        assert browser.js("return document.activeElement.getAttribute('aria-label')") == "Move Stretch down"
        # Drag: Stretch before Tea again (HTML drag events, as the browser sends them).
        before = browser.js("return document.body.dataset.refreshes || '0'")
        browser.js("""
            const [from, to] = arguments;
            const source = document.querySelector(`li.habit[data-habit='${from}']`);
            const target = document.querySelector(`li.habit[data-habit='${to}']`);
            const data = new DataTransfer();
            const box = target.getBoundingClientRect();
            source.dispatchEvent(new DragEvent('dragstart', {bubbles: true, dataTransfer: data}));
            target.dispatchEvent(new DragEvent('dragover', {bubbles: true, cancelable: true, dataTransfer: data, clientY: box.top + 2}));
            target.dispatchEvent(new DragEvent('drop', {bubbles: true, cancelable: true, dataTransfer: data, clientY: box.top + 2}));
            source.dispatchEvent(new DragEvent('dragend', {bubbles: true, dataTransfer: data}));
        """, ids["Stretch"], ids["Tea"])
        browser.wait_for(f"(document.body.dataset.refreshes || '0') !== '{before}'", message="the drop did not save the order")
        browser.settle()
        assert names() == ["Read", "Stretch", "Tea", "Journal"], names()
        status, body = browser.api("GET", "/v1/today")
        assert [h["definition"]["name"] for h in body["habits"]] == ["Read", "Stretch", "Tea", "Journal"], body["habits"]
        browser.shot("groups-arranging")
        browser.js("document.querySelector('[data-action=arrange]').click()")

        # Collapse Evening: it stays collapsed after a reload.
        browser.js("document.querySelector('details.habit-group[data-group=Evening] > summary').click()")
        browser.get("/today")
        assert browser.js("return document.querySelector('details.habit-group[data-group=Evening]').open") is False
        assert browser.js("return document.querySelector('details.habit-group[data-group=\"Morning routine\"]').open")
        browser.shot("groups-collapsed")

        # Archive Read from its page; bring it back from Today.
        browser.get("/habits/" + ids["Read"])
        browser.js("document.querySelector('details.edit-habit').open = true")
        browser.js("window.confirm = () => true")
        browser.js("document.querySelector('button[data-action=archive-habit]').click()")
        browser.wait_for("location.pathname === '/today'", message="archiving did not return to Today")
        browser.settle()
        assert "Read" not in names(), names()
        browser.js("document.querySelector('details.archived-habits').open = true")
        browser.js(f"document.querySelector(\"button[data-action=unarchive-habit][data-habit='{ids['Read']}']\").click()")
        browser.wait_for(f"document.querySelector(\"li.habit[data-habit='{ids['Read']}']\") !== null",
                         message="Unarchive did not bring the habit back to Today")
        assert not browser.all("details.archived-habits"), "the archive list stayed with nothing in it"
    finally:
        browser.quit()


def account_care_password_download_and_delete(args):
    """The profile's Account section: a password change that signs the other browser out,
    everything downloaded as one tar file, and the account deleted."""
    browser = Browser(args, "care")
    other = Browser(args, "care-other")
    try:
        email = sign_up(browser, "carla")
        browser.dismiss_celebrations()
        create_habit(browser, "Stretch")
        other.sign_in(email, "correct horse battery")
        browser.get("/profile")
        form = "#change-password"
        browser.css(form + " input[name=currentPassword]").send_keys("not my password")
        browser.css(form + " input[name=newPassword]").send_keys("a much better one")
        browser.click(form + " button[type=submit]")
        browser.wait_for(f"document.querySelector('{form} [data-error]').textContent.includes('not right')",
                         message="a wrong current password was not refused beside the form")
        current = browser.css(form + " input[name=currentPassword]")
        current.clear()
        current.send_keys("correct horse battery")
        browser.click(form + " button[type=submit]")
        browser.wait_for(f"document.querySelector('{form} [data-saved]').textContent.includes('1 other device')",
                         message="the password change did not say the other browser was signed out")
        assert browser.js(f"return document.querySelector('{form} input[name=newPassword]').value") == "", \
            "the new password stayed in the form"
        browser.shot("account-care")
        other.get("/today")
        assert other.js("return location.pathname") == "/signin", "the other browser was not signed out"
        other.get("/signin")
        other.css("input[name=email]").send_keys(email)
        other.css("input[name=password]").send_keys("a much better one")
        other.click("form button[type=submit]")
        other.wait_for("location.pathname === '/today'", message="the new password did not sign in")

        before = set(os.listdir(browser.downloads))
        browser.click("a[data-download=archive]")
        tar = downloaded(browser, before, ".tar", 1024)
        assert tar, "no archive was downloaded"
        with tarfile.open(tar) as archive:
            names = archive.getnames()
            assert "momentum-archive/account.jsonl" in names, names
            log = archive.extractfile("momentum-archive/account.jsonl").read().decode()
        assert '"name":"Stretch"' in log, log[:400]

        browser.driver.execute_script("window.prompt = () => 'delete'")
        browser.click("button[data-action=delete-account]")
        browser.wait_for("location.pathname === '/signin'", message="deleting the account did not sign out")
        other.get("/today")
        assert other.js("return location.pathname") == "/signin", "the other browser outlived the account"
    finally:
        browser.quit()
        other.quit()


def reset_link(maildir, email, timeout=20):
    """The path and query of the newest password-reset link mailed to `email`, read from the
    maildir the test's SMTP server (aiosmtpd) writes."""
    import email as mail
    import glob
    import quopri
    import re
    deadline = time.time() + timeout
    while time.time() < deadline:
        found = None
        for path in sorted(glob.glob(os.path.join(maildir, "new", "*")), key=os.path.getmtime):
            with open(path, "rb") as file:
                message = mail.message_from_binary_file(file)
            if email not in (message.get("To") or ""):
                continue
            text = quopri.decodestring(message.get_payload().encode()).decode()
            match = re.search(r"https?://[^/\s]+(/reset-password\?token=[A-Za-z0-9_-]+)", text)
            found = match.group(1) if match else found
        if found:
            return found
        time.sleep(0.2)
    raise AssertionError(f"no reset mail reached {email} in {maildir}")


def forgot_password_mail_new_password_sign_in(args):
    """Forgot your password? on the sign-in page mails a link (through a real SMTP server);
    the link's page sets a new password, which signs in, and the link works once."""
    browser = Browser(args, "forgot")
    other = Browser(args, "forgot-other")
    try:
        email = sign_up(browser, "frida")
        other.get("/signin")
        other.click("a[href='/forgot-password']")
        other.wait_for("location.pathname === '/forgot-password'", message="no Forgot your password? page")
        other.css("input[name=email]").send_keys(email)
        other.click("form button[type=submit]")
        other.wait_for("document.body.textContent.includes('a mail with a link is on its way')",
                       message="asking for a reset did not say a mail is on its way")
        link = reset_link(args.maildir, email)
        other.get(link)
        assert other.js("return document.querySelector('input[name=token]').value"), "the page lost the token"
        other.shot("reset-password")
        other.css("input[name=password]").send_keys("a fresh passphrase")
        other.click("form button[type=submit]")
        other.wait_for("document.body.textContent.includes('Your new password is set')",
                       message="the new password was not set")
        browser.get("/today")
        assert browser.js("return location.pathname") == "/signin", "the reset did not sign the other browser out"
        other.sign_in(email, "a fresh passphrase")
        other.get(link)
        other.css("input[name=password]").send_keys("yet another one")
        other.click("form button[type=submit]")
        other.wait_for("document.querySelector('[role=alert]') !== null",
                       message="a link used twice was not refused")
    finally:
        browser.quit()
        other.quit()


def import_from_loop_and_download_csv(args):
    """The profile's import: Loop's deflated zip is checked (a report of what would come in),
    then imported, and Today shows the habits with their streaks; a broken file lists its
    bad line and imports nothing; the CSV download is a zip with the habits in Loop's
    layout."""
    browser = Browser(args, "import")
    try:
        sign_up(browser, "ines")
        browser.dismiss_celebrations()
        today = datetime.date.fromisoformat(browser.js("return new Date().toISOString().slice(0, 10)"))
        days = [(today - datetime.timedelta(days=n)).isoformat() for n in range(1, 6)]
        folder = tempfile.mkdtemp()
        good = os.path.join(folder, "Loop Habits CSV.zip")
        with zipfile.ZipFile(good, "w", compression=zipfile.ZIP_DEFLATED) as archive:
            archive.writestr("Habits.csv", "Position,Name,Question,Description,NumRepetitions,Interval,Color\n"
                             "001,Meditate,,,1,1,#FF8F00\n002,Gym,,,3,7,#00897B\n")
            archive.writestr("001 Meditate/Checkmarks.csv", "Date,Value,Notes\n"
                             + "".join(f"{day},YES_MANUAL,\n" for day in days[:4]) + f"{days[4]},NO,\n")
            archive.writestr("002 Gym/Checkmarks.csv", f"Date,Value,Notes\n{days[1]},YES_MANUAL,legs\n")
            archive.writestr("001 Meditate/Scores.csv", "Date,Score\n")
        broken = os.path.join(folder, "broken.zip")
        with zipfile.ZipFile(broken, "w", compression=zipfile.ZIP_DEFLATED) as archive:
            archive.writestr("Habits.csv", "Position,Name\n001,Read\n")
            archive.writestr("001 Read/Checkmarks.csv", f"Date,Value\n{days[0]},YES_MANUAL\n{days[1]},MAYBE\n")

        browser.get("/profile")
        form = "#import-habits"
        browser.css(form + " input[type=file]").send_keys(broken)
        browser.click(form + " button[type=submit]")
        browser.wait_for(f"document.querySelector('{form} .problems')?.textContent.includes('001 Read/Checkmarks.csv:3')",
                         message="the broken file's line was not listed")
        assert "Nothing was imported" in browser.js(f"return document.querySelector('{form} [data-error]').textContent")
        browser.js(f"document.querySelector('{form} [data-import-report]').scrollIntoView({{block: 'center'}})")
        browser.shot("import-problems")

        browser.js(f"document.querySelector('{form} input[type=file]').value = ''")
        browser.css(form + " input[type=file]").send_keys(good)
        assert browser.js(f"return document.querySelector('{form} input[type=file]').files.length") == 1
        browser.wait_for(f"!document.querySelector('{form} .problems')", message="choosing a file kept the old report")
        browser.click(form + " button[type=submit]")
        browser.wait_for(f"document.querySelector('{form} [data-import-report]').textContent.includes('Ready to import 2 new habits')",
                         message="the check did not report what would come in")
        report = browser.js(f"return document.querySelector('{form} [data-import-report]').textContent")
        assert "Meditate — 4 check-ins" in report, report
        assert "1 day marked not done" in report, report
        assert browser.js(f"return document.querySelector('{form} [data-import-submit]').textContent") == "Import"
        browser.js(f"document.querySelector('{form} [data-import-report]').scrollIntoView({{block: 'center'}})")
        browser.shot("import-check")
        browser.click(form + " button[type=submit]")
        browser.wait_for(f"document.querySelector('{form} [data-import-report]').textContent.includes('Imported 2 new habits')",
                         message="the import did not report")
        browser.js(f"document.querySelector('{form} [data-import-report] a[href=\"/today\"]').click()")
        browser.wait_for("location.pathname === '/today'", message="the report's link did not lead to Today")
        browser.wait_for("document.body.textContent.includes('Meditate')", message="Today does not show the import")
        card = browser.js("return [...document.querySelectorAll('li.habit')].find((a) => a.textContent.includes('Meditate'))?.textContent")
        assert card and "4" in card, card
        browser.shot("import-today")

        before = set(os.listdir(browser.downloads))
        browser.get("/profile")
        browser.click("a[data-download=csv]")
        zipped = downloaded(browser, before, ".zip", 100)
        assert zipped, "no CSV zip was downloaded"
        with zipfile.ZipFile(zipped) as archive:
            names = archive.namelist()
            assert "momentum-csv/Habits.csv" in names, names
            gym = archive.read("momentum-csv/002 Gym/Checkmarks.csv").decode()
        assert f"{days[1]},YES_MANUAL,legs" in gym, gym
    finally:
        browser.quit()


def milestone_form(browser, fields):
    """Fills the Journey page's milestone form ({name: value}) once the page has settled."""
    browser.settle()
    browser.js("document.querySelector('details.milestone-editor').open = true")
    browser.wait_for("document.querySelector('form.milestone-form [name=title]').offsetParent !== null",
                     message="the milestone form did not open")
    for name, value in fields.items():
        field = browser.css(f"form.milestone-form [name='{name}']")
        if field.tag_name == "select":
            browser.js("arguments[0].value = arguments[1]; arguments[0].dispatchEvent(new Event('change', {bubbles: true}))",
                       field, value)
        else:
            browser.wait_for(f"document.querySelector(\"form.milestone-form [name='{name}']\").offsetParent !== null",
                             message=f"the milestone form's {name} is not shown")
            field.clear()
            field.send_keys(value)


def your_own_milestones(args):
    """Issue 28 item 5 (seed 000, open question 5): a person who tracks a puppy and a habit
    defines milestones of their own on the Journey page: a first already met (celebrated at
    once, full screen, with their message), a count of a habit with its progress, a moment
    (celebrated, remembered, shareable); a bad one is refused beside the form; one is edited
    and another deleted."""
    browser = Browser(args, "own-milestones")
    try:
        sign_up(browser, "maya", packs=["habits", "ollie"])
        browser.dismiss_celebrations()
        create_habit(browser, "Run")
        # An outdoor potty break, logged from another device; its own milestone is dismissed
        # unseen (a card shown now would make the next one wait a minute, as seed 000 asks).
        at = datetime.datetime.now(datetime.timezone.utc).strftime("%Y-%m-%dT%H:%M:%SZ")
        status, body = browser.api("POST", "/v1/events", {"events": [
            {"id": "potty-1", "type": "log", "kind": "potty", "item": "outdoor", "at": at, "tz": "UTC"}]})
        assert status == 200 and body["results"][0]["status"] == "applied", body
        browser.dismiss_queued()
        browser.get("/journey")
        browser.dismiss_celebrations()
        assert "Your milestones" in browser.js("return document.querySelector('.milestones h2').textContent")
        # A first the history already holds: reached at once, celebrated with the user's words.
        milestone_form(browser, {"title": "Outside, like a big dog", "rule": "first", "source": "kind:potty",
                                 "item": "outdoor", "tier": "3", "message": "Good dog, Biscuit!"})
        assert browser.js("return document.querySelector(\"form.milestone-form [name=target]\").closest('label').hidden"), \
            "a first asks for a number"
        browser.shot("milestone-form-first")
        browser.click("form.milestone-form button[type=submit]")
        browser.wait_for("document.querySelector('.celebration') !== null", timeout=12,
                         message="the milestone already met did not celebrate")
        browser.wait_for("document.querySelector('.celebration').textContent.includes('Good dog, Biscuit!')",
                         message="the celebration does not show the user's message")
        browser.wait_for("document.querySelector('.celebration.fullscreen')?.dataset.phase === 'settle'", timeout=12,
                         message="the tier-3 milestone was not celebrated full screen")
        browser.shot("milestone-celebrated")
        browser.dismiss_celebrations()
        browser.wait_for("document.querySelector('.celebration') === null", timeout=12,
                         message="the celebration did not close")
        browser.wait_for("[...document.querySelectorAll('.milestone-list li')].some(li => "
                         "li.textContent.includes('Outside, like a big dog') && li.textContent.includes('Reached'))",
                         message="the reached milestone is not listed as reached")
        # A count of a habit's days: listed with its progress.
        milestone_form(browser, {"title": "10 runs", "rule": "count", "source": "habit:" + browser.js(
            "return document.querySelector(\"form.milestone-form [name=source] option[value^='habit:']\").value.slice(6)"),
            "target": "10", "badge": "🏃"})
        assert browser.js("return document.querySelector(\"form.milestone-form [name=item]\").closest('label').hidden"), \
            "a habit's count asks for an item"
        browser.click("form.milestone-form button[type=submit]")
        browser.wait_for("[...document.querySelectorAll('.milestone-list li')].some(li => li.textContent.includes('10 runs')"
                         " && li.querySelector('progress')?.max === 10 && li.textContent.includes('0 of 10'))",
                         message="the count is not listed with its progress")
        # Bad input: a streak of 0 days is refused beside the form; nothing is added.
        milestone_form(browser, {"title": "Never", "rule": "streak", "source": "kind:potty", "target": "0"})
        browser.js("const f = document.querySelector('form.milestone-form'); f.noValidate = true;"
                   "f.querySelector('button[type=submit]').click()")
        browser.wait_for("document.querySelector('form.milestone-form [data-error]').textContent.length > 0",
                         message="a streak of 0 days gave no error")
        error = browser.js("return document.querySelector('form.milestone-form [data-error]').textContent")
        assert "whole number" in error, error
        _, listed = browser.api("GET", "/v1/milestones")
        assert [m["title"] for m in listed["milestones"]] == ["Outside, like a big dog", "10 runs"], listed
        browser.js("document.querySelector('form.milestone-form').noValidate = false")
        # Edit the count: a new title and number, the same milestone.
        browser.get("/journey")
        browser.dismiss_celebrations()
        browser.click(".milestone-list li:nth-child(2) button[data-action=edit-milestone]")
        assert browser.js("return document.querySelector('form.milestone-form [name=target]').value") == "10"
        milestone_form(browser, {"title": "Twelve runs", "target": "12"})
        browser.click("form.milestone-form button[type=submit]")
        browser.wait_for("[...document.querySelectorAll('.milestone-list li')].some(li => li.textContent.includes('Twelve runs')"
                         " && li.textContent.includes('0 of 12'))", message="the edit did not show")
        _, listed = browser.api("GET", "/v1/milestones")
        assert len(listed["milestones"]) == 2, listed
        # A moment: celebrated now, remembered, and shareable.
        milestone_form(browser, {"title": "First beach day", "rule": "moment", "badge": "🏖️",
                                 "message": "Sand in every paw!"})
        browser.click("form.milestone-form button[type=submit]")
        browser.wait_for("[...document.querySelectorAll('.milestone-list li')].some(li => "
                         "li.textContent.includes('First beach day') && li.textContent.includes('Reached'))",
                         message="the moment is not listed as reached")
        browser.dismiss_celebrations()
        browser.js("window.scrollTo(0, document.querySelector('.milestones').offsetTop - 80)")
        browser.shot("journey-your-milestones")
        # Deleted: gone from the list; its memory stays.
        browser.js("window.confirm = () => true")
        browser.click(".milestone-list li:nth-child(2) button[data-action=delete-milestone]")
        browser.wait_for("![...document.querySelectorAll('.milestone-list li')].some(li => li.textContent.includes('Twelve runs'))",
                         message="the deleted milestone is still listed")
        browser.get("/memories")
        browser.dismiss_celebrations()
        text = browser.js("return document.querySelector('main').textContent")
        assert "First beach day" in text and "Outside, like a big dog" in text, "the milestones are not remembered"
        browser.shot("memories-own-milestones")
        _, memories = browser.api("GET", "/v1/memories")
        beach = [m for m in memories["memories"] if m["caption"] == "First beach day"]
        assert beach, memories
        status, kind = browser.driver.execute_async_script("""
            const [path, done] = arguments;
            fetch(path, {credentials: 'same-origin'}).then(r => done([r.status, r.headers.get('Content-Type')]))
              .catch(e => done([0, String(e)]));
        """, f"/v1/memories/{urllib.parse.quote(beach[0]['id'], safe='')}/share-card")
        assert status == 200 and kind.startswith("image/"), f"the moment's share card answered {status} {kind}"
    finally:
        browser.quit()


def speaks_brazilian_portuguese(args):
    """A browser that prefers Brazilian Portuguese gets the whole app in it, the engine's
    celebrations too; the profile can choose English and go back to the browser's."""
    browser = Browser(args, "portuguese", lang="pt-BR")
    try:
        browser.get("/signin")
        assert browser.js("return document.documentElement.lang") == "pt-BR"
        button = browser.css("form button[type=submit]").text
        assert button == "Entrar", f"the sign-in button says {button!r}"
        # A refusal the page knows is told in Portuguese too.
        browser.css("input[name=email]").send_keys("nobody@example.com")
        browser.css("input[name=password]").send_keys("not the password")
        browser.click("form button[type=submit]")
        browser.wait_for("document.querySelector('[role=alert], .error')?.textContent.trim().length > 0",
                         message="a wrong password showed no error")
        error = browser.js("return document.querySelector('[role=alert], .error').textContent.trim()")
        assert error == "E-mail ou senha incorretos.", f"a wrong password says {error!r}"
        email = sign_up(browser, "brasileira")
        browser.dismiss_celebrations()
        _, profile = browser.api("GET", "/v1/profile")
        assert profile.get("language") == "pt-BR", f"sign-up stored the language {profile.get('language')!r}"
        nav = browser.js("return [...document.querySelectorAll('.topbar nav a')].map(a => a.textContent)")
        assert nav[0] == "Hoje" and "Memórias" in nav and "Perfil" in nav, f"the navigation reads {nav}"
        create_habit_api(browser, email, "stretch", created_days_ago=6)
        push_history(browser, email, "stretch", 6)
        browser.dismiss_queued()
        browser.get("/today")
        browser.dismiss_celebrations()
        row = "li.habit[data-habit='stretch']"
        browser.css(row + " button[data-action=check-in]").click()
        browser.wait_for("document.querySelector('.celebration[data-tier=\"2\"]') !== null", timeout=10,
                         message="the 7-day milestone showed no card")
        title = browser.js("return document.querySelector('.celebration[data-tier=\"2\"] h2').textContent")
        # The message the engine chose, in Portuguese ("7 dias firme e forte! 🔥").
        assert "7" in title and "day" not in title and "streak" not in title.lower(), f"the card says {title!r}"
        done = browser.js("return document.querySelector('.celebration .done').textContent")
        assert done == "Pronto", f"the card's button says {done!r}"
        announced = browser.wait_for("document.getElementById('announcer').textContent")
        assert "Streak" not in announced and "streak" not in announced, f"announced in English: {announced!r}"
        time.sleep(0.5)
        browser.shot("celebration-pt-BR")
        browser.css(".celebration .done").click()
        browser.wait_for("document.querySelector('.celebration') === null")
        browser.shot("today-pt-BR")
        _, achievements = browser.api("GET", "/v1/achievements")
        titles = [unlock["title"] for unlock in achievements["unlocked"]]
        assert any("Sequência de 7 dias" in t for t in titles), f"the API's titles are {titles}"

        # The profile chooses English: every word changes, the engine's too.
        browser.get("/profile")
        browser.shot("profile-pt-BR")
        # The script tells a refused field in Portuguese too.
        browser.js("document.querySelector('#preferences input[name=displayName]').value = '   '")
        browser.click("#preferences button[type=submit]")
        browser.wait_for("document.querySelector('#preferences [data-error]')?.textContent.length > 0",
                         message="a blank name showed no error")
        error = browser.js("return document.querySelector('#preferences [data-error]').textContent")
        assert error == "O nome precisa ter de 1 a 100 caracteres.", f"a blank name says {error!r}"
        browser.get("/profile")
        browser.js("document.querySelector('select[name=language]').value = 'en'")
        browser.click("#preferences button[type=submit]")
        browser.wait_for("document.documentElement.lang === 'en'", message="choosing English did not reload in English")
        nav = browser.js("return [...document.querySelectorAll('.topbar nav a')].map(a => a.textContent)")
        assert nav[0] == "Today", f"the navigation reads {nav} in English"
        _, achievements = browser.api("GET", "/v1/achievements")
        titles = [unlock["title"] for unlock in achievements["unlocked"]]
        assert any("7-day streak" in t for t in titles), f"the API's titles in English are {titles}"

        # Automatic follows the browser again.
        browser.js("document.querySelector('select[name=language]').value = ''")
        browser.click("#preferences button[type=submit]")
        browser.wait_for("document.documentElement.lang === 'pt-BR'",
                         message="choosing Automatic did not follow the browser")
        _, profile = browser.api("GET", "/v1/profile")
        assert profile.get("language") is None, f"Automatic stored {profile.get('language')!r}"
    finally:
        browser.quit()


def two_windows_stay_in_sync(args):
    first = Browser(args, "sync-a")
    second = Browser(args, "sync-b")
    try:
        email = sign_up(first, "twin")
        first.dismiss_celebrations()
        habit = create_habit(first, "Meditate")
        second.sign_in(email, "correct horse battery")
        second.dismiss_celebrations()
        second.wait_for("document.body.dataset.live === 'true'", message="the second window's stream did not open")
        row = f"li.habit[data-habit='{habit}']"
        assert second.css(row + " [data-streak]").text == "0"
        first.css(row + " button[data-action=check-in]").click()
        second.wait_for(f"document.querySelector(\"{row} [data-streak]\")?.textContent === '1'", timeout=5,
                        message="the other window did not show the check-in without a reload")
        second.shot("sync-second-window")
    finally:
        first.quit()
        second.quit()


def savings_celebrations_differ_by_category(args):
    """Seed 002: each goal category celebrates with its own particles (confetti for a trip,
    hearts for a wedding, stars for retirement) and savings milestones with gold coins, fewer
    for a small milestone. Counted in the page: particles, their colours and their shape."""
    browser = Browser(args, "savings-particles")
    seen = {}
    try:
        cases = [
            ("vacation", 2000, "goal-completed", "confetti"),
            ("wedding", 1500, "goal-completed", "hearts"),
            ("retirement", 3000, "goal-completed", "stars"),
            ("other", 1200, "savings-small", "coins"),
        ]
        for category, amount, rule, shape in cases:
            email = sign_up(browser, f"saver-{category}")
            browser.dismiss_celebrations()
            status, _ = browser.api("PATCH", "/v1/profile", {"pack": "savings"})
            assert status == 200, f"choosing the savings pack answered {status}"
            at = (datetime.datetime.now(datetime.timezone.utc) - datetime.timedelta(minutes=2))
            stamp = at.strftime("%Y-%m-%dT%H:%M:%SZ")
            admin_import(browser, email, [
                {"id": f"goal-{category}", "type": "goal", "at": stamp, "tz": "UTC", "goal": category,
                 "name": category.capitalize(), "category": category, "target": amount},
                {"id": f"save-{category}", "type": "contribution", "at": stamp, "tz": "UTC", "goal": category,
                 "amount": amount}])
            # The celebrations queued before the one under test are dismissed unseen.
            assert browser.dismiss_queued(until_rule=rule), f"{category}: no {rule} celebration is due"
            browser.js("sessionStorage.clear()")
            browser.get("/today")
            browser.wait_for("document.querySelectorAll('.celebration .particle').length > 0", timeout=12,
                             message=f"{category}: the {rule} celebration drew no particles")
            drawn = browser.js("""
                const layer = document.querySelector('.celebration .particles');
                const pieces = [...layer.querySelectorAll('.particle')];
                return {type: layer.dataset.particles, count: pieces.length,
                        colors: [...new Set(pieces.map(p => p.dataset.color))].sort(),
                        glyphs: [...new Set(pieces.map(p => p.textContent))],
                        round: getComputedStyle(pieces[0]).borderRadius}""")
            browser.shot(f"celebration-savings-{category}")
            if rule == "savings-small":
                # A card's particles fall around it, not clipped by it, and never over its text.
                placed = browser.js("""
                    const card = document.querySelector('.celebration-card').getBoundingClientRect();
                    const title = document.querySelector('.celebration-card h2').getBoundingClientRect();
                    const outside = [...document.querySelectorAll('.celebration .particle')].filter(p => {
                        const r = p.getBoundingClientRect();
                        return r.bottom < card.top || r.top > card.bottom || r.right < card.left || r.left > card.right;
                    }).length;
                    const top = document.elementFromPoint(title.left + title.width / 2, title.top + title.height / 2);
                    return {outside, titleOnTop: top !== null && top.closest('.celebration-card') !== null}""")
                assert placed["outside"] > 0, "the card clips its particles"
                assert placed["titleOnTop"], "a particle covers the card's title"
            assert drawn["type"] == shape, f"{category}: {drawn['type']} particles, wanted {shape}"
            seen[category] = drawn
            browser.wait_for("(() => { const b = document.querySelector('.celebration .done'); "
                             "return b !== null && b.offsetParent !== null })()", timeout=12,
                             message=f"{category}: the celebration offered no Done")
            browser.click(".celebration .done")
            browser.wait_for("document.querySelector('.celebration') === null")
        # Counts follow the intensity: a goal reached is medium, a first $1k milestone light.
        assert seen["vacation"]["count"] == seen["wedding"]["count"] == seen["retirement"]["count"] == 56, seen
        assert seen["other"]["count"] == 28, seen["other"]
        # Colours: the seed's three for a trip and a wedding, two for retirement, three golds for coins.
        assert [len(seen[c]["colors"]) for c in ["vacation", "wedding", "retirement", "other"]] == [3, 3, 2, 3], seen
        assert len({tuple(drawn["colors"]) for drawn in seen.values()}) == 4, "two categories share their colours"
        # Shapes: glyphs for hearts and stars, round coins, paper confetti.
        assert seen["wedding"]["glyphs"] == ["♥"] and seen["retirement"]["glyphs"] == ["★"], seen
        assert seen["other"]["round"] == "50%" and seen["vacation"]["glyphs"] == [""], seen
    finally:
        browser.quit()

def a_goal_reached_celebrates_the_trip_first(args):
    """Issue 45 and seed 002's "Vacation goal at 100%: confetti burst appears": the
    contribution that completes a trip goal (also its first contribution) shows the trip's
    full-screen confetti and "Bon voyage!" within 5 s, with the first contribution as a line
    in it and no toast before it; so does signing in after a contribution pushed elsewhere."""
    browser = Browser(args, "goal-moment")
    other = None
    # Every celebration the page adds, in order, recorded as it happens.
    record = """
        window.__celebrations = [];
        new MutationObserver(records => {
          for (const r of records) for (const node of r.addedNodes) {
            if (node.classList?.contains('celebration')) window.__celebrations.push(node.className);
          }
        }).observe(document.getElementById('celebration-root'), {childList: true});"""
    trip = """(() => { const c = document.querySelector('.celebration.fullscreen[data-tier="3"]');
        return c !== null && c.querySelector('.particles[data-particles=confetti] .particle') !== null
            && c.querySelector('h2').textContent.includes('Bon voyage!') })()"""
    try:
        sign_up(browser, "bali-saver", packs=["savings"])
        browser.dismiss_celebrations()
        browser.get("/packs/savings")
        log_form(browser, "savings-goal", {"name": "Bali", "category": "vacation", "target": "500"})
        browser.wait_for("document.querySelector('.goal') !== null", message="the new goal did not appear")
        browser.settle()
        browser.js(record)
        started = time.time()
        log_form(browser, "savings-contribution", {"amount": "500"})
        browser.wait_for(trip, timeout=5, message="no trip confetti and 'Bon voyage!' within 5 s of the contribution")
        waited = time.time() - started
        browser.shot("celebration-goal-moment")
        lines = browser.js("return [...document.querySelectorAll('.celebration.fullscreen .folded li')]"
                           ".map(li => li.textContent.trim())")
        assert lines == ["🪙 First contribution to Bali! 💰"], lines
        shown = browser.js("return window.__celebrations")
        assert len(shown) == 1 and "fullscreen" in shown[0], f"celebrations shown: {shown}"
        browser.wait_for("(() => { const b = document.querySelector('.celebration .done'); "
                         "return b !== null && b.offsetParent !== null })()", timeout=12,
                         message="the trip celebration offered no Done")
        browser.click(".celebration .done")
        browser.wait_for("document.querySelector('.celebration') === null")
        _, queue = browser.api("GET", "/v1/celebrations/next")
        assert queue["waiting"] == 0, f"the moment left {queue['waiting']} celebrations behind"
        print(f"     the trip's confetti {waited:.1f} s after the contribution")

        # A goal reached by a contribution pushed from another device, then a sign-in.
        email = sign_up(browser, "lisbon-saver", packs=["savings"])
        browser.dismiss_celebrations()
        now = datetime.datetime.now(datetime.timezone.utc)
        stamp = lambda seconds: (now - datetime.timedelta(seconds=seconds)).strftime("%Y-%m-%dT%H:%M:%SZ")
        status, body = browser.api("POST", "/v1/events", {"events": [
            {"id": "goal-lisbon", "type": "goal", "at": stamp(2), "tz": "UTC", "goal": "lisbon", "name": "Lisbon",
             "category": "vacation", "target": 300},
            {"id": "save-lisbon", "type": "contribution", "at": stamp(1), "tz": "UTC", "goal": "lisbon",
             "amount": 300}]})
        assert status == 200 and [r["status"] for r in body["results"]] == ["applied", "applied"], body
        other = Browser(args, "goal-moment-sign-in")
        other.get("/signin")
        other.css("input[name=email]").send_keys(email)
        other.css("input[name=password]").send_keys("correct horse battery")
        other.css("form button[type=submit]").click()
        other.wait_for("location.pathname === '/today'", message="signing in did not reach /today")
        other.wait_for(trip, timeout=5, message="no trip confetti and 'Bon voyage!' within 5 s of signing in")
        lines = other.js("return [...document.querySelectorAll('.celebration.fullscreen .folded li')]"
                         ".map(li => li.textContent.trim())")
        assert lines == ["🪙 First contribution to Lisbon! 💰"], lines
        # One celebration at a time: had the toast come first, the trip would not be showing.
        shown = other.js("return [...document.querySelectorAll('.celebration')].map(c => c.className)")
        assert len(shown) == 1, f"celebrations shown at sign-in: {shown}"
        other.shot("celebration-goal-moment-sign-in")
    finally:
        browser.quit()
        if other is not None:
            other.quit()


def log_form(browser, form, fields=None, submit=True):
    """Fills a pack form's fields ({name: value}; a select by its option's value) and submits it,
    once the page has stopped re-rendering (a refresh would replace the form being filled)."""
    browser.settle()
    for name, value in (fields or {}).items():
        field = browser.css(f"#form-{form} [name='{name}']")
        if field.tag_name == "select":
            browser.js("arguments[0].value = arguments[1]; arguments[0].dispatchEvent(new Event('change', {bubbles: true}))",
                       field, value)
        else:
            field.clear()
            field.send_keys(value)
    if submit:
        browser.click(f"#form-{form} button[type=submit]")


def celebration_titles(browser):
    _, body = browser.api("GET", "/v1/achievements")
    return [unlock["title"] for unlock in body["unlocked"]]


def puppy_journal_from_its_forms_on_a_phone_in_dark(args):
    """Seed 000 in the web app, on a 390-px phone in dark mode: an account that tracks a
    puppy (no habits) logs a potty break with one tap on Today, which celebrates the first
    outdoor one; names the puppy and gives it a photo; checks off the socialization checklist;
    learns a command, removes that entry, and the photo."""
    browser = Browser(args, "puppy-phone", width=390, dark=True)
    try:
        sign_up(browser, "puppy", packs=["ollie"])
        browser.dismiss_celebrations()
        assert browser.js("return matchMedia('(prefers-color-scheme: dark)').matches"), "dark mode is not on"
        assert not browser.all(".habit-list, #new-habit"), "a puppy-only account sees a habit list"
        assert browser.all("section[data-pack=ollie]"), "Today has no puppy section"
        # The phone's top bar takes two rows: brand, counters and sign-out; then the sections.
        assert browser.js("return innerWidth") == 390, "the phone's width is not emulated"
        rows = browser.js("""const centers = ['.brand', '.topbar nav', '.counters', '.signout'].map(s => {
                const r = document.querySelector(s).getBoundingClientRect(); return r.top + r.height / 2 }).sort((a, b) => a - b);
            return centers.filter((c, i) => i === 0 || c - centers[i - 1] > 16).length""")
        assert rows <= 2, f"the top bar takes {rows} rows on a phone"
        assert browser.js("return document.documentElement.scrollWidth <= 390"), "the page scrolls sideways"
        assert browser.js("return document.querySelector('.signout').getBoundingClientRect().right <= 390"), \
            "sign-out is off the screen"
        browser.shot("phone-dark-today-puppy")
        # One tap: a potty break outside, the first, celebrated with a card.
        browser.click("#form-ollie-potty button[data-value=outdoor]")
        browser.wait_for("document.querySelector('.celebration-card h2') !== null", timeout=12,
                         message="the first outdoor potty did not celebrate")
        assert "First outdoor potty" in browser.js("return document.querySelector('.celebration').textContent")
        browser.shot("phone-dark-first-outdoor-potty")
        browser.click(".celebration .done")
        browser.wait_for("document.querySelector('.celebration') === null")
        browser.wait_for("document.querySelector('.log-streaks')?.textContent.includes('1 day in a row')",
                         message="Today does not show the outdoor streak")
        # The journal page: name the puppy, with a birthday ten weeks ago.
        browser.click("nav a[href='/packs/ollie']")
        browser.wait_for("location.pathname === '/packs/ollie'")
        born = (datetime.date.today() - datetime.timedelta(days=70)).strftime("%m%d%Y")
        log_form(browser, "ollie-puppy", {"name": "Biscuit"}, submit=False)
        browser.css("#form-ollie-puppy [name='dates.born']").send_keys(born)
        browser.click("#form-ollie-puppy button[type=submit]")
        browser.wait_for("document.querySelector('.pack-head h2').textContent.includes('Biscuit’s journal')",
                         message="the journal is not named after the puppy")
        browser.dismiss_celebrations()
        assert "10 weeks old" in browser.js("return document.querySelector('.subject').textContent")
        # Saving the puppy again edits Biscuit: still one subject.
        log_form(browser, "ollie-puppy", {"name": "Biscuit Jr"})
        browser.wait_for("document.querySelector('.pack-head h2').textContent.includes('Biscuit Jr’s journal')")
        browser.dismiss_celebrations()
        _, subjects = browser.api("GET", "/v1/subjects")
        assert len(subjects["subjects"]) == 1, subjects
        # Biscuit's photo on its card: chosen, shown, kept when the puppy is saved again.
        browser.settle()
        browser.css(".subject-card input[type=file]").send_keys(tiny_png_file("biscuit.png"))
        browser.wait_for("document.querySelector('.subject-card img.subject-photo')?.complete"
                         " && document.querySelector('.subject-card img.subject-photo').naturalWidth > 0",
                         timeout=12, message="the puppy's photo did not appear on its card")
        assert "Change photo" in browser.js("return document.querySelector('.subject-card').textContent")
        log_form(browser, "ollie-puppy", {"name": "Biscuit"})
        browser.wait_for("document.querySelector('.pack-head h2').textContent.includes('Biscuit’s journal')")
        browser.dismiss_celebrations()
        assert browser.js("return document.querySelector('.subject-card img.subject-photo') !== null"), \
            "saving the puppy's name lost its photo"
        # The checklist: a bus ride is checked off and stays so.
        browser.click("#form-ollie-social button[data-value=bus]")
        browser.wait_for("document.querySelector('#form-ollie-social button[data-value=bus]')"
                         ".getAttribute('aria-pressed') === 'true'", message="the bus was not checked off")
        assert "1 of 30 checked off" in browser.js("return document.querySelector('#form-ollie-social').textContent")
        browser.dismiss_celebrations()
        # A command, with a note: the first is a milestone by name (its card waits for the
        # next session: seed 000 shows one tier-2 card per session).
        log_form(browser, "ollie-command", {"item": "sit", "note": "With a treat"})
        browser.wait_for("document.querySelector('#form-ollie-command [data-saved]').textContent === 'Saved.'",
                         message="the command was not saved")
        assert "First command learned: sit" in celebration_titles(browser)
        browser.dismiss_celebrations()
        # Bad input: a command without its name says so beside the form and logs nothing.
        # (The browser's own check stops it first; without it, the app's says the same.)
        browser.settle()
        log_form(browser, "ollie-command", {"note": "forgot the name"}, submit=False)
        browser.js("const f = document.querySelector('#form-ollie-command'); f.noValidate = true;"
                   "f.querySelector('button[type=submit]').click()")
        browser.wait_for("document.querySelector('#form-ollie-command [data-error]').textContent.length > 0",
                         message="a command without a name gave no error")
        assert "Command is needed" in browser.js("return document.querySelector('#form-ollie-command [data-error]').textContent")
        browser.js("window.scrollTo(0, 0)")
        browser.shot("phone-dark-puppy-journal")
        entries = browser.js("return [...document.querySelectorAll('.entries li')].map(li => li.textContent)")
        assert any("Command learned: sit" in e for e in entries), entries
        assert any("Potty break: Outside" in e for e in entries), entries
        # An entry logged by mistake is removed (after a confirmation); its milestone stays.
        browser.js("window.confirm = () => true")
        browser.click(".entries button[aria-label^='Remove Command learned: sit']")
        browser.wait_for("![...document.querySelectorAll('.entries li')].some(li => li.textContent.includes('Command learned: sit'))",
                         message="the removed entry is still listed")
        assert "First command learned: sit" in celebration_titles(browser), "removing the entry took its milestone"
        _, commands = browser.api("GET", "/v1/events?after=0&limit=1000")
        assert any(e["event"]["type"] == "removal" for e in commands["events"]), "no removal was recorded"
        # The photo, removed: the card shows the emblem again.
        browser.js("window.scrollTo(0, 0)")
        browser.click(".subject-card button[data-action=remove-subject-photo]")
        browser.wait_for("document.querySelector('.subject-card img.subject-photo') === null"
                         " && document.querySelector('.subject-card .subject-photo.placeholder') !== null",
                         message="the removed photo is still shown")
    finally:
        browser.quit()


def savings_and_growth_from_their_forms(args):
    """Seeds 002 and 001 in the web app: a goal is created and contributed to (its name, not
    its id, in every message; progress and the milestone ladder move), and a practice's stages
    are recorded with notes, with the timeline and an affirmation."""
    browser = Browser(args, "savings-growth")
    try:
        sign_up(browser, "grower", packs=["habits", "savings", "growth"])
        browser.dismiss_celebrations()
        assert browser.all(".habit-list") and browser.all("#new-habit"), "habits are tracked too"
        browser.get("/packs/savings")
        assert "Create a goal first" in browser.js("return document.querySelector('#form-savings-contribution').textContent")
        log_form(browser, "savings-goal", {"name": "Trip to Bali", "category": "vacation", "target": "3000"})
        browser.wait_for("document.querySelector('.goal') !== null", message="the new goal did not appear")
        assert "$0 of $3,000" in browser.js("return document.querySelector('.goal').textContent")
        # One goal open: it is chosen already. $1,200 crosses the first milestone.
        log_form(browser, "savings-contribution", {"amount": "1200"})
        browser.wait_for("document.querySelector('.goal')?.textContent.includes('$1,200 of $3,000 · 40%')",
                         message="the contribution did not move the goal")
        browser.wait_for("document.querySelector('.celebration') !== null", timeout=12,
                         message="the contribution did not celebrate")
        browser.shot("savings-first-milestone")
        browser.dismiss_celebrations()
        titles = celebration_titles(browser)
        assert "First contribution to Trip to Bali" in titles, titles
        assert any(t.startswith("First milestone!") for t in titles), titles
        assert browser.js("return document.querySelector('.rung.tier-small').classList.contains('reached')")
        assert "$1,200 to Trip to Bali" in browser.js("return document.querySelector('.entries').textContent")
        browser.shot("savings-page")
        # Growth: a first stage, then the next, each with a note.
        browser.get("/packs/growth")
        log_form(browser, "growth-stage", {"method": "meditation", "to": "beginner", "note": "Five minutes a day"})
        browser.wait_for("document.querySelector('.method[data-method=meditation] .timeline') !== null",
                         message="the first stage did not show")
        browser.dismiss_celebrations()
        # Only the chosen method's stages are offered.
        log_form(browser, "growth-stage", {"method": "meditation"}, submit=False)
        hidden = browser.js("return [...document.querySelectorAll('#form-growth-stage optgroup')].filter(g => g.hidden).map(g => g.dataset.method)")
        assert hidden == ["journaling"], hidden
        log_form(browser, "growth-stage", {"method": "meditation", "to": "steady", "note": "Twenty minutes now"})
        browser.wait_for("document.querySelector('.method[data-method=meditation]')?.textContent.includes('Steady Sitter')",
                         message="the second stage did not show")
        # (Its card waits for the next session: the savings milestone had this one's.)
        browser.dismiss_celebrations()
        method = browser.js("return document.querySelector('.method[data-method=meditation]').textContent")
        assert "stage 2 of 4" in method and "Twenty minutes now" in method and "Five minutes a day" in method, method
        assert browser.js("return document.querySelector('.method[data-method=meditation] .affirmation') !== null")
        assert "Meditation: reached Steady Sitter" in celebration_titles(browser)
        browser.shot("growth-page")
        # Today shows each tracked pack.
        browser.get("/today")
        for pack in ["savings", "growth"]:
            assert browser.all(f"section[data-pack={pack}]"), f"Today has no {pack} section"
        browser.shot("today-habits-savings-growth")
    finally:
        browser.quit()

def notifications_bell_inbox_and_preferences(args):
    """Notifications in the web app: a first check-in's milestone reaches the bell at once
    (live, without a reload); the inbox lists it, opening it marks it read and leads to its
    page; the profile's notification preferences are saved as chosen."""
    browser = Browser(args, "notifications", width=390)
    try:
        sign_up(browser, "notified", packs=["habits"])
        browser.dismiss_celebrations()
        assert not browser.all(".bell .badge"), "a new account's bell shows unread notifications"
        habit = create_habit(browser, "Stretch")
        browser.click(f"li.habit[data-habit='{habit}'] button[data-action=check-in]")
        # One script, so that a bell the stream re-renders meanwhile is read whole.
        browser.wait_for("document.querySelector('.bell .badge')?.textContent === '1'"
                         " && document.querySelector('.bell').getAttribute('aria-label').includes('1 unread')",
                         timeout=12, message="the milestone of the first check-in did not reach the bell")
        browser.dismiss_celebrations()
        browser.shot("phone-bell-unread")
        browser.click(".bell")
        browser.wait_for("location.pathname === '/notifications'")
        items = browser.js("return [...document.querySelectorAll('.notification')].map(n => n.textContent)")
        assert len(items) == 1 and "Stretch" in items[0], items
        assert browser.all(".notification.unread")
        browser.shot("phone-inbox")
        browser.click(".notification a")
        browser.wait_for(f"location.pathname === '/habits/{habit}'", message="the notification did not open its habit")
        assert not browser.all(".bell .badge"), "an opened notification is still unread"
        _, inbox = browser.api("GET", "/v1/notifications")
        assert inbox["unread"] == 0 and inbox["notifications"][0]["readAt"], inbox
        # Preferences: reminders at 07:00, weekly progress on Fridays at 19:00, no at-risk warning.
        browser.get("/profile")
        browser.js("""const f = document.getElementById('preferences');
            f.reminderHour.value = '7'; f.weeklyDay.value = 'friday'; f.weeklyHour.value = '19';
            f.weeklySummary.checked = true; f.streakAtRisk.checked = false;""")
        browser.js("document.querySelector('#preferences button[type=submit]').click()")  # (the sticky bar may cover it)
        browser.wait_for("document.querySelector('#preferences [data-saved]').textContent === 'Saved.'",
                         message="the preferences were not saved")
        _, profile = browser.api("GET", "/v1/profile")
        chosen = profile["notifications"]
        assert (chosen["reminderHour"], chosen["weeklyDay"], chosen["weeklyHour"], chosen["weeklySummary"],
                chosen["streakAtRisk"]) == (7, "friday", 19, True, False), chosen
        browser.get("/profile")
        assert browser.js("return document.getElementById('preferences').reminderHour.value") == "7"
    finally:
        browser.quit()


def deliver_until_shown(browser, origin, payload, attempts=3):
    """Delivers a push through DevTools until the service worker shows it (at most
    `attempts` deliveries, 8 s each); returns what is shown."""
    import push_devtools
    for attempt in range(attempts):
        push_devtools.deliver_push(browser.driver, origin, payload)
        try:
            return push_devtools.shown_notifications(browser.driver, timeout=8)
        except push_devtools.PushDevToolsError:
            if attempt == attempts - 1:
                raise
            print(f"  (push {attempt + 1} not shown after 8 s: delivered again)")


def web_push_shows_a_notification_and_opens_its_page(args):
    """Web Push in the browser: the web app's service worker shows a pushed notification
    (delivered through the DevTools protocol, since a real push service is out of reach
    here) and a click on it opens the notification's page; the profile lists this browser's
    subscription and stops it; quiet hours and the daily cap are saved as chosen."""
    import push_devtools
    browser = Browser(args, "web-push")
    try:
        sign_up(browser, "pushed", packs=["habits"])
        browser.dismiss_celebrations()
        habit = create_habit(browser, "Stretch")
        browser.click(f"li.habit[data-habit='{habit}'] button[data-action=check-in]")
        browser.wait_for("document.querySelector('.bell .badge')?.textContent === '1'", timeout=12,
                         message="the milestone of the first check-in did not reach the bell")
        browser.dismiss_celebrations()
        _, inbox = browser.api("GET", "/v1/notifications")
        sent = inbox["notifications"][0]
        # The page registered the service worker; it controls the next page.
        browser.get("/profile")
        browser.wait_for("navigator.serviceWorker.controller !== null", timeout=10,
                         message="the service worker does not control the page")
        origin = args.base_url.rstrip("/")
        push_devtools.grant_notifications(browser.driver, origin)
        # What the sender posts (WebPushSender.Payload), as the browser decrypts it. The
        # DevTools delivery stands in for a push service, which retries too: a push that
        # reached a worker still starting up (seen once in CI) is delivered again.
        payload = {"title": sent["title"], "body": sent["body"], "url": sent["url"], "key": sent["key"],
                   "kind": sent["kind"], "at": sent["at"]}
        shown = deliver_until_shown(browser, origin, payload)
        assert [(n["title"], n["body"], n["tag"]) for n in shown] == [(sent["title"], sent["body"], sent["key"])], shown
        push_devtools.click_notification(browser.driver, sent["key"])
        browser.wait_for(f"location.pathname === {json.dumps(sent['url'])}",
                         message=f"the click did not open {sent['url']}")
        assert push_devtools.shown_notifications(browser.driver, at_least=0) == [], "the clicked notification stayed"
        # A push that is not Momentum's JSON still shows, and a foreign URL never opens.
        odd = deliver_until_shown(browser, origin, {"title": "Odd", "url": "https://evil.example/"})
        assert odd[0]["data"]["url"] == "/notifications", odd
        push_devtools.click_notification(browser.driver, odd[0]["tag"] or "")

        # This browser's subscription, as PushSubscription.toJSON() gives it, on the profile.
        key = base64.urlsafe_b64encode(b"\x04" + bytes(64)).decode().rstrip("=")
        status, _ = browser.api("POST", "/v1/push-targets", {
            "channel": "webPush", "endpoint": "https://fcm.googleapis.com/fcm/send/browser-test",
            "keys": {"p256dh": key, "auth": "AAAAAAAAAAAAAAAAAAAAAA"}})
        assert status == 422, "a p256dh that is not a point of P-256 was accepted"
        point = browser.js("""return crypto.subtle.generateKey({name: 'ECDH', namedCurve: 'P-256'}, true, ['deriveBits'])
            .then(k => crypto.subtle.exportKey('raw', k.publicKey))
            .then(b => btoa(String.fromCharCode(...new Uint8Array(b))).replace(/\\+/g, '-').replace(/\\//g, '_').replace(/=+$/, ''))""")
        status, target = browser.api("POST", "/v1/push-targets", {
            "channel": "webPush", "endpoint": "https://fcm.googleapis.com/fcm/send/browser-test",
            "keys": {"p256dh": point, "auth": "AAAAAAAAAAAAAAAAAAAAAA"}})
        assert status == 201, (status, target)
        browser.get("/profile")
        devices = browser.js("return [...document.querySelectorAll('.push-devices li')].map(li => li.textContent)")
        assert len(devices) == 1 and "fcm.googleapis.com" in devices[0] and "/fcm/send" not in devices[0], devices
        # Quiet hours from 21:30 to 06:45, at most 3 a day on devices.
        browser.js("""const f = document.getElementById('preferences');
            f.quiet.checked = true; f.quietFrom.value = '21:30'; f.quietTo.value = '06:45'; f.dailyCap.value = '3';""")
        browser.js("document.querySelector('#preferences button[type=submit]').click()")  # (the sticky bar may cover it)
        browser.wait_for("document.querySelector('#preferences [data-saved]').textContent === 'Saved.'",
                         message="the preferences were not saved")
        _, profile = browser.api("GET", "/v1/profile")
        chosen = profile["notifications"]
        assert chosen["quietHours"] == {"from": "21:30", "to": "06:45"} and chosen["dailyCap"] == 3, chosen
        browser.get("/profile")
        browser.js("document.querySelector('.push-devices').scrollIntoView()")
        browser.shot("profile-push-devices")
        browser.click(".push-devices button[data-action=remove-push-target]")
        browser.wait_for("!document.querySelector('.push-devices li')", message="the device was not removed")
        _, listed = browser.api("GET", "/v1/push-targets")
        assert listed["targets"] == [] and listed["vapidPublicKey"], listed
        # Quiet hours off again: the form sends null.
        browser.js("document.getElementById('preferences').quiet.checked = false;")
        browser.js("document.querySelector('#preferences button[type=submit]').click()")  # (the sticky bar may cover it)
        browser.wait_for("document.querySelector('#preferences [data-saved]').textContent === 'Saved.'")
        _, profile = browser.api("GET", "/v1/profile")
        assert "quietHours" not in profile["notifications"], profile["notifications"]
    finally:
        browser.quit()


def every_form_of_every_pack(args):
    """Every logging form of every pack, used once as a person would, on a 390-px phone in
    light and on the desktop in dark: a tap records, a checklist item checks off, a form's
    fields are filled (the first suggestion or choice, the smallest number allowed) and
    saved; each stores its event with no error, and every pack page gets a screenshot."""
    for width, dark in ((390, False), (1280, True)):
        name = f"{'phone' if width < 500 else 'desktop'}-{'dark' if dark else 'light'}"
        browser = Browser(args, f"forms-{name}", width=width, dark=dark)
        try:
            sign_up(browser, f"forms-{name}", packs=["ollie", "savings", "growth"])
            browser.dismiss_celebrations()
            for pack in ("ollie", "savings", "growth"):
                browser.get(f"/packs/{pack}")
                browser.settle()
                forms = browser.js("return [...document.querySelectorAll('form.logform')].map(f => f.id)")
                assert forms, f"/packs/{pack} has no forms"
                for form in forms:
                    browser.settle()
                    browser.dismiss_celebrations()
                    _, before = browser.api("GET", "/v1/events?after=0&limit=1000")
                    kind = browser.js("""const form = document.getElementById(arguments[0]);
                        const tap = form.querySelector('.tap:not([disabled])');
                        if (tap) { tap.scrollIntoView({block: 'center'}); return 'tap'; }
                        for (const field of form.querySelectorAll('input, select, textarea')) {
                            if (field.name === 'day' || field.type === 'date' && !field.required) continue;
                            if (field.tagName === 'SELECT') {
                                const option = [...field.options].find(o => o.value && !o.disabled
                                    && !o.parentElement.hidden);
                                if (option) field.value = option.value;
                                field.dispatchEvent(new Event('change', {bubbles: true}));
                            } else if (field.type === 'number') {
                                field.value = field.min || '1';
                            } else if (field.type === 'date') {
                                field.value = field.max || new Date().toISOString().slice(0, 10);
                            } else if (!field.value) {
                                field.value = field.list?.options[0]?.value || 'Sunny ' + arguments[0];
                            }
                        }
                        form.querySelector('button[type=submit]').scrollIntoView({block: 'center'});
                        return 'submit'""", form)
                    refreshes = browser.js("return Number(document.body.dataset.refreshes ?? 0)")
                    if kind == "tap":
                        browser.click(f"#{form} .tap:not([disabled])")
                    else:
                        browser.click(f"#{form} button[type=submit]")
                    # Stored once, with no error beside the form.
                    deadline, error, stored = time.time() + 12, "", 0
                    while time.time() < deadline and not error and stored == 0:
                        time.sleep(0.25)
                        error = browser.js(f"return document.querySelector('#{form} [data-error]')?.textContent ?? ''")
                        _, after = browser.api("GET", "/v1/events?after=0&limit=1000")
                        stored = len(after["events"]) - len(before["events"])
                    assert not error, f"{form} on /packs/{pack} at {width} px: {error}"
                    assert stored == 1, f"{form} on /packs/{pack} at {width} px stored {stored} events"
                    # The page shows it (the next form may depend on it: a goal to add to).
                    browser.wait_for(f"Number(document.body.dataset.refreshes ?? 0) > {refreshes}",
                                     message=f"the page did not refresh after {form}")
                browser.dismiss_celebrations()
                browser.js("window.scrollTo(0, 0)")
                assert browser.js("return document.documentElement.scrollWidth <= innerWidth"), \
                    f"/packs/{pack} scrolls sideways at {width} px"
                browser.shot(f"{name}-every-form-{pack}")
        finally:
            browser.quit()


def every_screen_on_a_phone_and_in_dark(args):
    """Every screen of the demo account (which tracks every pack) on a 390-px phone, light and
    dark, and on the desktop in dark: nothing scrolls sideways, nothing is cut off at the
    right, and each gets a screenshot to look at."""
    screens = ["/today", "/packs/ollie", "/packs/savings", "/packs/growth", "/memories", "/journey", "/profile",
               "/habits/walk"]
    for width, dark in ((390, False), (390, True), (1280, True)):
        name = f"{'phone' if width < 500 else 'desktop'}-{'dark' if dark else 'light'}"
        browser = Browser(args, f"screens-{name}", width=width, dark=dark)
        try:
            browser.sign_in(DEMO_EMAIL, DEMO_PASSWORD)
            browser.dismiss_queued()
            for path in screens:
                browser.get(path)
                browser.wait_for("document.querySelector('main h1, main h2') !== null", message=f"{path} is empty")
                wide = browser.js("""return [...document.querySelectorAll('main *')].filter(e => {
                    const r = e.getBoundingClientRect(); return r.width > 0 && r.right > innerWidth + 1 }).slice(0, 3)
                    .map(e => e.tagName + '.' + e.className)""")
                assert browser.js("return document.documentElement.scrollWidth <= innerWidth"), \
                    f"{path} scrolls sideways at {width} px: {wide}"
                assert not wide, f"{path} has content past the right edge at {width} px: {wide}"
                browser.shot(f"screen-{name}{path.replace('/', '-')}")
        finally:
            browser.quit()


def friends_invite_post_react_and_block(args):
    """Social in two browsers: Ann invites, Ben opens the link signed out, signs up and is
    back at the invitation; Ann's first check-in celebration posts to friends; Ben reacts
    on his feed and Ann's bell hears of it; Ann shares a habit and Ben sees its streak;
    Ann blocks Ben and her post leaves his feed."""
    ann = Browser(args, "friends-ann", width=1100)
    ben = Browser(args, "friends-ben", width=390, dark=True)
    try:
        sign_up(ann, "ann", packs=["habits"])
        ann.dismiss_celebrations()
        ann.get("/friends")
        ann.click("[data-action=invite]")
        ann.wait_for("document.querySelector('[data-invitation] code')?.textContent.length === 14",
                     message="no invitation code was shown")
        code = ann.js("return document.querySelector('[data-invitation] code').textContent")
        ann.shot("ann-invitation")

        # Ben follows the link signed out: sign-up keeps where he was going.
        ben.get(f"/invitations/{code}")
        ben.wait_for("location.pathname === '/signin'", message="a signed-out invitation did not ask to sign in")
        ben.click("a[href^='/signup']")
        ben.wait_for("location.pathname === '/signup'")
        ben.css("input[name=displayName]").send_keys("Ben")
        ben.css("input[name=email]").send_keys(f"ben-{uuid.uuid4().hex[:8]}@example.com")
        ben.css("input[name=password]").send_keys("correct horse battery")
        ben.click("form button[type=submit]")
        ben.wait_for(f"location.pathname === '/invitations/{code}'",
                     message="signing up did not come back to the invitation")
        ben.dismiss_celebrations()
        assert "Ann invites you to be friends" in ben.css("main h1").text, ben.css("main h1").text
        ben.shot("ben-invitation")
        ben.click("[data-action=accept-invitation]")
        ben.wait_for("location.pathname.startsWith('/friends/u_')", message="accepting did not open Ann's profile")

        # Ann's first check-in: the celebration card posts it to friends.
        ann.get("/today")
        habit = create_habit(ann, "Stretch")
        ann.click(f"li.habit[data-habit='{habit}'] button[data-action=check-in]")
        ann.wait_for("document.querySelector('.celebration .post') !== null", timeout=12,
                     message="the first check-in's celebration has no Post to friends")
        ann.js("document.querySelector('.celebration .post').click()")
        ann.wait_for("document.querySelector('.celebration .post')?.textContent === 'Posted ✓'",
                     message="posting from the celebration did not finish")
        ann.shot("ann-celebration-posted")
        ann.dismiss_celebrations()

        # Ben's feed has it; he reacts, and Ann's bell hears of it live.
        ben.get("/feed")
        ben.wait_for("document.querySelectorAll('.post').length === 1", message="Ann's post is not on Ben's feed")
        assert "Ann" in ben.css(".post").text
        ann.get("/today")
        unread_before = int(ann.js("return Number(document.querySelector('.bell .badge')?.textContent ?? 0)"))
        ben.click(".post button[data-kind=party]")
        ben.wait_for("document.querySelector('.post button[data-kind=party]')?.getAttribute('aria-pressed') === 'true'",
                     message="the reaction did not show as Ben's")
        ben.shot("ben-feed-reacted")
        ann.wait_for(f"Number(document.querySelector('.bell .badge')?.textContent ?? 0) > {unread_before}", timeout=12,
                     message="the reaction did not reach Ann's bell")
        ann.get("/notifications")
        assert "Ben 🎉 reacted" in ann.css(".notification").text, ann.css(".notification").text

        # Ann shares Stretch; Ben sees its streak as the server counts it.
        ann.get("/friends")
        ann.js(f"document.querySelector(\"#privacy input[value='{habit}']\").click()")
        ann.click("#privacy button[type=submit]")
        ann.wait_for("document.querySelector('#privacy [data-saved]').textContent === 'Saved.'",
                     message="sharing was not saved")
        ben.get("/friends")
        ben.get(ben.js("return document.querySelector('.friends a').getAttribute('href')"))
        ben.wait_for("document.querySelector('.shared-habits li')?.textContent.includes('Stretch')",
                     message="Ben does not see Ann's shared habit")
        assert "🔥 1" in ben.css(".shared-habits li").text, ben.css(".shared-habits li").text
        ben.shot("ben-friend-profile")

        # Ann blocks Ben: her post leaves his feed, and her profile is not found.
        ann.get("/friends")
        ann.js("window.confirm = () => true")
        ann.click(".friends [data-action=block]")
        ann.wait_for("document.querySelectorAll('.friends li').length === 0", message="Ben is still a friend")
        ann.shot("ann-blocked")
        ben.get("/feed")
        assert not ben.all(".post"), "a blocked person still sees the post"
    finally:
        ann.quit()
        ben.quit()


def family_invitations_listed_and_withdrawn(args):
    """A puppy's owner invites a caregiver from the family page (linked from the pack page):
    the new code shows, the card lists it among the open invitations with its role and who
    made it, and withdrawing it there takes it off the list; the code then opens nothing."""
    browser = Browser(args, "family-owner", width=1100)
    try:
        sign_up(browser, "owner", packs=["ollie"])
        browser.dismiss_celebrations()
        status, _ = browser.api("POST", "/v1/subjects", {"subject": "biscuit", "name": "Biscuit", "kind": "puppy"})
        assert status in (200, 201), status
        browser.get("/packs/ollie")
        browser.click("a[href$='/biscuit']")
        browser.wait_for("location.pathname.endsWith('/biscuit')", message="the pack page does not link the family")
        browser.wait_for("document.querySelector('.family form[data-action=invite-member]') !== null",
                         message="the owner's family card has no invitation form")
        browser.js("document.querySelector('.family select[name=role]').value = 'caregiver'")
        browser.click(".family form[data-action=invite-member] button[type=submit]")
        browser.wait_for("document.querySelector('.family [data-invitation] code')?.textContent.length === 14",
                         message="the new invitation's code was not shown")
        code = browser.js("return document.querySelector('.family [data-invitation] code').textContent")
        listed = f"[...document.querySelectorAll('.family .invitations li')].find(li => li.querySelector('code').textContent === {json.dumps(code)})"
        browser.wait_for(f"{listed} !== undefined", message="the open invitation is not listed on the card")
        line = browser.js(f"return {listed}.textContent")
        assert "caregiver" in line and "you" in line, line
        browser.shot("family-open-invitations")
        browser.click(f".family [data-action=revoke-family-invitation][data-code='{code}']")
        browser.wait_for(f"{listed} === undefined", message="the withdrawn invitation is still listed")
        status, _ = browser.api("GET", f"/v1/invitations/{code}")
        assert status == 404, status
        browser.shot("family-invitation-withdrawn")
    finally:
        browser.quit()


SCENARIOS = [
    sign_up_create_check_in_streak_shows,
    everything_by_keyboard,
    demo_screens_and_memory_photo,
    seven_day_milestone_card_and_reduced_motion,
    thirty_day_milestone_full_screen_with_photo_prompt,
    journey_shows_the_progression_timeline,
    freeze_purchase_updates_both_counters,
    a_lost_answer_pressed_again_checks_in_once,
    unsaved_edits_and_long_names_survive,
    edit_and_archive_a_habit_and_sign_out_a_device,
    numeric_habits_count_toward_their_goal,
    account_care_password_download_and_delete,
    forgot_password_mail_new_password_sign_in,
    import_from_loop_and_download_csv,
    your_own_milestones,
    speaks_brazilian_portuguese,
    pause_a_habit_and_take_a_vacation,
    groups_order_and_unarchive,
    two_windows_stay_in_sync,
    savings_celebrations_differ_by_category,
    a_goal_reached_celebrates_the_trip_first,
    puppy_journal_from_its_forms_on_a_phone_in_dark,
    savings_and_growth_from_their_forms,
    every_form_of_every_pack,
    notifications_bell_inbox_and_preferences,
    web_push_shows_a_notification_and_opens_its_page,
    friends_invite_post_react_and_block,
    family_invitations_listed_and_withdrawn,
    every_screen_on_a_phone_and_in_dark,
]


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--base-url", required=True)
    parser.add_argument("--artifacts", default="artifacts/screenshots")
    parser.add_argument("--only", default="")
    parser.add_argument("--operator-token", required=True,
                        help="an owner's session token (mop_…) for the operator's imports")
    parser.add_argument("--maildir", required=True,
                        help="the maildir the server's SMTP server (aiosmtpd) writes, for the reset mail")
    parser.add_argument("--shard", default="0/1",
                        help="K/N: run the K-th of N shards (two shards run at once against one server)")
    args = parser.parse_args()
    index, count = (int(part) for part in args.shard.split("/"))
    chosen = [scenario for scenario in SCENARIOS if args.only in scenario.__name__]
    if not chosen:
        raise SystemExit(f"no scenario's name contains {args.only!r}")
    # The scenarios that sign in to the shared demo account stay in one shard, in order
    # (the first one sees its first session's celebrations); the others alternate.
    demo = {demo_screens_and_memory_photo, every_screen_on_a_phone_and_in_dark}
    others = [scenario for scenario in chosen if scenario not in demo]
    shards = [[] for _ in range(count)]
    for position, scenario in enumerate(others):
        shards[(position + 1) % count].append(scenario)
    shards[0] = [scenario for scenario in chosen if scenario in demo or scenario in shards[0]]
    chosen = shards[index]
    failures = 0
    for scenario in chosen:
        started = time.time()
        try:
            scenario(args)
            print(f"ok   {scenario.__name__} ({time.time() - started:.1f} s)")
        except Exception:
            failures += 1
            print(f"FAIL {scenario.__name__} ({time.time() - started:.1f} s)")
            traceback.print_exc()
    print(f"{len(chosen) - failures} of {len(chosen)} browser scenarios passed; screenshots in {args.artifacts}")
    sys.exit(1 if failures else 0)


if __name__ == "__main__":
    main()
