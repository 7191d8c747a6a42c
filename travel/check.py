"""Ground truth of a trip, the second way: enumerate every itinerary over the same tables, no solver.

For each order of `visit` cities drawn from `cities` and each choice of travel days, a leg costs its cheapest
flight that day, a stay its cheapest allowed hotel for those nights, the meals the cheapest restaurant of each
cuisine among the visited cities, the sights the cheapest `min_attractions` tickets there. The reference
program (reference/solver.py) solves the same request as a MILP; both must agree.

    python travel/check.py travel/3     # prints the optimal total cost, or "infeasible"
"""

from __future__ import annotations

import itertools
import json
import sys
from pathlib import Path

import duckdb


def table(folder: Path, name: str, query: str, params: list) -> list[tuple]:
    path = next((folder / "data").glob(f"{name}.*"))
    return duckdb.sql(query.replace("{t}", f"'{path}'"), params=params).fetchall()


def load(folder: Path, req: dict) -> tuple[dict, dict, dict, dict]:
    here = [req["origin"], *req["cities"]]
    fares = {(o, d, day): p for o, d, day, p in table(folder, "flights", "SELECT origin, dest, day, min(price) "
             "FROM {t} WHERE list_contains(?, origin) AND list_contains(?, dest) GROUP BY ALL", [here, here])}
    hotels: dict[str, list] = {}
    for city, price, least, rules, kind, guests in table(
            folder, "hotels", "SELECT city, price, min_nights, rules, room_type, max_guests FROM {t}", []):
        if (city in req["cities"] and kind in req["room_types"] and guests >= req["people"]
                and rules not in req["refuse_rules"]):
            hotels.setdefault(city, []).append((price, least))
    meals: dict[tuple, int] = {}
    for city, cuisine, cost in table(folder, "restaurants", "SELECT city, cuisine, cost FROM {t}", []):
        meals[city, cuisine] = min(cost, meals.get((city, cuisine), cost))
    sights: dict[str, list] = {}
    for city, ticket in table(folder, "attractions", "SELECT city, ticket FROM {t}", []):
        sights.setdefault(city, []).append(ticket)
    return fares, hotels, meals, sights


def best_trip(folder: Path) -> float | None:
    req = json.loads((folder / "data.json").read_text())
    fares, hotels, meals, sights = load(folder, req)
    k, start, end, people = req["visit"], req["start_day"], req["end_day"], req["people"]
    best = None
    for route in itertools.permutations(req["cities"], k):
        extras = _extras(route, req, meals, sights)
        if extras is None:
            continue
        for middle in itertools.combinations(range(start + 1, end), k - 1):
            days = [start, *middle, end]
            stops = [req["origin"], *route, req["origin"]]
            legs = [fares.get((stops[i], stops[i + 1], days[i])) for i in range(k + 1)]
            stays = [_stay(hotels.get(c, []), days[i + 1] - days[i], req) for i, c in enumerate(route)]
            if None in legs or None in stays:
                continue
            total = people * sum(legs) + sum(stays) + extras
            if total <= req["budget"] + 1e-9 and (best is None or total < best):
                best = total
    return best


def _stay(hotels: list, nights: int, req: dict) -> float | None:
    if nights < req["min_nights"]:
        return None
    prices = [price * nights for price, least in hotels if least <= nights]
    return min(prices) if prices else None


def _extras(route: tuple, req: dict, meals: dict, sights: dict) -> float | None:
    """Meals and sights of the visited cities: the cheapest that meet the request, or None."""
    total = 0.0
    for cuisine in req["cuisines"]:
        costs = [meals[c, cuisine] for c in route if (c, cuisine) in meals]
        if not costs:
            return None
        total += req["people"] * min(costs)
    tickets = sorted(t for c in route for t in sights.get(c, []))
    if len(tickets) < req["min_attractions"]:
        return None
    return total + req["people"] * sum(tickets[:req["min_attractions"]])


if __name__ == "__main__":
    result = best_trip(Path(sys.argv[1]))
    print("infeasible" if result is None else f"{result:g}")
