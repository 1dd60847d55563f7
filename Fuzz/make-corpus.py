#!/usr/bin/env python3
"""Writes the fuzzer's seed corpus (Fuzz/corpus/) from the example logs and hand-written
events with extreme values. Run from anywhere: python3 Fuzz/make-corpus.py

Each seed is one fuzz input: a first byte choosing the pack (h, o, s, g; H, O, S, G for a
4:00 day start; see FuzzReadPipeline.Setup), then a JSONL event log.
"""
import json
import os
import shutil

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
OUT = os.path.join(ROOT, "Fuzz", "corpus")


def compact(line):
    return json.dumps(json.loads(line), separators=(",", ":"), ensure_ascii=False)


def events(path):
    with open(path, encoding="utf-8") as f:
        return [compact(l) for l in f if l.strip() and not l.lstrip().startswith("#")]


seeds = {}


def seed(name, pack, lines):
    seeds[name] = pack + "\n".join(lines) + "\n"


def ev(i, type_, at, tz="UTC", **fields):
    return json.dumps({"id": f"e{i}", "type": type_, "at": at, "tz": tz, **fields}, separators=(",", ":"))


# The example logs, in windows: each keeps the events that create what the window uses.
habits = events(os.path.join(ROOT, "Examples", "habits.jsonl"))
created = [l for l in habits if '"habit.created"' in l]
rest = [l for l in habits if '"habit.created"' not in l]
for n, start in enumerate(range(0, len(rest), len(rest) // 8)):
    seed(f"habits-{n}", "h" if n % 2 == 0 else "H", created + rest[start : start + 45])

ollie = events(os.path.join(ROOT, "Examples", "ollie.jsonl"))
subjects = [l for l in ollie if '"subject"' in l and '"type":"subject"' in l]
logs = [l for l in ollie if l not in subjects]
for n, start in enumerate(range(0, len(logs), len(logs) // 8)):
    seed(f"ollie-{n}", "o", subjects + logs[start : start + 40])

# Thirty-odd days running (reaches the 30-day milestone, rewards, earned freezes).
run = [ev(0, "habit.created", "2026-04-01T07:00:00Z", habit="a", name="A", policy="strict", difficulty="hard")]
run += [ev(i, "completion", f"2026-{4 + (i - 1) // 30:02d}-{(i - 1) % 30 + 1:02d}T08:00:00Z", habit="a") for i in range(1, 41)]
seed("streak-40-days", "h", run)

# Issue 23 defect 1: an atLeast target with completions of 1e19 on a strict habit with two
# breaks in 60 days.
d1 = [ev(0, "habit.created", "2026-04-01T07:00:00Z", habit="w", name="W", policy="strict",
         target={"atLeast": 4e19, "unit": "glasses"})]
days = [d for d in range(1, 61) if d not in (20, 40)]
for i, d in enumerate(days, 1):
    month, day = (4, d) if d <= 30 else (5, d - 30)
    d1.append(ev(i, "completion", f"2026-{month:02d}-{day:02d}T08:00:00Z", habit="w", value=4e19))
seed("defect-1-coaching", "h", d1)

# Savings and growth.
seed("savings", "s", [
    ev(1, "subject", "2026-05-01T09:00:00Z", subject="me", name="Me", kind="saver"),
    ev(2, "goal", "2026-05-01T09:00:00Z", goal="bali", name="Bali", category="vacation", target=3000),
    ev(3, "contribution", "2026-05-02T09:00:00Z", goal="bali", amount=1200, note="bonus"),
    ev(4, "contribution", "2026-05-20T09:00:00Z", goal="bali", amount=4000),
    ev(5, "goal", "2026-05-21T09:00:00Z", goal="house", name="House", category="house", target=100000),
    ev(6, "contribution", "2026-06-01T09:00:00Z", goal="house", amount=99000, day="2026-05-31"),
])
seed("growth", "g", [
    ev(1, "subject", "2026-05-01T09:00:00Z", "Europe/Berlin", subject="u", name="Sam", kind="user"),
    ev(2, "stage", "2026-05-01T09:00:00Z", "Europe/Berlin", method="meditation", to="beginner"),
    ev(3, "stage", "2026-05-20T09:00:00Z", "Europe/Berlin", method="meditation", **{"from": "beginner"}, to="steady"),
    ev(4, "stage", "2026-06-10T09:00:00Z", "Europe/Berlin", method="meditation", **{"from": "steady"}, to="master", note="!"),
    ev(5, "stage", "2026-06-11T09:00:00Z", "Europe/Berlin", method="journaling", to="reflective"),
    ev(6, "stage", "2026-06-12T09:00:00Z", "Europe/Berlin", method="journaling", **{"from": "first-pages"}, to="nope"),
])

# Every event type with extreme numbers and dates.
HUGE = [1e19, -1, 0, 1e308, -1e308, 9223372036854775807, 18446744073709551616, 4.9e-324, 0.5]
DATES = ["0001-01-01", "9999-12-31", "1970-01-01", "2026-06-15"]
INSTANTS = ["0001-01-01T00:00:00Z", "9999-12-31T23:59:59.999999999+14:00", "2026-06-15T11:59:59.9999999-12:00",
            "1969-12-31T23:59:59Z"]
for n, big in enumerate(HUGE):
    date = DATES[n % len(DATES)]
    at = "2026-06-14T10:00:00Z"
    lines = [
        ev(1, "habit.created", INSTANTS[n % len(INSTANTS)] if n % 3 == 0 else at, "Pacific/Apia", habit="x", name="X",
           schedule=[{"kind": "timesPerWeek", "count": big}, {"kind": "everyNDays", "interval": big},
                     {"kind": "monthly", "day": big}, {"kind": "yearly", "month": 2, "day": 29},
                     {"kind": "timesPerMonth", "count": big}, {"kind": "weekdays", "days": ["sunday"]},
                     {"kind": "daily"}][n % 7],
           target=[{"atLeast": big, "unit": "u"}, {"atMost": big, "unit": "u"}][n % 2],
           policy=["strict", "forgiving"][n % 2], difficulty=["easy", "medium", "hard"][n % 3],
           weekStart="sunday", start=date),
        ev(2, "habit.updated", at, habit="x", target={"atLeast": big}, policy="strict", difficulty="hard"),
        ev(3, "completion", at, habit="x", value=big, day=date),
        ev(4, "completion", "2026-06-13T10:00:00Z", habit="x", value=big),
        ev(5, "skip", at, habit="x", day=date),
        ev(6, "purchase", at, days=big),
        ev(7, "purchase", at, item="freeze-50"),
        ev(8, "freeze.accepted", at, habit="x", day=date),
        ev(9, "freeze.declined", at, habit="x", day=date),
        ev(10, "subject", at, subject="p", name="P", kind="puppy", dates={"born": date, "gotcha": DATES[0]}),
        ev(11, "log", at, kind="potty", item="outdoor", value=big, subject="p", day=date),
        ev(12, "log", at, kind="weight", value=big, subject="p"),
        ev(13, "goal", at, goal="g", name="G", category="vacation", target=big),
        ev(14, "contribution", at, goal="g", amount=big, day=date),
        ev(15, "stage", at, method="meditation", to="steady"),
        ev(16, "removal", at, event="e3"),
        ev(17, "habit.archived", at, habit="x"),
        ev(18, "milestone", at, milestone="m", title="M {value}", rule=["moment", "first", "count", "streak"][n % 4],
           **({"kind": "log", "item": "outdoor", "target": big} if n % 4 > 1 else {}),
           **({"breaks": "potty", "breaksItem": "indoor"} if n % 4 == 3 else {}), tier=[1, 2, 3, big][n % 4]),
        ev(19, "milestone", at, milestone="h", title="H", rule="count", habit="x", target=big),
        ev(20, "removal", at, event="e18"),
        ev(21, "milestone.deleted", at, milestone="h"),
    ]
    seed(f"extreme-{n}", "hosg"[n % 4], lines)

if os.path.isdir(OUT):
    shutil.rmtree(OUT)
os.makedirs(OUT)
for name, text in sorted(seeds.items()):
    with open(os.path.join(OUT, name), "w", encoding="utf-8") as f:
        f.write(text)
total = sum(len(t.encode()) for t in seeds.values())
print(f"{len(seeds)} seeds, {total} bytes in {os.path.relpath(OUT)}")
