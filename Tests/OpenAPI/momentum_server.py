"""A real `momentum serve` on a free loopback port with a fresh database, for the Python-driven runs.

Used by Tests/OpenAPI/schemathesis_run and Tests/PythonClient/run:

    with MomentumServer(binary, "sqlite", directory) as server:   # or "postgres"
        account = request(server.base, "POST", "/v1/accounts", {...})

SQLite gets a file in `directory`; PostgreSQL a throwaway cluster made there with initdb/pg_ctl,
as MomentumTestSupport's PostgresTestCluster makes it. The server's output goes to
`directory/server.log`. Standard library only: the runs start before any virtual environment.
"""

import json
import os
import shutil
import signal
import socket
import subprocess
import time
import urllib.error
import urllib.request
from pathlib import Path


def free_port():
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


def request(base, method, path, body=None, token=None):
    data = json.dumps(body).encode() if body is not None else None
    req = urllib.request.Request(base + path, data=data, method=method)
    if data is not None:
        req.add_header("Content-Type", "application/json")
    if token:
        req.add_header("Authorization", f"Bearer {token}")
    with urllib.request.urlopen(req, timeout=30) as response:
        return json.loads(response.read() or b"null")


class Postgres:
    """A throwaway cluster on a free port, as MomentumTestSupport's PostgresTestCluster makes it."""

    def __init__(self, directory):
        self.data = os.path.join(directory, "pg")
        self.port = free_port()
        self.run_as = ["/usr/sbin/runuser", "-u", "postgres", "--"] if os.geteuid() == 0 else []
        initdb = self.tool("initdb")
        self.pg_ctl = self.tool("pg_ctl")
        os.makedirs(self.data)
        if self.run_as:
            shutil.chown(directory, "postgres")
            shutil.chown(self.data, "postgres")
        subprocess.run(
            self.run_as + [initdb, "-D", self.data, "-U", "postgres", "--auth=trust", "--no-sync", "-E", "UTF8"],
            check=True, stdout=subprocess.DEVNULL)
        subprocess.run(
            self.run_as + [self.pg_ctl, "-D", self.data, "-l", os.path.join(directory, "pg.log"), "-w", "-t", "60",
                           "start", "-o", f"-p {self.port} -c listen_addresses=127.0.0.1 -c unix_socket_directories=''"],
            check=True, stdout=subprocess.DEVNULL)
        self.url = f"postgres://postgres@127.0.0.1:{self.port}/postgres"

    @staticmethod
    def tool(name):
        found = shutil.which(name)
        if found:
            return found
        versions = sorted(Path("/usr/lib/postgresql").glob("*/bin/" + name), key=lambda p: int(p.parts[-3]))
        if not versions:
            raise FileNotFoundError(name)
        return str(versions[-1])

    def stop(self):
        subprocess.run(self.run_as + [self.pg_ctl, "-D", self.data, "-m", "immediate", "stop"],
                       stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)

    @staticmethod
    def available():
        try:
            Postgres.tool("initdb")
            return True
        except FileNotFoundError:
            return False


class MomentumServer:
    """`momentum serve` on `backend` ("sqlite" or "postgres"), started on enter, stopped on exit."""

    def __init__(self, binary, backend, directory, extra_arguments=()):
        self.binary = binary
        self.backend = backend
        self.directory = directory
        self.extra_arguments = list(extra_arguments)
        self.log_path = os.path.join(directory, "server.log")
        self.postgres = None
        self.process = None
        self.base = None

    def __enter__(self):
        try:
            self.start()
        except BaseException:
            self.stop()
            raise
        return self

    def __exit__(self, *_):
        self.stop()

    def start(self):
        if self.backend == "postgres":
            self.postgres = Postgres(self.directory)
            database = self.postgres.url
        else:
            database = os.path.join(self.directory, "momentum.sqlite")
        port = free_port()
        self.base = f"http://127.0.0.1:{port}"
        self.log = open(self.log_path, "w")
        self.process = subprocess.Popen(
            [self.binary, "serve", "--database", database, "--host", "127.0.0.1", "--port", str(port),
             "--bcrypt-cost", "4", "--log-level", "warning"] + self.extra_arguments,
            stdout=self.log, stderr=subprocess.STDOUT, start_new_session=True)
        deadline = time.monotonic() + 60
        while True:
            try:
                request(self.base, "GET", "/healthz")
                return
            except (urllib.error.URLError, ConnectionError):
                if self.process.poll() is not None or time.monotonic() > deadline:
                    raise RuntimeError(f"the server did not start; see {self.log_path}")
                time.sleep(0.2)

    def crashed(self):
        return self.process is not None and self.process.poll() is not None

    def stop(self):
        if self.process is not None:
            if self.process.poll() is None:
                os.killpg(self.process.pid, signal.SIGTERM)
                try:
                    self.process.wait(timeout=10)
                except subprocess.TimeoutExpired:
                    os.killpg(self.process.pid, signal.SIGKILL)
            self.log.close()
            self.process = None
        if self.postgres is not None:
            self.postgres.stop()
            self.postgres = None
