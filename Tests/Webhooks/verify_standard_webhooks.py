#!/usr/bin/env python3
"""Verifies recorded webhook requests with the `standardwebhooks` package from PyPI.

    .build-python/bin/python Tests/Webhooks/verify_standard_webhooks.py cases.json

WebhookEventTests record what Momentum posted to a loopback receiver and ask this script,
with a library no one here wrote, whether each request verifies: `cases.json` holds `now`
(unix seconds: the test's clock, which the library's timestamp check is given instead of
the real one) and `cases`, each with a `name`, a `secret`, the request's `headers`, its
`body` (text), whether it must verify (`valid`) and, if it differs, its own `now`. The library is installed in the virtual
environment Tests/PythonClient/run and Scripts/install-test-dependencies make
(Tests/PythonClient/requirements.txt pins it). Prints one line per case; the exit status is
0 when every case came out as expected, 1 when one did not, 2 when the library is missing.
"""

import json
import sys
from datetime import datetime, timezone

try:
    import standardwebhooks.webhooks as library
    from standardwebhooks.webhooks import Webhook, WebhookVerificationError
except ImportError:
    print("standardwebhooks is not installed: run Scripts/install-test-dependencies", file=sys.stderr)
    sys.exit(2)


def main(path):
    with open(path) as file:
        recorded = json.load(file)
    clock = {"now": datetime.fromtimestamp(recorded["now"], tz=timezone.utc)}

    class TestClock(datetime):
        @classmethod
        def now(cls, tz=None):
            return clock["now"]

    library.datetime = TestClock
    failures = 0
    for case in recorded["cases"]:
        clock["now"] = datetime.fromtimestamp(case.get("now", recorded["now"]), tz=timezone.utc)
        try:
            Webhook(case["secret"]).verify(case["body"], case["headers"])
            verified = True
        except WebhookVerificationError:
            verified = False
        ok = verified == case["valid"]
        failures += 0 if ok else 1
        print(f"{'ok' if ok else 'FAILED'}: {case['name']}: verified={verified}, expected={case['valid']}")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1]))
