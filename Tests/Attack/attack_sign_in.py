#!/usr/bin/env python3
"""Wrong-password sign-ins against one account, as fast as the server answers.

The attack of issue 23, defect 4, from a process of its own (so it shares no thread pool or
scheduling priority with the server, as a real attacker would not; it also starts a
session of its own, since Linux's autogroup scheduler shares the CPU between sessions, so
its threads do not take the server's share as a child in the server's session would):
`--workers` threads, each on a keep-alive connection of its own, each sending its next
attempt as soon as its last one is answered. With `--addresses many`, each worker claims another client address
in `X-Forwarded-For` (the server must trust the loopback proxy); with `one`, all share one.

Prints `ready` once every worker has had an answer, runs until its standard input closes
(or `--seconds` pass), then prints one line of JSON: the attempts made, the answers by
status, and the attempts per second.

    python3 attack_sign_in.py --port 8080 --email victim@example.com --addresses one
"""

import argparse
import http.client
import json
import os
import sys
import threading
import time


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--port", type=int, required=True)
    parser.add_argument("--email", required=True)
    parser.add_argument("--workers", type=int, default=16)
    parser.add_argument("--addresses", choices=["one", "many"], default="one")
    parser.add_argument("--seconds", type=float, default=120)
    options = parser.parse_args()
    try:
        os.setsid()
    except OSError:
        pass  # already a session leader

    stop = threading.Event()
    lock = threading.Lock()
    statuses: dict[str, int] = {}
    answered = [0]
    first_answer = threading.Barrier(options.workers + 1)

    def worker(index: int) -> None:
        address = f"203.0.113.{index + 1}" if options.addresses == "many" else "203.0.113.7"
        connection = None
        attempt = 0
        while not stop.is_set():
            attempt += 1
            body = json.dumps({"email": options.email, "password": f"wrong {index}-{attempt}"})
            headers = {"Content-Type": "application/json", "X-Forwarded-For": address}
            try:
                if connection is None:
                    connection = http.client.HTTPConnection("127.0.0.1", options.port, timeout=30)
                connection.request("POST", "/v1/sessions", body=body, headers=headers)
                response = connection.getresponse()
                response.read()
                status = str(response.status)
                if response.getheader("Connection", "").lower() == "close":
                    connection.close()
                    connection = None
            except (OSError, http.client.HTTPException) as error:
                status = type(error).__name__
                if connection is not None:
                    connection.close()
                connection = None
            with lock:
                statuses[status] = statuses.get(status, 0) + 1
                answered[0] += 1
            if attempt == 1:
                first_answer.wait()
        if connection is not None:
            connection.close()

    threads = [threading.Thread(target=worker, args=(index,), daemon=True) for index in range(options.workers)]
    started = time.monotonic()
    for thread in threads:
        thread.start()
    first_answer.wait()
    print("ready", flush=True)
    stdin_closed = threading.Thread(target=lambda: (sys.stdin.read(), stop.set()), daemon=True)
    stdin_closed.start()
    stop.wait(options.seconds)
    stop.set()
    for thread in threads:
        thread.join(timeout=35)
    elapsed = time.monotonic() - started
    with lock:
        result = {
            "attempts": answered[0],
            "statuses": statuses,
            "seconds": round(elapsed, 3),
            "perSecond": round(answered[0] / elapsed, 1),
        }
    print(json.dumps(result, sort_keys=True), flush=True)


if __name__ == "__main__":
    main()
