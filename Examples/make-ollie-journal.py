#!/usr/bin/env python3
"""Writes Examples/ollie.jsonl: four months of Ollie's puppy journal (seed 000), deterministic.

Ollie was born on 2025-12-20 and came home on 2026-02-14 (8 weeks old); the journal runs
to 2026-06-12 in Europe/Berlin. Potty breaks (with accidents that thin out), meals, walks,
commands learned, dogs, vehicles, surfaces and other socialization, vaccinations, vet visits,
a healthy-weight check and a first overnight stay. A few entries are logged a day or more
late (with "day"), so some unlocks are retroactive.
"""
import datetime as dt
import json
import random
import zoneinfo

rng = random.Random(20260214)
zone = zoneinfo.ZoneInfo("Europe/Berlin")
events = []


def at(day, hour, minute=0):
    return dt.datetime(day.year, day.month, day.day, hour, minute, tzinfo=zone).isoformat()


def add(day, hour, minute, payload, logged=None):
    stamp = at(logged or day, hour, minute) if logged is None else at(logged, 21, len(events) % 60)
    event = {"id": f"ollie-{len(events) + 1:04d}", "type": payload.pop("type"), "at": stamp, "tz": "Europe/Berlin"}
    if logged is not None:
        payload["day"] = day.isoformat()
    event.update(payload)
    events.append(event)


start = dt.date(2026, 2, 14)
end = dt.date(2026, 6, 12)
add(start, 9, 0, {"type": "subject", "subject": "ollie", "name": "Ollie", "kind": "puppy",
                  "dates": {"born": "2025-12-20", "gotcha": "2026-02-14"}})
commands = ["sit", "down", "come", "stay", "leave-it", "paw", "wait", "heel", "spin", "place", "roll-over"]
command_days = {start + dt.timedelta(days=d): c for d, c in zip([6, 11, 17, 24, 30, 38, 45, 53, 61, 70, 84], commands)}
dogs = ["Biscuit", "Luna", "Max", "Pepper", "Rocky", "Nala", "Bruno", "Daisy", "Milo", "Juno", "Otto", "Kira"]
vehicles = ["car", "bus", "train", "bicycle", "truck"]
surfaces = ["grass", "gravel", "sand", "tile", "wood", "metal"]
others = ["children", "umbrella", "vacuum", "doorbell", "market", "cat", "elevator", "stairs", "vet-office",
          "hat", "bearded-man", "skateboard", "fireworks-video", "horse", "ducks"]
social = [("dogs", d) for d in dogs] + [("vehicles", v) for v in vehicles] + [("surfaces", s) for s in surfaces] + \
    [("people-and-things", o) for o in others]
rng.shuffle(social)
vaccinations = {dt.date(2026, 2, 20): "dhpp-1", dt.date(2026, 3, 13): "dhpp-2", dt.date(2026, 4, 3): "dhpp-3",
                dt.date(2026, 4, 24): "rabies"}
day = start
index = 0
while day <= end:
    age_weeks = (day - dt.date(2025, 12, 20)).days / 7
    accident_rate = max(0.0, 0.5 - 0.035 * (day - start).days) if day < dt.date(2026, 4, 20) else 0.0
    if dt.date(2026, 5, 2) <= day <= dt.date(2026, 5, 3):
        accident_rate = 1.0  # a tummy upset: the streak breaks, then recovers
    for hour in (7, 11, 15, 19, 22):
        item = "indoor" if rng.random() < accident_rate / 3 else "outdoor"
        add(day, hour, rng.randrange(0, 30), {"type": "log", "kind": "potty", "item": item, "subject": "ollie"})
    for hour in (8, 13, 18):
        add(day, hour, 30, {"type": "log", "kind": "meal", "subject": "ollie"})
    if day >= start + dt.timedelta(days=10) and rng.random() < 0.93:
        add(day, 17, 10, {"type": "log", "kind": "walk", "subject": "ollie"})
    if day in command_days:
        add(day, 16, 0, {"type": "log", "kind": "command", "item": command_days[day], "subject": "ollie"})
    if day in vaccinations:
        add(day, 10, 0, {"type": "log", "kind": "vaccination", "item": vaccinations[day], "subject": "ollie"})
    if day == dt.date(2026, 2, 16):
        add(day, 10, 0, {"type": "log", "kind": "vet", "item": "checkup", "subject": "ollie"})
    if day == dt.date(2026, 5, 1):
        add(day, 10, 0, {"type": "log", "kind": "weight", "item": "healthy", "value": 11.2, "subject": "ollie",
                         "note": "11.2 kg, right on the curve"})
    if day == dt.date(2026, 5, 20):
        add(day, 20, 0, {"type": "log", "kind": "overnight", "item": "grandma", "subject": "ollie"})
    if index < len(social) and day.weekday() in (1, 3, 5, 6) and age_weeks < 17:
        group, item = social[index]
        index += 1
        late = rng.random() < 0.15
        add(day, 12, 0, {"type": "log", "kind": "social", "group": group, "item": item, "subject": "ollie"},
            logged=day + dt.timedelta(days=1) if late else None)
    day += dt.timedelta(days=1)

events.sort(key=lambda e: (e["at"], e["id"]))
with open("Examples/ollie.jsonl", "w") as out:
    out.write("# Ollie's puppy journal (seed 000), written by Examples/make-ollie-journal.py.\n")
    out.write("# momentum evaluate Examples/ollie.jsonl --pack ollie --now 2026-06-12T23:30:00+02:00\n")
    for event in events:
        out.write(json.dumps(event, ensure_ascii=False) + "\n")
print(len(events), "events")
