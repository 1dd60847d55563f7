#!/usr/bin/env python3
"""A real SMTP server for Momentum's mail tests: aiosmtpd (PyPI), writing every mail it
accepts to a maildir the test reads.

    python3 Tests/Mail/smtp_receiver.py --port 2525 --maildir /tmp/box
        [--starttls CERT KEY | --smtps CERT KEY] [--user NAME --password SECRET]

--starttls offers STARTTLS and refuses mail (and AUTH) before it; --smtps speaks TLS from
the first byte. --user and --password require AUTH PLAIN or LOGIN with them. It prints
`ready <port>` once it listens, and runs until it is killed. Scripts/install-test-dependencies
installs aiosmtpd; without it this exits with status 3, and the Swift test fails.
"""

import argparse
import signal
import ssl
import sys
import threading

try:
    from aiosmtpd.controller import Controller
    from aiosmtpd.handlers import Mailbox
    from aiosmtpd.smtp import AuthResult
except ImportError:
    print("aiosmtpd is not installed (pip install aiosmtpd)", file=sys.stderr)
    sys.exit(3)


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--port", type=int, required=True)
    parser.add_argument("--maildir", required=True)
    parser.add_argument("--starttls", nargs=2, metavar=("CERT", "KEY"))
    parser.add_argument("--smtps", nargs=2, metavar=("CERT", "KEY"))
    parser.add_argument("--user")
    parser.add_argument("--password")
    arguments = parser.parse_args()

    options = {}
    if arguments.starttls:
        context = ssl.create_default_context(ssl.Purpose.CLIENT_AUTH)
        context.load_cert_chain(*arguments.starttls)
        options.update(tls_context=context, require_starttls=True)
    if arguments.smtps:
        context = ssl.create_default_context(ssl.Purpose.CLIENT_AUTH)
        context.load_cert_chain(*arguments.smtps)
        options.update(ssl_context=context)
    if arguments.user is not None:
        def authenticate(server, session, envelope, mechanism, data):
            good = data.login == arguments.user.encode() and data.password == (arguments.password or "").encode()
            # Not `handled`: a refusal is answered 535, as a real server does.
            return AuthResult(success=good, handled=False)

        options.update(
            authenticator=authenticate, auth_required=True,
            # aiosmtpd counts only STARTTLS as TLS here; with --smtps every byte is TLS.
            auth_require_tls=bool(arguments.starttls))
    controller = Controller(
        Mailbox(arguments.maildir), hostname="127.0.0.1", port=arguments.port, server_hostname="localhost",
        ready_timeout=10, **options)
    controller.start()
    print(f"ready {arguments.port}", flush=True)
    stop = threading.Event()
    signal.signal(signal.SIGTERM, lambda *_: stop.set())
    signal.signal(signal.SIGINT, lambda *_: stop.set())
    stop.wait()
    controller.stop()


if __name__ == "__main__":
    main()
