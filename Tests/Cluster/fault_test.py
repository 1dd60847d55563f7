#!/usr/bin/env python3
"""Faults under load, nothing lost (issue 50 §2).

Brings up a whole cluster (Scripts/cluster: HAProxy, three instances, PgBouncer, a primary
and a streaming replica) in a temporary directory, and runs a check-in load through HAProxy
in which every client retries a failed check-in with the same event id until it is
acknowledged. Meanwhile it SIGKILLs one instance (and starts it again), restarts PgBouncer
and stops the replica, while event streams held open on the surviving instances, directly
rather than through HAProxy, record the changes they are told of.

Afterwards every acknowledged check-in must be in the primary exactly once (read with psql,
straight from the primary), nothing may be stored that no client was told of, and every
stream must have reached the last change of its user without ever closing. Clients may see
errors during a fault, but not 5 s after it is over (the instance ready again, PgBouncer
back, the replica stopped: reads go to the primary). It prints the errors clients saw during
each fault and how long each took to recover (the first error to the first success after the
last error), and exits 1 naming whatever was lost, duplicated, missed or still failing.

    Tests/Cluster/fault_test.py        # MOMENTUM_BIN: the momentum binary (else swift build's)

MOMENTUM_CLUSTER_FAULTS picks the faults (`kill,pgbouncer,replica`, all by default).
"""

import http.client
import json
import os
import shutil
import signal
import subprocess
import sys
import tempfile
import threading
import time

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
CLUSTER = os.path.join(ROOT, "Scripts", "cluster")
USERS = 12  # check-in clients, one user each
STREAMED = 6  # users whose streams are held open on the surviving instances
LOAD_SECONDS = 40
KILLED = 1  # the instance SIGKILLed; the streams are on the others
SETTLE = 5  # seconds after a fault is over (the instance ready again, ...) errors must have stopped
GIVE_UP = 20  # seconds after the load stops that a client goes on retrying its last check-in


def log(message):
    print(f"[{time.strftime('%H:%M:%S')}] {message}", flush=True)


class Cluster:
    """Scripts/cluster in a state directory of its own."""

    def __init__(self, directory):
        self.env = dict(os.environ, MOMENTUM_CLUSTER_DIR=directory, MOMENTUM_CLUSTER_INSTANCES="3")
        # The load comes from one address and a few users: the rate limits would refuse it.
        self.env.update(
            MOMENTUM_USER_REQUESTS_PER_MINUTE="0",
            MOMENTUM_ADDRESS_REQUESTS_PER_MINUTE="0",
            MOMENTUM_BCRYPT_COST="4",
            MOMENTUM_LOG_LEVEL="warning",
        )
        self.directory = directory

    def run(self, *words, timeout=180):
        started = time.monotonic()
        result = subprocess.run(
            [CLUSTER, *words], env=self.env, capture_output=True, text=True, timeout=timeout
        )
        if result.returncode != 0:
            raise RuntimeError(f"Scripts/cluster {' '.join(words)} failed:\n{result.stdout}{result.stderr}")
        return result.stdout, time.monotonic() - started

    def port(self, part):
        with open(os.path.join(self.directory, f"{part}.port")) as file:
            return int(file.read())

    def primary(self, sql):
        """Rows of a query run on the primary itself (not through PgBouncer)."""
        result = subprocess.run(
            ["psql", "-X", "-A", "-t", "-F", "\t", "-h", "127.0.0.1", "-p", str(self.port("primary")),
             "-U", "postgres", "-d", "momentum", "-c", sql],
            capture_output=True, text=True, timeout=60, check=True)
        return [line.split("\t") for line in result.stdout.splitlines() if line]


def call(port, method, path, body=None, token=None, timeout=10):
    connection = http.client.HTTPConnection("127.0.0.1", port, timeout=timeout)
    try:
        headers = {"Content-Type": "application/json"}
        if token:
            headers["Authorization"] = f"Bearer {token}"
        connection.request(method, path, body=json.dumps(body) if body is not None else None, headers=headers)
        response = connection.getresponse()
        return response.status, response.read()
    finally:
        connection.close()


class Outcomes:
    """Every request's result with its time: what the report and the checks read."""

    def __init__(self):
        self.lock = threading.Lock()
        self.errors = []  # (time, kind, what)
        self.successes = []  # times
        self.acknowledged = {}  # user id -> set of event ids
        self.abandoned = {}  # user id -> the event id a client stopped retrying, GIVE_UP s after the load

    def error(self, kind, what):
        with self.lock:
            self.errors.append((time.monotonic(), kind, what))

    def success(self):
        with self.lock:
            self.successes.append(time.monotonic())

    def acknowledge(self, user, event):
        with self.lock:
            self.acknowledged.setdefault(user, set()).add(event)

    def abandon(self, user, event):
        with self.lock:
            self.abandoned[user] = event


def check_ins(port, user, outcomes, stop):
    """One client: check-ins one after another, each retried with its event id until acknowledged."""
    number = 0
    while not stop.is_set():
        number += 1
        event = f"{user['id'][:12]}-{number}"
        while True:
            try:
                status, body = call(port, "POST", "/v1/habits/walk/check-ins", {"eventId": event}, user["token"])
                if status == 200:
                    outcomes.acknowledge(user["id"], event)
                    outcomes.success()
                    break
                outcomes.error("check-in", f"HTTP {status} {body[:120]!r}")
            except (OSError, http.client.HTTPException) as error:
                outcomes.error("check-in", f"{type(error).__name__}: {error}")
            if stop.is_set() and time.monotonic() > stop.at + GIVE_UP:
                outcomes.abandon(user["id"], event)
                return
            time.sleep(0.05)


def dashboards(port, users, outcomes, stop):
    """A reader of dashboards and feeds, what may come from the replica."""
    index = 0
    while not stop.is_set():
        user = users[index % len(users)]
        index += 1
        for path in ("/v1/today", "/v1/feed"):
            try:
                status, body = call(port, "GET", path, token=user["token"])
                if status == 200:
                    outcomes.success()
                else:
                    outcomes.error("read", f"{path} HTTP {status} {body[:120]!r}")
            except (OSError, http.client.HTTPException) as error:
                outcomes.error("read", f"{path} {type(error).__name__}: {error}")
        time.sleep(0.02)


class Stream:
    """GET /v1/stream held open on one instance: the highest headSeq each change carried."""

    def __init__(self, port, user):
        self.user = user
        self.head = 0
        self.changes = 0
        self.ready = threading.Event()
        self.closed = None
        self.connection = http.client.HTTPConnection("127.0.0.1", port, timeout=None)
        self.port = port
        self.thread = threading.Thread(target=self.read, daemon=True)
        self.thread.start()

    def read(self):
        try:
            self.connection.request("GET", "/v1/stream", headers={"Authorization": f"Bearer {self.user['token']}"})
            response = self.connection.getresponse()
            if response.status != 200:
                self.closed = f"HTTP {response.status}"
                return
            event = None
            while True:
                line = response.fp.readline()
                if not line:
                    self.closed = "the instance closed the stream"
                    return
                line = line.decode().rstrip("\n")
                if line.startswith("event: "):
                    event = line[len("event: "):]
                    if event == "ready":
                        self.ready.set()
                elif line.startswith("data: ") and event == "change":
                    data = json.loads(line[len("data: "):])
                    if data.get("kind") == "events" and data.get("headSeq") is not None:
                        self.head = max(self.head, int(data["headSeq"]))
                        self.changes += 1
        except (OSError, http.client.HTTPException, ValueError) as error:
            if self.closed is None:
                self.closed = f"{type(error).__name__}: {error}"

    def stop(self):
        self.closed = self.closed or "stopped by the test"
        try:
            self.connection.sock and self.connection.sock.shutdown(2)
        except OSError:
            pass
        self.connection.close()


def main():
    # Scripts/test bounds this run with `timeout`: its SIGTERM still takes the cluster down.
    signal.signal(signal.SIGTERM, lambda *_: sys.exit("stopped by SIGTERM"))
    started = time.monotonic()
    directory = tempfile.mkdtemp(prefix="momentum-cluster-")
    cluster = Cluster(directory)
    failures = []
    streams = []
    try:
        log("cluster up (Scripts/cluster up)")
        _, seconds = cluster.run("up")
        log(f"cluster up in {seconds:.1f} s")
        front = cluster.port("haproxy")
        instances = {n: cluster.port(f"instance{n}") for n in (1, 2, 3)}

        users = []
        for n in range(USERS):
            status, body = call(front, "POST", "/v1/accounts", {
                "email": f"load{n}@example.com", "password": "correct horse battery", "displayName": f"Load {n}",
                "timeZone": "UTC"})
            assert status == 201, f"registering a user: HTTP {status} {body[:200]!r}"
            session = json.loads(body)
            user = {"id": session["userID"], "token": session["token"]}
            status, body = call(front, "POST", "/v1/habits", {"name": "Walk", "habit": "walk"}, user["token"])
            assert status == 201, f"creating a habit: HTTP {status} {body[:200]!r}"
            users.append(user)

        survivors = [port for n, port in instances.items() if n != KILLED]
        for index, user in enumerate(users[:STREAMED]):
            streams.append(Stream(survivors[index % len(survivors)], user))
        for stream in streams:
            if not stream.ready.wait(10):
                raise RuntimeError(f"a stream on port {stream.port} never became ready ({stream.closed})")

        outcomes = Outcomes()
        stop = threading.Event()
        workers = [threading.Thread(target=check_ins, args=(front, user, outcomes, stop), daemon=True)
                   for user in users]
        workers.append(threading.Thread(target=dashboards, args=(front, users, outcomes, stop), daemon=True))
        load_started = time.monotonic()
        for worker in workers:
            worker.start()
        log(f"load: {USERS} check-in clients and a reader through HAProxy on port {front}")

        faults = []  # (name, start time, time its commands were done)

        def fault(name, *words):
            time.sleep(max(0.0, load_started + fault.at - time.monotonic()))
            start = time.monotonic()
            log(name)
            for command in words:
                _, seconds = cluster.run(*command)
                log(f"  {' '.join(command)}: {seconds:.1f} s")
            faults.append((name, start, time.monotonic()))

        chosen = os.environ.get("MOMENTUM_CLUSTER_FAULTS", "kill,pgbouncer,replica").split(",")
        if "kill" in chosen:
            fault.at = 5
            fault(f"SIGKILL instance {KILLED}, then start it again",
                  ("instance", "kill", str(KILLED)), ("instance", "start", str(KILLED)))
        if "pgbouncer" in chosen:
            fault.at = 18
            fault("restart PgBouncer", ("pgbouncer", "restart"))
        if "replica" in chosen:
            fault.at = 28
            fault("stop the replica", ("replica", "stop"))
        time.sleep(max(0.0, load_started + LOAD_SECONDS - time.monotonic()))
        stop.at = time.monotonic()
        stop.set()
        for worker in workers:
            worker.join(GIVE_UP + 15)
        load_ended = time.monotonic()
        for user, event in outcomes.abandoned.items():
            failures.append(f"check-in {event} of user {user} still failed {GIVE_UP} s after the load stopped")

        acknowledged = sum(len(events) for events in outcomes.acknowledged.values())
        seconds = load_ended - load_started
        log(f"load stopped: {acknowledged} check-ins acknowledged in {seconds:.0f} s "
            f"({acknowledged / seconds:.0f}/s), {len(outcomes.errors)} errors seen and retried")

        # The errors of each fault: those between it and the next.
        print("\nfault                                          errors  first error → recovered")
        bounds = [start for _, start, _ in faults[1:]] + [load_ended]
        before = [e for e in outcomes.errors if e[0] < faults[0][1]]
        if before:
            failures.append(f"{len(before)} errors before any fault: {before[0][2]}")
        for (name, start, done), end in zip(faults, bounds):
            seen = [e for e in outcomes.errors if start <= e[0] < end]
            if not seen:
                print(f"{name:<46} {0:>6}  (none)")
                continue
            last = seen[-1][0]
            after = next((t for t in outcomes.successes if t > last), None)
            recovery = f"{after - seen[0][0]:.2f} s" if after else "never"
            kinds = {}
            for _, kind, what in seen:
                words = what.split()
                label = " ".join(words[:3] if what.startswith("/") else words[:2]) if "HTTP" in words[:2] else what.split(":")[0]
                kinds[f"{kind}: {label}"] = kinds.get(f"{kind}: {label}", 0) + 1
            print(f"{name:<46} {len(seen):>6}  {recovery} after the first error")
            for what, number in sorted(kinds.items(), key=lambda item: -item[1]):
                print(f"{'':<48}{number:>5} × {what.strip()}")
            if after is None:
                failures.append(f"{name}: no request succeeded after its last error")
            late = [e for e in seen if e[0] > done + SETTLE]
            if late:
                failures.append(f"{name}: {len(late)} errors more than {SETTLE} s after it was over, "
                                f"the last {late[-1][0] - done:.1f} s after: {late[-1][1]} {late[-1][2]}")
        print()

        # Every acknowledged check-in is in the primary once; nothing else was stored.
        ids = {user["id"] for user in users}
        rows = cluster.primary("SELECT user_id, event_id, count(*) FROM events WHERE type = 'completion' "
                               "GROUP BY user_id, event_id")
        stored = {}
        for user, event, number in rows:
            if user not in ids:
                continue
            if int(number) != 1:
                failures.append(f"event {event} of user {user} stored {number} times")
            stored.setdefault(user, set()).add(event)
        for user in ids:
            lost = outcomes.acknowledged.get(user, set()) - stored.get(user, set())
            unacknowledged = stored.get(user, set()) - outcomes.acknowledged.get(user, set()) - {
                outcomes.abandoned.get(user)}
            if lost:
                failures.append(f"LOST: {len(lost)} acknowledged check-ins of user {user} are not in the primary, "
                                f"such as {sorted(lost)[:3]}")
            if unacknowledged:
                failures.append(f"{len(unacknowledged)} check-ins of user {user} stored that no client was told of, "
                                f"such as {sorted(unacknowledged)[:3]}")
        log(f"primary: {sum(len(s) for s in stored.values())} check-ins stored, "
            f"{acknowledged} acknowledged")

        # The streams on the surviving instances reach the last change of their user.
        heads = dict((user, int(seq)) for user, seq in cluster.primary(
            "SELECT user_id, max(seq) FROM events GROUP BY user_id"))
        deadline = time.monotonic() + 5
        while time.monotonic() < deadline and any(s.head < heads.get(s.user["id"], 0) for s in streams):
            time.sleep(0.1)
        for stream in streams:
            head = heads.get(stream.user["id"], 0)
            if stream.closed:
                failures.append(f"the stream of user {stream.user['id']} on port {stream.port} closed: {stream.closed}")
            if stream.head < head:
                failures.append(f"MISSED: the stream of user {stream.user['id']} on port {stream.port} ended at "
                                f"headSeq {stream.head}, the primary's log at {head}")
        log(f"streams: {len(streams)} on instances other than {KILLED}, "
            f"{sum(s.changes for s in streams)} changes received, "
            f"{sum(1 for s in streams if s.head >= heads.get(s.user['id'], 0))} reached their user's last change")
    except Exception as error:  # noqa: BLE001 — anything that stops the test is its failure
        failures.append(f"{type(error).__name__}: {error}")
    finally:
        for stream in streams:
            stream.stop()
        try:
            cluster.run("down", timeout=120)
        except Exception as error:  # noqa: BLE001
            failures.append(f"Scripts/cluster down: {error}")
        if failures:
            for name in ("instance1", "instance2", "instance3", "pgbouncer", "primary", "replica"):
                path = os.path.join(directory, f"{name}.log")
                if os.path.exists(path):
                    with open(path, errors="replace") as file:
                        tail = file.readlines()[-8:]
                    print(f"--- last lines of {name}.log\n{''.join(tail)}", end="")
        shutil.rmtree(directory, ignore_errors=True)

    elapsed = time.monotonic() - started
    if failures:
        print(f"\nFAILED after {elapsed:.0f} s:")
        for failure in failures:
            print(f"  {failure}")
        return 1
    print(f"\nnothing lost, nothing twice, no change missed ({elapsed:.0f} s)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
