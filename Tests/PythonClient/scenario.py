"""An app's first minutes, through the Python client openapi-python-client generated from the served document.

    python scenario.py --base http://127.0.0.1:8080 --package-dir DIRECTORY --document openapi.json

Run by Tests/PythonClient/run inside its virtual environment, against a fresh `momentum serve`:
DIRECTORY holds the generated package `momentum_api`. Every request goes through the generated
functions and models (no hand-written HTTP): register, a refused read without a token, today's
(empty) dashboard, a check-in (habit.created and a completion pushed as events), the same push
again (a retry: every event a duplicate), today's dashboard with the streak, a pull in pages
with the cursor, an event of a type this server does not know (as a newer device records it),
the profile, the CSV export (a zip: a binary answer), and the same answers
grown by a newer server (a field added to every object) read by the generated models. Each step prints
`ok` or `FAIL` with the reason; the last line is `steps: N passed, M failed` (a step after a
failed one is not run and counts as failed).
"""

import argparse
import datetime
import importlib
import json
import pkgutil
import sys
import traceback
import uuid

EMAIL = "python-client@example.com"
DISPLAY_NAME = "Python Client"
TIME_ZONE = "Europe/Berlin"
# The field a "newer server" adds to every object of an answer.
ADDED = "addedByANewerServer"


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--base", required=True)
    parser.add_argument("--package-dir", required=True)
    parser.add_argument("--document", required=True, help="the served openapi.json the package was generated from")
    args = parser.parse_args()
    sys.path.insert(0, args.package_dir)
    scenario = Scenario(args.base, args.document)
    steps = [
        ("every operation id generated a function", scenario.operations),
        ("register", scenario.register),
        ("a read without a token is a typed 401", scenario.unauthenticated),
        ("today before the check-in", scenario.today_before),
        ("check in: push habit.created and a completion", scenario.check_in),
        ("the same push again: every event a duplicate", scenario.retry),
        ("today after the check-in: the streak", scenario.today_after),
        ("sync: pull in pages with the cursor", scenario.pull),
        ("an event from a newer device: kept, pulled back whole, today still reads", scenario.future_event),
        ("the profile", scenario.profile),
        ("the CSV export as bytes (a media type generator.yaml maps)", scenario.csv),
        ("answers with fields this client does not know still read", scenario.grown_answers),
    ]
    passed = failed = 0
    for name, step in steps:
        if failed:
            print(f"  not run  {name}")
            failed += 1
            continue
        try:
            detail = step()
            print(f"  ok    {name}" + (f": {detail}" if detail else ""))
            passed += 1
        except Exception as error:  # noqa: BLE001 (a step's failure is reported, whatever it is)
            print(f"  FAIL  {name}: {type(error).__name__}: {error}")
            traceback.print_exc(limit=4, file=sys.stdout)
            failed += 1
    print(f"steps: {passed} passed, {failed} failed")
    sys.exit(0 if failed == 0 else 1)


def check(condition, message):
    if not condition:
        raise AssertionError(message)


class Scenario:
    def __init__(self, base, document):
        import momentum_api

        self.base = base
        self.api = momentum_api
        with open(document) as file:
            self.document = json.load(file)
        self.functions = {}
        self.client = None
        self.session = None
        self.today = None
        self.habit = f"walk-{uuid.uuid4().hex[:8]}"
        self.events = []

    def endpoint(self, operation_id):
        """The generated module of an operation: `momentum_api.api.<its first tag>.<its operation id>`."""
        return self.functions[operation_id]

    # Steps

    def operations(self):
        # The generator's own name for an operation's module (the pinned version's).
        from openapi_python_client.strings import snake_case

        modules = {}
        for package in pkgutil.iter_modules(importlib.import_module("momentum_api.api").__path__):
            tag = importlib.import_module(f"momentum_api.api.{package.name}")
            for module in pkgutil.iter_modules(tag.__path__):
                modules[module.name] = f"momentum_api.api.{package.name}.{module.name}"
        operations = [operation["operationId"] for path in self.document["paths"].values()
                      for operation in path.values() if isinstance(operation, dict) and "operationId" in operation]
        missing = [operation for operation in operations if snake_case(operation) not in modules]
        check(not missing, f"no generated function for {missing}")
        self.functions = {operation: importlib.import_module(modules[snake_case(operation)])
                          for operation in operations}
        tags = sorted({name.split(".")[2] for name in modules.values()})
        return f"{len(operations)} operations in {', '.join(tags)}"

    def register(self):
        from momentum_api.models import RegisterRequest, Session

        anonymous = self.api.Client(base_url=self.base, raise_on_unexpected_status=True)
        body = RegisterRequest(email=EMAIL, password="correct horse battery", display_name=DISPLAY_NAME,
                               time_zone=TIME_ZONE, device_name="python client", day_start_hour=0)
        response = self.endpoint("register").sync_detailed(client=anonymous, body=body)
        check(response.status_code == 201, f"status {response.status_code}: {response.content[:300]!r}")
        session = response.parsed
        check(isinstance(session, Session), f"parsed {type(session).__name__}")
        check(session.email == EMAIL and session.token, "the session's email or token")
        check(session.profile.display_name == DISPLAY_NAME, f"display name {session.profile.display_name!r}")
        self.session = session
        self.client = self.api.AuthenticatedClient(base_url=self.base, token=session.token,
                                                   raise_on_unexpected_status=True)
        return f"user {session.user_id}, device {session.device.id}"

    def unauthenticated(self):
        from momentum_api.models import APIError

        anonymous = self.api.Client(base_url=self.base, raise_on_unexpected_status=True)
        response = self.endpoint("getToday").sync_detailed(client=anonymous)
        check(response.status_code == 401, f"status {response.status_code}")
        check(isinstance(response.parsed, APIError), f"parsed {type(response.parsed).__name__}")
        return f"code {response.parsed.error.code!r}"

    def today_before(self):
        from momentum_api.models import Today

        today = self.endpoint("getToday").sync(client=self.client)
        check(isinstance(today, Today), f"parsed {type(today).__name__}")
        check(today.time_zone == TIME_ZONE, f"time zone {today.time_zone!r}")
        check(today.habits == [], f"habits {today.habits!r}")
        self.today = today
        return f"day {today.today}, now {today.now}"

    def push(self):
        from momentum_api.models import PushRequest, PushResponse

        answer = self.endpoint("pushEvents").sync(client=self.client, body=PushRequest(events=self.events))
        check(isinstance(answer, PushResponse), f"parsed {type(answer).__name__}: {answer!r}")
        check([result.id for result in answer.results] == [event.id for event in self.events],
              f"results for {[result.id for result in answer.results]}")
        return answer

    def check_in(self):
        from momentum_api import models

        now, day = self.today.now, self.today.today
        schedule = models.EventSchedule.from_dict({"kind": "daily"})
        self.events = [
            models.Event(id=str(uuid.uuid4()), type_="habit.created", at=now, tz=TIME_ZONE, habit=self.habit,
                         name="Walk", schedule=schedule, start=day),
            models.Event(id=str(uuid.uuid4()), type_="completion", at=now, tz=TIME_ZONE, habit=self.habit,
                         day=day, note="around the block"),
        ]
        answer = self.push()
        statuses = [str(result.status) for result in answer.results]
        check(statuses == ["applied", "applied"], f"statuses {statuses}: {[r.to_dict() for r in answer.results]}")
        check(answer.head_seq >= 2, f"head {answer.head_seq}")
        return f"head {answer.head_seq}, wallet {answer.wallet.diamonds} diamonds"

    def retry(self):
        answer = self.push()
        statuses = [str(result.status) for result in answer.results]
        check(statuses == ["duplicate", "duplicate"], f"statuses {statuses}")
        return None

    def today_after(self):
        today = self.endpoint("getToday").sync(client=self.client)
        habits = [habit for habit in today.habits if habit.definition.habit == self.habit]
        check(len(habits) == 1, f"habits {[habit.definition.habit for habit in today.habits]}")
        habit = habits[0]
        check(habit.current == 1, f"current streak {habit.current}")
        check(habit.best == 1, f"best streak {habit.best}")
        check(habit.today.logged == 1, f"logged today {habit.today.logged}")
        return f"{habit.definition.name}: streak {habit.current}, today {habit.today.state}"

    def pull(self):
        from momentum_api.models import PullResponse

        pulled, cursor, pages = [], 0, 0
        while True:
            page = self.endpoint("pullEvents").sync(client=self.client, after=cursor, limit=1)
            check(isinstance(page, PullResponse), f"parsed {type(page).__name__}")
            pages += 1
            check(len(page.events) <= 1, f"{len(page.events)} events in a page of 1")
            check(page.cursor >= cursor, f"the cursor went back from {cursor} to {page.cursor}")
            for stored in page.events:
                check(isinstance(stored.received_at, datetime.datetime), f"receivedAt {stored.received_at!r}")
            pulled += page.events
            cursor = page.cursor
            if not page.more:
                break
            check(pages < 10, "more than 10 pages")
        check([stored.event.id for stored in pulled] == [event.id for event in self.events],
              f"pulled {[(stored.seq, str(stored.event.type_)) for stored in pulled]}")
        check(pulled[1].event.note == "around the block", f"note {pulled[1].event.note!r}")
        again = self.endpoint("pullEvents").sync(client=self.client, after=cursor)
        check(again.events == [] and not again.more and again.cursor == cursor,
              f"after the last cursor: {again.to_dict()}")
        self.cursor = cursor
        return f"{len(pulled)} events in {pages} pages, cursor {cursor}"

    def future_event(self):
        from momentum_api import models

        event = models.Event(id=str(uuid.uuid4()), type_="mood.logged", at=self.today.now, tz=TIME_ZONE)
        event["mood"] = "happy"
        answer = self.endpoint("pushEvents").sync(client=self.client, body=models.PushRequest(events=[event]))
        check(isinstance(answer, models.PushResponse), f"parsed {type(answer).__name__}: {answer!r}")
        result = answer.results[0]
        check(str(result.status) == "applied", f"status {result.status}: {result.to_dict()}")
        warnings = [warning.code for warning in result.warnings] if result.warnings else []
        check(warnings == ["unknown_type"], f"warnings {warnings}")
        page = self.endpoint("pullEvents").sync(client=self.client, after=self.cursor)
        check([stored.event.id for stored in page.events] == [event.id], f"pulled {page.to_dict()}")
        pulled = page.events[0].event
        check(pulled.type_ == "mood.logged" and pulled.additional_properties == {"mood": "happy"},
              f"pulled {pulled.to_dict()}")
        today = self.endpoint("getToday").sync(client=self.client)
        check(isinstance(today, models.Today), f"today parsed {type(today).__name__}")
        streaks = [habit.current for habit in today.habits if habit.definition.habit == self.habit]
        check(streaks == [1], f"streaks {streaks}")
        return f"{pulled.type_} at seq {page.events[0].seq}, warned {warnings[0]}"

    def profile(self):
        from momentum_api.models import Profile

        profile = self.endpoint("getProfile").sync(client=self.client)
        check(isinstance(profile, Profile), f"parsed {type(profile).__name__}")
        check(profile.display_name == DISPLAY_NAME, f"display name {profile.display_name!r}")
        check(profile.time_zone == TIME_ZONE, f"time zone {profile.time_zone!r}")
        check(profile.day_start_hour == 0, f"day start {profile.day_start_hour}")
        return f"{profile.display_name}, {profile.time_zone}, pack {profile.pack}"

    def csv(self):
        from momentum_api.types import File

        export = self.endpoint("downloadCSV").sync(client=self.client)
        check(isinstance(export, File), f"parsed {type(export).__name__}")
        payload = export.payload.read()
        check(payload.startswith(b"PK"), f"not a zip: {payload[:16]!r}")
        return f"{len(payload)} bytes"

    def grown_answers(self):
        from momentum_api.models import PushRequest

        calls = [("getToday", {}), ("pullEvents", {"after": 0}), ("getProfile", {}),
                 ("pushEvents", {"body": PushRequest(events=self.events)})]
        for operation, arguments in calls:
            response = self.endpoint(operation).sync_detailed(client=self.client, **arguments)
            check(response.status_code == 200, f"{operation}: status {response.status_code}")
            schema_name = self.answer_schema(operation)
            model = getattr(importlib.import_module("momentum_api.models"), schema_name)
            answer = json.loads(response.content)
            grown = self.grow(answer, {"$ref": f"#/components/schemas/{schema_name}"})
            check(grown != answer, f"{operation}: nothing grown")
            read = model.from_dict(grown).to_dict()
            check(without_added(read) == model.from_dict(answer).to_dict(),
                  f"{operation}: read {without_added(read)}")
        return ", ".join(operation for operation, _ in calls)

    def answer_schema(self, operation_id):
        for path in self.document["paths"].values():
            for operation in path.values():
                if isinstance(operation, dict) and operation.get("operationId") == operation_id:
                    reference = operation["responses"]["200"]["content"]["application/json"]["schema"]["$ref"]
                    return reference.rsplit("/", 1)[1]
        raise KeyError(operation_id)

    def grow(self, value, schema):
        """`value` with ADDED in every object its schema gives properties (not in maps: their keys are data)."""
        while "$ref" in schema:
            schema = self.document["components"]["schemas"][schema["$ref"].rsplit("/", 1)[1]]
        if isinstance(value, dict) and "properties" in schema:
            grown = {key: self.grow(item, schema["properties"].get(key, {})) for key, item in value.items()}
            grown[ADDED] = {"kind": "something new", "values": [1, 2]}
            return grown
        if isinstance(value, list) and "items" in schema:
            return [self.grow(item, schema["items"]) for item in value]
        return value


def without_added(value):
    if isinstance(value, dict):
        return {key: without_added(item) for key, item in value.items() if key != ADDED}
    if isinstance(value, list):
        return [without_added(item) for item in value]
    return value


if __name__ == "__main__":
    main()
