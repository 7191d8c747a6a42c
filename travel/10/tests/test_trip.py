"""Checks of a trip against the request (data.json) and the tables in data/, read with DuckDB."""

import glob

import duckdb
import pytest


def rows(name, ids, columns):
    if not ids:
        return {}
    path = glob.glob(f"data/{name}.*")[0]
    found = duckdb.sql(f"SELECT * EXCLUDE (name) FROM '{path}' WHERE list_contains(?, {columns[0]})" if name != "flights"
                       else f"SELECT * FROM '{path}' WHERE list_contains(?, {columns[0]})", params=[ids])
    return {r[0]: dict(zip(found.columns, r)) for r in found.fetchall()}


@pytest.fixture(scope="module")
def chosen(output):
    return {"flights": rows("flights", output["flights"], ["flight_id"]),
            "hotels": rows("hotels", output["hotels"], ["hotel_id"]),
            "restaurants": rows("restaurants", output["restaurants"], ["restaurant_id"]),
            "attractions": rows("attractions", output["attractions"], ["attraction_id"])}


def test_route_and_flights(data, output, chosen):
    route = output["route"]
    assert len(route) == len(set(route)) == data["visit"], f"route {route} must hold {data['visit']} cities"
    assert set(route) <= set(data["cities"]), f"route {route} leaves the cities {data['cities']}"
    stops = [data["origin"], *route, data["origin"]]
    flights = [chosen["flights"].get(f) for f in output["flights"]]
    assert None not in flights and len(flights) == len(stops) - 1, f"flights {output['flights']} not in the table"
    for i, f in enumerate(flights):
        assert (f["origin"], f["dest"]) == (stops[i], stops[i + 1]), f"flight {f['flight_id']} is not {stops[i]}→{stops[i + 1]}"
    days = [f["day"] for f in flights]
    assert days[0] == data["start_day"] and days[-1] == data["end_day"], f"days {days}"
    nights = [b - a for a, b in zip(days, days[1:])]
    assert min(nights) >= data["min_nights"], f"stays of {nights} nights, at least {data['min_nights']} each"


def test_hotels(data, output, chosen):
    days = sorted(f["day"] for f in chosen["flights"].values())
    nights = dict(zip(output["route"], [b - a for a, b in zip(days, days[1:])]))
    hotels = list(chosen["hotels"].values())
    assert sorted(h["city"] for h in hotels) == sorted(output["route"]), "one hotel per visited city"
    for h in hotels:
        assert h["room_type"] in data["room_types"] and h["max_guests"] >= data["people"], f"hotel {h}"
        assert h["rules"] not in data["refuse_rules"] and h["min_nights"] <= nights[h["city"]], f"hotel {h}"


def test_meals_sights_and_cost(data, output, chosen):
    route = set(output["route"])
    meals = list(chosen["restaurants"].values())
    assert {m["cuisine"] for m in meals} >= set(data["cuisines"]) and all(m["city"] in route for m in meals)
    sights = list(chosen["attractions"].values())
    assert len(sights) >= data["min_attractions"] and all(s["city"] in route for s in sights)
    days = sorted(f["day"] for f in chosen["flights"].values())
    nights = dict(zip(output["route"], [b - a for a, b in zip(days, days[1:])]))
    cost = (data["people"] * sum(f["price"] for f in chosen["flights"].values())
            + sum(h["price"] * nights[h["city"]] for h in chosen["hotels"].values())
            + data["people"] * (sum(m["cost"] for m in meals) + sum(s["ticket"] for s in sights)))
    assert abs(cost - output["total_cost"]) < 1e-6 and cost <= data["budget"] + 1e-6, f"cost {cost}"
