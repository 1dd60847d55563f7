#!/usr/bin/env python3
"""What the cluster carries (issue 50 §5): `Scripts/cluster bench`.

Brings up a cluster (Scripts/cluster) in a temporary directory with the release binary
(.build-release, else MOMENTUM_BIN), registers users with a habit each, and drives check-ins
(each a new event id) and dashboards (GET /v1/today) through HAProxy with wrk
(Tests/Cluster/bench.lua) with 3, 2 and 1 instances in service. For each run it prints the
requests per second, the latency, the CPU seconds per request of each part (from /proc: the
instances, PostgreSQL's primary and replica with their backends, PgBouncer, HAProxy, and wrk
itself), and the replica's lag on the primary (pg_stat_replication) sampled every half second.

    Scripts/cluster bench [--seconds 15] [--connections 8] [--users 16] [--balance roundrobin,user]

--balance names HAProxy's ways of spreading requests to measure, each on a cluster of its own
(MOMENTUM_CLUSTER_BALANCE): roundrobin, or user (a user's requests hashed to one instance).
"""

import argparse
import json
import os
import resource
import statistics
import subprocess
import sys
import tempfile
import threading
import time
import shutil

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from fault_test import ROOT, Cluster, call, log  # noqa: E402

TICKS = os.sysconf("SC_CLK_TCK")


def cpu_seconds(pid, children_too=True):
    """User and system CPU of a process, with its reaped children's, and of its live children."""
    total = 0.0
    try:
        with open(f"/proc/{pid}/stat") as file:
            fields = file.read().rsplit(")", 1)[1].split()
        # utime, stime, cutime, cstime are fields 14-17 of stat; after the name, index 11-14.
        total += sum(int(value) for value in fields[11:15]) / TICKS
    except (OSError, ValueError):
        return 0.0
    if children_too:
        for entry in os.listdir("/proc"):
            if not entry.isdigit():
                continue
            try:
                with open(f"/proc/{entry}/stat") as file:
                    fields = file.read().rsplit(")", 1)[1].split()
            except OSError:
                continue
            if fields[1] == str(pid):
                total += sum(int(value) for value in fields[11:15]) / TICKS
    return total


class Parts:
    """The processes whose CPU a run costs, read from the cluster's pid files."""

    def __init__(self, cluster, instances):
        def pid(part):
            with open(os.path.join(cluster.directory, f"{part}.pid")) as file:
                return int(file.read().split()[0])

        self.pids = {
            "instances": [pid(f"instance{n}") for n in instances],
            "postgres": [pid("primary"), pid("replica")],
            "pgbouncer": [pid("pgbouncer")],
            "haproxy": [pid("haproxy")],
        }

    def sample(self):
        sample = {part: sum(cpu_seconds(p) for p in pids) for part, pids in self.pids.items()}
        usage = resource.getrusage(resource.RUSAGE_CHILDREN)
        sample["wrk"] = usage.ru_utime + usage.ru_stime
        return sample


def lag_sampler(cluster, stop, samples):
    while not stop.is_set():
        try:
            for bytes_behind, seconds in cluster.primary(
                    "SELECT pg_wal_lsn_diff(pg_current_wal_lsn(), replay_lsn), "
                    "coalesce(extract(epoch FROM replay_lag), 0) FROM pg_stat_replication"):
                samples.append((int(float(bytes_behind)), float(seconds)))
        except subprocess.SubprocessError:
            pass
        stop.wait(0.5)


def wrk(front, mode, tokens, seconds, connections, run):
    env = dict(os.environ, BENCH_MODE=mode, BENCH_TOKENS=tokens, BENCH_RUN=run)
    result = subprocess.run(
        ["wrk", "-t2", f"-c{connections}", f"-d{seconds}s", "--timeout", "10s",
         "-s", os.path.join(ROOT, "Tests", "Cluster", "bench.lua"), f"http://127.0.0.1:{front}"],
        env=env, capture_output=True, text=True, timeout=seconds + 60, check=True)
    return json.loads(result.stdout.strip().splitlines()[-1])


def measure(options, balance):
    """The runs of one cluster whose HAProxy spreads requests by `balance`."""
    rows = []
    directory = tempfile.mkdtemp(prefix="momentum-bench-")
    cluster = Cluster(directory)
    try:
        log("cluster up")
        cluster.run("up")
        front = cluster.port("haproxy")
        tokens = os.path.join(directory, "tokens")
        with open(tokens, "w") as file:
            for n in range(options.users):
                status, body = call(front, "POST", "/v1/accounts", {
                    "email": f"bench{n}@example.com", "password": "correct horse battery",
                    "displayName": f"Bench {n}", "timeZone": "UTC"})
                assert status == 201, f"registering: HTTP {status} {body[:200]!r}"
                token = json.loads(body)["token"]
                status, body = call(front, "POST", "/v1/habits", {"name": "Walk", "habit": "walk"}, token)
                assert status == 201, f"a habit: HTTP {status} {body[:200]!r}"
                file.write(token + "\n")
        for instances in (3, 2, 1):
            if instances < 3:
                cluster.run("instance", "stop", str(instances + 1))
                time.sleep(3)  # HAProxy's checks (every second, down after two) take it out
            parts = Parts(cluster, range(1, instances + 1))
            for mode in ("checkins", "today"):
                run = f"r{instances}{mode[0]}{int(time.time())}"
                wrk(front, mode, tokens, 3, options.connections, run + "w")  # warm-up
                stop = threading.Event()
                lags = []
                sampler = threading.Thread(target=lag_sampler, args=(cluster, stop, lags))
                before = parts.sample()
                sampler.start()
                result = wrk(front, mode, tokens, options.seconds, options.connections, run)
                stop.set()
                sampler.join()
                after = parts.sample()
                requests = max(1, result["requests"])
                cost = {part: (after[part] - before[part]) / requests * 1e6 for part in before}
                row = dict(balance=balance, instances=instances, mode=mode,
                           rate=result["requests"] / result["seconds"],
                           p50=result["p50_ms"], p99=result["p99_ms"],
                           errors=result["non2xx"] + result["socket_errors"], cost=cost,
                           lag_bytes=max((b for b, _ in lags), default=0),
                           lag_seconds=max((s for _, s in lags), default=0.0),
                           lag_median=statistics.median([b for b, _ in lags]) if lags else 0)
                rows.append(row)
                log(f"{balance}, {instances} instance(s), {mode}: {row['rate']:.0f}/s, p99 {row['p99']:.1f} ms, "
                    f"errors {row['errors']}, µs/request {json.dumps({k: round(v) for k, v in cost.items()})}, "
                    f"replica lag max {row['lag_bytes']} B / {row['lag_seconds']:.3f} s, "
                    f"load average {os.getloadavg()[0]:.1f}")
    finally:
        try:
            cluster.run("down", timeout=120)
        finally:
            shutil.rmtree(directory, ignore_errors=True)
    return rows


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--seconds", type=int, default=15)
    parser.add_argument("--connections", type=int, default=8)
    parser.add_argument("--users", type=int, default=16)
    parser.add_argument("--balance", default="roundrobin,user")
    options = parser.parse_args()
    release = os.path.join(ROOT, ".build-release", "release", "momentum")
    if "MOMENTUM_BIN" not in os.environ and os.path.exists(release):
        os.environ["MOMENTUM_BIN"] = release
    log(f"binary: {os.environ.get('MOMENTUM_BIN', 'swift build --show-bin-path')}")
    rows = []
    for balance in options.balance.split(","):
        os.environ["MOMENTUM_CLUSTER_BALANCE"] = balance
        rows += measure(options, balance)
    print()
    print("| balance | instances | request | per second | p50 / p99 ms | errors | CPU µs per request: instances + PostgreSQL "
          "+ PgBouncer + HAProxy = cluster (wrk) | replica lag, max (median) |")
    print("|---|---|---|---|---|---|---|---|")
    for row in rows:
        cost = row["cost"]
        cluster_cost = cost["instances"] + cost["postgres"] + cost["pgbouncer"] + cost["haproxy"]
        name = "check-in" if row["mode"] == "checkins" else "dashboard"
        print(f"| {row['balance']} | {row['instances']} | {name} | {row['rate']:,.0f} | {row['p50']:.1f} / {row['p99']:.1f} | "
              f"{row['errors']} | {cost['instances']:.0f} + {cost['postgres']:.0f} + {cost['pgbouncer']:.0f} + "
              f"{cost['haproxy']:.0f} = {cluster_cost:.0f} ({cost['wrk']:.0f}) | "
              f"{row['lag_bytes'] / 1024:.0f} KiB, {row['lag_seconds'] * 1000:.0f} ms "
              f"({row['lag_median'] / 1024:.0f} KiB) |")
    return 0


if __name__ == "__main__":
    sys.exit(main())
