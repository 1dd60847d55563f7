"""The console's keys, webhooks and notifications pages in the browser (called by
console_test.py's walkthrough with an owner signed in): a server key made through the
form with its secret shown once, then revoked; the webhooks and notifications pages in
the layout."""


def expect(condition, message):
    if not condition:
        raise AssertionError(message)


def keys_webhooks_and_notifications(owner):
    owner.get("/console/keys")
    owner.check_layout()
    form = "form[action='/console/keys/create']"
    owner.css(form + " input[name=name]").send_keys("Browser backend")
    owner.css(form + " input[name='scope.events:write']").click()
    owner.submit(form)
    secret = owner.css("code.secret").text
    expect(secret.startswith("msk_"), f"the new key's page shows {secret!r}")
    owner.shot("console-keys-created")
    owner.get("/console/keys")
    expect(secret not in owner.driver.page_source, "the key's secret is shown again")
    expect("Browser backend" in owner.css("table").text, "the new key is not listed")
    owner.submit("form[action$='/revoke']")
    expect("Revoked" in owner.css(".notice").text, f"the notice says {owner.css('.notice').text!r}")
    expect("revoked" in owner.css("table").text, "the key is not shown revoked")
    owner.shot("console-keys-revoked")

    owner.get("/console/webhooks")
    owner.check_layout()
    expect(owner.all("main h1"), "the webhooks page has no heading")
    owner.get("/console/notifications?hours=48")
    owner.check_layout()
    expect("48 hours" in owner.text(), "the notifications page does not say its window")
    owner.shot("console-notifications")
